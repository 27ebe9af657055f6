//===- PassUtils.h - helpers shared by the graph passes ---------*- C++ -*-===//
#ifndef DLC_LIB_TRANSFORMS_PASSUTILS_H
#define DLC_LIB_TRANSFORMS_PASSUTILS_H

#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Runtime/Tensor.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "llvm/Support/Error.h"

namespace dlc {

/// Applies `patterns` greedily to `op` and returns how many pattern
/// applications succeeded; emits an error and fails if the driver did not
/// converge.
mlir::FailureOr<int64_t>
applyCountedPatterns(mlir::Operation *op,
                     const mlir::FrozenRewritePatternSet &patterns);

/// A pattern pass's whole run: applies the patterns `populate` adds to `op`
/// with applyCountedPatterns and records the count in the pass ledger as
/// `pass`'s `counter`.
mlir::LogicalResult
applyAndRecordPatterns(mlir::Operation *op, llvm::StringRef pass,
                       llvm::StringRef counter,
                       llvm::function_ref<void(mlir::RewritePatternSet &)> populate);

/// The most elements of a constant the passes read into memory (2^28, 2 GiB
/// as doubles; VGG-16's largest weight has 2^26.6): larger constants are left
/// alone, never a reason to run out of memory at compile time.
constexpr int64_t kMaxConstantElements = int64_t(1) << 28;

/// The result of `op`, an op of constants that FoldConstant computes on
/// their bytes rather than through the interpreter's doubles (data
/// movement, f32 arithmetic, casts between f32, f16 and bf16), as a
/// constant's elements; null for any other op (FoldConstant.cpp).
mlir::ElementsAttr foldOnBytes(mlir::Operation *op);

/// The value of `v` if it is defined by a graph.constant of at most
/// kMaxConstantElements elements.
std::optional<Tensor> constantValue(mlir::Value v);

/// The native bytes of a constant's payload, if it has them: not splats,
/// not i1, and exactly the size its type says (anything else is left to the
/// interpreter, which reports it).
std::optional<llvm::ArrayRef<char>> payloadBytes(graph::ConstantOp c);
/// The same for any constant's elements (an arith.constant's after lowering).
std::optional<llvm::ArrayRef<char>> payloadBytes(mlir::ElementsAttr value);

/// A 64-byte aligned, writable blob of `size` bytes for a payload the
/// compiler computes (folded, transposed, packed weights), on the pages the
/// system gives (no huge-page hint: on the 2-core cloud machines dlc is
/// measured on, first touches of fresh huge pages stalled for up to 1.2 s
/// per 340 MB, while 4 KiB pages cost a steady 0.4 ms per MB; BERT-base
/// compiled in 0.58x the time without the hint).
mlir::AsmResourceBlob allocateBlob(size_t size);

/// `v` is a constant whose elements all equal `x`.
bool isConstantSplat(mlir::Value v, double x);

/// A rewrite's new ops, built off the IR so that a pattern (or pass) can
/// still give up half way with the IR untouched (the greedy driver's
/// contract): each create<OpTy> builds a detached op (result type inferred
/// unless given, then verified) and returns its result, or null when the op
/// is not valid or an operand is null, so that chains need one check at the
/// end. commit() inserts them, in creation order, at the builder's (or
/// rewriter's) insertion point; ops never committed are destroyed with it.
class StagedOps {
public:
  explicit StagedOps(mlir::OpBuilder &builder) : builder(builder) {}
  StagedOps(const StagedOps &) = delete;
  StagedOps &operator=(const StagedOps &) = delete;
  ~StagedOps();

  template <typename OpTy>
  mlir::Value create(mlir::Location loc, mlir::ValueRange operands,
                     llvm::ArrayRef<mlir::NamedAttribute> attrs = {},
                     mlir::Type resultType = {}) {
    return create(loc, OpTy::getOperationName(), operands, attrs, resultType);
  }
  /// The same op kind as `like` (for patterns over several op classes).
  mlir::Value createLike(mlir::Operation *like, mlir::Location loc,
                         mlir::ValueRange operands,
                         llvm::ArrayRef<mlir::NamedAttribute> attrs = {},
                         mlir::Type resultType = {}) {
    return create(loc, like->getName().getStringRef(), operands, attrs, resultType);
  }
  /// A graph.constant holding `value`, or `t`.
  mlir::Value constant(mlir::Location loc, mlir::ElementsAttr value);
  mlir::Value constant(mlir::Location loc, const Tensor &t,
                       llvm::StringRef name = "const");
  /// A rank-0 graph.constant `v` of element type `elementType`.
  mlir::Value scalar(mlir::Location loc, mlir::Type elementType, double v);

  void commit();

private:
  mlir::Value create(mlir::Location loc, llvm::StringRef name,
                     mlir::ValueRange operands,
                     llvm::ArrayRef<mlir::NamedAttribute> attrs,
                     mlir::Type resultType);

  mlir::OpBuilder &builder;
  llvm::SmallVector<mlir::Operation *> ops;
};

/// A graph.constant holding `t`.
mlir::Value createConstant(mlir::OpBuilder &builder, mlir::Location loc,
                           const Tensor &t, llvm::StringRef name = "const");

/// `v` is a graph.constant of one element.
bool isScalarConstant(mlir::Value v);

/// Wraps `ops` (of one block, in block order) into the region op that
/// `create(builder, resultTypes, inputs)` makes (a graph.fused or
/// graph.composite, body empty) at the last op: values from outside become
/// its inputs, except scalar constants, which are copied in (TVM fuses
/// them); results used outside become its results. Returns the region op,
/// or null with nothing changed when no result is used.
mlir::Operation *
wrapInRegion(llvm::ArrayRef<mlir::Operation *> ops,
             llvm::function_ref<mlir::Operation *(mlir::OpBuilder &, mlir::TypeRange,
                                                  mlir::ValueRange)>
                 create);

/// Reads the lines of a data file (pattern tables, mixed-precision lists,
/// target descriptions): `#` starts a comment and blank lines are skipped;
/// each other line must be `key = value`, and `fn(key, value, line)` gets it
/// trimmed. A line without '=' fails with "expected '<form>', got '<line>'";
/// every failure is prefixed with `source:line: `.
llvm::Error forEachSettingLine(
    llvm::StringRef text, llvm::StringRef source, llvm::StringRef form,
    llvm::function_ref<llvm::Error(llvm::StringRef key, llvm::StringRef value,
                                   llvm::StringRef line)>
        fn);

/// `mnemonic` names a graph op that computes (not constant, yield or a
/// region op), as users write op names in pattern tables and lists.
bool isComputeOpName(llvm::StringRef mnemonic, mlir::MLIRContext *ctx);

/// The ranked tensor type of `v`.
inline mlir::RankedTensorType tensorType(mlir::Value v) {
  return llvm::cast<mlir::RankedTensorType>(v.getType());
}

/// When constant `scale` multiplies a tensor of type `target` and varies
/// only along `axis` (every other dimension 1 after numpy alignment, and no
/// broadcast beyond `target`), the `target.dim(axis)` per-channel values.
std::optional<std::vector<double>>
perChannelScale(const Tensor &scale, mlir::RankedTensorType target,
                int64_t axis);

} // namespace dlc

#endif // DLC_LIB_TRANSFORMS_PASSUTILS_H
