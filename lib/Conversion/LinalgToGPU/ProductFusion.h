//===- ProductFusion.h - elementwise ops computed in a product's kernel -*- C++ -*-===//
//
// The elementwise ops around a tiled matrix product that its kernel computes
// too, so that they launch no kernel and pass no buffer of their own: the
// ops producing its inputs by moving or widening elements (a convolution's
// im2col and padding, a transpose, a conversion from f16), the op giving its output initial values (a zero
// fill, a bias broadcast) and the ops consuming the output (epilogues:
// bias, residual, activation; a copy into the caller's buffer; then a
// conversion, a transpose into the layout a consumer wants).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_CONVERSION_LINALGTOGPU_PRODUCTFUSION_H
#define DLC_CONVERSION_LINALGTOGPU_PRODUCTFUSION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace dlc {

/// The buffer `v` views (itself if it is no view).
mlir::Value rootOf(mlir::Value v);

/// Whether `v` is a buffer or a reshape of one (elementOf follows
/// reshapes, not other views).
bool isReshapeOfRoot(mlir::Value v);

/// Calls `visit` on each user of `buffer` and of its views, transitively,
/// that is not itself a view of them.
void forEachAccess(mlir::Value buffer, llvm::function_ref<void(mlir::Operation *)> visit);

/// Whether a user of `buffer` or of its views, other than `except` and
/// deallocations, lies in the block of `first` from `first` to `last`, or in
/// none of its ops.
bool usedBetween(mlir::Value buffer, mlir::Operation *first, mlir::Operation *last,
                 mlir::Operation *except);

/// How a buffer that only a product reads (directly or through its
/// producers; the function's own, or an argument overwritten after the
/// product) is computed where it is read instead: by `gather`, an op of one
/// iteration per element yielding an element of its input or that element
/// widened (an im2col, a transpose, an arith.extf); or as a padding, `fill`
/// writing one value everywhere and `paste` then copying a buffer into the
/// window at `offsets`.
struct FusedBuffer {
  mlir::linalg::LinalgOp gather, fill, paste;
  llvm::SmallVector<int64_t> offsets;
};

struct ProductFusion {
  /// Writes the product's output buffer just before the product, one
  /// iteration per element: its iteration at an element gives the
  /// element's initial value. Null: the initial values are loaded.
  mlir::linalg::LinalgOp init;
  /// An op the kernel computes after the product, one iteration per
  /// element: the first reads the product's output (or a reshape of it)
  /// just after the product and writes other buffers (an epilogue: bias,
  /// residual, activation; a copy into the caller's buffer); each next one
  /// reads, just after the one before, the one buffer it writes (a
  /// conversion to f16, then a transpose into the layout a consumer wants).
  struct Epilogue {
    mlir::linalg::LinalgOp op;
    /// The operand reading what the kernel computed before: an input, or
    /// (the first epilogue only) the product's output it updates in place.
    mlir::OpOperand *input = nullptr;
    /// Whether what it reads is stored too: a buffer of the caller's, or
    /// read after the kernel, which no later epilogue updates.
    bool storeInput = true;
  };
  /// Empty: the product's results are only stored.
  llvm::SmallVector<Epilogue, 1> epilogues;
  /// The buffers the product's inputs view whose elements it computes.
  llvm::DenseMap<mlir::Value, FusedBuffer> inputs;

  /// Every op fused: erased with the product.
  llvm::SmallVector<mlir::Operation *> ops() const;
};

/// The ops around `product` (a buffer-semantics linalg op with one output)
/// its kernel can compute, none of them in `taken` (fused into another
/// product already).
ProductFusion findProductFusion(mlir::linalg::LinalgOp product,
                                const llvm::SmallPtrSetImpl<mlir::Operation *> &taken);

/// Moves the ops between `product` and the last epilogue of `fusion` that
/// are no epilogue (views and constants the epilogues use) before `product`,
/// whose kernel computes the epilogues.
void moveEpilogueOperands(mlir::RewriterBase &rewriter, mlir::Operation *product,
                          const ProductFusion &fusion);

/// The initial value of `product`'s output element at `indices` (the
/// output's): computed by the op `fusion` fused writing it, else loaded.
mlir::Value initialValue(mlir::OpBuilder &b, mlir::linalg::LinalgOp product,
                         const ProductFusion &fusion, mlir::ValueRange indices);

/// Stores `result`, `product`'s output element at `indices`, or hands it to
/// the epilogues `fusion` fused in turn, or both.
void storeResult(mlir::OpBuilder &b, mlir::linalg::LinalgOp product,
                 const ProductFusion &fusion, mlir::ValueRange indices, mlir::Value result);

/// The values of the loops of `op` at which `operand` (indexed by a
/// permutation of them) is at `indices`.
llvm::SmallVector<mlir::Value> loopsAt(mlir::linalg::LinalgOp op, mlir::OpOperand &operand,
                                       mlir::ValueRange indices);

/// The indices `map` gives at `loops`.
llvm::SmallVector<mlir::Value> applyMap(mlir::OpBuilder &b, mlir::Location loc, mlir::AffineMap map,
                                        mlir::ValueRange loops);

/// Loads an element of a buffer.
using ElementLoader =
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Value, mlir::ValueRange)>;

/// Emits the iteration of `op` at `loops`: its operands that the body reads
/// loaded, the inputs with `load` (memref.load if null; those in `given`
/// are not loaded: their values are given), its body; returns the values
/// it yields.
llvm::SmallVector<mlir::Value>
emitIteration(mlir::OpBuilder &b, mlir::linalg::LinalgOp op, mlir::ValueRange loops,
              llvm::ArrayRef<std::pair<mlir::OpOperand *, mlir::Value>> given = {},
              ElementLoader load = {});

/// A condition under which a value is taken, and the value taken otherwise.
using Guard = std::pair<mlir::Value, mlir::Value>;

/// The element of `buffer` at `indices`: computed by the producers
/// `fusion` fused where `buffer` views one of their buffers, else loaded.
/// With `guards`, the paddings' selections are not applied but appended
/// there, innermost first: a load a step ahead is not waited for until
/// they are.
mlir::Value elementOf(mlir::OpBuilder &b, mlir::Location loc, const ProductFusion &fusion,
                      mlir::Value buffer, mlir::ValueRange indices,
                      llvm::SmallVectorImpl<Guard> *guards = nullptr);

/// The buffer whose elements `buffer`'s are, unchanged or widened
/// (arith.extf), each chunk of `values` consecutive along `buffer`'s last
/// dimension from a multiple of `values` consecutive in it: `buffer`
/// itself where no producer is fused into it and it has a static shape and
/// the identity layout; else, through reshapes (of the identity layout:
/// they keep the elements' order), the source of the fused producer
/// computing it, found so in turn: of a gather computing it element for
/// element, or keeping the last dimension (a whole number of chunks) last
/// (a transpose of the others, an im2col whose innermost loop walks a
/// pixel's channels); or of a padding by zeros along other dimensions than
/// the last (a chunk is zeros or the pasted buffer's). Null if there is
/// none.
mlir::Value contiguousSource(const ProductFusion &fusion, mlir::Value buffer, int64_t values);

/// The indices in contiguousSource(fusion, buffer, ...) of the element of
/// `buffer` at `indices`; through paddings, the condition that it is
/// inside their windows is and-ed into `inside` (null: always), the
/// indices clamped into the buffer outside.
llvm::SmallVector<mlir::Value> sourceIndices(mlir::OpBuilder &b, mlir::Location loc,
                                             const ProductFusion &fusion, mlir::Value buffer,
                                             mlir::ValueRange indices, mlir::Value &inside);

/// The float type narrower than f32 (f16, bf16) whose values every element
/// of `buffer` is, as elementOf computes it: a fused conversion widened
/// each from it (read through paddings of such values and moves); null if
/// not known.
mlir::Type narrowType(const ProductFusion &fusion, mlir::Value buffer);

/// `linear` split into indices of `basis` (the last fastest), in 32-bit
/// arithmetic where the basis allows (a 64-bit division by a constant
/// costs a GPU several times more).
llvm::SmallVector<mlir::Value> delinearize(mlir::OpBuilder &b, mlir::Location loc,
                                           mlir::Value linear, llvm::ArrayRef<int64_t> basis);

/// Stores `values` (yielded by an iteration of `op` at `loops`) into its
/// outputs.
void storeIteration(mlir::OpBuilder &b, mlir::linalg::LinalgOp op, mlir::ValueRange loops,
                    mlir::ValueRange values);

/// The indices into `view` (the product's output or a reshape of it) of
/// the output's element at `indices`.
llvm::SmallVector<mlir::Value> viewIndices(mlir::OpBuilder &b, mlir::Location loc,
                                           mlir::Value view, mlir::ValueRange indices);

} // namespace dlc

#endif // DLC_CONVERSION_LINALGTOGPU_PRODUCTFUSION_H
