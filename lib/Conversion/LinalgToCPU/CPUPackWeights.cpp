//===- CPUPackWeights.cpp - constant B of products packed into panels ------===//
//
// A register tile of the product kernel reads, at every reduction step, one
// row of B nr columns wide; in a [k, n] weight those rows lie n floats
// apart, each in another page when n is large (BERT's feed-forward weight:
// 12 KB). Stored as panels [n / nr][k][nr], the rows a tile reads are
// consecutive. nr is the width of the register tile for n columns (two
// vectors, or one below that: CPUSchedules). Constant weights are packed
// here, at compile time, on tensors before the product is tiled: the
// kernel's argument becomes the panels and its product reads B through
// (n floordiv nr, k, n mod nr), which CPUSchedules' productDims
// recognizes. A dense layer's weight W [n, k], read across its rows, is
// packed from that layout directly; when n is no multiple of nr it is
// stored transposed, [k, n], which the kernel reads along its rows (a
// batch-1 classifier head would otherwise gather). An NHWC convolution's
// HWIO weight is read through its collapse into the matrix [KH*KW*C, O],
// which is packed the same way, and a Winograd product's weights [points,
// C, O] matrix by matrix: read [C, O] at a point, a tile's rows of B lie
// 4 * O bytes apart, a new page every few steps, where a panel is one
// stream. A bf16 weight packed in pairs for bf16 dot products whose n is
// no multiple of nr has a last panel padded with zeros; its product
// computes the padded columns into an accumulator as wide, of which the
// kernel's result is the slice of n. A payload the compile's own graph
// passes wrote (the CPU compiler names them) that no other constant holds
// is packed within itself.
//
//===----------------------------------------------------------------------===//
#include "../../Transforms/PassUtils.h"
#include "../GraphToLinalg/Lowerings.h"
#include "CPUSchedules.h"
#include "dlc/Conversion/Passes.h"
#include "dlc/Runtime/Tensor.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <cstring>
#include <mutex>
#include <vector>

namespace dlc {
#define GEN_PASS_DEF_CPUPACKWEIGHTSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc::cpu;

namespace {
/// How the products read a kernel argument, their B: [k, n] indexed (k, n),
/// or [n, k] indexed (n, k) (a dense layer's weight, [out, in]).
enum class Held { KN, NK };

/// What a constant B becomes: panels, from either layout, or (an [n, k] B
/// whose n is no multiple of the panel width) [k, n]; a bf16 B of products
/// on hardware with bf16 dot products, panels of pairs from either layout.
/// An f16 or bf16 B the products read widened (and that does not become
/// pairs) takes the f32 forms, widened once here instead of at every run;
/// so does, as it is (`Widened`), any other f16 or bf16 constant that a
/// kernel only widens (an NCHW convolution's weight, the product's A).
enum class Form { PanelsFromKN, PanelsFromNK, TransposedNK, PairsFromKN, PairsFromNK, Widened };

/// `in`, `count` f16 or bf16 values, widened to f32 in `out`.
void widenToF32(const char *in, char *out, int64_t count, bool f16) {
  for (int64_t i = 0; i < count; ++i) {
    // Exact: f32 holds every f16 and bf16 value.
    uint16_t bits;
    std::memcpy(&bits, in + i * 2, 2);
    float value = f16 ? dlc::f32FromF16Bits(bits) : dlc::f32FromBF16Bits(bits);
    std::memcpy(out + i * 4, &value, 4);
  }
}

/// `in`, f32 `held` [k, n] or [n, k], written to `out` as panels
/// [n / nr][k][nr].
void writePanels(const char *in, char *out, Held held, int64_t k, int64_t n, int64_t nr) {
  for (int64_t p = 0; p < n / nr; ++p) {
    if (held == Held::KN) {
      for (int64_t i = 0; i < k; ++i)
        std::memcpy(out + ((p * k + i) * nr) * 4, in + (i * n + p * nr) * 4, nr * 4);
      continue;
    }
    // Row by row of W [n, k]: the panel being written (k nr floats) stays
    // in cache.
    for (int64_t j = 0; j < nr; ++j) {
      const char *row = in + (p * nr + j) * k * 4;
      for (int64_t i = 0; i < k; ++i)
        std::memcpy(out + ((p * k + i) * nr + j) * 4, row + i * 4, 4);
    }
  }
}

/// How many panels of `nr` columns hold `n`: the last one padded.
int64_t panelCount(int64_t n, int64_t nr) { return llvm::divideCeil(n, nr); }

/// `in`, bf16 `held` [k, n] or [n, k] (k even), written to `out` as panels
/// of pairs [panelCount][k / 2][nr][2]: element (i, j) of a panel's pair row
/// holds B[2 i + (0 or 1)][j], the two values one dot-product lane takes;
/// zeros past column n.
void writePairs(const char *in, char *out, Held held, int64_t k, int64_t n, int64_t nr) {
  constexpr int64_t kBytes = 2;
  for (int64_t p = 0; p < panelCount(n, nr); ++p)
    for (int64_t j = 0; j < nr; ++j)
      for (int64_t i = 0; i < k; ++i) {
        int64_t col = p * nr + j;
        int64_t from = held == Held::KN ? i * n + col : col * k + i;
        int64_t to = ((p * (k / 2) + i / 2) * nr + j) * 2 + i % 2;
        if (col < n)
          std::memcpy(out + to * kBytes, in + from * kBytes, kBytes);
        else
          std::memset(out + to * kBytes, 0, kBytes);
      }
}

/// `in`, f32 [n, k], written to `out` as [k, n].
void writeTransposed(const char *in, char *out, int64_t n, int64_t k) {
  // Blocks of 32 x 32 words: rows and columns both stay in cache.
  constexpr int64_t kBlock = 32;
  for (int64_t i0 = 0; i0 < n; i0 += kBlock)
    for (int64_t j0 = 0; j0 < k; j0 += kBlock)
      for (int64_t i = i0; i < std::min(n, i0 + kBlock); ++i)
        for (int64_t j = j0; j < std::min(k, j0 + kBlock); ++j)
          std::memcpy(out + (j * n + i) * 4, in + (i * k + j) * 4, 4);
}

/// `in`, the f32 matrix [rows, cols], written to `out` in `form`: panels of
/// `width` columns, or transposed.
void writeF32Matrix(Form form, const char *in, char *out, int64_t rows, int64_t cols,
                    int64_t width) {
  if (form == Form::PanelsFromKN)
    writePanels(in, out, Held::KN, rows, cols, width);
  else if (form == Form::PanelsFromNK)
    writePanels(in, out, Held::NK, cols, rows, width);
  else
    writeTransposed(in, out, rows, cols);
}

/// Buffers for copies of payloads rewritten within themselves, reused
/// from one constant to the next: their pages are touched once, where a
/// new payload per constant would touch (and the kernel zero) new pages
/// every time, which costs more than the copying (0.07 to 1.3 ms per MB on
/// 2-core cloud machines, against about 0.1 for two passes over touched
/// pages).
class ScratchBuffers {
public:
  std::vector<char> take(size_t size) {
    std::vector<char> buffer;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!spare.empty()) {
        buffer = std::move(spare.back());
        spare.pop_back();
      }
    }
    if (buffer.size() < size)
      buffer = std::vector<char>(size);
    return buffer;
  }
  void give(std::vector<char> buffer) {
    std::lock_guard<std::mutex> lock(mutex);
    spare.push_back(std::move(buffer));
  }

private:
  std::mutex mutex;
  std::vector<std::vector<char>> spare;
};

/// The matrix a kernel argument is read as: its one collapse into two
/// dimensions (an HWIO weight as [KH*KW*C, O]), or the argument itself.
Value matrixOf(BlockArgument arg) {
  if (arg.hasOneUse())
    if (auto collapse =
            dyn_cast<tensor::CollapseShapeOp>(*arg.getUsers().begin()))
      if (collapse.getResultType().getRank() == 2)
        return collapse.getResult();
  return arg;
}

/// The products that read `matrix` (a kernel argument or its collapse) as
/// their B, with their loop roles, and how they read it; nothing when it
/// has any other use or the products disagree. A `matrix` of rank 3 is a
/// batch of matrices, which the products index by a loop of their own (a
/// Winograd product's points): B [batch, k, n] or [batch, n, k].
using Product = std::pair<linalg::GenericOp, ProductDims>;
struct Reading {
  Held held;
  SmallVector<Product> products;
};
std::optional<Reading> productsReading(Value matrix) {
  auto type = dyn_cast<RankedTensorType>(matrix.getType());
  if (!type || (type.getRank() != 2 && type.getRank() != 3) || !type.hasStaticShape() ||
      type.getNumElements() == 0 || !type.getElementType().isF32() || matrix.use_empty())
    return std::nullopt;
  std::optional<Held> held;
  SmallVector<Product> products;
  for (OpOperand &use : matrix.getUses()) {
    auto op = dyn_cast<linalg::GenericOp>(use.getOwner());
    if (!op || use.getOperandNumber() != 1 || !op.hasPureTensorSemantics() ||
        !isF32Contraction(op))
      return std::nullopt;
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    AffineMap b = maps[1];
    if (b.getNumResults() != type.getRank())
      return std::nullopt;
    // A product reading B [n, k] is one reading B [k, n] with B's last two
    // results swapped.
    Held h = Held::KN;
    std::optional<ProductDims> d = matchProduct(op);
    if (!d) {
      h = Held::NK;
      SmallVector<AffineExpr> swapped(b.getResults());
      std::swap(swapped.end()[-1], swapped.end()[-2]);
      maps[1] = AffineMap::get(b.getNumDims(), 0, swapped, op.getContext());
      d = productDims(maps, op.getIteratorTypesArray());
    }
    if (!d || (held && *held != h))
      return std::nullopt;
    MLIRContext *ctx = op.getContext();
    AffineExpr k = getAffineDimExpr(d->k, ctx), n = getAffineDimExpr(d->n, ctx);
    SmallVector<AffineExpr> expected(b.getResults().drop_back(2));
    // A batch is indexed by a loop that is none of the product's own.
    if (llvm::any_of(expected, [&](AffineExpr e) {
          auto dim = dyn_cast<AffineDimExpr>(e);
          return !dim || llvm::is_contained({d->m, d->n, d->k}, dim.getPosition());
        }))
      return std::nullopt;
    expected.append(h == Held::KN ? SmallVector<AffineExpr>{k, n} : SmallVector<AffineExpr>{n, k});
    if (b != AffineMap::get(b.getNumDims(), 0, expected, ctx))
      return std::nullopt;
    held = h;
    products.push_back({op, *d});
  }
  return Reading{*held, std::move(products)};
}

/// The f16 or bf16 value `v` widens if it is the result of a generic that
/// only does that (elementwise, identity maps: GraphToLinalg's widening of
/// a mixed-precision product's operands).
Value widenedFrom(Value v) {
  auto op = v.getDefiningOp<linalg::GenericOp>();
  if (!op || op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 || !op.hasPureTensorSemantics() ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !llvm::all_of(op.getIndexingMapsArray(), [](AffineMap m) { return m.isIdentity(); }))
    return {};
  Block &body = *op.getBlock();
  auto ext = dyn_cast<arith::ExtFOp>(body.front());
  if (!ext || body.getOperations().size() != 2 || ext.getIn() != body.getArgument(0) ||
      body.getTerminator()->getOperand(0) != ext.getResult() ||
      !(ext.getIn().getType().isBF16() || ext.getIn().getType().isF16()) ||
      !ext.getType().isF32())
    return {};
  return op.getDpsInputs()[0];
}

/// The f32 widening of `matrix`, an f16 or bf16 matrix whose one use
/// widens it, or null.
Value widenedWeight(Value matrix) {
  if (!matrix.hasOneUse())
    return {};
  auto widen = dyn_cast<linalg::GenericOp>(*matrix.getUsers().begin());
  if (!widen || widen->getNumResults() != 1 || widenedFrom(widen->getResult(0)) != matrix)
    return {};
  return widen->getResult(0);
}

/// Whether the product `op` can compute columns past its n into an
/// accumulator as wide: n the innermost dimension of C.
bool paddable(Product p) {
  auto [op, d] = p;
  AffineMap c = op.getIndexingMapsArray()[2];
  return c.getNumResults() > 0 && c.getResults().back() == getAffineDimExpr(d.n, op.getContext());
}

/// The products reading the widening of `matrix`, a bf16 [k, n] or [n, k]
/// kernel argument or its collapse (matrixOf: an NHWC convolution's HWIO
/// weight), as their B, if each can take B as panels of bf16 pairs of
/// width `width` instead: k even, A itself widened from bf16, n a multiple
/// of the width or every product paddable.
std::optional<Reading> pairReading(Value matrix, int64_t vectorBits) {
  auto type = dyn_cast<RankedTensorType>(matrix.getType());
  Value widened = widenedWeight(matrix);
  if (!widened || type.getRank() != 2 || !type.getElementType().isBF16())
    return std::nullopt;
  std::optional<Reading> reading = productsReading(widened);
  if (!reading)
    return std::nullopt;
  int64_t n = type.getShape()[reading->held == Held::KN ? 1 : 0];
  int64_t k = type.getShape()[reading->held == Held::KN ? 0 : 1];
  auto bf16A = [](Product p) {
    Value a = widenedFrom(p.first.getDpsInputs()[0]);
    return a && getElementTypeOrSelf(a.getType()).isBF16();
  };
  if (k % 2 != 0 || !llvm::all_of(reading->products, bf16A) ||
      (n % registerTile(vectorBits, n).nr != 0 && !llvm::all_of(reading->products, paddable)))
    return std::nullopt;
  return reading;
}

/// The accumulator of whole panels (`padded` columns) for a product whose
/// initial value `init` has fewer: the same fill, or zeros where `init` is
/// not a fill, which `initial` then is (to be added to the result).
Value wholePanelsInit(OpBuilder &b, Location loc, Value init, int64_t padded, Value &initial) {
  auto type = cast<RankedTensorType>(init.getType());
  auto fill = init.getDefiningOp<linalg::FillOp>();
  Value from = fill ? fill.getInputs()[0]
                    : arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  if (!fill)
    initial = init;
  SmallVector<int64_t> shape(type.getShape());
  shape.back() = padded;
  Value empty = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  return linalg::FillOp::create(b, loc, from, empty).getResult(0);
}

/// Replaces `op`, a product reading B through its widening, by the product
/// of the bf16 values themselves, B read as panels of pairs: the operands
/// widened in the body, where the dot-product kernel takes them as they
/// are. Where n is no multiple of the width (paddable), the product fills
/// an accumulator of whole panels (wholePanelsInit) and `op`'s result is
/// its slice of n columns, plus `op`'s initial values where they were no
/// fill (a bias).
void readPairs(OpBuilder &b, linalg::GenericOp op, ProductDims d, Value pairs, int64_t width) {
  Value a = widenedFrom(op.getDpsInputs()[0]);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  maps[1] = pairPanelMap(op.getNumLoops(), d, width, op.getContext());
  b.setInsertionPoint(op);
  Location loc = op.getLoc();
  Value init = op.getDpsInits()[0], initial;
  auto type = cast<RankedTensorType>(init.getType());
  int64_t n = type.getShape().back(), padded = panelCount(n, width) * width;
  if (padded != n)
    init = wholePanelsInit(b, loc, init, padded, initial);
  auto pairOp = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{a, pairs}, init, maps, op.getIteratorTypesArray(),
      [&](OpBuilder &nb, Location loc, ValueRange args) {
        Block &body = *op.getBlock();
        IRMapping map;
        for (unsigned i = 0; i < 2; ++i)
          map.map(body.getArgument(i), arith::ExtFOp::create(nb, loc, nb.getF32Type(), args[i]));
        map.map(body.getArgument(2), args[2]);
        for (Operation &inner : body.without_terminator())
          nb.clone(inner, map);
        linalg::YieldOp::create(nb, loc, map.lookup(body.getTerminator()->getOperand(0)));
      });
  pairOp->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  Value result = pairOp.getResult(0);
  if (padded != n) {
    SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0)),
        sizes = getAsIndexOpFoldResult(b.getContext(), type.getShape()),
        strides(type.getRank(), b.getIndexAttr(1));
    result = tensor::ExtractSliceOp::create(b, loc, type, result, offsets, sizes, strides);
  }
  if (initial)
    result = dlc::lowering::elementwise(
        b, loc, type, {result, initial},
        [](OpBuilder &nb, Location l, ValueRange v) { return dlc::lowering::add(nb, l, v[0], v[1]); });
  op->replaceAllUsesWith(ValueRange{result});
  op->erase();
}

/// The f32 payload of the constant passed as `v`, if it is one.
std::optional<ArrayRef<char>> constantPayload(Value v) {
  auto c = v.getDefiningOp<arith::ConstantOp>();
  auto value = c ? dyn_cast<ElementsAttr>(c.getValue()) : nullptr;
  return value ? dlc::payloadBytes(value) : std::nullopt;
}

struct CPUPackWeightsPass : dlc::impl::CPUPackWeightsPassBase<CPUPackWeightsPass> {
  using CPUPackWeightsPassBase::CPUPackWeightsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (vectorBits != 256 && vectorBits != 512) {
      module.emitError() << getArgument() << ": vector-bits must be 256 or 512, got "
                         << static_cast<int64_t>(vectorBits);
      return signalPassFailure();
    }
    if (bf16Dots && vectorBits != 512) {
      module.emitError() << getArgument() << ": bf16-dots needs vector-bits=512 (AVX512-BF16), got "
                         << static_cast<int64_t>(vectorBits);
      return signalPassFailure();
    }
    // Kernels and the arguments to rewrite: every call passes a constant.
    struct Candidate {
      func::FuncOp kernel;
      unsigned index;
      Value matrix; // the argument, or its collapse into [k, n]
      Form form;
      int64_t width; // of the panels
      SmallVector<Product> products;
      SmallVector<func::CallOp> calls;
      bool widened = false; // an f16 or bf16 matrix in an f32 form
    };
    SmallVector<Candidate> candidates;
    SymbolTableCollection symbols;
    SymbolUserMap users(symbols, module);
    for (auto kernel : module.getOps<func::FuncOp>()) {
      if (kernel.isPublic() || kernel.isExternal())
        continue;
      SmallVector<func::CallOp> calls;
      bool onlyCalls = true;
      for (Operation *user : users.getUsers(kernel)) {
        auto call = dyn_cast<func::CallOp>(user);
        onlyCalls &= call && call.getCallee() == kernel.getSymName();
        if (call)
          calls.push_back(call);
      }
      if (!onlyCalls || calls.empty())
        continue;
      for (BlockArgument arg : kernel.getArguments()) {
        auto constants = [&] {
          return llvm::all_of(calls, [&](func::CallOp call) {
            return constantPayload(call.getOperand(arg.getArgNumber())).has_value();
          });
        };
        Value matrix = matrixOf(arg);
        if (bf16Dots)
          if (std::optional<Reading> pairs = pairReading(matrix, vectorBits);
              pairs && constants()) {
            ArrayRef<int64_t> shape = cast<RankedTensorType>(matrix.getType()).getShape();
            int64_t n = pairs->held == Held::KN ? shape[1] : shape[0];
            candidates.push_back({kernel, arg.getArgNumber(), matrix,
                                  pairs->held == Held::KN ? Form::PairsFromKN : Form::PairsFromNK,
                                  registerTile(vectorBits, n).nr, std::move(pairs->products), calls});
            continue;
          }
        Value widened = widenedWeight(matrix);
        std::optional<Reading> reading = productsReading(widened ? widened : matrix);
        std::optional<Form> form;
        int64_t width = 0;
        if (reading) {
          ArrayRef<int64_t> shape = cast<RankedTensorType>(matrix.getType()).getShape();
          int64_t n = shape.end()[reading->held == Held::KN ? -1 : -2];
          width = registerTile(vectorBits, n).nr;
          if (n % width == 0)
            form = reading->held == Held::KN ? Form::PanelsFromKN : Form::PanelsFromNK;
          else if (reading->held == Held::NK)
            form = Form::TransposedNK;
        }
        if (!form) {
          // An f16 or bf16 weight that takes no f32 form: widened as it is.
          if (widened && matrix == arg && cast<RankedTensorType>(arg.getType()).getRank() >= 2 &&
              constants())
            candidates.push_back(
                {kernel, arg.getArgNumber(), matrix, Form::Widened, 0, {}, calls, true});
          continue;
        }
        if (constants())
          candidates.push_back({kernel, arg.getArgNumber(), matrix, *form, width,
                                std::move(reading->products), calls, bool(widened)});
      }
    }
    // The constants to write, each once per form and matrix shape, on the
    // context's threads (memory-bound: BERT-base has 340 MB of them).
    // (weight, form, batch (0: a matrix), rows, cols, panel width, widened).
    using Key = std::tuple<Value, unsigned, int64_t, int64_t, int64_t, int64_t, unsigned>;
    auto keyOf = [](Candidate &c, func::CallOp call) {
      ArrayRef<int64_t> shape = cast<RankedTensorType>(c.matrix.getType()).getShape();
      return Key{call.getOperand(c.index),
                 static_cast<unsigned>(c.form),
                 shape.size() == 3 && c.form != Form::Widened ? shape[0] : 0,
                 shape.end()[-2],
                 shape.end()[-1],
                 c.width,
                 unsigned(c.widened)};
    };
    // The type of what `key` writes.
    auto packedType = [](const Key &key) {
      auto [weight, form, batch, rows, cols, width, widened] = key;
      Type element = widened ? Float32Type::get(weight.getContext())
                             : cast<RankedTensorType>(weight.getType()).getElementType();
      SmallVector<int64_t> shape;
      switch (static_cast<Form>(form)) {
      case Form::PanelsFromKN:
        shape = {cols / width, rows, width};
        break;
      case Form::PanelsFromNK:
        shape = {rows / width, cols, width};
        break;
      case Form::TransposedNK:
        shape = {cols, rows};
        break;
      case Form::PairsFromKN:
        shape = {panelCount(cols, width), rows / 2, width, 2};
        break;
      case Form::PairsFromNK:
        shape = {panelCount(rows, width), cols / 2, width, 2};
        break;
      case Form::Widened:
        return cast<RankedTensorType>(weight.getType()).clone(element);
      }
      if (batch)
        shape.insert(shape.begin(), batch);
      return RankedTensorType::get(shape, element);
    };
    auto byteSize = [](RankedTensorType type) {
      return type.getNumElements() * type.getElementTypeBitWidth() / 8;
    };
    llvm::MapVector<Key, std::optional<AsmResourceBlob>> weights;
    for (Candidate &c : candidates)
      for (func::CallOp call : c.calls)
        weights.try_emplace(keyOf(c, call));
    auto entries = weights.takeVector();
    // A payload the compile wrote (the caller says which ones), held by
    // this constant alone, written in one form and read only where the
    // packed form replaces it (not also by a kernel that keeps it as it
    // is), is rewritten within itself.
    llvm::DenseMap<Value, int64_t> forms, replaced;
    for (auto &entry : entries)
      ++forms[std::get<0>(entry.first)];
    for (Candidate &c : candidates)
      for (func::CallOp call : c.calls)
        ++replaced[call.getOperand(c.index)];
    llvm::DenseMap<DialectResourceBlobManager::BlobEntry *, int64_t> holders;
    module.walk([&](arith::ConstantOp c) {
      if (auto resource = dyn_cast<DenseResourceElementsAttr>(c.getValue()))
        ++holders[resource.getRawHandle().getResource()];
    });
    auto ownPayload = [&](Value weight) -> DenseResourceElementsAttr {
      auto resource =
          dyn_cast<DenseResourceElementsAttr>(weight.getDefiningOp<arith::ConstantOp>().getValue());
      if (!overwritable || !resource || forms[weight] != 1 ||
          holders[resource.getRawHandle().getResource()] != 1 ||
          static_cast<int64_t>(std::distance(weight.use_begin(), weight.use_end())) !=
              replaced[weight])
        return {};
      AsmResourceBlob *blob = resource.getRawHandle().getBlob();
      return blob && blob->isMutable() && overwritable(resource) ? resource : nullptr;
    };
    SmallVector<DenseResourceElementsAttr> own;
    // A widened payload doubles, a padded one grows: not in place.
    for (auto &entry : entries)
      own.push_back(byteSize(packedType(entry.first)) !=
                            byteSize(cast<RankedTensorType>(std::get<0>(entry.first).getType()))
                        ? nullptr
                        : ownPayload(std::get<0>(entry.first)));
    ScratchBuffers scratch;
    mlir::parallelFor(&getContext(), 0, entries.size(), [&](size_t i) {
      auto [weight, form, batch, rows, cols, width, widened] = entries[i].first;
      ArrayRef<char> bytes = *constantPayload(weight);
      const char *in = bytes.data();
      char *out;
      std::vector<char> copy;
      if (widened && static_cast<Form>(form) != Form::Widened) {
        copy = scratch.take(bytes.size() * 2);
        widenToF32(bytes.data(), copy.data(), bytes.size() / 2,
                   cast<ShapedType>(weight.getType()).getElementType().isF16());
        in = copy.data();
      } else if (own[i]) {
        copy = scratch.take(bytes.size());
        std::memcpy(copy.data(), bytes.data(), bytes.size());
        in = copy.data();
      }
      if (own[i]) {
        out = own[i].getRawHandle().getBlob()->getMutableData().data();
      } else {
        entries[i].second = dlc::allocateBlob(byteSize(packedType(entries[i].first)));
        out = entries[i].second->getMutableData().data();
      }
      switch (static_cast<Form>(form)) {
      case Form::PanelsFromKN:
      case Form::PanelsFromNK:
      case Form::TransposedNK:
        // A batch of matrices: each written as one, in its own place.
        for (int64_t j = 0, e = std::max<int64_t>(batch, 1); j < e; ++j)
          writeF32Matrix(static_cast<Form>(form), in + j * rows * cols * 4,
                         out + j * rows * cols * 4, rows, cols, width);
        break;
      case Form::PairsFromKN:
        writePairs(in, out, Held::KN, rows, cols, width);
        break;
      case Form::PairsFromNK:
        writePairs(in, out, Held::NK, cols, rows, width);
        break;
      case Form::Widened:
        widenToF32(in, out, bytes.size() / 2,
                   cast<ShapedType>(weight.getType()).getElementType().isF16());
        break;
      }
      if (!copy.empty())
        scratch.give(std::move(copy));
    });
    OpBuilder b(&getContext());
    DenseMap<Key, Value> written;
    int64_t inPlace = 0, inPlaceBytes = 0;
    for (auto [i, entry] : llvm::enumerate(entries)) {
      auto &[key, blob] = entry;
      Value weight = std::get<0>(key);
      auto type = cast<RankedTensorType>(weight.getType());
      RankedTensorType newType = packedType(key);
      StringRef name = static_cast<Form>(std::get<1>(key)) == Form::TransposedNK
                           ? "transposed_weight"
                           : "packed_weight";
      b.setInsertionPoint(weight.getDefiningOp());
      DenseResourceElementsAttr attr;
      if (own[i]) {
        attr = DenseResourceElementsAttr::get(newType, own[i].getRawHandle());
        ++inPlace;
        inPlaceBytes += byteSize(type);
      } else {
        attr = DenseResourceElementsAttr::get(newType, name, std::move(*blob));
      }
      written[key] = arith::ConstantOp::create(b, weight.getLoc(), attr);
    }
    int64_t packed = 0, transposed = 0, pairs = 0, widenedOnce = 0;
    for (Candidate &c : candidates) {
      SmallVector<Value> packedWeights;
      for (func::CallOp call : c.calls)
        packedWeights.push_back(written[keyOf(c, call)]);
      BlockArgument arg = c.kernel.getArgument(c.index);
      Operation *widen = c.widened ? *c.matrix.getUsers().begin() : nullptr;
      if (c.matrix != arg) {
        Operation *collapse = c.matrix.getDefiningOp();
        c.matrix.replaceAllUsesWith(arg);
        collapse->erase();
      }
      arg.setType(packedWeights.front().getType());
      SmallVector<Type> inputs =
          llvm::to_vector(c.kernel.getBody().getArgumentTypes());
      c.kernel.setFunctionType(
          FunctionType::get(&getContext(), inputs, c.kernel.getResultTypes()));
      for (auto [call, weight] : llvm::zip_equal(c.calls, packedWeights))
        call->setOperand(c.index, weight);
      if (widen) {
        widen->getResult(0).replaceAllUsesWith(arg);
        widen->erase();
        ++widenedOnce;
      }
      if (c.form == Form::Widened)
        continue;
      if (c.form == Form::PairsFromKN || c.form == Form::PairsFromNK) {
        Operation *widen = *arg.getUsers().begin();
        for (auto [op, d] : c.products)
          readPairs(b, op, d, arg, c.width);
        widen->erase();
        ++pairs;
        continue;
      }
      bool panels = c.form != Form::TransposedNK;
      for (auto [op, d] : c.products) {
        SmallVector<AffineMap> maps = op.getIndexingMapsArray();
        MLIRContext *ctx = op.getContext();
        SmallVector<AffineExpr> batch(maps[1].getResults().drop_back(2));
        if (panels) {
          maps[1] = panelMap(op.getNumLoops(), d, c.width, ctx, batch);
        } else {
          batch.append({getAffineDimExpr(d.k, ctx), getAffineDimExpr(d.n, ctx)});
          maps[1] = AffineMap::get(op.getNumLoops(), 0, batch, ctx);
        }
        op.setIndexingMapsAttr(b.getAffineMapArrayAttr(maps));
      }
      ++(panels ? packed : transposed);
    }
    llvm::SetVector<Value> originals;
    for (auto &entry : entries)
      originals.insert(std::get<0>(entry.first));
    for (Value weight : originals)
      if (weight.use_empty())
        weight.getDefiningOp()->erase();
    dlc::recordPassStat(getArgument(), "packed", packed);
    dlc::recordPassStat(getArgument(), "transposed", transposed);
    dlc::recordPassStat(getArgument(), "pairs", pairs);
    dlc::recordPassStat(getArgument(), "widened", widenedOnce);
    dlc::recordPassStat(getArgument(), "weights", entries.size());
    dlc::recordPassStat(getArgument(), "in-place", inPlace);
    dlc::recordPassStat(getArgument(), "in-place-bytes", inPlaceBytes);
  }

  /// The payloads the pass may overwrite (none when unset).
  dlc::PayloadPredicate overwritable;
};
} // namespace

std::unique_ptr<Pass> dlc::createCPUPackWeightsPass(const CPUPackWeightsPassOptions &options,
                                                    PayloadPredicate overwritable) {
  auto pass = std::make_unique<CPUPackWeightsPass>(options);
  pass->overwritable = std::move(overwritable);
  return pass;
}
