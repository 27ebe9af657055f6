# lit configuration for dlc: FileCheck tests of the dialect, passes and tools,
# plus the GoogleTest unit tests (test/Unit).
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "DLC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "consumer", "lit.cfg.py", "CMakeLists.txt", "README.md"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.dlc_obj_root, "test")

llvm_config.use_default_substitutions()
config.substitutions.append(("%dlc_src_root", config.dlc_src_root))
config.substitutions.append(("%dlc_obj_root", config.dlc_obj_root))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%python", "python3"))
# Debian's interpreter, with python3-onnx, -numpy, -torch and -torchvision.
config.substitutions.append(("%sys_python", "/usr/bin/python3"))
config.substitutions.append(
    ("%onnx_node_tests", "/usr/share/libonnx-testdata/data/node"))

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# The compile cache of every test run is the build tree's, never the user's.
config.environment["DLC_CACHE_DIR"] = os.path.join(config.test_exec_root, "compile-cache")
tool_dirs = [config.dlc_tools_dir, config.llvm_tools_dir]
tools = ["dlc-opt", "dlc-run", "dlc-import", "dlc-zoo", "dlc-onnx-conformance", "dlc-tune",
         "dlc-cuda-run", "FileCheck",
         "not", "count", "split-file"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# AVX512-BF16 dot products: the CPU compiler makes bf16 products of them
# where the host has the instructions; tests that run such code say
# REQUIRES: avx512bf16.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        flags = next((line.split() for line in cpuinfo if line.startswith("flags")), [])
except OSError:
    flags = []
if "avx512f" in flags and "avx512_bf16" in flags:
    config.available_features.add("avx512bf16")

# The CUDA toolkit (ptxas, libdevice) for the GPU compile tests; GPU tests
# that need one say REQUIRES: cuda-toolkit.
cuda_root = next((p for p in [os.environ.get("CUDA_ROOT"), os.environ.get("CUDA_HOME"),
                              os.environ.get("CUDA_PATH"), "/usr/local/cuda"]
                  if p and os.path.exists(os.path.join(p, "bin", "ptxas"))), None)
if cuda_root:
    config.available_features.add("cuda-toolkit")
    config.substitutions.append(("%ptxas", os.path.join(cuda_root, "bin", "ptxas")))
    config.substitutions.append(("%cuda_stubs", os.path.join(cuda_root, "lib64", "stubs")))
    config.substitutions.append(("%cuda_root", cuda_root))
# A libcuda.so.1 without a GPU (GPU/FakeDriver).
config.substitutions.append(("%fake_cuda", os.path.join(config.test_exec_root, "fake-cuda")))
