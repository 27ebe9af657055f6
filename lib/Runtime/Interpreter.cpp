//===- Interpreter.cpp - the reference interpreter -------------------------===//
//
// The interpreter walks a block op by op and hands each op to the op
// families' evaluators (Interpreter/*.cpp, one per family), written as direct
// loops over row-major data. Speed is secondary; being obviously right is the
// point. Constants, fused and composite bodies and calls are handled here.
//
//===----------------------------------------------------------------------===//
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Runtime/CPUExecutable.h"
#include "Interpreter/Eval.h"

#include "dlc/Support/Memory.h"
#include "dlc/Dialect/Graph/GraphOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cstring>

#include <cmath>
#include <limits>

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

std::optional<DType> dlc::dtypeOf(Type t) {
  if (t.isF32()) return DType::F32;
  if (t.isF16()) return DType::F16;
  if (t.isBF16()) return DType::BF16;
  if (t.isF64()) return DType::F64;
  if (t.isInteger(1)) return DType::I1;
  if (t.isInteger(8)) return DType::I8;
  if (t.isInteger(32)) return DType::I32;
  if (t.isInteger(64)) return DType::I64;
  return std::nullopt;
}

Type dlc::mlirElementType(DType type, MLIRContext *ctx) {
  Builder b(ctx);
  switch (type) {
  case DType::F32: return b.getF32Type();
  case DType::F16: return b.getF16Type();
  case DType::BF16: return b.getBF16Type();
  case DType::F64: return b.getF64Type();
  case DType::I8: return b.getI8Type();
  case DType::I32: return b.getI32Type();
  case DType::I64: return b.getI64Type();
  case DType::I1: return b.getI1Type();
  }
  return {};
}

ElementsAttr dlc::elementsAttrFromTensor(const Tensor &t, MLIRContext *ctx,
                                         StringRef name,
                                         int64_t maxDenseElements) {
  auto type = RankedTensorType::get(t.shape, mlirElementType(t.dtype, ctx));
  bool splat = !t.data.empty() &&
               llvm::all_of(t.data, [&](double v) { return v == t.data[0]; });
  // Booleans (masks, never weights) stay dense: the backends read their
  // values.
  if (t.size() <= maxDenseElements || splat || t.dtype == DType::I1) {
    int64_t n = splat ? 1 : t.size();
    if (isFloat(t.dtype)) {
      const llvm::fltSemantics &sem =
          cast<FloatType>(type.getElementType()).getFloatSemantics();
      SmallVector<APFloat> values;
      for (int64_t i = 0; i < n; ++i) {
        APFloat f(t.data[i]);
        bool lost;
        f.convert(sem, APFloat::rmNearestTiesToEven, &lost);
        values.push_back(f);
      }
      return DenseElementsAttr::get(type, values);
    }
    unsigned width = type.getElementType().getIntOrFloatBitWidth();
    SmallVector<APInt> values;
    for (int64_t i = 0; i < n; ++i)
      values.push_back(APInt(width, toInt64(t.data[i]),
                             /*isSigned=*/true, /*implicitTrunc=*/true));
    return DenseElementsAttr::get(type, values);
  }
  int64_t width = dtypeBytes(t.dtype);
  std::vector<char> bytes(t.size() * width);
  if (t.dtype == DType::F32) { // weights: no per-element dispatch
    for (int64_t i = 0; i < t.size(); ++i) {
      float f = static_cast<float>(t.data[i]);
      std::memcpy(bytes.data() + i * 4, &f, 4);
    }
  } else {
    for (int64_t i = 0; i < t.size(); ++i)
      encodeElement(t.dtype, t.data[i], bytes.data() + i * width);
  }
  // Weights the CPU executable takes as arguments are aligned to a cache
  // line, here and in the bytecode files written from them, so that it can
  // read them where a mapped file has them; dlc's tools open files so
  // aligned (loadModel).
  size_t alignment = t.size() >= kWeightArgumentElements ? 64 : alignof(uint64_t);
  AsmResourceBlob blob =
      HeapAsmResourceBlob::allocateAndCopyWithAlign(ArrayRef<char>(bytes), alignment);
  return DenseResourceElementsAttr::get(type, name, std::move(blob));
}

FailureOr<Tensor> dlc::tensorFromAttr(ElementsAttr attr, Location loc) {
  auto type = cast<ShapedType>(attr.getType());
  std::optional<DType> dtype = dtypeOf(type.getElementType());
  if (!dtype || !type.hasStaticShape() || !checkedNumElements(type.getShape()))
    return emitError(loc, "constant of type ") << type << " is not supported";
  std::string tooLarge = checkFitsInMemory(
      static_cast<uint64_t>(type.getNumElements()) * sizeof(double));
  if (!tooLarge.empty())
    return emitError(loc, "constant of type ") << type << " " << tooLarge;
  Tensor t(*dtype, type.getShape());
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (isFloat(*dtype)) {
      int64_t i = 0;
      for (const APFloat &v : dense.getValues<APFloat>())
        t.data[i++] = v.convertToDouble();
    } else {
      int64_t i = 0;
      for (const APInt &v : dense.getValues<APInt>())
        t.data[i++] = *dtype == DType::I1 ? double(!v.isZero())
                                           : double(v.getSExtValue());
    }
    return t;
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return emitError(loc, "constant: dense_resource payload '")
             << resource.getRawHandle().getKey()
             << "' is missing (no dialect_resources entry)";
    ArrayRef<char> bytes = blob->getData();
    int64_t width = dtypeBytes(*dtype);
    if (static_cast<int64_t>(bytes.size()) != t.size() * width)
      return emitError(loc, "constant: dense_resource payload '")
             << resource.getRawHandle().getKey() << "' has " << bytes.size()
             << " bytes, type " << type << " needs " << t.size() * width;
    if (*dtype == DType::F32) { // weights: no per-element dispatch
      for (int64_t i = 0; i < t.size(); ++i) {
        float f;
        std::memcpy(&f, bytes.data() + i * 4, 4);
        t.data[i] = f;
      }
      return t;
    }
    for (int64_t i = 0; i < t.size(); ++i)
      t.data[i] = decodeElement(*dtype, bytes.data() + i * width);
    return t;
  }
  return emitError(loc, "constant payload kind is not supported: ") << attr;
}

static std::string describeType(Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  std::optional<DType> dtype = t ? dtypeOf(t.getElementType()) : std::nullopt;
  if (!dtype)
    return "unsupported";
  return (dtypeName(*dtype) + "[" + formatShape(t.getShape()) + "]").str();
}

llvm::Error dlc::checkInputs(FunctionType type, ArrayRef<Tensor> inputs) {
  if (type.getNumInputs() != inputs.size())
    return llvm::createStringError(
        "the function takes " + std::to_string(type.getNumInputs()) +
        " inputs, " + std::to_string(inputs.size()) + " given");
  for (auto [i, argType, tensor] : llvm::enumerate(type.getInputs(), inputs)) {
    std::string want = describeType(argType);
    if (want != tensor.describe())
      return llvm::createStringError("input " + std::to_string(i) +
                                     ": expected " + want + ", got " +
                                     tensor.describe());
  }
  return llvm::Error::success();
}

namespace {

/// A result tensor shaped like `v`'s type.
Tensor resultFor(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  return Tensor(*dtypeOf(type.getElementType()), type.getShape());
}

void roundAll(Tensor &t) {
  if (t.dtype == DType::F64)
    return;
  for (double &v : t.data)
    v = roundToDType(t.dtype, v);
}

class Interpreter {
public:
  explicit Interpreter(Operation *symbolScope) : scope(symbolScope) {}

  FailureOr<std::vector<Tensor>> runBlock(Block &block, ArrayRef<Tensor> args);
  FailureOr<std::vector<Tensor>> evalOne(Operation *op,
                                         ArrayRef<Tensor> operands) {
    SmallVector<const Tensor *> in;
    for (const Tensor &t : operands)
      in.push_back(&t);
    std::vector<Tensor> out;
    if (failed(eval(op, in, out)))
      return failure();
    return out;
  }

private:
  LogicalResult eval(Operation *op, ArrayRef<const Tensor *> in,
                     std::vector<Tensor> &out);
  /// Constants, and ops with a body or a callee run by this interpreter.
  interp::EvalResult evalStructural(Operation *op, ArrayRef<const Tensor *> in,
                                    std::vector<Tensor> &out);

  Operation *scope;
};

FailureOr<std::vector<Tensor>> Interpreter::runBlock(Block &block,
                                                     ArrayRef<Tensor> args) {
  llvm::DenseMap<Value, Tensor> env;
  llvm::DenseMap<Value, int64_t> usesLeft;
  auto define = [&](Value v, Tensor t) {
    usesLeft[v] = std::distance(v.use_begin(), v.use_end());
    env[v] = std::move(t);
  };
  for (auto [arg, t] : llvm::zip(block.getArguments(), args))
    define(arg, t);
  for (Operation &op : block) {
    SmallVector<const Tensor *> in;
    for (Value operand : op.getOperands()) {
      auto it = env.find(operand);
      if (it == env.end())
        return op.emitError("reference interpreter: operand is not defined in "
                            "this block");
      in.push_back(&it->second);
    }
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      std::vector<Tensor> results;
      for (const Tensor *t : in)
        results.push_back(*t);
      return results;
    }
    std::vector<Tensor> out;
    if (failed(eval(&op, in, out)))
      return failure();
    for (auto [v, t] : llvm::zip(op.getResults(), out))
      define(v, std::move(t));
    // Free every tensor after its last use.
    for (Value operand : op.getOperands())
      if (--usesLeft[operand] == 0)
        env.erase(operand);
  }
  return emitError(block.getParentOp()->getLoc(),
                   "reference interpreter: block has no terminator");
}

interp::EvalResult Interpreter::evalStructural(Operation *op,
                                               ArrayRef<const Tensor *> in,
                                               std::vector<Tensor> &out) {
  auto runBody = [&](Block &body) -> LogicalResult {
    std::vector<Tensor> args;
    for (const Tensor *t : in)
      args.push_back(*t);
    FailureOr<std::vector<Tensor>> r = runBlock(body, args);
    if (failed(r))
      return failure();
    out = std::move(*r);
    return success();
  };
  return llvm::TypeSwitch<Operation *, interp::EvalResult>(op)
      .Case([&](ConstantOp c) -> LogicalResult {
        FailureOr<Tensor> t = tensorFromAttr(c.getValue(), c.getLoc());
        if (failed(t))
          return failure();
        out[0] = std::move(*t);
        return success();
      })
      .Case<FusedOp, CompositeOp>([&](auto c) { return runBody(c.getBody().front()); })
      .Case([&](func::CallOp c) -> LogicalResult {
        auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
            c, c.getCalleeAttr());
        if (!callee || callee.isExternal())
          return c.emitError("reference interpreter: callee @")
                 << c.getCallee() << " has no body";
        return runBody(callee.getBody().front());
      })
      .Default([](Operation *) { return std::nullopt; });
}

LogicalResult Interpreter::eval(Operation *op, ArrayRef<const Tensor *> in,
                                std::vector<Tensor> &out) {
  for (Value r : op->getResults()) {
    auto type = dyn_cast<RankedTensorType>(r.getType());
    if (!type || !type.hasStaticShape() || !dtypeOf(type.getElementType()))
      return op->emitError("reference interpreter: result type ")
             << r.getType() << " is not supported";
    // The interpreter holds each element as a double.
    std::string tooLarge = checkFitsInMemory(
        static_cast<uint64_t>(type.getNumElements()) * sizeof(double));
    if (!tooLarge.empty())
      return op->emitError("reference interpreter: result ")
             << r.getType() << " " << tooLarge;
    out.push_back(resultFor(r));
  }
  // Nothing to compute when every result is empty (a dimension of size 0);
  // this also keeps the loops below free of divisions by zero extents.
  if (!out.empty() && !isa<FusedOp, CompositeOp, func::CallOp>(op) &&
      llvm::all_of(out, [](const Tensor &t) { return t.size() == 0; }))
    return success();
  using Family = interp::EvalResult (*)(Operation *, interp::Inputs, interp::Outputs);
  static const Family families[] = {
      interp::evalElementwise,   interp::evalLinear,  interp::evalPooling,
      interp::evalNormalization, interp::evalReductions, interp::evalShape,
      interp::evalQuantization,  interp::evalDetection};
  interp::EvalResult result = evalStructural(op, in, out);
  for (Family family : families) {
    if (result)
      break;
    result = family(op, in, out);
  }
  if (!result)
    return op->emitError("reference interpreter: unsupported op '")
           << op->getName() << "'";
  if (failed(*result))
    return failure();
  for (Tensor &t : out)
    roundAll(t);
  return success();
}

} // namespace

FailureOr<std::vector<Tensor>> dlc::evaluateOp(Operation *op,
                                                ArrayRef<Tensor> operands) {
  Interpreter interpreter(op->getParentOp());
  return interpreter.evalOne(op, operands);
}

FailureOr<std::vector<Tensor>> dlc::interpret(func::FuncOp func,
                                              ArrayRef<Tensor> inputs) {
  if (func.isExternal())
    return func.emitError("reference interpreter: function @")
           << func.getSymName() << " has no body";
  if (!func.getBody().hasOneBlock())
    return func.emitError("reference interpreter: function @")
           << func.getSymName() << " has more than one block";
  Interpreter interpreter(func->getParentOp());
  return interpreter.runBlock(func.getBody().front(), inputs);
}
