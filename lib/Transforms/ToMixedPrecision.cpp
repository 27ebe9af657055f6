//===- ToMixedPrecision.cpp - compute in f16/bf16 where it is safe --------===//
//
// TVM's ToMixedPrecision: every op has a category. ALWAYS ops (products and
// convolutions) run in the mixed type; FOLLOW ops run in it when all their
// float operands already are (or are constants or function arguments), and
// in f32 otherwise; NEVER ops (exponentials, reductions, normalizations)
// run in f32. Operands are cast where a value crosses between the two, and
// constants are converted at compile time. One forward walk over the
// function, rewriting result types in place (every float operand of a
// converted op is converted, so the ops' type rules still hold).
//
//===----------------------------------------------------------------------===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Transforms/Passes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>

namespace dlc {
#define GEN_PASS_DEF_TOMIXEDPRECISIONPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

namespace {
enum class Category { Always, Follow, Never };

/// TVM's default lists (python/tvm/relay/transform/mixed_precision.py),
/// restricted to dlc's ops, in the format of the `lists` file; Winograd
/// convolutions stay f32 (their transforms lose too much in f16).
constexpr llvm::StringLiteral kDefaultLists = R"(
always = conv2d dense matmul batch_matmul
follow = pad reshape dynamic_reshape transpose concat split slice squeeze expand_dims
follow = layout_transform gather add sub mul div maximum minimum bias_add batch_norm
follow = relu neg abs sqrt sigmoid tanh fast_tanh fast_exp fast_erf clip dropout
follow = max_pool2d avg_pool2d reduce_max
never = exp log pow erf gelu rsqrt softmax fast_softmax layer_norm global_avg_pool2d
never = reduce_sum reduce_mean quantize dequantize nms conv2d_winograd
)";

/// Parses `kind = op op ...` lines into `lists`; a later line wins.
LogicalResult parseLists(StringRef text, StringRef source, MLIRContext *ctx,
                         llvm::StringMap<Category> &lists) {
  llvm::Error error = forEachSettingLine(
      text, source, "always|follow|never = op op ...",
      [&](StringRef kind, StringRef ops, StringRef line) -> llvm::Error {
        std::optional<Category> category = llvm::StringSwitch<std::optional<Category>>(kind)
                                               .Case("always", Category::Always)
                                               .Case("follow", Category::Follow)
                                               .Case("never", Category::Never)
                                               .Default(std::nullopt);
        if (!category)
          return llvm::createStringError(
              "expected 'always|follow|never = op op ...', got '" + line + "'");
        SmallVector<StringRef> names;
        ops.split(names, ' ', -1, /*KeepEmpty=*/false);
        for (StringRef name : names) {
          if (!isComputeOpName(name, ctx))
            return llvm::createStringError("unknown graph op '" + name + "'");
          lists[name] = *category;
        }
        return llvm::Error::success();
      });
  if (error)
    return emitError(UnknownLoc::get(ctx))
           << "graph-to-mixed-precision: " << llvm::toString(std::move(error));
  return success();
}

bool isFloat(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor && isa<FloatType>(tensor.getElementType());
}

Type withElement(Type t, Type element) {
  return cast<RankedTensorType>(t).clone(element);
}

struct ToMixedPrecisionPass : dlc::impl::ToMixedPrecisionPassBase<ToMixedPrecisionPass> {
  using ToMixedPrecisionPassBase::ToMixedPrecisionPassBase;

  LogicalResult initialize(MLIRContext *ctx) override {
    if (type != "f16" && type != "bf16")
      return emitError(UnknownLoc::get(ctx))
             << "graph-to-mixed-precision: type '" << type << "' is not f16 or bf16";
    if (missingOpMode < 0 || missingOpMode > 2)
      return emitError(UnknownLoc::get(ctx))
             << "graph-to-mixed-precision: missing-op-mode " << static_cast<int>(missingOpMode)
             << " is not 0 (error), 1 (warn) or 2 (silent)";
    categories.clear();
    if (lists.empty())
      return parseLists(kDefaultLists, "<default lists>", ctx, categories);
    auto file = llvm::MemoryBuffer::getFile(lists);
    if (!file)
      return emitError(UnknownLoc::get(ctx))
             << "graph-to-mixed-precision: cannot read lists '" << lists
             << "': " << file.getError().message();
    return parseLists((*file)->getBuffer(), lists, ctx, categories);
  }

  /// `v` as a tensor of `element`: itself, the value a widening cast came
  /// from, a constant converted now, or a new cast.
  Value convert(Value v, Type element) {
    if (cast<RankedTensorType>(v.getType()).getElementType() == element)
      return v;
    if (auto c = v.getDefiningOp<CastOp>()) {
      Type from = tensorType(c.getInput()).getElementType();
      if (from == element && from.getIntOrFloatBitWidth() <
                                 tensorType(v).getElementType().getIntOrFloatBitWidth())
        return c.getInput();
    }
    auto key = std::make_pair(v, element);
    if (Value known = cache.lookup(key))
      return known;
    OpBuilder b(v.getContext());
    b.setInsertionPointAfterValue(v);
    auto castOp = CastOp::create(b, v.getLoc(), withElement(v.getType(), element), v);
    Value result = castOp.getResult();
    if (v.getDefiningOp<ConstantOp>()) {
      Value folded;
      if (ElementsAttr bytes = foldOnBytes(castOp))
        folded = ConstantOp::create(b, v.getLoc(), bytes);
      else if (std::optional<Tensor> value = constantValue(v))
        if (FailureOr<std::vector<Tensor>> t = evaluateOp(castOp, {*value}); succeeded(t))
          folded = createConstant(b, v.getLoc(), t->front(), "mixed");
      if (folded) {
        result = folded;
        castOp.erase();
        ++constants;
        constantsSeen.insert(v.getDefiningOp());
        constantsSeen.insert(result.getDefiningOp());
      }
    } else {
      casts.push_back(castOp);
    }
    cache[key] = result;
    return result;
  }

  /// The category of `op`, after the FOLLOW decision and the clip range.
  FailureOr<Category> categoryOf(Operation *op, Type mixed) {
    if (isa<FusedOp, CompositeOp>(op))
      return Category::Never; // fused for f32: run mixed precision before FuseOps
    StringRef name = op->getName().stripDialect();
    if (auto conv = dyn_cast<Conv2DOp>(op); conv && groupedF32 && conv.getGroups() > 1)
      return Category::Never;
    auto it = categories.find(name);
    Category category = Category::Follow;
    if (it != categories.end()) {
      category = it->second;
    } else {
      ++missing;
      if (missingOpMode == 0)
        return op->emitError("graph-to-mixed-precision: op '")
               << op->getName() << "' is in none of the lists (always, follow, never); "
               << "add it with lists=FILE or set missing-op-mode=1";
      if (missingOpMode == 1 && warned.insert(name).second)
        op->emitWarning("graph-to-mixed-precision: op '")
            << op->getName() << "' is in none of the lists; treated as follow";
    }
    if (auto clip = dyn_cast<ClipOp>(op); clip && mixed.isF16()) {
      double limit = 65504.0; // the largest finite f16
      auto outside = [&](double x) { return std::isfinite(x) && std::abs(x) > limit; };
      if (outside(clip.getMin().convertToDouble()) || outside(clip.getMax().convertToDouble()))
        return Category::Never;
    }
    if (category != Category::Follow)
      return category;
    for (Value v : op->getOperands()) {
      if (!isFloat(v.getType()) || isa<BlockArgument>(v) || v.getDefiningOp<ConstantOp>())
        continue;
      if (tensorType(v).getElementType() != mixed)
        return Category::Never;
    }
    return Category::Always;
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *ctx = &getContext();
    Type mixed = type == "bf16" ? Type(BFloat16Type::get(ctx)) : Type(Float16Type::get(ctx));
    Type f32 = Float32Type::get(ctx);
    cache.clear();
    casts.clear();
    constantsSeen.clear();
    for (Operation &op : llvm::make_early_inc_range(func.getBody().getOps())) {
      if (isa<ConstantOp, CastOp>(op) || op.hasTrait<OpTrait::IsTerminator>())
        continue;
      if (!llvm::any_of(op.getOperandTypes(), isFloat) &&
          !llvm::any_of(op.getResultTypes(), isFloat))
        continue;
      FailureOr<Category> category = categoryOf(&op, mixed);
      if (failed(category))
        return signalPassFailure();
      if (*category == Category::Never) {
        for (OpOperand &operand : op.getOpOperands())
          if (isFloat(operand.get().getType()))
            operand.set(convert(operand.get(), f32));
        ++kept;
        continue;
      }
      // Products accumulate in f32 on request: f32 operands widened from
      // mixed values, the result rounded to mixed.
      bool wide = accumulateF32 && isa<Conv2DOp, DenseOp, MatmulOp, BatchMatmulOp>(op);
      for (OpOperand &operand : op.getOpOperands())
        if (isFloat(operand.get().getType())) {
          Value narrow = convert(operand.get(), mixed);
          operand.set(wide ? convert(narrow, f32) : narrow);
        }
      for (OpResult r : op.getResults()) {
        if (!isFloat(r.getType()))
          continue;
        if (!wide) {
          r.setType(withElement(r.getType(), mixed));
          continue;
        }
        OpBuilder b(&op);
        b.setInsertionPointAfter(&op);
        auto narrow = CastOp::create(b, op.getLoc(), withElement(r.getType(), mixed), r);
        r.replaceAllUsesExcept(narrow.getResult(), narrow);
      }
      ++converted;
    }

    // Results: cast back to their original types, or the signature changes.
    auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
    FunctionType signature = func.getFunctionType();
    for (auto [operand, original] : llvm::zip(ret->getOpOperands(), signature.getResults()))
      if (keepOrigOutputDtype && operand.get().getType() != original && isFloat(original))
        operand.set(convert(operand.get(), cast<RankedTensorType>(original).getElementType()));
    func.setType(FunctionType::get(ctx, signature.getInputs(), ret.getOperandTypes()));

    // Constants that only the converted ops read, before or after their
    // conversion.
    for (Operation *c : constantsSeen)
      if (c->use_empty())
        c->erase();
    int64_t castsLeft = 0;
    for (CastOp c : llvm::reverse(casts)) {
      if (c->use_empty())
        c.erase();
      else
        ++castsLeft;
    }
    recordPassStat(getArgument(), "converted", converted);
    recordPassStat(getArgument(), "kept-f32", kept);
    recordPassStat(getArgument(), "casts", castsLeft);
    recordPassStat(getArgument(), "constants", constants);
    recordPassStat(getArgument(), "missing", missing);
  }

  llvm::StringMap<Category> categories;
  llvm::StringSet<> warned;
  DenseMap<std::pair<Value, Type>, Value> cache;
  SmallVector<CastOp> casts;
  llvm::SetVector<Operation *> constantsSeen;
  int64_t converted = 0, kept = 0, constants = 0, missing = 0;
};
} // namespace
