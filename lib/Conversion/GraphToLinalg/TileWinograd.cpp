//===- TileWinograd.cpp - a Winograd convolution band by band -------------===//
//
// graph-to-linalg lowers a conv2d_winograd to four stages over all of its
// tiles (the tiles' copy, the input transform, the batched product, the
// output transform), and the CPU splits each stage between its threads
// along that stage's own dimensions (channels, columns, transform points),
// so that each thread mostly reads what another wrote. Here the kernel
// becomes one loop over bands of tile rows instead: each band is a
// convolution of its own slice of the input, padded once before the loop,
// with its elementwise epilogue, and goes through every stage in one
// core's cache. The body stays graph ops on slices; graph-to-linalg lowers
// them where they are.
//
//===----------------------------------------------------------------------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Support/Shape.h"
#include "dlc/Support/Winograd.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace dlc {
#define GEN_PASS_DEF_TILEWINOGRADPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {
/// Whether `v` is read whole by every band of `out`, whose channels are
/// dimension `channel`: a scalar or a value per channel (every other
/// dimension 1 or absent).
bool perChannel(Value v, RankedTensorType out, int64_t channel) {
  auto t = cast<RankedTensorType>(v.getType());
  int64_t rank = out.getRank();
  if (t.getRank() > rank)
    return false;
  int64_t lead = rank - t.getRank();
  for (auto [i, d] : llvm::enumerate(t.getShape()))
    if (d != 1 && (int64_t(i) + lead != channel || d != out.getDimSize(channel)))
      return false;
  return true;
}

/// The chain of ops after `conv` that a band computes on its own output:
/// each the only user of the one before, in the same block, elementwise or
/// broadcast, of the convolution's shape, its other operands per channel
/// or scalars; an op with an `axis` (a bias_add's, a quantize's) only along
/// the channels.
SmallVector<Operation *> epilogue(graph::Conv2DWinogradOp conv, int64_t channel) {
  SmallVector<Operation *> chain;
  Value v = conv.getResult();
  RankedTensorType out = conv.getType();
  while (v.hasOneUse()) {
    Operation *user = *v.getUsers().begin();
    graph::OpPatternKind kind = graph::getOpPatternKind(user);
    if (user->getBlock() != conv->getBlock() || user->getNumResults() != 1 ||
        (kind != graph::OpPatternKind::ElemWise && kind != graph::OpPatternKind::Broadcast))
      break;
    if (cast<RankedTensorType>(user->getResult(0).getType()).getShape() != out.getShape() ||
        llvm::any_of(user->getOperands(), [&](Value operand) {
          return operand != v && !perChannel(operand, out, channel);
        }))
      break;
    if (auto axis = user->getAttrOfType<IntegerAttr>("axis");
        axis && normalizeAxis(axis.getInt(), out.getRank()) != channel)
      break;
    chain.push_back(user);
    v = user->getResult(0);
  }
  return chain;
}

/// Where a convolution's layout keeps the channels, rows and columns, its
/// tiles' size (m outputs, alpha inputs a side), and its output's tile rows
/// and columns.
struct Tiles {
  int64_t ci, hi, wi, m, alpha, rows, cols;
};

Tiles tilesOf(graph::Conv2DWinogradOp conv) {
  bool nhwc = conv.getDataLayout() == "NHWC";
  int64_t hi = nhwc ? 1 : 2;
  winograd::Transforms tr = winograd::transforms(conv.getTile());
  RankedTensorType out = conv.getType();
  return {nhwc ? 3 : 1,
          hi,
          hi + 1,
          tr.m,
          tr.alpha,
          llvm::divideCeil(out.getDimSize(hi), tr.m),
          llvm::divideCeil(out.getDimSize(hi + 1), tr.m)};
}

/// The most tile rows of `rows` that divide them, take at most `bytes`
/// for a band (`rowBytes` a row), and leave at least `bands` bands with
/// `samples` samples; at least 1.
int64_t bandRows(int64_t rows, int64_t samples, int64_t rowBytes, int64_t bytes, int64_t bands) {
  for (int64_t r = rows; r > 1; --r)
    if (rows % r == 0 && r * rowBytes <= bytes && samples * (rows / r) >= bands)
      return r;
  return 1;
}

/// Rebuilds `conv` and `chain` as one scf.forall over samples and bands
/// of `rows` tile rows, where the chain's last op is: every operand of the
/// chain is defined there.
void tile(graph::Conv2DWinogradOp conv, ArrayRef<Operation *> chain, const Tiles &t, int64_t rows) {
  OpBuilder b(chain.empty() ? conv.getOperation() : chain.back());
  Location loc = conv.getLoc();
  auto [ci, hi, wi, m, alpha, th, tw] = t;
  RankedTensorType out = conv.getType(), in = conv.getInput().getType();
  int64_t n = out.getDimSize(0), oh = out.getDimSize(hi), ow = out.getDimSize(wi);
  // Padded once, to whole tiles: band r reads rows [r m, r m + rows m + 2).
  ArrayRef<int64_t> p = conv.getPadding();
  SmallVector<int64_t> before(4, 0), after(4, 0);
  before[hi] = p[0];
  before[wi] = p[1];
  after[hi] = th * m + 2 - p[0] - in.getDimSize(hi);
  after[wi] = tw * m + 2 - p[1] - in.getDimSize(wi);
  Value padded = conv.getInput();
  if (llvm::any_of(before, [](int64_t v) { return v != 0; }) ||
      llvm::any_of(after, [](int64_t v) { return v != 0; }))
    padded = graph::PadOp::create(b, loc, padded, before, after, "constant", llvm::APFloat(0.0));
  // The band's input and output shapes, and the whole tiles' output.
  auto shaped = [&](int64_t samples, int64_t height, int64_t width, int64_t channels) {
    SmallVector<int64_t> s(4);
    s[0] = samples;
    s[ci] = channels;
    s[hi] = height;
    s[wi] = width;
    return s;
  };
  int64_t c = in.getDimSize(ci), o = out.getDimSize(ci);
  SmallVector<int64_t> bandIn = shaped(1, rows * m + 2, tw * m + 2, c);
  SmallVector<int64_t> bandOut = shaped(1, rows * m, tw * m, o);
  Value last = chain.empty() ? Value(conv.getResult()) : chain.back()->getResult(0);
  auto lastType = cast<RankedTensorType>(last.getType());
  SmallVector<int64_t> wholeShape = shaped(n, th * m, tw * m, o);
  Value init = tensor::EmptyOp::create(b, loc, wholeShape, lastType.getElementType());
  auto loop =
      scf::ForallOp::create(b, loc, SmallVector<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
                            SmallVector<OpFoldResult>{b.getIndexAttr(n), b.getIndexAttr(th)},
                            SmallVector<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(rows)},
                            ValueRange{init}, std::nullopt);
  b.setInsertionPointToStart(loop.getBody());
  Value sample = loop.getInductionVar(0);
  Value row = arith::MulIOp::create(b, loc, loop.getInductionVar(1),
                                    arith::ConstantIndexOp::create(b, loc, m));
  auto box = [&](ArrayRef<int64_t> shape) {
    SmallVector<OpFoldResult> offsets(4, b.getIndexAttr(0));
    offsets[0] = sample;
    offsets[hi] = row;
    return std::make_pair(offsets, getAsIndexOpFoldResult(b.getContext(), shape));
  };
  SmallVector<OpFoldResult> unit(4, b.getIndexAttr(1));
  auto [inOffsets, inSizes] = box(bandIn);
  Value slice = tensor::ExtractSliceOp::create(b, loc, padded, inOffsets, inSizes, unit);
  auto bandConv = cast<graph::Conv2DWinogradOp>(b.clone(*conv));
  bandConv.getInputMutable().assign(slice);
  bandConv.setPadding(ArrayRef<int64_t>{0, 0, 0, 0});
  bandConv.getResult().setType(out.clone(bandOut));
  // The epilogue on the band: its other operands, per channel, whole.
  IRMapping map;
  map.map(conv.getResult(), bandConv.getResult());
  Value x = bandConv.getResult();
  for (Operation *op : chain) {
    Operation *clone = b.clone(*op, map);
    x = clone->getResult(0);
    x.setType(RankedTensorType::get(bandOut, getElementTypeOrSelf(x.getType())));
  }
  b.setInsertionPointToStart(loop.getTerminator().getBody());
  auto [outOffsets, outSizes] = box(bandOut);
  tensor::ParallelInsertSliceOp::create(b, loc, x, loop.getRegionIterArgs()[0], outOffsets,
                                        outSizes, unit);
  // The rows and columns past the output's edge cut off.
  b.setInsertionPointAfter(loop);
  Value result = loop.getResult(0);
  if (th * m != oh || tw * m != ow)
    result = tensor::ExtractSliceOp::create(
        b, loc, lastType, result, SmallVector<OpFoldResult>(4, b.getIndexAttr(0)),
        getAsIndexOpFoldResult(b.getContext(), lastType.getShape()), unit);
  last.replaceAllUsesWith(result);
  for (Operation *op : llvm::reverse(chain))
    op->erase();
  conv.erase();
}

struct TileWinogradPass : dlc::impl::TileWinogradPassBase<TileWinogradPass> {
  using TileWinogradPassBase::TileWinogradPassBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    for (auto [name, value, least] :
         {std::tuple<StringRef, int64_t, int64_t>{"threads", threads, 1},
          {"band-bytes", bandBytes, 1},
          {"weight-bytes", weightBytes, 0}})
      if (value < least) {
        func.emitError() << getArgument() << ": " << name << "=" << value << " is below " << least;
        return signalPassFailure();
      }
    SmallVector<graph::Conv2DWinogradOp> convs;
    func.walk([&](graph::Conv2DWinogradOp conv) {
      if (!conv->getParentOfType<scf::ForallOp>())
        convs.push_back(conv);
    });
    int64_t tiled = 0, left = 0;
    for (graph::Conv2DWinogradOp conv : convs) {
      RankedTensorType in = conv.getInput().getType(), u = conv.getWeight().getType(),
                       out = conv.getType();
      Tiles t = tilesOf(conv);
      // A tile row's transformed tiles in the widest stage.
      int64_t rowBytes = t.alpha * t.alpha * t.cols *
                         std::max(in.getDimSize(t.ci), out.getDimSize(t.ci)) *
                         out.getElementTypeBitWidth() / 8;
      int64_t n = out.getDimSize(0);
      int64_t rows = bandRows(t.rows, n, rowBytes, bandBytes, threads);
      if (u.getNumElements() * u.getElementTypeBitWidth() / 8 > weightBytes ||
          n * (t.rows / rows) < 2) {
        ++left;
        continue;
      }
      tile(conv, epilogue(conv, t.ci), t, rows);
      ++tiled;
    }
    recordPassStat(getArgument(), "tiled", tiled);
    recordPassStat(getArgument(), "left", left);
  }
};
} // namespace
