//===- GraphBuilder.cpp - build graph ops with inferred types --------------===//
#include "dlc/Dialect/Graph/GraphBuilder.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

using namespace mlir;

FailureOr<Operation *> dlc::graph::createGraphOp(OpBuilder &builder,
                                                 Location loc, StringRef name,
                                                 ValueRange operands,
                                                 ArrayRef<NamedAttribute> attrs,
                                                 TypeRange resultTypes,
                                                 unsigned numResults) {
  OperationState state(loc, name);
  state.addOperands(operands);
  state.addAttributes(attrs);
  if (!resultTypes.empty())
    state.addTypes(resultTypes);
  else
    state.addTypes(SmallVector<Type>(numResults, builder.getNoneType()));
  Operation *op = builder.create(state);
  if (resultTypes.empty()) {
    SmallVector<Type> types;
    auto infer = dyn_cast<InferTypeOpInterface>(op);
    if (!infer && !operands.empty()) {
      types.assign(numResults, operands.front().getType());
    } else if (!infer ||
               failed(infer.inferReturnTypes(
                   builder.getContext(), loc, op->getOperands(),
                   op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
                   op->getRegions(), types))) {
      if (!infer)
        emitError(loc, "cannot infer the result type of ") << name;
      op->erase();
      return failure();
    }
    for (auto [result, type] : llvm::zip(op->getResults(), types))
      result.setType(type);
  }
  if (failed(verify(op))) {
    op->erase();
    return failure();
  }
  return op;
}
