//===- CUBLASRuntime.cpp - matrix products of cublas partitions ------------===//
//
// The calls dlc-gpu-external-products leaves in host code for the products
// of partitions for the `cublas` target: `dlc_cublas_gemm_<in>_<out>(A, B,
// C, flags)`, C = A B (+ C with kAccumulate) over rank-3 views [batch, rows,
// cols], through their C interface. libcublas is loaded on the first call
// (dlopen, as libcuda is: nothing links it; from the loader's path or the
// CUDA toolkit's, or the file DLC_CUBLAS_LIBRARY names), with one handle on the runtime's stream and a workspace of
// its own, so that the calls can be captured in the model's CUDA graph.
// Free of LLVM.
//
//===----------------------------------------------------------------------===//
#include "CUDARuntime.h"
#include "dlc/Runtime/GemmPlan.h"

#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>
#include <string>
#include <type_traits>
#include <vector>

extern "C" void *mgpuMemAlloc(uint64_t bytes, void *stream, bool isHostShared);

using namespace dlc::cuda;

namespace {
// cublas_api.h and library_types.h (CUDA 13).
using Status = int;
using Handle = void *;
constexpr int kOpN = 0, kOpT = 1;
constexpr int kCompute32F = 68, kCompute32FFastTF32 = 77; // cublasComputeType_t
constexpr int kGemmDefault = -1;                          // CUBLAS_GEMM_DEFAULT
constexpr int kR32F = 0, kR16F = 2, kR16BF = 14;          // cudaDataType
constexpr size_t kWorkspaceBytes = 32u << 20;

struct CUBLAS {
  Status (*create)(Handle *);
  Status (*setStream)(Handle, CUstream);
  Status (*setWorkspace)(Handle, void *, size_t);
  Status (*gemmStridedBatchedEx)(Handle, int, int, int, int, int, const void *, const void *, int,
                                 int, long long, const void *, int, int, long long, const void *,
                                 void *, int, int, long long, int, int, int);
  const char *(*statusString)(Status);
  Handle handle = nullptr;
};

/// A rank-3 memref descriptor (MLIR's C interface).
struct Descriptor3D {
  void *allocated, *aligned;
  int64_t offset, sizes[3], strides[3];
};

void check(const CUBLAS &b, Status s, const char *what) {
  if (s != 0)
    die(std::string(what) + " failed: " + (b.statusString ? b.statusString(s) : "") + " (" +
        std::to_string(s) + ")");
}

/// libcublas: DLC_CUBLAS_LIBRARY if set, else the loader's, else the CUDA
/// toolkit's (CUDA_HOME, CUDA_ROOT, /usr/local/cuda).
void *loadCublas(std::string &path) {
  if (const char *env = std::getenv("DLC_CUBLAS_LIBRARY"); env && *env) {
    path = env;
    if (void *lib = dlopen(env, RTLD_NOW | RTLD_LOCAL))
      return lib;
    const char *error = dlerror();
    die("cannot load cuBLAS (" + path + "), which the model's products partitioned for the " +
        "cublas target call: " + (error ? error : "unknown error"));
  }
  std::string tried;
  std::vector<std::string> candidates = {"libcublas.so.13"};
  for (const char *root : {std::getenv("CUDA_HOME"), std::getenv("CUDA_ROOT")})
    if (root && *root)
      candidates.push_back(std::string(root) + "/lib64/libcublas.so.13");
  candidates.push_back("/usr/local/cuda/lib64/libcublas.so.13");
  for (const std::string &c : candidates) {
    if (void *lib = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      path = c;
      return lib;
    }
    tried += (tried.empty() ? "" : ", ") + c;
  }
  die("cannot load cuBLAS, which the model's products partitioned for the cublas target call "
      "(tried " + tried + "; name the library in DLC_CUBLAS_LIBRARY)");
}

const CUBLAS &cublas() {
  static CUBLAS *loaded = [] {
    std::string path;
    void *lib = loadCublas(path);
    auto *b = new CUBLAS;
    auto resolve = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      if (!fn)
        die("cuBLAS (" + path + ") has no " + name);
    };
    resolve(b->statusString, "cublasGetStatusString");
    resolve(b->create, "cublasCreate_v2");
    resolve(b->setStream, "cublasSetStream_v2");
    resolve(b->setWorkspace, "cublasSetWorkspace_v2");
    resolve(b->gemmStridedBatchedEx, "cublasGemmStridedBatchedEx");
    CUstream stream = runtimeStream(); // the runtime first: its context is current
    check(*b, b->create(&b->handle), "cublasCreate");
    check(*b, b->setStream(b->handle, stream), "cublasSetStream");
    check(*b, b->setWorkspace(b->handle, mgpuMemAlloc(kWorkspaceBytes, nullptr, false),
                              kWorkspaceBytes),
          "cublasSetWorkspace");
    return b;
  }();
  return *loaded;
}

dlc::MatrixView view(const Descriptor3D &d) {
  return {d.sizes[0], d.sizes[1], d.sizes[2], d.strides[0], d.strides[1], d.strides[2]};
}

void gemm(const char *name, const Descriptor3D *a, const Descriptor3D *b, const Descriptor3D *c,
          int32_t flags, int inType, int outType, int64_t inBytes, int64_t outBytes) {
  std::string why;
  std::optional<dlc::GemmPlan> plan = dlc::planGemm(view(*a), view(*b), view(*c), why);
  if (!plan)
    die("a product for cuBLAS: " + why);
  if (plan->m == 0 || plan->n == 0 || plan->batch == 0)
    return;
  const CUBLAS &lib = cublas();
  auto at = [](const Descriptor3D *d, int64_t bytes) {
    return static_cast<const char *>(d->aligned) + d->offset * bytes;
  };
  const Descriptor3D *x = plan->swapped ? b : a, *y = plan->swapped ? a : b;
  float alpha = 1, beta = flags & dlc::kGemmAccumulate ? 1 : 0;
  int compute = inType == kR32F && (flags & dlc::kGemmTF32) ? kCompute32FFastTF32 : kCompute32F;
  profiled(name, [&] {
    check(lib,
          lib.gemmStridedBatchedEx(
              lib.handle, plan->transX ? kOpT : kOpN, plan->transY ? kOpT : kOpN, int(plan->m),
              int(plan->n), int(plan->k), &alpha, at(x, inBytes), inType, int(plan->ldx),
              plan->strideX, at(y, inBytes), inType, int(plan->ldy), plan->strideY, &beta,
              const_cast<char *>(at(c, outBytes)), outType, int(plan->ldc), plan->strideC,
              int(plan->batch), compute, kGemmDefault),
          "cublasGemmStridedBatchedEx");
  });

}
} // namespace

extern "C" {
#define DLC_CUBLAS_GEMM(IN, OUT, IN_TYPE, OUT_TYPE, IN_BYTES, OUT_BYTES)                           \
  void _mlir_ciface_dlc_cublas_gemm_##IN##_##OUT(Descriptor3D *a, Descriptor3D *b,                 \
                                                 Descriptor3D *c, int32_t flags) {                 \
    gemm("cublas_gemm_" #IN "_" #OUT, a, b, c, flags, IN_TYPE, OUT_TYPE, IN_BYTES, OUT_BYTES);     \
  }
DLC_CUBLAS_GEMM(f32, f32, kR32F, kR32F, 4, 4)
DLC_CUBLAS_GEMM(f16, f16, kR16F, kR16F, 2, 2)
DLC_CUBLAS_GEMM(f16, f32, kR16F, kR32F, 2, 4)
DLC_CUBLAS_GEMM(bf16, bf16, kR16BF, kR16BF, 2, 2)
DLC_CUBLAS_GEMM(bf16, f32, kR16BF, kR32F, 2, 4)
#undef DLC_CUBLAS_GEMM
} // extern "C"
