//===- CPUSchedules.cpp - shapes of the CPU kernels ------------------------===//
#include "CPUSchedules.h"
#include "dlc/Support/Shape.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

std::optional<int64_t> dlc::cpu::panelWidth(AffineMap bMap) {
  if (bMap.getNumResults() < 3)
    return std::nullopt;
  ArrayRef<AffineExpr> r = bMap.getResults().take_back(3);
  auto panel = dyn_cast<AffineBinaryOpExpr>(r[0]);
  auto lane = dyn_cast<AffineBinaryOpExpr>(r[2]);
  if (!panel || !lane || panel.getKind() != AffineExprKind::FloorDiv ||
      lane.getKind() != AffineExprKind::Mod || !isa<AffineDimExpr>(r[1]) ||
      !isa<AffineDimExpr>(panel.getLHS()) || panel.getLHS() != lane.getLHS() ||
      panel.getRHS() != lane.getRHS())
    return std::nullopt;
  auto width = dyn_cast<AffineConstantExpr>(panel.getRHS());
  if (!width || width.getValue() <= 0)
    return std::nullopt;
  return width.getValue();
}

AffineMap dlc::cpu::panelMap(unsigned numLoops, ProductDims d, int64_t width, MLIRContext *ctx,
                             ArrayRef<AffineExpr> batch) {
  AffineExpr n = getAffineDimExpr(d.n, ctx), k = getAffineDimExpr(d.k, ctx);
  SmallVector<AffineExpr> results(batch);
  results.append({n.floorDiv(width), k, n % width});
  return AffineMap::get(numLoops, 0, results, ctx);
}

std::optional<int64_t> dlc::cpu::pairPanelWidth(AffineMap bMap) {
  if (bMap.getNumResults() < 4)
    return std::nullopt;
  ArrayRef<AffineExpr> r = bMap.getResults().take_back(4);
  // `e` as (dim kind c): the dim and the constant c > 0.
  auto split = [](AffineExpr e, AffineExprKind kind) -> std::optional<std::pair<AffineExpr, int64_t>> {
    auto b = dyn_cast<AffineBinaryOpExpr>(e);
    if (!b || b.getKind() != kind || !isa<AffineDimExpr>(b.getLHS()))
      return std::nullopt;
    auto c = dyn_cast<AffineConstantExpr>(b.getRHS());
    if (!c || c.getValue() <= 0)
      return std::nullopt;
    return std::make_pair(b.getLHS(), c.getValue());
  };
  auto panel = split(r[0], AffineExprKind::FloorDiv), pair = split(r[1], AffineExprKind::FloorDiv),
       lane = split(r[2], AffineExprKind::Mod), half = split(r[3], AffineExprKind::Mod);
  if (!panel || !pair || !lane || !half || panel != lane || pair != half || pair->second != 2 ||
      pair->first == panel->first)
    return std::nullopt;
  return panel->second;
}

AffineMap dlc::cpu::pairPanelMap(unsigned numLoops, ProductDims d, int64_t width,
                                 MLIRContext *ctx) {
  AffineExpr n = getAffineDimExpr(d.n, ctx), k = getAffineDimExpr(d.k, ctx);
  return AffineMap::get(numLoops, 0, {n.floorDiv(width), k.floorDiv(2), n % width, k % 2}, ctx);
}

/// Whether `v`, of a static-shaped tensor or a buffer contiguous along its
/// last dimension, has element type `element`.
static bool operandOf(Value v, Type element) {
  auto type = dyn_cast<ShapedType>(v.getType());
  auto memref = dyn_cast<MemRefType>(v.getType());
  return type && type.getElementType() == element && type.getRank() >= 2 &&
         (!memref || memref.areTrailingDimsContiguous(1));
}

/// The elementwise and reduction ops of an f32 multiply-accumulate body.
static bool isMulAdd(Operation *mul, Operation *add) {
  return isa<arith::MulFOp>(mul) && isa<arith::AddFOp>(add);
}

/// A contraction whose B is packed: linalg's ContractionOpInterface takes
/// projected permutations only, so the maps are checked by productDims and
/// the body here.
static bool isPackedContraction(linalg::LinalgOp op) {
  return dlc::cpu::panelWidth(op.getIndexingMapsArray()[1]) &&
         linalg::detail::isContractionBody(*op.getBlock(), isMulAdd);
}

bool dlc::cpu::isF32Contraction(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1 ||
      !(linalg::isaContractionOpInterface(op) || isPackedContraction(op)) ||
      llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
    return false;
  Type f32 = Float32Type::get(op.getContext());
  return llvm::all_of(op->getOperands(), [&](Value v) { return operandOf(v, f32); });
}

bool dlc::cpu::isPairProduct(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1 ||
      !pairPanelWidth(op.getIndexingMapsArray()[1]) ||
      llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
    return false;
  Builder b(op.getContext());
  if (!operandOf(op.getDpsInputs()[0], b.getBF16Type()) ||
      !operandOf(op.getDpsInputs()[1], b.getBF16Type()) ||
      !operandOf(op.getDpsInits()[0], b.getF32Type()))
    return false;
  // yield(addf(out, mulf(extf(a), extf(b)))), in either operand order:
  // linalg's contraction body whose only unary ops are the two widenings.
  Block &body = *op.getBlock();
  return body.getOperations().size() == 5 &&
         llvm::count_if(body, [](Operation &o) { return isa<arith::ExtFOp>(o); }) == 2 &&
         linalg::detail::isContractionBody(body, isMulAdd);
}

std::optional<dlc::cpu::ProductDims> dlc::cpu::matchProduct(linalg::LinalgOp op) {
  if (!isF32Contraction(op) && !isPairProduct(op))
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
  auto lhsDim = [](AffineExpr e) {
    return cast<AffineDimExpr>(cast<AffineBinaryOpExpr>(e).getLHS()).getPosition();
  };
  if (panelWidth(maps[1])) {
    ArrayRef<AffineExpr> r = maps[1].getResults().take_back(3);
    bk = cast<AffineDimExpr>(r[1]).getPosition();
    bn = lhsDim(r[0]);
  } else if (pairPanelWidth(maps[1])) {
    ArrayRef<AffineExpr> r = maps[1].getResults().take_back(4);
    bk = lhsDim(r[1]);
    bn = lhsDim(r[0]);
  }
  if (!am || !ak || !bk || !bn || !cm || !cn || *am != *cm || *bn != *cn || *ak != *bk ||
      iterators[*ak] != utils::IteratorType::reduction || maps[1].isFunctionOfDim(*am) ||
      maps[0].isFunctionOfDim(*bn))
    return std::nullopt;
  return ProductDims{*am, *bn, *ak};
}

dlc::cpu::RegisterTile dlc::cpu::productTile(linalg::LinalgOp op, ProductDims d,
                                             int64_t vectorBits) {
  if (std::optional<int64_t> width = packedWidth(op.getIndexingMapsArray()[1]))
    return registerTile(vectorBits, *width);
  return registerTile(vectorBits, op.getStaticLoopRanges()[d.n]);
}

int64_t dlc::cpu::cacheTile(int64_t range, int64_t step, int64_t limit) {
  int64_t t = dividingTile(range, step, limit);
  return t ? t : range;
}

bool dlc::cpu::readsLargeB(linalg::LinalgOp op, ProductDims d) {
  if (!isF32Contraction(op) && !isPairProduct(op))
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t bytes = getElementTypeOrSelf(op.getDpsInputs()[1]).getIntOrFloatBitWidth() / 8;
  // Half of a 1 MiB L2 cache, the other half for A's and C's tiles.
  constexpr int64_t kLargeBBytes = 512 * 1024;
  return ranges[d.k] * ranges[d.n] * bytes > kLargeBBytes;
}

int64_t dlc::cpu::cacheTileM(int64_t m, RegisterTile reg, bool largeB) {
  // Where no tile of 4 to 16 register tiles of rows divides m, those of B's
  // smaller size: an m of 272 takes 16 rows rather than all of them.
  int64_t t = largeB ? dividingTile(m, reg.mr, 16 * reg.mr) : 0;
  if (t == 0)
    t = cacheTile(m, reg.mr, 8 * reg.mr);
  // Where no multiple of the register tile's rows divides an m longer than
  // any layer's channels (an NHWC convolution's 3136 or 12544 positions,
  // with 6-row tiles), a divisor that is not one, whose last partial
  // register tile the product kernel peels: whole rows would make each
  // tile's output megabytes.
  if (t == m && m > 2048)
    t = anyRowTile(m, reg);
  return t;
}
int64_t dlc::cpu::anyRowTile(int64_t m, RegisterTile reg) { return cacheTile(m, 1, 8 * reg.mr); }
int64_t dlc::cpu::cacheTileN(int64_t n, RegisterTile reg) { return cacheTile(n, reg.nr, 256); }
int64_t dlc::cpu::cacheTileK(int64_t k) { return cacheTile(k, 1, 256); }

int64_t dlc::cpu::cacheBlockN(int64_t n, RegisterTile reg) {
  constexpr int64_t kBlock = 256;
  int64_t t = cacheTileN(n, reg);
  return t == n && n > kBlock ? kBlock : t;
}
