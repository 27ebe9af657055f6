//===- CPUExecutable.h - run machine code compiled for the host CPU -*- C++ -*-===//
//
// A compiled model, ready to run: its objects loaded into a JIT of its own
// (ORC), its weights in host buffers, calls and benchmarks with host
// tensors. dlc::compileForCPU (dlc/Driver/CPUCompiler.h) makes one; nothing
// here compiles, so programs that only run models need none of the passes.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_RUNTIME_CPUEXECUTABLE_H
#define DLC_RUNTIME_CPUEXECUTABLE_H

#include "dlc/Runtime/Bench.h"
#include "dlc/Runtime/Tensor.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <vector>

namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace dlc {

struct Buffer;

/// Constants of at least this many elements are fed to the compiled code as
/// arguments (weights), not embedded in it.
inline constexpr int64_t kWeightArgumentElements = 4096;

struct CompileTimes {
  double graphPassesMs = 0; ///< the graph pipeline
  double loweringMs = 0;    ///< graph to the LLVM dialect
  double codegenMs = 0;     ///< LLVM IR, optimization, machine code
  double cacheMs = 0;       ///< fingerprint, cache look-up and loading the code
  int64_t kernels = 0;      ///< kernels outlined
  int64_t distinctKernels = 0; ///< kernels compiled (after deduplication)
  int64_t objects = 0;          ///< objects code generation made (one per distinct kernel, one for the rest)
  int64_t objectsFromCache = 0; ///< of them, loaded from the cache (shared with another model)
  int64_t bufferBytes = 0;    ///< the model function's buffers, kernels' workspaces among them (dlc-cpu-plan-buffers)
  int64_t workspaceBytes = 0; ///< the workspace they share, kept between runs
  enum class Cache { Off, Hit, Miss } cache = Cache::Off;
  double peakMemoryMiB = 0; ///< the process's peak resident memory after compiling
  int64_t weightBytesWritten = 0; ///< weights the compile wrote (packed, folded), kept as they are
  int64_t weightBytesPackedInPlace = 0; ///< of them, packed within the payloads its graph passes wrote
  int64_t weightBytesInPlace = 0; ///< weights read where the model file holds them
  int64_t weightBytesCopied = 0;  ///< weights copied into buffers of the executable
  double totalMs() const { return graphPassesMs + loweringMs + codegenMs + cacheMs; }
};

class CPUExecutable {
public:
  ~CPUExecutable();

  /// A large constant fed to the compiled code as an argument: its bytes
  /// are copied, unless the executable is given their blob to keep (a
  /// payload the compile wrote, such as packed weights) or something that
  /// keeps them alive and unchanged (the model file's buffer they lie in).
  struct Weight {
    llvm::ArrayRef<char> bytes; ///< native element encoding
    llvm::SmallVector<int64_t> shape;
    std::optional<mlir::AsmResourceBlob> owned; ///< holds `bytes` when set
    std::shared_ptr<const void> keepAlive;      ///< else, holds `bytes` when set
  };

  /// Loads `objects` (relocatable, for this host, with the packed entry
  /// point `_mlir__mlir_ciface_<symbol>`) into a JIT of their own with the
  /// runtime libraries. `signature` is the model's (inputs, then results);
  /// `weights` are appended to the inputs on every call.
  static llvm::Expected<std::unique_ptr<CPUExecutable>>
  load(llvm::ArrayRef<std::string> objects, llvm::StringRef symbol,
       mlir::FunctionType signature, llvm::MutableArrayRef<Weight> weights,
       const CompileTimes &times);

  /// Runs on `inputs` (checked against the entry's signature).
  llvm::Expected<std::vector<Tensor>> run(llvm::ArrayRef<Tensor> inputs);

  /// Times the compiled function alone (inputs are converted once, before
  /// the warm-up), as METHODOLOGY.md says: `warmup` untimed runs and at
  /// least `minWarmupMs` of them, then `runs` timed ones.
  llvm::Expected<LatencyStats> benchmark(llvm::ArrayRef<Tensor> inputs,
                                         int64_t warmup, int64_t runs,
                                         double minWarmupMs = 200);

  const CompileTimes &compileTimes() const { return times; }

private:
  struct Call;
  CPUExecutable() = default;
  llvm::Expected<std::unique_ptr<Call>> prepare(llvm::ArrayRef<Tensor> inputs);
  llvm::Error invoke(Call &call);
  std::unique_ptr<llvm::orc::LLJIT> jit; ///< holds the loaded machine code
  void (*entryFn)(void **) = nullptr;     ///< the packed entry point
  std::vector<Buffer> weights; ///< hoisted constants, native bytes
  std::vector<llvm::SmallVector<int64_t>> weightShapes;
  mlir::FunctionType signature;
  std::string symbol;
  CompileTimes times;
};

} // namespace dlc

#endif // DLC_RUNTIME_CPUEXECUTABLE_H
