//===- dlc-onnx-conformance.cpp - run the ONNX backend node tests ----------===//
//
// dlc-onnx-conformance /usr/share/libonnx-testdata/data/node [--filter=conv]
//
// Each test directory holds model.onnx and test_data_set_*/{input,output}_N.pb.
// A test is imported (integer and scalar inputs, and inputs the importer
// needs as constants, such as Resize's scales, are frozen to their test
// values, since dlc compiles static shapes), run on the reference interpreter, and its
// outputs compared with ONNX's tolerances (rtol 1e-3, atol 1e-7). Tests that
// use an operator, attribute or data type dlc does not support are counted
// as unsupported and listed with the reason. Exit code 1 if any test fails.
//
// --target=cuda --emit-dir=DIR checks each test on the reference as above,
// then compiles it for the GPU (--gpu-arch) into DIR/<test>/model.so with
// its inputs (input_N.npy) and expected outputs (expected_N.npy): the GPU
// machine runs them with dlc-cuda-run (utils/gpu-check.sh).
//
// --target=cuda --gpu-emulate runs each test's first data set, once it
// passed on the reference, compiled for the GPU in dlc's GPU emulator
// (GPUEmulator.h) here, and compares its outputs with ONNX's at the GPU
// check's tolerances (rtol 1e-3, atol 1e-5): the GPU kernels of every op
// checked on a machine without a GPU.
//
//===----------------------------------------------------------------------===//
#include "dlc/Frontend/ONNX.h"
#include "dlc/Driver/CPUCompiler.h"
#include "dlc/Driver/GPUCompiler.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Runtime/Model.h"
#include "dlc/Runtime/TensorIO.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <set>
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <algorithm>
#include <map>

using namespace llvm;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static cl::opt<std::string> dataDir(cl::Positional, cl::Required,
                                    cl::desc("<onnx node test directory>"));
static cl::opt<std::string> filter("filter", cl::desc("run tests whose name contains this"));
static cl::opt<double> relTol("rtol", cl::init(1e-3));
static cl::opt<double> absTol("atol", cl::init(1e-7));
static cl::opt<bool> verbose("v", cl::desc("print every test's result"));
static cl::opt<std::string> target("target", cl::init("reference"),
                                   cl::desc("reference, cpu, or cuda (with --emit-dir)"));
static cl::opt<std::string> emitDir("emit-dir",
                                    cl::desc("cuda: where to write each test's GPU library, "
                                             "inputs and expected outputs"));
static cl::opt<std::string> gpuArch("gpu-arch", cl::init("sm_80"),
                                    cl::desc("cuda: the GPU architecture"));
static cl::opt<bool> gpuEmulate("gpu-emulate",
                                cl::desc("cuda: run each test in dlc's GPU emulator on the "
                                         "CPU instead of writing it for a GPU machine"));
// The lowering's flags (dlc-run's, with GPUPipeline.h's defaults), so that
// every node test checks them either way in the emulator.
static cl::opt<bool> gpuFuseReductions("gpu-fuse-reductions",
                                       cl::init(dlc::GPUTarget{}.fuseReductions),
                                       cl::desc("cuda: as dlc-run's"));
static cl::opt<bool> gpuRowKernels("gpu-row-kernels", cl::init(dlc::GPUTarget{}.rowKernels),
                                   cl::desc("cuda: as dlc-run's"));
static cl::opt<bool> gpuMergeEpilogues("gpu-merge-epilogues",
                                       cl::init(dlc::GPUTarget{}.mergeEpilogues),
                                       cl::desc("cuda: as dlc-run's"));
static cl::opt<bool> gpuLastBlockSums("gpu-last-block-sums",
                                      cl::init(dlc::GPUTarget{}.lastBlockSums),
                                      cl::desc("cuda: as dlc-run's"));
/// What --gpu-emulate allows, as utils/gpu-check.sh on a GPU.
constexpr double kGPUAbsTol = 1e-5, kGPURelTol = 1e-3;
/// --target=cuda's target, toolkit found.
static dlc::GPUTarget gpuTarget;

enum class Outcome { Pass, Fail, Unsupported };

/// Whether `outputs` match the test's `expected` ones; if not, `why` says
/// where.
static bool matches(const std::vector<dlc::Tensor> &outputs,
                    const std::vector<std::pair<std::string, dlc::Tensor>> &expected, double atol,
                    double rtol, std::string &why) {
  if (outputs.size() != expected.size()) {
    why = "output count differs";
    return false;
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    dlc::Comparison c = dlc::compareTensors(outputs[i], expected[i].second, atol, rtol);
    if (!c.match) {
      why = "output " + std::to_string(i) + ": " +
            (c.reason.empty() ? "max abs error " + std::to_string(c.maxAbsError) + ", " +
                                    std::to_string(c.mismatches) + " elements differ"
                              : c.reason);
      return false;
    }
  }
  return true;
}

static std::vector<std::string> listDir(StringRef dir, StringRef prefix) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec))
    if (path::filename(it->path()).starts_with(prefix))
      out.push_back(it->path());
  std::sort(out.begin(), out.end());
  return out;
}

/// input_0.pb, input_1.pb, ... in numeric order.
static Expected<std::vector<std::pair<std::string, dlc::Tensor>>>
readTensors(StringRef dir, StringRef prefix) {
  std::vector<std::pair<std::string, dlc::Tensor>> tensors;
  for (int i = 0;; ++i) {
    SmallString<128> p(dir);
    path::append(p, prefix + std::to_string(i) + ".pb");
    if (!fs::exists(p))
      break;
    auto buffer = MemoryBuffer::getFile(p, false, false);
    if (!buffer)
      return createStringError(p.str() + ": cannot read");
    std::string name;
    // The backend tests store bfloat16 data as UINT16 bits; a model of
    // actual uint16 tensors is refused by the importer first.
    Expected<dlc::Tensor> t =
        dlc::parseTensorProto((*buffer)->getBuffer(), &name, /*uint16IsBF16=*/true);
    if (!t)
      return t.takeError();
    tensors.emplace_back(name, std::move(*t));
  }
  return tensors;
}

/// Tests whose data contradicts ONNX's specification, with why: reported
/// as unsupported, not run.
static const std::map<std::string, std::string> &brokenTestData() {
  static const std::map<std::string, std::string> broken = [] {
    std::map<std::string, std::string> m;
    for (const char *name : {"test_cast_FLOAT_to_BFLOAT16", "test_castlike_FLOAT_to_BFLOAT16",
                             "test_castlike_FLOAT_to_BFLOAT16_expanded"})
      m[name] = "test data: bf16 results truncated (ONNX 1.12's data; the specification, "
                "and dlc, round to nearest even)";
    return m;
  }();
  return broken;
}

static Outcome runTest(StringRef dir, std::string &why) {
  auto broken = brokenTestData().find(path::filename(dir).str());
  if (broken != brokenTestData().end()) {
    why = "unsupported: " + broken->second;
    return Outcome::Unsupported;
  }
  SmallString<128> model(dir);
  path::append(model, "model.onnx");
  std::vector<std::string> sets = listDir(dir, "test_data_set_");
  if (sets.empty()) {
    why = "no test data";
    return Outcome::Unsupported;
  }
  for (const std::string &set : sets) {
    // Test data that is not a TensorProto (sequences, optionals) is only an
    // error if the model itself imports: otherwise the model is unsupported.
    std::string dataError;
    auto inputs = readTensors(set, "input_");
    auto expected = readTensors(set, "output_");
    if (!inputs)
      dataError = toString(inputs.takeError());
    if (!expected)
      dataError = toString(expected.takeError());
    // Integer inputs (shapes, axes, indices) and scalars (clip bounds, pad
    // values) are frozen: dlc compiles static shapes. So is an input the
    // importer says must be a constant (Resize's scales): the import is
    // retried with it frozen.
    std::set<std::string> frozen;
    if (inputs)
      for (auto &[name, t] : *inputs)
        if (!name.empty() && (!dlc::isFloat(t.dtype) || t.shape.empty()))
          frozen.insert(name);
    dlc::OnnxImportOptions options;
    std::vector<dlc::Tensor> args;
    mlir::DialectRegistry registry;
    dlc::registerModelDialects(registry);
    dlc::registerGPUCompilerDialects(registry);
    mlir::MLIRContext context(registry);
    std::string diagnostics;
    mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
      diagnostics += d.str();
      return mlir::success();
    });
    auto import = [&] {
      options.constantInputs.clear();
      args.clear();
      if (inputs)
        for (auto &[name, t] : *inputs) {
          if (frozen.count(name)) {
            options.constantInputs[name] = t;
          } else {
            args.push_back(t);
            // The data's shape, where the model declares another.
            if (!name.empty())
              options.inputShapes[name] = t.shape;
          }
        }
      return dlc::importOnnxFile(model, context, options);
    };
    auto module = import();
    while (!module) {
      Outcome outcome = Outcome::Fail;
      bool retry = false;
      handleAllErrors(module.takeError(), [&](const dlc::OnnxImportError &e) {
        why = e.message;
        if (e.unsupported)
          outcome = Outcome::Unsupported;
        bool isInput = inputs && llvm::any_of(*inputs, [&](const auto &in) {
          return in.first == e.nonConstantValue;
        });
        retry = isInput && frozen.insert(e.nonConstantValue).second;
      });
      if (!retry)
        return outcome;
      module = import();
    }
    if (!dataError.empty()) {
      why = "test data: " + dataError;
      bool unsupportedData =
          dataError.find("unsupported TensorProto data_type") != std::string::npos;
      if (unsupportedData)
        why = "unsupported: test data type (" + dataError + ")";
      return unsupportedData ? Outcome::Unsupported : Outcome::Fail;
    }
    auto func = dlc::findEntry(**module, "main");
    if (mlir::failed(func)) {
      why = "no entry: " + diagnostics;
      return Outcome::Fail;
    }
    if (Error e = dlc::checkInputs(func->getFunctionType(), args)) {
      why = toString(std::move(e));
      return Outcome::Fail;
    }
    std::vector<dlc::Tensor> results;
    if (target == "cpu") {
      auto exe = dlc::compileForCPU(**module, "main", "default");
      if (!exe) {
        why = "cpu: " + toString(exe.takeError()) + ": " + diagnostics;
        // Ops with no CPU lowering yet are unsupported on this target.
        return why.find("failed to legalize operation 'graph.") != std::string::npos
                   ? Outcome::Unsupported
                   : Outcome::Fail;
      }
      auto out = (*exe)->run(args);
      if (!out) {
        why = "cpu: " + toString(out.takeError());
        return Outcome::Fail;
      }
      results = std::move(*out);
    } else {
      auto out = dlc::interpret(*func, args);
      if (mlir::failed(out)) {
        why = "interpreter: " + diagnostics;
        return Outcome::Fail;
      }
      results = std::move(*out);
    }
    if (!matches(results, *expected, absTol, relTol, why))
      return Outcome::Fail;
    if (target == "cuda" && gpuEmulate && set == sets.front()) {
      // Its first data set, which passed on the reference, in the emulator.
      auto emulated = dlc::emulateForGPU(**module, "main", "default", gpuTarget, args);
      if (!emulated) {
        why = "gpu emulator: " + toString(emulated.takeError()) + ": " + diagnostics;
        return Outcome::Fail;
      }
      if (!matches(*emulated, *expected, kGPUAbsTol, kGPURelTol, why)) {
        why = "gpu emulator: " + why;
        return Outcome::Fail;
      }
    } else if (target == "cuda" && set == sets.front()) {
      // The test on the GPU machine: its first data set, which passed on
      // the reference.
      SmallString<128> out(emitDir);
      path::append(out, path::filename(dir));
      if (std::error_code ec = fs::create_directories(out)) {
        why = out.str().str() + ": " + ec.message();
        return Outcome::Fail;
      }
      auto file = [&](const Twine &name) {
        SmallString<128> p(out);
        path::append(p, name);
        return std::string(p);
      };
      if (Error e = dlc::emitForGPU(**module, "main", "default", gpuTarget, file("model.o"),
                                    file("model.h"), file("model.so"))
                        .takeError()) {
        why = "cuda: " + toString(std::move(e)) + ": " + diagnostics;
        return Outcome::Fail;
      }
      fs::remove(file("model.o"));
      for (auto [i, t] : llvm::enumerate(args))
        if (Error e = dlc::writeNpyFile(file("input_" + Twine(i) + ".npy"), t)) {
          why = toString(std::move(e));
          return Outcome::Fail;
        }
      for (auto [i, t] : llvm::enumerate(*expected))
        if (Error e = dlc::writeNpyFile(file("expected_" + Twine(i) + ".npy"), t.second)) {
          why = toString(std::move(e));
          return Outcome::Fail;
        }
    }
  }
  return Outcome::Pass;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "dlc ONNX node conformance runner\n");
  if (target != "reference" && target != "cpu" && target != "cuda") {
    errs() << "dlc-onnx-conformance: error: unknown --target '" << target
           << "' (reference, cpu or cuda)\n";
    return 1;
  }
  if ((target == "cuda") != (!emitDir.empty() || gpuEmulate) ||
      (!emitDir.empty() && gpuEmulate)) {
    errs() << "dlc-onnx-conformance: error: --target=cuda needs --emit-dir (to compile for a "
              "GPU machine) or --gpu-emulate (to run here), one of them, and they need "
              "--target=cuda\n";
    return 1;
  }
  if (target == "cuda") {
    Expected<dlc::GPUTarget> gpu = dlc::GPUTarget::get(gpuArch);
    // The emulator runs the `gpu` phase: no PTX, no toolkit.
    Expected<std::string> toolkit =
        gpuEmulate ? Expected<std::string>(std::string()) : dlc::findCUDAToolkit();
    if (!gpu || !toolkit) {
      Error e = joinErrors(gpu.takeError(), toolkit.takeError());
      errs() << "dlc-onnx-conformance: error: " << toString(std::move(e)) << "\n";
      return 1;
    }
    gpuTarget = *gpu;
    gpuTarget.toolkit = *toolkit;
    gpuTarget.fuseReductions = gpuFuseReductions;
    gpuTarget.rowKernels = gpuRowKernels;
    gpuTarget.mergeEpilogues = gpuMergeEpilogues;
    gpuTarget.lastBlockSums = gpuLastBlockSums;
  }
  if (!(absTol >= 0 && relTol >= 0) || !std::isfinite(absTol) || !std::isfinite(relTol)) {
    errs() << "dlc-onnx-conformance: error: --atol and --rtol must be finite "
              "numbers >= 0\n";
    return 1;
  }
  if (!fs::is_directory(dataDir)) {
    errs() << "dlc-onnx-conformance: error: " << dataDir
           << " is not a directory\n";
    return 1;
  }
  int passed = 0, failed = 0, unsupported = 0;
  std::map<std::string, std::vector<std::string>> unsupportedByReason;
  for (const std::string &dir : listDir(dataDir, "test_")) {
    std::string name = path::filename(dir).str();
    if (!filter.empty() && name.find(filter) == std::string::npos)
      continue;
    std::string why;
    Outcome o = runTest(dir, why);
    if (o == Outcome::Pass) {
      ++passed;
      if (verbose)
        outs() << "PASS " << name << "\n";
    } else if (o == Outcome::Fail) {
      ++failed;
      outs() << "FAIL " << name << ": " << why << "\n";
    } else {
      ++unsupported;
      // Group by the reason after "unsupported: ".
      size_t at = why.find("unsupported: ");
      std::string reason = at == std::string::npos ? why : why.substr(at + 13);
      unsupportedByReason[reason].push_back(name);
      if (verbose)
        outs() << "UNSUPPORTED " << name << ": " << why << "\n";
    }
  }
  outs() << "\nunsupported (" << unsupported << "), by reason:\n";
  for (const auto &[reason, tests] : unsupportedByReason) {
    outs() << "  " << reason << ": ";
    for (size_t i = 0; i < tests.size(); ++i)
      outs() << (i ? " " : "") << tests[i];
    outs() << "\n";
  }
  outs() << passed << " passed, " << failed << " failed, " << unsupported
         << " unsupported\n";
  return failed ? 1 : 0;
}
