//===- KernelCalls.h - calls of kernel functions merged into one -*- C++ -*-===//
//
// After bufferization every FuseOps group is a call of a kernel function
// (private, `dlc.kernel`) writing buffers its caller passes. Consecutive
// calls may become one call of a new function running their bodies in turn,
// which dlc-gpu-map-to-threads then lowers as one: a row kernel
// (dlc-gpu-merge-row-kernels), a product with its consumer
// (dlc-gpu-merge-epilogues).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_CONVERSION_LINALGTOGPU_KERNELCALLS_H
#define DLC_CONVERSION_LINALGTOGPU_KERNELCALLS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"

namespace dlc {

/// The unit attribute of a function whose callers pass it buffers that do
/// not overlap, one per argument (mergeCalls' functions).
inline constexpr llvm::StringLiteral kDistinctArguments = "dlc.distinct_arguments";

/// The kernel function `call` calls, if it calls one that may be merged:
/// private, `dlc.kernel`, of one block and no results.
mlir::func::FuncOp kernelCallee(mlir::func::CallOp call, mlir::SymbolTable &symbols);

/// Whether `op`, between two calls being merged, touches no buffer's
/// contents: an allocation, a reshape, a global's address, a constant.
bool isBetweenCalls(mlir::Operation &op);

/// A new function, named after the first callee with `suffix` and inserted
/// before it, of kind `kind` (its `dlc.kernel`), running the bodies of the
/// callees of `calls` in turn. Its arguments are the buffers the calls pass
/// (the roots of their views, each once; the views made again inside) but
/// those in `own`, allocations of the caller that the function allocates
/// itself instead, and the calls' other operands; they are appended to
/// `passed`. Buffers passed this way do not overlap: the function says so
/// (kDistinctArguments). Null, nothing made, if a view uses a value of the
/// caller that is not passed.
mlir::func::FuncOp mergeCalls(mlir::IRRewriter &rewriter, mlir::SymbolTable &symbols,
                              llvm::ArrayRef<mlir::func::CallOp> calls, llvm::StringRef suffix,
                              llvm::StringRef kind, llvm::ArrayRef<mlir::Value> own,
                              llvm::SmallVectorImpl<mlir::Value> &passed);

/// Writes into the destination of each copy in `func`'s body whose source
/// is a buffer of the function, of the same type, used only before the
/// copy, instead of into the source: the copy (a kernel of its own) goes,
/// and so do the source and its deallocations. The destination (a buffer
/// or a reshape of one, defined before the source) must not be used while
/// the source is. A kernel function's body writes its result into its
/// caller's buffer this way. Then folds what that (or merging calls) made
/// foldable, a reshape of a buffer read through the reshape back, so that
/// the fusions found afterwards record operands no later fold changes.
/// Returns how many copies went; failure if the folds do not converge.
mlir::FailureOr<int64_t> forwardCopies(mlir::RewriterBase &rewriter, mlir::func::FuncOp func);

/// Erases `buffer`, an allocation, with its views and deallocations, if
/// nothing else uses them (its writers fused into a kernel, or merged
/// into a function that allocates it). Returns whether it did.
bool eraseIfUnused(mlir::RewriterBase &rewriter, mlir::Value buffer);

} // namespace dlc

#endif // DLC_CONVERSION_LINALGTOGPU_KERNELCALLS_H
