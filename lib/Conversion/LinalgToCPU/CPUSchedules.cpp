//===- CPUSchedules.cpp - shapes of the CPU kernels ------------------------===//
#include "CPUSchedules.h"

using namespace mlir;

bool dlc::cpu::isF32Contraction(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1 ||
      !linalg::isaContractionOpInterface(op) ||
      llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
    return false;
  return llvm::all_of(op->getOperands(), [](Value v) {
    auto type = dyn_cast<ShapedType>(v.getType());
    auto memref = dyn_cast<MemRefType>(v.getType());
    return type && type.getElementType().isF32() && type.getRank() >= 2 &&
           (!memref || memref.areTrailingDimsContiguous(1));
  });
}

std::optional<dlc::cpu::ProductDims> dlc::cpu::matchProduct(linalg::LinalgOp op) {
  if (!isF32Contraction(op))
    return std::nullopt;
  return productDims(op.getIndexingMapsArray(), op.getIteratorTypesArray());
}

std::optional<dlc::cpu::ProductDims>
dlc::cpu::productDims(ArrayRef<AffineMap> maps, ArrayRef<utils::IteratorType> iterators) {
  auto last = [&](unsigned operand, unsigned fromEnd) -> std::optional<unsigned> {
    AffineMap map = maps[operand];
    if (map.getNumResults() <= fromEnd)
      return std::nullopt;
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(map.getNumResults() - 1 - fromEnd));
    return dim ? std::optional<unsigned>(dim.getPosition()) : std::nullopt;
  };
  std::optional<unsigned> am = last(0, 1), ak = last(0, 0), bk = last(1, 1), bn = last(1, 0),
                          cm = last(2, 1), cn = last(2, 0);
  if (!am || !ak || !bk || !bn || !cm || !cn || *am != *cm || *bn != *cn || *ak != *bk ||
      iterators[*ak] != utils::IteratorType::reduction || maps[1].isFunctionOfDim(*am) ||
      maps[0].isFunctionOfDim(*bn))
    return std::nullopt;
  return ProductDims{*am, *bn, *ak};
}

int64_t dlc::cpu::cacheTile(int64_t range, int64_t step, int64_t limit) {
  for (int64_t t = std::min(range, limit) / step * step; t >= std::max(step, limit / 4);
       t -= step)
    if (range % t == 0)
      return t;
  return range;
}

int64_t dlc::cpu::cacheTileM(int64_t m, RegisterTile reg) { return cacheTile(m, reg.mr, 8 * reg.mr); }
int64_t dlc::cpu::cacheTileN(int64_t n, RegisterTile reg) { return cacheTile(n, reg.nr, 256); }
int64_t dlc::cpu::cacheTileK(int64_t k) { return cacheTile(k, 1, 256); }
