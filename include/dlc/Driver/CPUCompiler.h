//===- CPUCompiler.h - compile a model for the host CPU ---------*- C++ -*-===//
//
// The compiler driver behind `dlc-run --target=cpu`: graph passes, lowering
// through linalg to LLVM (one function per distinct kernel), code generation
// for the host in parallel, the compile cache, and the result loaded as a
// dlc::CPUExecutable. Also ahead-of-time output and printing a phase's IR.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DRIVER_CPUCOMPILER_H
#define DLC_DRIVER_CPUCOMPILER_H

#include "dlc/Conversion/CPUPipeline.h"
#include "dlc/Driver/CompileCache.h"
#include "dlc/Runtime/CPUExecutable.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace dlc {

/// Compiles `entry` of a copy of `module` (the module is not changed) with
/// the graph pipeline `pipeline` (see Pipelines.h). Errors say which phase
/// failed; diagnostics go to the context's handler. `threads` > 1 splits
/// large ops across OpenMP threads. With `cache`, the model's objects are
/// looked up there (the model keyed by the graph after the pipeline, with
/// large weights as arguments, the host CPU, the compiler build and
/// `threads`); on a miss, each object (a distinct kernel, or the glue around
/// the kernels) is looked up by its own IR, so kernels other models compiled
/// are loaded, and the rest compiled and stored. Code generation runs on
/// `compileThreads` threads (0: the machine's cores), one object at a time
/// each. With `ledger`, the graph pipeline's passes are recorded there.
/// The executable copies the model's large weights, but for those the
/// compile wrote (it keeps them) and those lying in a buffer of
/// `weightsSource` (the SourceMgr `loadModel` mapped the file into), which
/// it reads there, holding `weightsSource`: the file must not change while
/// the executable lives.
llvm::Expected<std::unique_ptr<CPUExecutable>>
compileForCPU(mlir::ModuleOp module, llvm::StringRef entry, llvm::StringRef pipeline,
              int64_t threads = 1, const CacheOptions *cache = nullptr,
              unsigned compileThreads = 0, PassLedger *ledger = nullptr,
              const std::shared_ptr<const llvm::SourceMgr> &weightsSource = nullptr);

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

#endif // DLC_DRIVER_CPUCOMPILER_H
