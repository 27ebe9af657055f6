//===- FoldConstant.cpp - evaluate ops on constants ------------------------===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/bit.h"

#include <algorithm>
#include <cstring>
#include <functional>

namespace dlc {
#define GEN_PASS_DEF_FOLDCONSTANTPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

/// Data movement (reshape, expand_dims, squeeze, transpose, concat) on
/// constants done on their bytes: folding stacked weights (BatchingOps on
/// BERT-base) through the interpreter's doubles took most of a compile.
/// Null when `op` is not one of them or an operand has no raw payload.
static std::optional<AsmResourceBlob> moveBytes(Operation *op) {
  if (!isa<ReshapeOp, ExpandDimsOp, SqueezeOp, TransposeOp, ConcatOp>(op))
    return std::nullopt;
  SmallVector<ArrayRef<char>> in;
  for (Value v : op->getOperands()) {
    std::optional<ArrayRef<char>> bytes = payloadBytes(v.getDefiningOp<ConstantOp>());
    if (!bytes)
      return std::nullopt;
    in.push_back(*bytes);
  }
  auto outType = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t width = outType.getElementTypeBitWidth() / 8;
  int64_t size = outType.getNumElements() * width;
  if (isa<ReshapeOp, ExpandDimsOp, SqueezeOp>(op) && static_cast<int64_t>(in[0].size()) != size)
    return std::nullopt;
  AsmResourceBlob blob = allocateBlob(size);
  char *out = blob.getMutableData().data();
  if (isa<ReshapeOp, ExpandDimsOp, SqueezeOp>(op)) {
    std::memcpy(out, in[0].data(), size);
  } else if (auto t = dyn_cast<TransposeOp>(op)) {
    ArrayRef<int64_t> perm = t.getPerm();
    Shape inShape(t.getInput().getType().getShape());
    Shape inStrides = rowMajorStrides(inShape);
    Shape outShape(outType.getShape());
    int64_t rank = outShape.size(), n = outType.getNumElements();
    SmallVector<int64_t> idx(rank, 0);
    for (int64_t linear = 0; linear < n; ++linear) {
      int64_t src = 0;
      for (int64_t d = 0; d < rank; ++d)
        src += idx[d] * inStrides[perm[d]];
      std::memcpy(out + linear * width, in[0].data() + src * width, width);
      for (int64_t d = rank - 1; d >= 0 && ++idx[d] == outShape[d]; --d)
        idx[d] = 0;
    }
  } else {
    auto c = cast<ConcatOp>(op);
    int64_t axis = *normalizeAxis(c.getAxis(), outType.getRank());
    int64_t outer = 1;
    for (int64_t d = 0; d < axis; ++d)
      outer *= outType.getDimSize(d);
    char *dst = out;
    for (int64_t o = 0; o < outer; ++o)
      for (auto [v, bytes] : llvm::zip_equal(op->getOperands(), in)) {
        int64_t chunk = bytes.size() / std::max<int64_t>(outer, 1);
        std::memcpy(dst, bytes.data() + o * chunk, chunk);
        dst += chunk;
      }
  }
  return blob;
}

/// Elements of f32 constants, loaded and computed as floats.
struct F32Elements {
  using Scalar = float;
  static constexpr int64_t width = 4;
  Scalar load(const char *p, int64_t i) const {
    float x;
    std::memcpy(&x, p + i * 4, 4);
    return x;
  }
  void store(char *p, int64_t i, Scalar x) const { std::memcpy(p + i * 4, &x, 4); }
};

/// Elements of f16 or bf16 constants (their bits to float and back),
/// computed as floats and rounded to the type where stored: a float holds
/// 24 bits, at least 2 x 11 + 2 (f16) and 2 x 8 + 2 (bf16), so this rounds
/// as the interpreter's double does.
template <float (*widen)(uint16_t), uint16_t (*narrow)(uint32_t)> struct HalfElements {
  using Scalar = float;
  static constexpr int64_t width = 2;
  Scalar load(const char *p, int64_t i) const {
    uint16_t bits;
    std::memcpy(&bits, p + i * 2, 2);
    return widen(bits);
  }
  void store(char *p, int64_t i, Scalar x) const {
    uint16_t bits = narrow(llvm::bit_cast<uint32_t>(x));
    std::memcpy(p + i * 2, &bits, 2);
  }
};

/// Add, sub, mul and div (numpy broadcasting) of f32, f16 or bf16
/// constants computed on their bytes, in float: scaling ResNet-50's
/// convolution weights (FoldScaleAxis) through the interpreter's doubles
/// took 0.57 s in f32, 70% of O3's graph passes, and 1 s in bf16. The
/// results are the interpreter's: it computes in double, whose 53 bits are
/// at least 2 x 24 + 2, so an operation computed in double and rounded to
/// float rounds as if computed in float (f16 and bf16 alike, above). Null
/// when `op` is not one of them or an operand is not a constant of the
/// result's type with raw bytes.
static std::optional<AsmResourceBlob> floatArithmetic(Operation *op) {
  if (!isa<AddOp, SubOp, MulOp, DivOp>(op))
    return std::nullopt;
  auto outType = cast<RankedTensorType>(op->getResult(0).getType());
  Type element = outType.getElementType();
  if (!isa<Float32Type, Float16Type, BFloat16Type>(element) || !outType.hasStaticShape())
    return std::nullopt;
  // Each operand's strides over the output's dimensions, 0 where it is
  // broadcast.
  int64_t rank = outType.getRank();
  SmallVector<int64_t> sizes(outType.getShape());
  SmallVector<const char *, 2> data;
  SmallVector<Shape, 2> strides;
  for (Value v : op->getOperands()) {
    auto type = cast<RankedTensorType>(v.getType());
    std::optional<ArrayRef<char>> bytes = payloadBytes(v.getDefiningOp<ConstantOp>());
    if (!bytes || type.getElementType() != element || type.getRank() > rank)
      return std::nullopt;
    data.push_back(bytes->data());
    strides.push_back(broadcastStrides(type.getShape(), outType.getShape()));
  }
  // Dimensions merged where every operand walks them as one (contiguous,
  // or broadcast in both): a weight times a per-channel scale is
  // [channels, rest] times [channels, 1].
  for (int64_t d = rank - 2; d >= 0; --d) {
    if (!llvm::all_of(strides, [&](ArrayRef<int64_t> s) { return s[d] == s[d + 1] * sizes[d + 1]; }))
      continue;
    sizes[d] *= sizes[d + 1];
    sizes.erase(sizes.begin() + d + 1);
    for (Shape &s : strides) {
      s[d] = s[d + 1];
      s.erase(s.begin() + d + 1);
    }
  }
  int64_t width = element.getIntOrFloatBitWidth() / 8, n = outType.getNumElements();
  AsmResourceBlob blob = allocateBlob(n * width);
  char *out = blob.getMutableData().data();
  int64_t inner = sizes.empty() ? 1 : sizes.back();
  int64_t sx = sizes.empty() ? 0 : strides[0].back(), sy = sizes.empty() ? 0 : strides[1].back();
  // Rows in chunks of about 64K elements on the context's threads.
  int64_t rows = inner == 0 ? 0 : n / inner;
  int64_t chunkRows = std::max<int64_t>(1, (1 << 16) / std::max<int64_t>(inner, 1));
  auto run = [&](auto elements, auto apply) {
    constexpr int64_t w = decltype(elements)::width;
    parallelFor(op->getContext(), 0, (rows + chunkRows - 1) / chunkRows, [&](size_t chunk) {
      int64_t first = chunk * chunkRows, last = std::min(rows, first + chunkRows);
      SmallVector<int64_t> idx(sizes.size(), 0);
      for (int64_t d = static_cast<int64_t>(sizes.size()) - 2, r = first; d >= 0; --d) {
        idx[d] = r % sizes[d];
        r /= sizes[d];
      }
      for (int64_t row = first; row < last; ++row) {
        int64_t x = 0, y = 0;
        for (size_t d = 0; d + 1 < sizes.size(); ++d) {
          x += idx[d] * strides[0][d];
          y += idx[d] * strides[1][d];
        }
        // The row with its strides as constants where they are 0 or 1, so
        // that the compiler vectorizes it.
        auto compute = [&, px = data[0] + x * w, py = data[1] + y * w,
                        po = out + row * inner * w](int64_t a, int64_t b) {
          for (int64_t i = 0; i < inner; ++i)
            elements.store(po, i, apply(elements.load(px, i * a), elements.load(py, i * b)));
        };
        if (sx == 1 && sy == 0)
          compute(1, 0);
        else if (sx == 0 && sy == 1)
          compute(0, 1);
        else if (sx == 1 && sy == 1)
          compute(1, 1);
        else
          compute(sx, sy);
        for (int64_t d = static_cast<int64_t>(sizes.size()) - 2; d >= 0 && ++idx[d] == sizes[d]; --d)
          idx[d] = 0;
      }
    });
  };
  auto withElements = [&](auto elements) {
    using V = typename decltype(elements)::Scalar;
    if (isa<AddOp>(op))
      run(elements, std::plus<V>());
    else if (isa<SubOp>(op))
      run(elements, std::minus<V>());
    else if (isa<MulOp>(op))
      run(elements, std::multiplies<V>());
    else
      run(elements, std::divides<V>());
  };
  if (element.isF32())
    withElements(F32Elements{});
  else if (element.isBF16())
    withElements(HalfElements<f32FromBF16Bits, bf16FromF32Bits>{});
  else
    withElements(HalfElements<f32FromF16Bits, f16FromF32Bits>{});
  return blob;
}

/// A cast between f32, f16 and bf16 of a constant computed on its bytes,
/// on the context's threads, rounding as the interpreter does
/// (narrowFloatBits): ToMixedPrecision converting BERT-base's weights to
/// bf16 through the interpreter's doubles and APFloat took 17 s. Null when
/// `op` is no such cast or its operand has no raw payload.
static std::optional<AsmResourceBlob> floatCast(Operation *op) {
  auto castOp = dyn_cast<CastOp>(op);
  if (!castOp)
    return std::nullopt;
  auto isCastFloat = [](DType t) { return t == DType::F32 || t == DType::F16 || t == DType::BF16; };
  std::optional<DType> from = dtypeOf(castOp.getInput().getType().getElementType()),
                       to = dtypeOf(castOp.getType().getElementType());
  std::optional<ArrayRef<char>> bytes = payloadBytes(castOp.getInput().getDefiningOp<ConstantOp>());
  if (!from || !to || !isCastFloat(*from) || !isCastFloat(*to) || !bytes)
    return std::nullopt;
  int64_t n = castOp.getType().getNumElements(), inWidth = dtypeBytes(*from),
          outWidth = dtypeBytes(*to);
  AsmResourceBlob blob = allocateBlob(n * outWidth);
  const char *in = bytes->data();
  char *out = blob.getMutableData().data();
  constexpr int64_t kChunk = 1 << 16;
  // f32 to bf16 or f16, the common cases, on the bits.
  bool fromF32 = *from == DType::F32 && (*to == DType::BF16 || *to == DType::F16);
  bool toBF16 = *to == DType::BF16;
  parallelFor(op->getContext(), 0, (n + kChunk - 1) / kChunk, [&](size_t chunk) {
    for (int64_t i = chunk * kChunk, e = std::min<int64_t>(n, i + kChunk); i < e; ++i) {
      if (!fromF32) {
        encodeElement(*to, decodeElement(*from, in + i * inWidth), out + i * outWidth);
        continue;
      }
      uint32_t f;
      std::memcpy(&f, in + i * 4, 4);
      uint16_t h = toBF16 ? bf16FromF32Bits(f) : f16FromF32Bits(f);
      std::memcpy(out + i * 2, &h, 2);
    }
  });
  return blob;
}

ElementsAttr dlc::foldOnBytes(Operation *op) {
  std::optional<AsmResourceBlob> blob = moveBytes(op);
  if (!blob)
    blob = floatArithmetic(op);
  if (!blob)
    blob = floatCast(op);
  if (!blob)
    return {};
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  ArrayRef<char> bytes = blob->getData();
  // Equal elements are a splat, as the interpreter's results are: the
  // lowering fills splats and copies them into kernels.
  size_t width = type.getElementTypeBitWidth() / 8;
  bool splat = !bytes.empty() && width > 0;
  for (size_t i = width; splat && i < bytes.size(); i += width)
    splat = std::memcmp(bytes.data(), bytes.data() + i, width) == 0;
  if (splat)
    return DenseElementsAttr::getFromRawBuffer(type, bytes.take_front(width));
  if (type.getNumElements() <= 16)
    return DenseElementsAttr::getFromRawBuffer(type, bytes);
  std::string name = "folded";
  if (auto loc = dyn_cast<NameLoc>(op->getLoc()))
    name = loc.getName().str();
  return DenseResourceElementsAttr::get(type, name, std::move(*blob));
}

namespace {

struct FoldConstantOp : RewritePattern {
  FoldConstantOp(MLIRContext *ctx, int64_t sizeLimit, int64_t *skippedLarge, bool foldQnn,
                 int64_t *onBytes)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx),
        sizeLimit(sizeLimit), skippedLarge(skippedLarge), foldQnn(foldQnn), onBytes(onBytes) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<GraphDialect>(op->getDialect()) || isa<ConstantOp>(op) ||
        op->getNumRegions() || op->getNumOperands() == 0)
      return failure();
    if (op->getParentOfType<FusedOp>() || op->getParentOfType<CompositeOp>())
      return rewriter.notifyMatchFailure(op, "inside a fused region");
    if (!foldQnn && isa<QuantizeOp, DequantizeOp>(op))
      return rewriter.notifyMatchFailure(op, "quantization is kept (fold-qnn)");
    if (!llvm::all_of(op->getOperands(), [](Value v) {
          return v.getDefiningOp<ConstantOp>();
        }))
      return rewriter.notifyMatchFailure(op, "an operand is not constant");
    int64_t elements = 0;
    for (Type t : op->getResultTypes())
      elements += cast<RankedTensorType>(t).getNumElements();
    bool operandsDie = llvm::all_of(op->getOperands(), [&](Value v) {
      return llvm::all_of(v.getUsers(), [&](Operation *u) { return u == op; });
    });
    if (elements > kMaxConstantElements)
      return rewriter.notifyMatchFailure(op, "result too large to compute now");
    if (elements > sizeLimit && !operandsDie) {
      if (skippedLarge)
        ++*skippedLarge;
      return rewriter.notifyMatchFailure(
          op, "large result while its constant operands live on");
    }
    if (ElementsAttr attr = foldOnBytes(op)) {
      if (onBytes)
        ++*onBytes;
      rewriter.replaceOpWithNewOp<ConstantOp>(op, attr);
      return success();
    }
    std::vector<Tensor> operands;
    for (Value v : op->getOperands()) {
      std::optional<Tensor> t = constantValue(v);
      if (!t)
        return rewriter.notifyMatchFailure(op, "unreadable constant operand");
      operands.push_back(std::move(*t));
    }
    // An op that fails at run time (e.g. an index out of range) stays, for
    // the run to report; folding says nothing.
    ScopedDiagnosticHandler quiet(op->getContext(),
                                  [](Diagnostic &) { return success(); });
    FailureOr<std::vector<Tensor>> results = evaluateOp(op, operands);
    if (failed(results))
      return rewriter.notifyMatchFailure(op, "evaluation failed");
    std::string name = "folded";
    if (auto loc = dyn_cast<NameLoc>(op->getLoc()))
      name = loc.getName().str();
    SmallVector<Value> replacements;
    for (const Tensor &t : *results)
      replacements.push_back(createConstant(rewriter, op->getLoc(), t, name));
    rewriter.replaceOp(op, replacements);
    return success();
  }

  int64_t sizeLimit;
  int64_t *skippedLarge;
  bool foldQnn;
  int64_t *onBytes;
};

struct FoldConstantPass : dlc::impl::FoldConstantPassBase<FoldConstantPass> {
  using FoldConstantPassBase::FoldConstantPassBase;
  void runOnOperation() override {
    int64_t skipped = 0, onBytes = 0;
    RewritePatternSet patterns(&getContext());
    populateFoldConstantPatterns(patterns, sizeLimit, &skipped, foldQnn, &onBytes);
    FailureOr<int64_t> n = applyCountedPatterns(getOperation(), std::move(patterns));
    if (failed(n))
      return signalPassFailure();
    recordPassStat(getArgument(), "folded", *n);
    recordPassStat(getArgument(), "skipped-large", skipped);
    recordPassStat(getArgument(), "on-bytes", onBytes);
    // Constants nobody uses any more (the folded ops' operands).
    getOperation().walk([](ConstantOp c) {
      if (c->use_empty())
        c->erase();
    });
  }
};

} // namespace

void dlc::populateFoldConstantPatterns(RewritePatternSet &patterns,
                                       int64_t sizeLimit,
                                       int64_t *skippedLarge, bool foldQnn, int64_t *onBytes) {
  patterns.add<FoldConstantOp>(patterns.getContext(), sizeLimit, skippedLarge, foldQnn,
                               onBytes);
}
