//===- CPUExecutable.h - compile a model for the host CPU and run it -*- C++ -*-===//
//
// The C++ API behind `dlc-run --target=cpu`: graph passes, lowering through
// linalg to LLVM, JIT code generation for the host (ORC, host CPU features),
// and calls with host tensors.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_RUNTIME_CPUEXECUTABLE_H
#define DLC_RUNTIME_CPUEXECUTABLE_H

#include "dlc/Conversion/CPUPipeline.h"
#include "dlc/Driver/CompileCache.h"
#include "dlc/Runtime/Bench.h"
#include "dlc/Runtime/Tensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace dlc {

struct Buffer;

struct CompileTimes {
  double graphPassesMs = 0; ///< the graph pipeline
  double loweringMs = 0;    ///< graph to the LLVM dialect
  double codegenMs = 0;     ///< LLVM IR, optimization, machine code
  double cacheMs = 0;       ///< fingerprint, cache look-up and loading the code
  int64_t kernels = 0;      ///< kernels outlined
  int64_t distinctKernels = 0; ///< kernels compiled (after deduplication)
  enum class Cache { Off, Hit, Miss } cache = Cache::Off;
  double totalMs() const { return graphPassesMs + loweringMs + codegenMs + cacheMs; }
};

class CPUExecutable {
public:
  ~CPUExecutable();

  /// Compiles `entry` of a copy of `module` (the module is not changed) with
  /// the graph pipeline `pipeline` (see Pipelines.h). Errors say which phase
  /// failed; diagnostics go to the context's handler.
  /// `threads` > 1 splits large ops across OpenMP threads. With `cache`, the
  /// machine code is looked up there (keyed by the graph after the pipeline,
  /// with large weights as arguments, the host CPU, the compiler build and
  /// `threads`) and stored there when compiled. Code generation runs on
  /// `compileThreads` threads (0: the machine's cores), the functions split
  /// between them.
  static llvm::Expected<std::unique_ptr<CPUExecutable>>
  compile(mlir::ModuleOp module, llvm::StringRef entry, llvm::StringRef pipeline,
          int64_t threads = 1, const CacheOptions *cache = nullptr,
          unsigned compileThreads = 0);

  /// Runs on `inputs` (checked against the entry's signature).
  llvm::Expected<std::vector<Tensor>> run(llvm::ArrayRef<Tensor> inputs);

  /// Times the compiled function alone (inputs are converted once, before
  /// the warm-up), as METHODOLOGY.md says.
  llvm::Expected<LatencyStats> benchmark(llvm::ArrayRef<Tensor> inputs,
                                         int64_t warmup, int64_t runs);

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

/// Ahead-of-time output: compiles `entry` to an object file at `objectPath`
/// (for the host CPU, relocatable as PIC) and writes `headerPath`, a C header
/// declaring `int <entry>_run(void *const inputs[], void *const outputs[])`
/// over plain contiguous buffers (row-major, native element types). With
/// `shared`, links `objectPath` into a shared library at `sharedPath` (with
/// the system C compiler and MLIR's C runner utilities).
llvm::Error emitAOT(mlir::ModuleOp module, llvm::StringRef entry,
                    llvm::StringRef pipeline, llvm::StringRef objectPath,
                    llvm::StringRef headerPath, llvm::StringRef sharedPath = "",
                    int64_t threads = 1);

/// Prints `entry`'s module after the graph pipeline and the CPU lowering up
/// to `phase` (`--compile-to`).
llvm::Error printLowered(mlir::ModuleOp module, llvm::StringRef pipeline,
                         Phase phase, llvm::raw_ostream &os, int64_t threads = 1);

} // namespace dlc

#endif // DLC_RUNTIME_CPUEXECUTABLE_H
