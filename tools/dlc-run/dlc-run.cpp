//===- dlc-run.cpp - run a model and check its outputs ---------------------===//
//
// dlc-run model.mlir --target=reference --input=x.npy --output=y.npy
//                    [--expect=ref.npy --atol=.. --rtol=..] [--print-output]
//
//===----------------------------------------------------------------------===//
#include "dlc/Analysis/OpStats.h"
#include "dlc/Runtime/Bench.h"
#include "dlc/Driver/CPUCompiler.h"
#include "dlc/Driver/GPUCompiler.h"
#include "dlc/Runtime/CUDADriver.h"
#include "dlc/Transforms/Pipelines.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Runtime/Model.h"
#include "dlc/Runtime/OutputCheck.h"
#include "dlc/Runtime/SideBySide.h"
#include "dlc/Runtime/TensorIO.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/FileSystem.h"

#include <nlohmann/json.hpp>
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>

using namespace llvm;
using namespace dlc;

static cl::opt<std::string> modelPath(cl::Positional, cl::Required,
                                      cl::desc("<model.mlir>"));
static cl::opt<std::string>
    target("target", cl::init("reference"),
           cl::desc("where to run: reference (the interpreter), cpu (compiled "
                    "for the host, JIT) or cuda (an NVIDIA GPU: compiled into a "
                    "library that dlc-cuda-run runs; --compile-to prints a phase)"));
static cl::opt<std::string>
    gpuArch("gpu-arch", cl::desc("cuda: the GPU architecture (sm_80, sm_90a, ...; default: "
                                 "the present GPU's, else sm_80)"));
static cl::opt<bool>
    gpuTF32("gpu-tf32", cl::desc("cuda: matrix products and convolutions on tensor cores in TF32 "
                                 "(inputs rounded to 10-bit mantissas, f32 accumulation, as "
                                 "PyTorch's convolutions by default; sm_80 and later)"));
static cl::opt<int64_t>
    gpuMaxTile("gpu-max-tile", cl::init(128),
               cl::desc("cuda: the most rows and columns of a matrix product's output tile per "
                        "block: 128, 64 or 32 (the largest that gives enough blocks is taken; "
                        "128 only where it measured faster)"));
static cl::opt<int64_t>
    gpuTileDepth("gpu-tile-depth", cl::init(0),
                 cl::desc("cuda: the reduction elements a matrix product's tiles stage per "
                          "step: 16 or 32 (default: 32 for products of f16 or bf16 values, "
                          "16 for others)"));
static cl::opt<int64_t>
    gpuSplitBlocks("gpu-split-blocks", cl::init(0),
                   cl::desc("cuda: a matrix product whose tiles make fewer blocks splits its "
                            "reduction towards this many (slices of 8 steps or more, summed "
                            "in order by a second kernel): 32 to 4096 (default: 512 for "
                            "products on tensor cores, 128 for others)"));
static cl::opt<bool> gpuFuseReductions(
    "gpu-fuse-reductions", cl::init(dlc::GPUTarget{}.fuseReductions),
    cl::desc("cuda: a reduction's kernel (a layer norm's or a softmax's sums) also computes "
             "the elementwise ops around it: its output's initial values, the op reading "
             "its output just after (default: on; =false: kernels of their own)"));
static cl::opt<bool> gpuRowKernels(
    "gpu-row-kernels", cl::init(dlc::GPUTarget{}.rowKernels),
    cl::desc("cuda: a run of row-wise ops (a layer norm, a softmax with its mask and "
             "conversion: reductions along rows and the elementwise ops on them) runs as one "
             "kernel, a warp per row (default: on; =false: kernels of their own)"));
static cl::opt<bool> gpuMergeEpilogues(
    "gpu-merge-epilogues", cl::init(dlc::GPUTarget{}.mergeEpilogues),
    cl::desc("cuda: a matrix product's kernel also computes the elementwise or layout op "
             "after it that FuseOps leaves in a group of its own (BERT's head transposes, "
             "and the conversion to f16 before them), which then reads and writes no buffer "
             "of its own (default: on; =false: kernels of their own)"));
static cl::opt<bool> gpuLastBlockSums(
    "gpu-last-block-sums", cl::init(dlc::GPUTarget{}.lastBlockSums),
    cl::desc("cuda: a matrix product that splits its reduction adds the slices in its own "
             "kernel: the last block to finish each tile adds them in order and applies the "
             "epilogue (default: a second kernel adds them)"));
static cl::opt<bool> gpuLdmatrix(
    "gpu-ldmatrix", cl::init(dlc::GPUTarget{}.ldmatrix),
    cl::desc("cuda: a matrix product on tensor cores (f16, bf16, or TF32 with --gpu-tf32) "
             "loads the fragments of its inputs from shared memory with ldmatrix, four 8 x 8 "
             "matrices a warp's instruction (ldmatrix.trans for f16 or bf16 inputs not "
             "contiguous along the reduction; default: a 32-bit load a lane per word)"));
static cl::opt<bool> gpuVectorLoads(
    "gpu-vector-loads", cl::init(dlc::GPUTarget{}.vectorLoads),
    cl::desc("cuda: a matrix product on tensor cores stages its inputs contiguous along the "
             "reduction, or along the rows or columns of their tiles, through registers 16 "
             "bytes a load and a store, in the tiles --gpu-copy-stages would copy them into "
             "(where copy stages are off or do not fit; default: an element at a time)"));
static cl::opt<bool> gpuEmulate(
    "gpu-emulate",
    cl::desc("cuda: run the compiled kernels on the CPU in dlc's GPU emulator instead of on a "
             "GPU (every GPU thread a fiber; slow: for checking the kernels' outputs where "
             "there is no GPU, small models)"));
static cl::opt<bool> gpuEmulateKernels(
    "gpu-emulate-kernels",
    cl::desc("cuda, with --gpu-emulate: print each kernel's launches, threads and the IR ops "
             "its threads ran, most ops first, and the most one thread ran in one launch"));
static cl::opt<bool> gpuEmulateReverse(
    "gpu-emulate-reverse",
    cl::desc("cuda, with --gpu-emulate: run each grid's blocks, and each block's threads up "
             "to each synchronization, last first (kernels that depend on an order a GPU "
             "does not promise meet another)"));
static cl::opt<int64_t>
    gpuCopyStages("gpu-copy-stages", cl::init(0),
                  cl::desc("cuda: a matrix product on tensor cores (f16, bf16, or f32 with "
                           "--gpu-tf32) copies its inputs contiguous along the reduction into "
                           "this many stages of shared memory with cp.async, 16 bytes a copy: "
                           "2 to 4 (default: none, each thread loads its elements a step "
                           "ahead)"));
static cl::opt<std::string>
    cudaPath("cuda-path", cl::desc("cuda: the CUDA toolkit (default: $CUDA_ROOT, $CUDA_HOME, "
                                   "$CUDA_PATH, /usr/local/cuda)"));
static cl::opt<std::string>
    pipelineFlag("pipeline", cl::init("default"),
                 cl::desc("graph passes before lowering (cpu, cuda): O0..O4, default "
                          "(O3), auto (chosen from the model's architecture; "
                          "'auto;explain' says why), tuned:DB, none or list:A,B,...; "
                          "';mixed=f16' (or bf16) computes the graph in f16 where safe "
                          "(with tuned:DB, replays the f16 tuning); "
                          "';layout=cpu-nhwc' gives O3's convolutions NHWC (the default with "
                          "mixed=bf16 on a CPU with AVX512-BF16)"));
static cl::list<std::string>
    disablePasses("dlc-disable", cl::CommaSeparated,
                  cl::desc("passes an O-level pipeline skips (TVM disabled_pass)"));
static cl::list<std::string>
    requirePasses("dlc-require", cl::CommaSeparated,
                  cl::desc("passes an O-level pipeline runs whatever the level "
                           "(TVM required_pass)"));
/// --pipeline with --dlc-disable and --dlc-require.
static std::string pipeline;
static cl::opt<std::string>
    compileTo("compile-to",
              cl::desc("stop after a phase and print the IR: graph, linalg, "
                       "loops or llvm (cpu); graph, linalg, gpu, nvvm, ptx or llvm (cuda)"));
static cl::opt<std::string> entry("entry",
                                  cl::desc("function to run (default @main)"));
static cl::list<std::string>
    inputSpecs("input", cl::desc("input tensor: file.npy, file.pb or "
                                 "random:seed=N (once per input, or one "
                                 "random spec for all)"));
static cl::list<std::string>
    saveInputPaths("save-input", cl::desc("write input N (as fed: random ones too) to this .npy"));
static cl::list<std::string> outputPaths("output",
                                         cl::desc("write output N to this .npy"));
static cl::list<std::string>
    expectPaths("expect", cl::desc("compare output N with this .npy/.pb"));
static cl::opt<double> absTol("atol", cl::init(1e-5),
                            cl::desc("absolute tolerance for --expect"));
static cl::opt<double> relTol("rtol", cl::init(1e-5),
                            cl::desc("relative tolerance for --expect"));
static cl::opt<bool> printOutput("print-output",
                                 cl::desc("print every output value"));
static cl::opt<std::string>
    emit("emit", cl::desc("ahead-of-time output for the CPU: obj or shared "
                          "(with -o; writes a C header beside it)"));
static cl::opt<std::string> emitPath("o", cl::desc("output of --emit"));
static cl::opt<std::string> externalWeights(
    "external-weights",
    cl::desc("cuda, with --emit: write the weights of 1 KiB or more to this file instead of "
             "the library (dlc-cuda-run --weights loads them); zoo parameters the graph "
             "passes left unchanged as recipes to regenerate them"));
static cl::opt<bool> externalWeightsRaw(
    "external-weights-raw",
    cl::desc("with --external-weights: every weight's bytes, no zoo recipes"));
static cl::opt<int64_t> threads("threads", cl::init(1),
                                cl::desc("CPU threads (OpenMP) for large ops"));
static cl::opt<bool> bench("bench", cl::desc("measure latency (see --warmup, --runs)"));
static cl::opt<int64_t> warmup("warmup", cl::init(100),
                               cl::desc("untimed warm-up runs (and at least 200 ms)"));
static cl::opt<int64_t> runs("runs", cl::init(1000), cl::desc("timed runs"));
/// Bounds --runs and --warmup (their samples are kept in memory).
static constexpr int64_t kMaxRuns = 10'000'000;
static cl::opt<std::string> againstFlag(
    "against",
    cl::desc("cpu, with --bench: compile the model with this pipeline too, check that its "
             "outputs agree within --atol and --rtol (default 1e-3 each here), and time the two "
             "side by side in --rounds rounds that alternate them; prints the median of the "
             "per-round latency ratios with its 95% interval, and the latency statistics come "
             "from those rounds (--runs does not apply)"));
static cl::opt<int64_t> rounds("rounds", cl::init(15),
                               cl::desc("with --against: rounds, each at least 100 ms of "
                                        "each pipeline (at most 1000 runs)"));
static cl::opt<std::string> jsonPath("json", cl::desc("write a JSON report here"));
static cl::opt<std::string> passLedgerPath(
    "dlc-pass-ledger",
    cl::desc("cpu: write every graph pass run (time, op counts, IR fingerprints before "
             "and after, changed or not) to this JSON file"));
static cl::opt<bool> printStats("op-stats",
                                cl::desc("print op counts, parameters and MACs"));
static cl::opt<std::string>
    cacheDir("cache-dir", cl::desc("compile cache directory (default: $DLC_CACHE_DIR, "
                                   "$XDG_CACHE_HOME/dlc or ~/.cache/dlc)"));
static cl::opt<bool> noCache("no-cache", cl::desc("compile without the compile cache"));
static cl::opt<unsigned> compileThreads(
    "compile-threads", cl::init(0),
    cl::desc("threads for code generation (default 0: the machine's cores)"));
static cl::opt<bool> cacheStats("cache-stats",
                                cl::desc("print the compile cache's hit or miss and size"));

static int fail(const Twine &message) {
  outs().flush(); // keep results and the error in order
  WithColor::error(errs(), "dlc-run") << message << "\n";
  return 1;
}

/// Prints values as nested brackets, numpy style.
static void printValues(raw_ostream &os, const Tensor &t, size_t dim,
                        int64_t &pos) {
  if (dim == t.shape.size()) {
    double v = t.data[pos++];
    if (isFloat(t.dtype))
      os << format("%g", v);
    else
      os << static_cast<int64_t>(v);
    return;
  }
  os << '[';
  for (int64_t i = 0; i < t.shape[dim]; ++i) {
    if (i)
      os << ", ";
    printValues(os, t, dim + 1, pos);
  }
  os << ']';
}

static void printSummary(raw_ostream &os, const Tensor &t) {
  double mn = INFINITY, mx = -INFINITY, sum = 0;
  for (double v : t.data) {
    mn = std::min(mn, v);
    mx = std::max(mx, v);
    sum += v;
  }
  os << " min " << format("%g", mn) << " max " << format("%g", mx) << " mean "
     << format("%g", t.size() ? sum / t.size() : 0.0) << " first [";
  for (int64_t i = 0; i < std::min<int64_t>(t.size(), 6); ++i)
    os << (i ? ", " : "") << format("%g", t.data[i]);
  os << (t.size() > 6 ? ", ...]" : "]");
}

/// For --emit: the object's path (-o itself for obj, else beside it) and the
/// header's, or an error for bad flags.
static Expected<std::pair<std::string, std::string>> aotPaths() {
  if (emit != "obj" && emit != "shared")
    return createStringError("bad --emit '" + emit + "' (expected obj or shared)");
  if (emitPath.empty())
    return createStringError("--emit needs -o <path>");
  std::string base = sys::path::stem(emitPath).str();
  SmallString<128> dir(emitPath);
  sys::path::remove_filename(dir);
  SmallString<128> header(dir), object(dir);
  sys::path::append(header, base + ".h");
  sys::path::append(object, base + ".o");
  return std::make_pair(std::string(object), std::string(header));
}

/// --target=cuda: prints the model lowered to `phase` for --gpu-arch, or
/// says why it cannot run.
/// --target=cuda on a machine with a GPU: compiles `func` into a library
/// in a temporary directory (weights in a file beside it) and runs it with
/// dlc-cuda-run, the runner beside dlc-run: inputs written as .npy,
/// --expect (converted to .npy), --output, --atol, --rtol, --bench and
/// --json passed on. Returns the runner's exit status.
static int runOnCUDA(mlir::ModuleOp module, mlir::func::FuncOp func, const GPUTarget &gpu) {
  std::string self = sys::fs::getMainExecutable(nullptr, nullptr);
  SmallString<256> runner(sys::path::parent_path(self));
  sys::path::append(runner, "dlc-cuda-run");
  if (!sys::fs::can_execute(runner))
    return fail("--target=cuda: " + runner + " not found: dlc runs models on the GPU with it");
  Expected<std::vector<Tensor>> inputs = loadInputs(inputSpecs, func);
  if (!inputs)
    return fail(toString(inputs.takeError()));
  if (Error e = checkInputs(func.getFunctionType(), *inputs))
    return fail(toString(std::move(e)));
  if (!jsonPath.empty() && !bench)
    return fail("--json with --target=cuda reports a --bench run: give --bench");
  if (saveInputPaths.size() > inputs->size())
    return fail("the entry function has " + Twine(inputs->size()) + " inputs, more --save-input given");
  for (auto [path, t] : llvm::zip_first(saveInputPaths, *inputs))
    if (Error e = writeNpyFile(path, t))
      return fail(toString(std::move(e)));
  if (expectPaths.size() > func.getFunctionType().getNumResults() ||
      outputPaths.size() > func.getFunctionType().getNumResults())
    return fail("the entry function has " + Twine(func.getFunctionType().getNumResults()) +
                " outputs, more --output/--expect given");
  SmallString<128> dir;
  if (std::error_code ec = sys::fs::createUniqueDirectory("dlc-cuda", dir))
    return fail("--target=cuda: cannot create a temporary directory: " + ec.message());
  auto file = [&](const Twine &name) {
    SmallString<128> p(dir);
    sys::path::append(p, name);
    return std::string(p);
  };
  auto run = [&]() -> Expected<int> {
    std::string library = file("model.so"), weights = file("model.weights");
    Expected<uint64_t> weightBytes = emitForGPU(module, func.getSymName(), pipeline, gpu,
                                                file("model.o"), file("model.h"), library, weights);
    if (!weightBytes)
      return weightBytes.takeError();
    std::vector<std::string> args{std::string(runner), library};
    if (*weightBytes)
      args.push_back("--weights=" + weights);
    for (auto [i, t] : llvm::enumerate(*inputs)) {
      args.push_back("--input=" + file("input_" + Twine(i) + ".npy"));
      if (Error e = writeNpyFile(args.back().substr(8), t))
        return std::move(e);
    }
    for (auto [i, path] : llvm::enumerate(expectPaths)) {
      Expected<Tensor> t = readTensorFile(path);
      if (!t)
        return t.takeError();
      args.push_back("--expect=" + file("expected_" + Twine(i) + ".npy"));
      if (Error e = writeNpyFile(args.back().substr(9), *t))
        return std::move(e);
    }
    for (const std::string &path : outputPaths)
      args.push_back("--output=" + path);
    for (auto [flag, value] : {std::pair{"atol", double(absTol)}, {"rtol", double(relTol)}}) {
      args.emplace_back();
      raw_string_ostream(args.back()) << "--" << flag << "=" << format("%.17g", value);
    }
    if (bench) {
      args.push_back("--bench");
      args.push_back("--warmup=" + std::to_string(warmup));
      args.push_back("--runs=" + std::to_string(runs));
    }
    if (!jsonPath.empty())
      args.push_back("--json=" + jsonPath);
    outs().flush();
    SmallVector<StringRef> argv(args.begin(), args.end());
    std::string error;
    int status = sys::ExecuteAndWait(runner, argv, std::nullopt, {}, 0, 0, &error);
    if (status < 0)
      return createStringError("running " + runner + " failed: " + error);
    return status;
  };
  Expected<int> status = run();
  sys::fs::remove_directories(dir);
  if (!status)
    return fail("--target=cuda: " + toString(status.takeError()));
  return *status;
}

/// The GPU target of the --gpu-* flags: --gpu-arch, else the present GPU's,
/// else sm_80. `device` is the probe's result.
static Expected<GPUTarget> gpuTargetFromFlags(Expected<CUDADevice> &device) {
  std::string arch = gpuArch;
  if (arch.empty())
    arch = device ? device->arch() : "sm_80";
  Expected<GPUTarget> gpu = GPUTarget::get(arch);
  if (!gpu) {
    std::string why = toString(gpu.takeError());
    if (gpuArch.empty()) // the present GPU's
      why = device->name + ": " + why + "; give --gpu-arch";
    return createStringError("--gpu-arch: " + why);
  }
  gpu->tf32 = gpuTF32;
  gpu->maxTile = gpuMaxTile;
  gpu->tileDepth = gpuTileDepth;
  gpu->splitBlocks = gpuSplitBlocks;
  gpu->copyStages = gpuCopyStages;
  gpu->fuseReductions = gpuFuseReductions;
  gpu->rowKernels = gpuRowKernels;
  gpu->mergeEpilogues = gpuMergeEpilogues;
  gpu->lastBlockSums = gpuLastBlockSums;
  gpu->ldmatrix = gpuLdmatrix;
  gpu->vectorLoads = gpuVectorLoads;
  if (gpuTF32 && !gpu->hasTensorCores())
    return createStringError("--gpu-tf32: " + gpu->chip +
                             " has no TF32 tensor cores (sm_80 and later have)");
  return gpu;
}

static int compileForCUDA(mlir::ModuleOp module, mlir::func::FuncOp func,
                          std::optional<GPUPhase> phase) {
  StringRef entryName = func.getSymName();
  Expected<CUDADevice> device = probeCUDADevice();
  Expected<GPUTarget> gpu = gpuTargetFromFlags(device);
  if (!gpu) {
    consumeError(device.takeError());
    return fail(toString(gpu.takeError()));
  }
  if (!phase && emit.empty() && !device)
    return fail("--target=cuda: " + toString(device.takeError()));
  consumeError(device.takeError());
  if (!phase || *phase >= GPUPhase::PTX) { // libdevice linked into the kernels, ptxas
    Expected<std::string> toolkit = findCUDAToolkit(cudaPath);
    if (!toolkit)
      return fail("--target=cuda: " + toString(toolkit.takeError()));
    gpu->toolkit = *toolkit;
  }
  if (phase) {
    if (Error e = printLoweredForGPU(module, pipeline, *phase, *gpu, outs()))
      return fail(toString(std::move(e)));
    return 0;
  }
  if (emit.empty())
    return runOnCUDA(module, func, *gpu);
  Expected<std::pair<std::string, std::string>> paths = aotPaths();
  if (!paths)
    return fail(toString(paths.takeError()));
  auto [object, header] = *paths;
  if (Error e = emitForGPU(module, entryName, pipeline, *gpu, emit == "obj" ? emitPath : object,
                           header, emit == "shared" ? StringRef(emitPath) : StringRef(),
                           externalWeights, !externalWeightsRaw)
                    .takeError())
    return fail(toString(std::move(e)));
  outs() << "wrote " << emitPath << " and " << header
         << (externalWeights.empty() ? "" : " and " + externalWeights) << "\n";
  return 0;
}

/// --against: the other pipeline's compile, outputs and the two side by side.
struct Against {
  std::string pipeline;
  CompileTimes times;
  double maxAbsDifference = 0;
  SideBySide side; ///< this pipeline's latency over the other's
  int64_t runsPerRound = 1;
  LatencyStats mine, stats; ///< this and the other pipeline's runs in the rounds
};

/// Compiles the model with --against's pipeline and times it side by side
/// with `exe`, after warming both up. `outputs` are `exe`'s.
static Expected<Against> measureAgainst(mlir::ModuleOp module, StringRef entryName,
                                        CPUExecutable &exe, ArrayRef<Tensor> inputs,
                                        ArrayRef<Tensor> outputs, const CacheOptions &cache,
                                        const std::shared_ptr<SourceMgr> &source) {
  Against a;
  a.pipeline = againstFlag;
  auto other = compileForCPU(module, entryName, a.pipeline, threads, &cache, compileThreads,
                             /*ledger=*/nullptr, source);
  if (!other)
    return other.takeError();
  a.times = (*other)->compileTimes();
  Expected<std::vector<Tensor>> results = (*other)->run(inputs);
  if (!results)
    return results.takeError();
  // dlc-tune's tolerances unless given: FastMath's approximations pass.
  double atol = absTol.getNumOccurrences() ? absTol : 1e-3;
  double rtol = relTol.getNumOccurrences() ? relTol : 1e-3;
  mlir::func::FuncOp func = module.lookupSymbol<mlir::func::FuncOp>(entryName);
  std::vector<Comparison> comparisons =
      compareOutputs(*results, outputs, findDetectionOutputs(func), atol, rtol);
  for (auto [i, c] : llvm::enumerate(comparisons)) {
    if (!c.reason.empty())
      return createStringError("output " + Twine(i) + " of --against " + a.pipeline +
                               " differs: " + c.reason);
    if (!c.match) {
      std::string message;
      raw_string_ostream(message) << "output " << i << " of --against " << a.pipeline
                                  << " differs: " << c.mismatches << " elements outside --atol "
                                  << format("%g", atol) << " + --rtol " << format("%g", rtol)
                                  << " (max abs error " << format("%g", c.maxAbsError) << ")";
      return createStringError(message);
    }
    a.maxAbsDifference = std::max(a.maxAbsDifference, c.maxAbsError);
  }
  // Rounds of at least 100 ms of the faster one.
  Expected<LatencyStats> warmMine = exe.benchmark(inputs, warmup, 3);
  if (!warmMine)
    return warmMine.takeError();
  Expected<LatencyStats> warmTheirs = (*other)->benchmark(inputs, warmup, 3);
  if (!warmTheirs)
    return warmTheirs.takeError();
  a.runsPerRound = runsPerRound(std::min(warmMine->p50, warmTheirs->p50));
  Expected<SideBySide> side = measureSideBySide(exe, **other, inputs, rounds, a.runsPerRound);
  if (!side)
    return side.takeError();
  a.side = std::move(*side);
  a.mine = computeStats(a.side.samplesA);
  a.mine.warmupRuns = warmMine->warmupRuns;
  a.mine.warmupMs = warmMine->warmupMs;
  a.stats = computeStats(a.side.samplesB);
  return a;
}

static const char *cacheName(CompileTimes::Cache c) {
  return c == CompileTimes::Cache::Hit ? "hit" : c == CompileTimes::Cache::Miss ? "miss" : "off";
}

/// The JSON report: provenance, compile times, latency statistics with every
/// raw sample, and output digests.
static Error writeReport(StringRef path, int argc, char **argv,
                         const CompileTimes &times,
                         const std::optional<LatencyStats> &stats, int64_t batch,
                         const std::vector<Tensor> &outputs,
                         const std::optional<Against> &against) {
  using json = nlohmann::json;
  Provenance prov = currentProvenance();
  json j;
  std::string flags;
  for (int i = 1; i < argc; ++i)
    flags += (i > 1 ? " " : "") + std::string(argv[i]);
  auto model = MemoryBuffer::getFile(modelPath, false, false);
  Expected<std::string> expanded = target == "cpu" ? pipelineString(pipeline)
                                                   : Expected<std::string>(std::string());
  if (!expanded)
    return expanded.takeError();
  j["dlc_version"] = prov.dlcVersion;
  j["llvm_version"] = prov.llvmVersion;
  j["date"] = prov.date;
  j["host_cpu"] = prov.hostCpu;
  j["flags"] = flags;
  j["model"] = {{"path", modelPath.getValue()},
                {"sha256", model ? sha256Hex((*model)->getBuffer()) : ""}};
  j["target"] = target.getValue();
  j["inputs"] = json::array();
  for (const std::string &spec : inputSpecs)
    j["inputs"].push_back(spec);
  if (target == "cpu") {
    j["pipeline"] = {{"spec", pipeline}, {"passes", *expanded},
                     {"sha256", sha256Hex(*expanded)}};
    j["compile_ms"] = {{"graph_passes", times.graphPassesMs},
                       {"lowering", times.loweringMs},
                       {"codegen", times.codegenMs},
                       {"cache", times.cacheMs},
                       {"total", times.totalMs()}};
    j["kernels"] = {{"outlined", times.kernels}, {"distinct", times.distinctKernels},
                    {"objects", times.objects}, {"objects_from_cache", times.objectsFromCache}};
    if (times.cache != CompileTimes::Cache::Hit)
      j["intermediates"] = {{"buffer_bytes", times.bufferBytes},
                            {"workspace_bytes", times.workspaceBytes}};
    j["weight_bytes"] = {{"written", times.weightBytesWritten},
                         {"packed_in_place", times.weightBytesPackedInPlace},
                         {"in_model_file", times.weightBytesInPlace},
                         {"copied", times.weightBytesCopied}};
    j["compile_cache"] = cacheName(times.cache);
    j["compile_peak_rss_mib"] = times.peakMemoryMiB;
  }
  j["peak_rss_mib"] = prov.maxRssKiB / 1024.0;
  j["outputs"] = json::array();
  for (const Tensor &t : outputs) {
    std::string bytes = serializeNpy(t);
    j["outputs"].push_back({{"type", t.describe()}, {"npy_sha256", sha256Hex(bytes)}});
  }
  if (stats) {
    const LatencyStats &s = *stats;
    j["latency_ms"] = {{"count", s.count}, {"min", s.min}, {"p50", s.p50}, {"p90", s.p90},
                       {"p99", s.p99}, {"max", s.max}, {"mean", s.mean}, {"std", s.std},
                       {"cv", s.cv}, {"unstable", s.unstable},
                       {"warmup_runs", s.warmupRuns}, {"warmup_ms", s.warmupMs},
                       {"samples", s.samplesMs}};
    j["latency_trimmed_3sigma_ms"] = {{"count", s.trimmedCount}, {"dropped", s.dropped},
                                      {"mean", s.trimmedMean}, {"std", s.trimmedStd}};
    j["batch"] = batch;
    j["throughput_per_s"] = s.p50 > 0 ? batch * 1000.0 / s.p50 : 0.0;
  }
  if (against) {
    const Estimate &r = against->side.ratio;
    j["against"] = {{"pipeline", against->pipeline},
                    {"compile_ms", {{"graph_passes", against->times.graphPassesMs},
                                    {"total", against->times.totalMs()}}},
                    {"max_abs_difference", against->maxAbsDifference},
                    {"latency_ms", {{"count", against->stats.count},
                                    {"p50", against->stats.p50},
                                    {"samples", against->stats.samplesMs}}},
                    {"ratio", {{"median", r.median}, {"low", r.low}, {"high", r.high},
                               {"rounds", r.n}, {"runs_per_round", against->runsPerRound}}},
                    {"verdict", verdict(r).str()}};
  }
  std::error_code ec;
  raw_fd_ostream os(path, ec);
  if (ec)
    return createStringError(path.str() + ": cannot write: " + ec.message());
  os << j.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  return Error::success();
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "dlc-run: run a graph-dialect model\n");
  if (target != "reference" && target != "cpu" && target != "cuda")
    return fail("target '" + target +
                "' is not available in this build (available: reference, cpu, cuda)");
  bool cuda = target == "cuda";
  std::optional<Phase> phase;
  std::optional<GPUPhase> gpuPhase;
  if (cuda && !compileTo.empty() && !(gpuPhase = parseGPUPhase(compileTo)))
    return fail("bad --compile-to '" + compileTo +
                "' for --target=cuda (expected graph, linalg, gpu, nvvm, ptx or llvm)");
  if (!cuda && !compileTo.empty() && !(phase = parsePhase(compileTo)))
    return fail("bad --compile-to '" + compileTo +
                "' (expected graph, linalg, loops or llvm)");
  if (!cuda && (gpuArch.getNumOccurrences() || cudaPath.getNumOccurrences() || gpuTF32 ||
                gpuMaxTile.getNumOccurrences() || gpuTileDepth.getNumOccurrences() ||
                gpuSplitBlocks.getNumOccurrences() || gpuCopyStages.getNumOccurrences() ||
                gpuFuseReductions.getNumOccurrences() || gpuRowKernels.getNumOccurrences() ||
                gpuMergeEpilogues.getNumOccurrences() || gpuLastBlockSums.getNumOccurrences() ||
                gpuLdmatrix.getNumOccurrences() || gpuVectorLoads.getNumOccurrences() ||
                gpuEmulate))
    return fail("--gpu-arch, --gpu-tf32, --gpu-max-tile, --gpu-tile-depth, --gpu-split-blocks, "
                "--gpu-copy-stages, --gpu-fuse-reductions, --gpu-row-kernels, "
                "--gpu-merge-epilogues, --gpu-last-block-sums, --gpu-ldmatrix, "
                "--gpu-vector-loads, --gpu-emulate and --cuda-path apply to --target=cuda");
  if ((gpuEmulateKernels || gpuEmulateReverse) && !gpuEmulate)
    return fail("--gpu-emulate-kernels and --gpu-emulate-reverse apply with --gpu-emulate");
  if (gpuEmulate && (!compileTo.empty() || !emit.empty() || bench || !jsonPath.empty()))
    return fail("--gpu-emulate runs a model and checks its outputs: not with --compile-to, "
                "--emit, --bench or --json");
  if (!llvm::is_contained(kGPUTileSides, gpuMaxTile))
    return fail("bad --gpu-max-tile " + std::to_string(gpuMaxTile) + " (expected 128, 64 or 32)");
  // 0 (the pass chooses) is the default of both, not a value to give.
  if (gpuTileDepth.getNumOccurrences() &&
      (gpuTileDepth == 0 || !llvm::is_contained(kGPUTileDepths, gpuTileDepth)))
    return fail("bad --gpu-tile-depth " + std::to_string(gpuTileDepth) + " (expected 16 or 32)");
  if (gpuSplitBlocks.getNumOccurrences() &&
      (gpuSplitBlocks < kGPUFewestSplitBlocks || gpuSplitBlocks > kGPUMostSplitBlocks))
    return fail("bad --gpu-split-blocks " + std::to_string(gpuSplitBlocks) + " (expected " +
                std::to_string(kGPUFewestSplitBlocks) + " to " +
                std::to_string(kGPUMostSplitBlocks) + ")");
  if (gpuCopyStages.getNumOccurrences() &&
      (gpuCopyStages < kGPUFewestCopyStages || gpuCopyStages > kGPUMostCopyStages))
    return fail("bad --gpu-copy-stages " + std::to_string(gpuCopyStages) + " (expected " +
                std::to_string(kGPUFewestCopyStages) + " to " +
                std::to_string(kGPUMostCopyStages) + ")");
  if (cuda && !passLedgerPath.empty())
    return fail("--dlc-pass-ledger is not available for --target=cuda yet");
  if (!externalWeights.empty() && !(cuda && !emit.empty()))
    return fail("--external-weights applies to --target=cuda with --emit");
  // NaN compares false: written so that it fails these checks.
  if (!(absTol >= 0 && relTol >= 0) || !std::isfinite(absTol) || !std::isfinite(relTol))
    return fail("--atol and --rtol must be finite numbers >= 0, got " +
                std::to_string(absTol) + " and " + std::to_string(relTol));
  if (threads < 1)
    return fail("--threads must be >= 1");
  if (!passLedgerPath.empty() && (target != "cpu" || !compileTo.empty() || !emit.empty()))
    return fail("--dlc-pass-ledger records the graph passes of a --target=cpu run");
  if (warmup < 0 || warmup > kMaxRuns || runs < 1 || runs > kMaxRuns)
    return fail("--warmup must be in [0, " + Twine(kMaxRuns) + "] and --runs in [1, " +
                Twine(kMaxRuns) + "]");
  if (!againstFlag.empty() && !(target == "cpu" && bench && compileTo.empty() && emit.empty()))
    return fail("--against compares two pipelines of a --target=cpu --bench run");
  if (rounds < 1 || rounds > 10000)
    return fail("--rounds must be in [1, 10000]");
  if (rounds.getNumOccurrences() && againstFlag.empty())
    return fail("--rounds applies with --against");
  if (!againstFlag.empty() && runs.getNumOccurrences())
    return fail("--runs does not apply with --against (its rounds decide the runs: --rounds)");
  if (!againstFlag.empty())
    if (Error e = pipelineString(againstFlag).takeError())
      return fail("--against: " + toString(std::move(e)));
  pipeline = pipelineFlag;
  if (!disablePasses.empty())
    pipeline += ";disable=" + join(disablePasses, ",");
  if (!requirePasses.empty())
    pipeline += ";require=" + join(requirePasses, ",");
  if (Error e = pipelineString(pipeline).takeError())
    return fail(toString(std::move(e)));
  bool compiles = target == "cpu" || cuda || phase || !emit.empty();
  if (!compiles && (pipelineFlag.getNumOccurrences() || !disablePasses.empty() ||
                    !requirePasses.empty()))
    return fail("--pipeline, --dlc-disable and --dlc-require apply to compiled "
                "targets; the reference interpreter runs the model as given "
                "(run dlc-opt --dlc-pipeline=... first to interpret a "
                "transformed model)");

  mlir::DialectRegistry registry;
  registerModelDialects(registry);
  registerGPUCompilerDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  auto sourceMgr = std::make_shared<SourceMgr>();
  mlir::SourceMgrDiagnosticHandler diagHandler(*sourceMgr, &context);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      loadModel(modelPath, context, sourceMgr);
  if (!module)
    return 1;
  mlir::FailureOr<mlir::func::FuncOp> func = findEntry(*module, entry);
  if (failed(func))
    return 1;
  if (cuda && !gpuEmulate)
    return compileForCUDA(*module, *func, gpuPhase);
  if (phase) {
    if (Error e = printLowered(*module, pipeline, *phase, outs(), threads))
      return fail(toString(std::move(e)));
    return 0;
  }
  if (!emit.empty()) {
    Expected<std::pair<std::string, std::string>> paths = aotPaths();
    if (!paths)
      return fail(toString(paths.takeError()));
    auto [object, header] = *paths;
    StringRef objectOut = emit == "obj" ? StringRef(emitPath) : StringRef(object);
    if (Error e = emitAOT(*module, func->getSymName(), pipeline, objectOut, header,
                          emit == "shared" ? StringRef(emitPath) : StringRef(), threads))
      return fail(toString(std::move(e)));
    outs() << "wrote " << emitPath << " and " << header << "\n";
    return 0;
  }
  mlir::FunctionType type = func->getFunctionType();
  if (printStats)
    dlc::collectOpStats(*func).print(outs());
  if (outputPaths.size() > type.getNumResults() ||
      expectPaths.size() > type.getNumResults())
    return fail("the entry function has " + Twine(type.getNumResults()) +
                " outputs, more --output/--expect given");

  Expected<std::vector<Tensor>> inputs = loadInputs(inputSpecs, *func);
  if (!inputs)
    return fail(toString(inputs.takeError()));
  if (Error e = checkInputs(type, *inputs))
    return fail(toString(std::move(e)));
  if (saveInputPaths.size() > inputs->size())
    return fail("the entry function has " + Twine(inputs->size()) + " inputs, more --save-input given");
  for (auto [path, t] : llvm::zip_first(saveInputPaths, *inputs))
    if (Error e = writeNpyFile(path, t))
      return fail(toString(std::move(e)));

  std::vector<Tensor> outputs;
  std::optional<LatencyStats> stats;
  std::optional<Against> against;
  CompileTimes times;
  if (target == "cpu") {
    CacheOptions cache;
    cache.enabled = !noCache;
    cache.dir = cacheDir;
    PassLedger ledger;
    auto exe = compileForCPU(*module, func->getSymName(), pipeline, threads, &cache,
                             compileThreads, passLedgerPath.empty() ? nullptr : &ledger,
                             sourceMgr);
    if (!exe)
      return fail(toString(exe.takeError()));
    if (!passLedgerPath.empty()) {
      ledger.printSummary(errs());
      if (llvm::Error e = ledger.write(passLedgerPath))
        return fail(toString(std::move(e)));
    }
    times = (*exe)->compileTimes();
    errs() << format("compile: graph passes %.1f ms, lowering %.1f ms, "
                     "code generation %.1f ms, cache %.1f ms (%s); total %.1f ms",
                     times.graphPassesMs, times.loweringMs, times.codegenMs,
                     times.cacheMs, cacheName(times.cache), times.totalMs());
    if (times.cache != CompileTimes::Cache::Hit)
      errs() << format("; %lld kernels, %lld distinct; %lld objects, %lld from the cache",
                       (long long)times.kernels, (long long)times.distinctKernels,
                       (long long)times.objects, (long long)times.objectsFromCache);
    if (times.workspaceBytes)
      errs() << format("; buffers %.1f MiB in a workspace of %.1f MiB",
                       times.bufferBytes / 1048576.0, times.workspaceBytes / 1048576.0);
    int64_t weights =
        times.weightBytesWritten + times.weightBytesInPlace + times.weightBytesCopied;
    if (weights) {
      errs() << format("; weights %.1f MiB (written %.1f", weights / 1048576.0,
                       times.weightBytesWritten / 1048576.0);
      if (times.weightBytesPackedInPlace)
        errs() << format(", %.1f of it packed in place", times.weightBytesPackedInPlace / 1048576.0);
      errs() << format(", in the model file %.1f, copied %.1f)", times.weightBytesInPlace / 1048576.0,
                       times.weightBytesCopied / 1048576.0);
    }
    errs() << format("; peak memory %.0f MiB", times.peakMemoryMiB);
    errs() << "\n";
    if (cacheStats) {
      CompileCache store(cache);
      CacheStats st = store.stats();
      outs() << "compile cache: " << cacheName(times.cache) << "; " << st.entries
             << " entries, " << st.bytes << " bytes in " << store.directory() << "\n";
    }
    Expected<std::vector<Tensor>> results = (*exe)->run(*inputs);
    if (!results)
      return fail(toString(results.takeError()));
    outputs = std::move(*results);
    if (bench && !againstFlag.empty()) {
      Expected<Against> a =
          measureAgainst(*module, func->getSymName(), **exe, *inputs, outputs, cache, sourceMgr);
      if (!a)
        return fail(toString(a.takeError()));
      against = std::move(*a);
      stats = against->mine;
    } else if (bench) {
      Expected<LatencyStats> s = (*exe)->benchmark(*inputs, warmup, runs);
      if (!s)
        return fail(toString(s.takeError()));
      stats = std::move(*s);
    }
  } else if (cuda) { // --gpu-emulate
    Expected<CUDADevice> device = probeCUDADevice();
    Expected<GPUTarget> gpu = gpuTargetFromFlags(device);
    consumeError(device.takeError());
    if (!gpu)
      return fail(toString(gpu.takeError()));
    GPUEmulatorOptions emulation;
    emulation.reverse = gpuEmulateReverse;
    GPUEmulatorStats emulated;
    auto start = std::chrono::steady_clock::now();
    Expected<std::vector<Tensor>> results =
        emulateForGPU(*module, func->getSymName(), pipeline, *gpu, *inputs, emulation, &emulated);
    if (!results)
      return fail(toString(results.takeError()));
    outputs = std::move(*results);
    errs() << format("GPU emulator (%s): %lld kernel launches, %lld blocks, %lld threads, "
                     "%.3g ops in %.1f s\n",
                     gpu->chip.c_str(), (long long)emulated.launches, (long long)emulated.blocks,
                     (long long)emulated.threads, double(emulated.ops),
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                         .count());
    if (gpuEmulateKernels) {
      llvm::stable_sort(emulated.kernels,
                        [](const auto &a, const auto &b) { return a.ops > b.ops; });
      outs() << "kernel launches threads ops longest-thread-ops\n";
      for (const GPUEmulatorStats::Kernel &k : emulated.kernels)
        outs() << k.name << " " << k.launches << " " << k.threads << " " << k.ops << " "
               << k.longestThread << "\n";
    }
  } else {
    mlir::FailureOr<std::vector<Tensor>> results = interpret(*func, *inputs);
    if (failed(results))
      return 1;
    outputs = std::move(*results);
    if (bench) {
      Expected<LatencyStats> s = benchmark(
          [&]() -> Error {
            if (failed(interpret(*func, *inputs)))
              return createStringError("the interpreter failed");
            return Error::success();
          },
          warmup, runs);
      if (!s)
        return fail(toString(s.takeError()));
      stats = std::move(*s);
    }
  }
  int64_t batch = inputs->empty() || inputs->front().shape.empty()
                      ? 1 : inputs->front().shape[0];
  if (stats)
    stats->print(outs(), batch);
  if (against) {
    const Estimate &r = against->side.ratio;
    outs() << format("against %s: compile %.1f ms (graph passes %.1f ms), p50 %.3f ms; outputs "
                     "differ by at most %g\n",
                     against->pipeline.c_str(), against->times.totalMs(),
                     against->times.graphPassesMs, against->stats.p50,
                     against->maxAbsDifference)
           << format("latency / %s's: %.3f [95%%: %.3f, %.3f] over %lld rounds of %lld runs "
                     "each: %s\n",
                     against->pipeline.c_str(), r.median, r.low, r.high, (long long)r.n,
                     (long long)against->runsPerRound, verdict(r).str().c_str());
  }
  if (!jsonPath.empty())
    if (Error e = writeReport(jsonPath, argc, argv, times, stats, batch, outputs, against))
      return fail(toString(std::move(e)));

  std::vector<Tensor> expected;
  for (const std::string &path : expectPaths) {
    Expected<Tensor> t = readTensorFile(path);
    if (!t)
      return fail(toString(t.takeError()));
    expected.push_back(std::move(*t));
  }
  std::vector<Comparison> comparisons =
      compareOutputs(outputs, expected, findDetectionOutputs(*func), absTol, relTol);
  bool allMatch = true;
  for (auto [i, t] : llvm::enumerate(outputs)) {
    outs() << "output " << i << ": " << t.describe();
    if (printOutput) {
      outs() << " = ";
      int64_t pos = 0;
      printValues(outs(), t, 0, pos);
    } else {
      printSummary(outs(), t);
    }
    outs() << "\n";
    if (i < outputPaths.size())
      if (Error e = writeNpyFile(outputPaths[i], t))
        return fail(toString(std::move(e)));
    if (i < comparisons.size()) {
      const Comparison &c = comparisons[i];
      if (!c.reason.empty()) {
        outs() << "output " << i << ": MISMATCH with " << expectPaths[i] << ": "
               << c.reason << "\n";
        allMatch = false;
        continue;
      }
      outs() << "output " << i << ": " << (c.match ? "matches " : "MISMATCH with ")
             << expectPaths[i] << " (max abs error " << format("%g", c.maxAbsError)
             << ", max rel error " << format("%g", c.maxRelError);
      if (!c.match)
        outs() << ", " << c.mismatches << " of " << t.size()
               << " elements outside atol " << format("%g", absTol.getValue())
               << " + rtol " << format("%g", relTol.getValue()) << " * |expected|";
      if (c.excusedDetections)
        outs() << "; " << c.excusedDetections
               << " detections unpaired as tied in score at the cut-off";
      outs() << ")\n";
      allMatch &= c.match;
    }
  }
  if (!allMatch)
    return fail("outputs do not match the expected values");
  return 0;
}
