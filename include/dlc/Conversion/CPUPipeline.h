//===- CPUPipeline.h - graph dialect to LLVM for the host CPU ---*- C++ -*-===//
#ifndef DLC_CONVERSION_CPUPIPELINE_H
#define DLC_CONVERSION_CPUPIPELINE_H

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <optional>

namespace mlir {
class DenseResourceElementsAttr;
class DialectRegistry;
class ModuleOp;
} // namespace mlir

namespace dlc {

/// Where lowering stops (`--compile-to`).
enum class Phase { Graph, Linalg, Loops, LLVM };
std::optional<Phase> parsePhase(llvm::StringRef name);

/// Whether a pass may overwrite a constant's payload: one its compile
/// wrote, which nothing outside the compile's copy of the model reads.
using PayloadPredicate = std::function<bool(mlir::DenseResourceElementsAttr)>;

/// The start of every target's lowering: graph canonicalization, one
/// function per kernel (a fused region or a lone op), the target's passes
/// on those kernels while they are graph ops (`onKernels`), graph to linalg
/// on tensors, chains of elementwise linalg ops fused (math producers
/// another user keeps materialized fused too with `recomputeSharedMath`).
void buildGraphToKernelsPipeline(
    mlir::OpPassManager &pm, bool recomputeSharedMath = false,
    llvm::function_ref<void(mlir::OpPassManager &)> onKernels = nullptr);
/// One-shot bufferization of the whole module, results becoming
/// out-parameters (caller-provided buffers).
void buildBufferizationPipeline(mlir::OpPassManager &pm);

/// Adds the passes that lower a graph-dialect module (after its graph
/// passes) for the host CPU, stopping after `stopAfter`:
///   linalg: convert-graph-to-linalg, elementwise fusion;
///   loops:  one-shot bufferization (results become out-parameters, buffers
///           are deallocated), linalg to loops;
///   llvm:   everything to the LLVM dialect, with C interfaces.
/// With `threads` > 1, large linalg ops are split across that many OpenMP
/// threads (the code then needs libomp at run time). The weights' payloads
/// that `overwritable` accepts are packed within themselves.
void buildCPULoweringPipeline(mlir::OpPassManager &pm, Phase stopAfter = Phase::LLVM,
                              int64_t threads = 1, PayloadPredicate overwritable = {});
/// The two parts of the CPU lowering, which buildCPULoweringPipeline adds in
/// turn: the kernels (graph to linalg, one function per kernel, the constant
/// B operands of matrix products packed into panels), then their code
/// (tiling, threads, bufferization, vectorization, LLVM). Between the two,
/// the JIT turns the large constants, packed ones included, into arguments.
/// Both split work between `threads`.
void buildCPUKernelsPipeline(mlir::OpPassManager &pm, int64_t threads,
                             PayloadPredicate overwritable = {});
void buildCPUCodePipeline(mlir::OpPassManager &pm, Phase stopAfter, int64_t threads);

/// Runs a lowering pipeline (CPU or GPU) on `module`, verifying the IR once
/// at the end rather than after every pass: between the passes of the CPU
/// lowering, the verifier took a third of its time (ResNet-50: 0.55 of
/// 1.5 s). With DLC_VERIFY_EACH=1 in the environment it verifies after
/// every pass, to find the pass that broke the IR.
mlir::LogicalResult runLoweringPipeline(mlir::PassManager &pm, mlir::ModuleOp module);

/// Dialects and interfaces the CPU pipeline needs (bufferization models,
/// LLVM IR translation).
void registerCPUCompilerDialects(mlir::DialectRegistry &registry);

} // namespace dlc

#endif // DLC_CONVERSION_CPUPIPELINE_H
