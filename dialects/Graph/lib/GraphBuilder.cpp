//===- GraphBuilder.cpp - build graph ops with inferred types --------------===//
#include "dlc/Dialect/Graph/GraphBuilder.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

using namespace mlir;

FailureOr<Operation *> dlc::graph::buildDetachedGraphOp(
    Location loc, StringRef name, ValueRange operands,
    ArrayRef<NamedAttribute> attrs, TypeRange resultTypes, unsigned numResults) {
  MLIRContext *ctx = loc.getContext();
  OperationName opName(name, ctx);
  if (!opName.isRegistered()) {
    emitError(loc, "unknown op '") << name << "'";
    return failure();
  }
  auto infer = opName.getInterface<InferTypeOpInterface>();
  if (resultTypes.empty() && !infer) {
    emitError(loc, "cannot infer the result type of ") << name;
    return failure();
  }
  OperationState state(loc, opName);
  state.addOperands(operands);
  state.addAttributes(attrs);
  state.addTypes(resultTypes.empty()
                     ? SmallVector<Type>(numResults, NoneType::get(ctx))
                     : SmallVector<Type>(resultTypes));
  // Created without a builder: no block, no listener, nothing to undo.
  Operation *op = Operation::create(state);
  if (resultTypes.empty()) {
    SmallVector<Type> types;
    if (failed(infer->inferReturnTypes(ctx, loc, op->getOperands(),
                                        op->getRawDictionaryAttrs(),
                                        op->getPropertiesStorage(),
                                        op->getRegions(), types)) ||
        types.size() != op->getNumResults()) {
      op->destroy();
      return failure();
    }
    for (auto [result, type] : llvm::zip(op->getResults(), types))
      result.setType(type);
  }
  if (failed(verify(op))) {
    op->destroy();
    return failure();
  }
  return op;
}

FailureOr<Operation *> dlc::graph::createGraphOp(
    OpBuilder &builder, Location loc, StringRef name, ValueRange operands,
    ArrayRef<NamedAttribute> attrs, TypeRange resultTypes, unsigned numResults) {
  FailureOr<Operation *> op =
      buildDetachedGraphOp(loc, name, operands, attrs, resultTypes, numResults);
  if (succeeded(op))
    builder.insert(*op);
  return op;
}
