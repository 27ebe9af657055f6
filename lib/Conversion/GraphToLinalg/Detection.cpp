//===- Detection.cpp - detection heads' ops as loops on buffers -------------===//
//
// graph.nms is control flow, not a loop nest linalg can express: it becomes
// scf loops over buffers (the operands read through bufferization.to_buffer,
// the results written into fresh buffers handed back as tensors), with the
// reference interpreter's semantics and arithmetic (scores and IoU in f64).
//
//===----------------------------------------------------------------------===//
#include "Lowerings.h"
#include "dlc/Dialect/Graph/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Transforms/DialectConversion.h"

#include <limits>

using namespace mlir;
using namespace dlc::graph;

namespace {

/// Scalar helpers on an implicit-location builder.
struct Emitter {
  ImplicitLocOpBuilder &b;

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, v); }
  Value f64(double v) { return arith::ConstantOp::create(b, b.getF64FloatAttr(v)); }
  Value wide(Value v) {
    return v.getType().isF64() ? v : arith::ExtFOp::create(b, b.getF64Type(), v).getResult();
  }
  Value load(Value memref, ArrayRef<Value> idx) { return memref::LoadOp::create(b, memref, idx); }
  void store(Value v, Value memref, ArrayRef<Value> idx) { memref::StoreOp::create(b, v, memref, idx); }
  Value cmpf(arith::CmpFPredicate p, Value x, Value y) { return arith::CmpFOp::create(b, p, x, y); }
  Value cmpi(arith::CmpIPredicate p, Value x, Value y) { return arith::CmpIOp::create(b, p, x, y); }
  /// std::max(x, y) and std::min(x, y), as the interpreter computes IoU
  /// (a NaN coordinate propagates as it does there).
  Value maxf(Value x, Value y) { return select(cmpf(arith::CmpFPredicate::OLT, x, y), y, x); }
  Value minf(Value x, Value y) { return select(cmpf(arith::CmpFPredicate::OLT, y, x), y, x); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, x, y); }
  Value select(Value c, Value x, Value y) { return arith::SelectOp::create(b, c, x, y); }

  /// Runs `build` with `b` inserting where `nested` (a region's builder
  /// in an op's body-building callback) does.
  void at(OpBuilder &nested, function_ref<void()> build) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(nested.getInsertionBlock(), nested.getInsertionPoint());
    build();
  }

  /// for (i = 0; i < n; ++i) body(i), carrying `init`.
  ValueRange loop(Value n, ValueRange init,
                  function_ref<SmallVector<Value>(Value, ValueRange)> body) {
    auto op = scf::ForOp::create(
        b, index(0), n, index(1), init,
        [&](OpBuilder &nested, Location, Value i, ValueRange carried) {
          at(nested, [&] { scf::YieldOp::create(b, body(i, carried)); });
        });
    return op.getResults();
  }

  /// for all i in [0, counts) in parallel: body(i); no results.
  void parallel(ArrayRef<int64_t> counts, function_ref<void(ValueRange)> body) {
    SmallVector<Value> lbs, ubs, steps;
    for (int64_t c : counts) {
      lbs.push_back(index(0));
      ubs.push_back(index(c));
      steps.push_back(index(1));
    }
    scf::ParallelOp::create(b, lbs, ubs, steps, [&](OpBuilder &nested, Location, ValueRange ivs) {
      at(nested, [&] { body(ivs); });
    });
  }

  /// if (c) then(); no results.
  void when(Value c, function_ref<void()> then) {
    auto op = scf::IfOp::create(b, c, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(op.thenBlock());
    then();
  }

  /// c ? then() : otherwise(), computing only the branch taken.
  Value choose(Value c, function_ref<Value()> then, function_ref<Value()> otherwise) {
    auto op = scf::IfOp::create(
        b, c,
        [&](OpBuilder &nested, Location) {
          at(nested, [&] { scf::YieldOp::create(b, then()); });
        },
        [&](OpBuilder &nested, Location) {
          at(nested, [&] { scf::YieldOp::create(b, otherwise()); });
        });
    return op.getResult(0);
  }

  /// A while loop carrying `init`: `before` returns the condition and the
  /// values (of `types`) handed to `after` while it holds, else returned;
  /// `after` returns the next values carried.
  ValueRange whileLoop(TypeRange types, ValueRange init,
                       function_ref<SmallVector<Value>(ValueRange)> before,
                       function_ref<SmallVector<Value>(ValueRange)> after) {
    auto op = scf::WhileOp::create(b, types, init);
    OpBuilder::InsertionGuard guard(b);
    Block *first = b.createBlock(&op.getBefore(), {}, init.getTypes(),
                                 SmallVector<Location>(init.size(), b.getLoc()));
    SmallVector<Value> go = before(first->getArguments());
    scf::ConditionOp::create(b, go.front(), ArrayRef(go).drop_front());
    Block *second =
        b.createBlock(&op.getAfter(), {}, types, SmallVector<Location>(types.size(), b.getLoc()));
    scf::YieldOp::create(b, after(second->getArguments()));
    return op.getResults();
  }

  /// max(0, x2 - x1) * max(0, y2 - y1) of the corners `r`.
  Value area(ArrayRef<Value> r) {
    Value zero = f64(0);
    return mul(maxf(zero, sub(r[2], r[0])), maxf(zero, sub(r[3], r[1])));
  }

  /// The four coordinates of `boxes[n, box]` in f64.
  SmallVector<Value> corners(Value boxes, Value n, Value box) {
    SmallVector<Value> r;
    for (int64_t q = 0; q < 4; ++q)
      r.push_back(wide(load(boxes, {n, box, index(q)})));
    return r;
  }

  /// Intersection over union as the interpreter computes it (0 for empty
  /// unions).
  Value iou(ArrayRef<Value> a, ArrayRef<Value> c) {
    Value zero = f64(0);
    Value w = sub(minf(a[2], c[2]), maxf(a[0], c[0]));
    Value h = sub(minf(a[3], c[3]), maxf(a[1], c[1]));
    Value inter = mul(maxf(zero, w), maxf(zero, h));
    Value uni = sub(arith::AddFOp::create(b, area(a), area(c)), inter);
    return select(cmpf(arith::CmpFPredicate::OGT, uni, zero),
                  arith::DivFOp::create(b, inter, uni), zero);
  }

  /// The first index of the largest `score(i)` over [0, n) among those
  /// where it is ordered-greater than -inf (NaN and -inf never win), or -1.
  Value argmax(Value n, function_ref<Value(Value)> score) {
    Value none = arith::ConstantIntOp::create(b, b.getI64Type(), -1);
    ValueRange best = loop(n, {f64(-std::numeric_limits<double>::infinity()), none},
                           [&](Value i, ValueRange carried) -> SmallVector<Value> {
                             Value s = score(i);
                             Value better = cmpf(arith::CmpFPredicate::OGT, s, carried[0]);
                             Value i64 = arith::IndexCastOp::create(b, b.getI64Type(), i);
                             return {select(better, s, carried[0]), select(better, i64, carried[1])};
                           });
    return best[1];
  }
};

/// Greedy per-class NMS, then the best `max_detections` over all classes
/// (GraphOps.td). Per class, the boxes above the threshold are made a heap
/// (in place, in their buffer of candidates) and popped in descending score
/// order (the first box on ties); each is kept unless a box kept before
/// overlaps it by more than the IoU threshold, until none is left or
/// `max_detections` are kept, since a class's later boxes can never rank
/// among the best `max_detections` overall. That is O(m + visited * (log m
/// + kept)) for m candidates, where selecting the best survivor and
/// suppressing the boxes it overlaps, kept by kept, is O(kept * m): a
/// class's loop runs on one GPU thread, and SSD-ResNet50's classes of
/// thousands of candidates took 90 of its 94 ms in f16 that way (H200,
/// 2026-11). The classes of every image are
/// independent: one parallel loop over them (a GPU thread each, CPU
/// threads), then one over the images merges their lists, each in
/// descending score order, taking the best head each time (the lowest
/// class on ties: the order the interpreter ranks them in).
struct NmsLowering : OpConversionPattern<NmsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(NmsOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto boxesType = cast<RankedTensorType>(a.getBoxes().getType());
    auto scoresType = cast<RankedTensorType>(a.getScores().getType());
    if (!boxesType.hasStaticShape() || !scoresType.hasStaticShape())
      return r.notifyMatchFailure(op, "dynamic shapes");
    int64_t batch = boxesType.getDimSize(0), numBoxes = boxesType.getDimSize(1);
    int64_t classes = scoresType.getDimSize(1), k = op.getMaxDetections();
    if (numBoxes > std::numeric_limits<int32_t>::max()) // its candidate lists are i32
      return op.emitOpError() << "has " << numBoxes
                              << " boxes: more than an i32 indexes (at most 2147483647)";
    int64_t background = op.getBackgroundClass();
    ImplicitLocOpBuilder b(op.getLoc(), r);
    Emitter e{b};
    auto buffer = [&](Value tensor) {
      auto t = cast<RankedTensorType>(tensor.getType());
      return bufferization::ToBufferOp::create(
          b, MemRefType::get(t.getShape(), t.getElementType()), tensor, /*readOnly=*/true);
    };
    Value boxes = buffer(a.getBoxes()), scores = buffer(a.getScores());
    auto alloc = [&](ArrayRef<int64_t> shape, Type t) {
      return memref::AllocOp::create(b, MemRefType::get(shape, t)).getResult();
    };
    SmallVector<Value> outs;
    for (Value res : op.getResults()) {
      auto t = cast<RankedTensorType>(res.getType());
      outs.push_back(alloc(t.getShape(), t.getElementType()));
    }
    Type boxElem = boxesType.getElementType(), scoreElem = scoresType.getElementType();
    Type i64 = b.getI64Type(), idx = b.getIndexType();
    // Scratch per image and class: its candidates (boxes scoring above the
    // threshold), a heap of them; the detections it kept (score, box) and
    // how many; the merge's position in each class's list.
    int64_t perClass = std::max<int64_t>(1, std::min(k, numBoxes));
    // (candidates as i32: 2.8 MB per image for SSD's 81 classes of 8732)
    Type i32 = b.getI32Type();
    Value candidates = alloc({batch, classes, numBoxes}, i32);
    Value keptScore = alloc({batch, classes, perClass}, b.getF64Type());
    Value keptBox = alloc({batch, classes, perClass}, idx);
    Value keptCount = alloc({batch, classes}, idx);
    Value head = alloc({batch, classes}, idx);
    double iouMax = op.getIouThreshold().convertToDouble();
    double minScore = op.getScoreThreshold().convertToDouble();
    Value nb = e.index(numBoxes), kIdx = e.index(k);
    Value zero = e.index(0), one = e.index(1), two = e.index(2);
    Value minusInf = e.f64(-std::numeric_limits<double>::infinity());
    Value boxZero = arith::ConstantOp::create(b, b.getFloatAttr(boxElem, 0));
    Value scoreZero = arith::ConstantOp::create(b, b.getFloatAttr(scoreElem, 0));
    Value noClass = arith::ConstantIntOp::create(b, i64, -1);
    Value no = arith::ConstantIntOp::create(b, b.getI1Type(), 0);
    auto asIndex = [&](Value v) { return arith::IndexCastOp::create(b, idx, v).getResult(); };
    auto add = [&](Value x, Value y) { return arith::AddIOp::create(b, x, y).getResult(); };
    auto both = [&](Value x, Value y) { return arith::AndIOp::create(b, x, y).getResult(); };
    auto less = [&](Value x, Value y) { return e.cmpi(arith::CmpIPredicate::ult, x, y); };

    e.parallel({batch, classes}, [&](ValueRange ivs) {
      Value n = ivs[0], c = ivs[1];
      Value isBackground = e.cmpi(arith::CmpIPredicate::eq, c, e.index(background));
      auto skip = scf::IfOp::create(b, TypeRange{idx}, isBackground, true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(skip.thenBlock());
      scf::YieldOp::create(b, zero);
      b.setInsertionPointToStart(skip.elseBlock());
      auto score = [&](Value box) { return e.wide(e.load(scores, {n, c, box})); };
      // Compacted branch-free: every box is written at the next slot,
      // which advances only past those above the threshold.
      Value m = e.loop(nb, {zero}, [&](Value box, ValueRange at) -> SmallVector<Value> {
        e.store(arith::IndexCastOp::create(b, i32, box), candidates, {n, c, at[0]});
        Value above = e.cmpf(arith::CmpFPredicate::OGT, score(box), e.f64(minScore));
        return {e.select(above, add(at[0], one), at[0])};
      })[0];
      // The candidates as a heap ranking first at slot 0: a higher score,
      // or the same and a lower box (scores above the threshold are never
      // NaN). Popping it visits them in the order greedy NMS keeps them.
      auto boxAt = [&](Value slot) { return asIndex(e.load(candidates, {n, c, slot})); };
      auto ranksBefore = [&](Value box, Value s, Value other, Value otherScore) {
        Value tie = both(e.cmpf(arith::CmpFPredicate::OEQ, s, otherScore), less(box, other));
        return arith::OrIOp::create(b, e.cmpf(arith::CmpFPredicate::OGT, s, otherScore), tie)
            .getResult();
      };
      auto slotRanksBefore = [&](Value slot, Value other) {
        Value x = boxAt(slot), y = boxAt(other);
        return ranksBefore(x, score(x), y, score(y));
      };
      // Places `box` in the heap's first `size` slots at `hole` or below:
      // the children ranking before it move up.
      auto siftDown = [&](Value hole, Value size, Value box) {
        Value s = score(box);
        Value at = e.whileLoop(
            {idx, idx}, {hole},
            [&](ValueRange h) -> SmallVector<Value> {
              Value l = add(arith::MulIOp::create(b, h[0], two), one);
              Value next = e.choose(
                  less(l, size),
                  [&] {
                    Value r = add(l, one);
                    Value child = e.choose(
                        less(r, size), [&] { return e.select(slotRanksBefore(r, l), r, l); },
                        [&] { return l; });
                    Value childBox = boxAt(child);
                    return e.select(ranksBefore(childBox, score(childBox), box, s), child, h[0]);
                  },
                  [&] { return h[0]; });
              return {e.cmpi(arith::CmpIPredicate::ne, next, h[0]), h[0], next};
            },
            [&](ValueRange moves) -> SmallVector<Value> {
              e.store(e.load(candidates, {n, c, moves[1]}), candidates, {n, c, moves[0]});
              return {moves[1]};
            })[0];
        e.store(arith::IndexCastOp::create(b, i32, box), candidates, {n, c, at});
      };
      Value half = arith::DivUIOp::create(b, m, two);
      e.loop(half, {}, [&](Value t, ValueRange) -> SmallVector<Value> {
        Value slot = arith::SubIOp::create(b, arith::SubIOp::create(b, half, t), one);
        siftDown(slot, m, boxAt(slot));
        return {};
      });
      // Pops the candidates until k are kept: each is kept unless a box
      // kept before overlaps it by more than the threshold (IoU of the
      // candidate's box and the kept one's, as the interpreter computes
      // it). The kept boxes are those the greedy loop keeps, in its order.
      ValueRange kept = e.whileLoop(
          {idx, idx}, {zero, m},
          [&](ValueRange at) -> SmallVector<Value> {
            Value go = both(less(at[0], kIdx), less(zero, at[1]));
            return {go, at[0], at[1]};
          },
          [&](ValueRange at) -> SmallVector<Value> {
            Value count = at[0], size = arith::SubIOp::create(b, at[1], one);
            Value top = boxAt(zero);
            siftDown(zero, size, boxAt(size));
            SmallVector<Value> corners = e.corners(boxes, n, top);
            Value checked = e.whileLoop(
                {idx}, {zero},
                [&](ValueRange t) -> SmallVector<Value> {
                  Value clear = e.choose(
                      less(t[0], count),
                      [&] {
                        Value other = e.load(keptBox, {n, c, t[0]});
                        Value overlap = e.iou(corners, e.corners(boxes, n, other));
                        return e.cmpf(arith::CmpFPredicate::ULE, overlap, e.f64(iouMax));
                      },
                      [&] { return no; });
                  return {clear, t[0]};
                },
                [&](ValueRange t) -> SmallVector<Value> { return {add(t[0], one)}; })[0];
            Value keep = e.cmpi(arith::CmpIPredicate::eq, checked, count);
            e.when(keep, [&] {
              e.store(score(top), keptScore, {n, c, count});
              e.store(top, keptBox, {n, c, count});
            });
            return {e.select(keep, add(count, one), count), size};
          });
      scf::YieldOp::create(b, kept[0]);
      b.setInsertionPointAfter(skip);
      e.store(skip.getResult(0), keptCount, {n, c});
    });

    // The best k of all kept: each slot takes the best head of the classes'
    // lists (the first class on ties); unused slots hold box 0, score 0 and
    // class -1.
    e.parallel({batch}, [&](ValueRange ivs) {
      Value n = ivs[0];
      e.loop(e.index(classes), {}, [&](Value c, ValueRange) -> SmallVector<Value> {
        e.store(e.index(0), head, {n, c});
        return {};
      });
      e.loop(kIdx, {}, [&](Value j, ValueRange) -> SmallVector<Value> {
        Value best = e.argmax(e.index(classes), [&](Value c) {
          Value at = e.load(head, {n, c});
          Value more = e.cmpi(arith::CmpIPredicate::ult, at, e.load(keptCount, {n, c}));
          // Reading past a list's end stays inside the buffer: clamped.
          Value safe = arith::MinUIOp::create(b, at, e.index(perClass - 1));
          return e.select(more, e.load(keptScore, {n, c, safe}), minusInf);
        });
        Value found = e.cmpi(arith::CmpIPredicate::sge, best, arith::ConstantIntOp::create(b, i64, 0));
        auto fill = scf::IfOp::create(b, found, /*withElseRegion=*/true);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(fill.thenBlock());
        Value cls = asIndex(best);
        Value at = e.load(head, {n, cls});
        Value box = e.load(keptBox, {n, cls, at});
        e.store(arith::AddIOp::create(b, at, e.index(1)), head, {n, cls});
        for (int64_t q = 0; q < 4; ++q)
          e.store(e.load(boxes, {n, box, e.index(q)}), outs[0], {n, j, e.index(q)});
        e.store(e.load(scores, {n, cls, box}), outs[1], {n, j});
        e.store(best, outs[2], {n, j});
        b.setInsertionPointToStart(fill.elseBlock());
        for (int64_t q = 0; q < 4; ++q)
          e.store(boxZero, outs[0], {n, j, e.index(q)});
        e.store(scoreZero, outs[1], {n, j});
        e.store(noClass, outs[2], {n, j});
        return {};
      });
    });
    // The scratch buffers are freed by the buffer deallocation pipeline.
    SmallVector<Value> results;
    for (auto [out, res] : llvm::zip_equal(outs, op.getResults()))
      results.push_back(bufferization::ToTensorOp::create(b, res.getType(), out,
                                                          /*restrict=*/true, /*writable=*/true));
    r.replaceOp(op, results);
    return success();
  }
};

} // namespace

void dlc::populateDetectionLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<NmsLowering>(patterns.getContext());
}
