//===- PassUtils.cpp - helpers shared by the graph passes ------------------===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphBuilder.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Runtime/Interpreter.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallPtrSet.h"


using namespace mlir;
using namespace dlc;

namespace {
/// Counts successful pattern applications and holds the patterns to the
/// greedy driver's contract: a pattern that reports failure has not changed
/// the IR.
struct CountingListener : public RewriterBase::Listener {
  int64_t count = 0;
  bool changed = false;
  std::string violator;

  void notifyPatternBegin(const Pattern &, Operation *) override { changed = false; }
  void notifyPatternEnd(const Pattern &pattern, LogicalResult status) override {
    if (succeeded(status))
      ++count;
    else if (changed && violator.empty())
      violator = pattern.getDebugName().str(); // RewritePatternSet names each
  }
  void notifyOperationInserted(Operation *, OpBuilder::InsertPoint) override { changed = true; }
  void notifyOperationModified(Operation *) override { changed = true; }
  void notifyOperationReplaced(Operation *, ValueRange) override { changed = true; }
  void notifyOperationErased(Operation *) override { changed = true; }
};
} // namespace

FailureOr<int64_t>
dlc::applyCountedPatterns(Operation *op,
                          const FrozenRewritePatternSet &patterns) {
  CountingListener listener;
  // Only the pass's own patterns change the IR: no op folding, no constant
  // deduplication or hoisting, and no region simplification.
  GreedyRewriteConfig config;
  config.setListener(&listener)
      .enableFolding(false)
      .enableConstantCSE(false)
      .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  if (failed(applyPatternsGreedily(op, patterns, config)))
    return op->emitError("graph rewrites did not converge"), failure();
  if (!listener.violator.empty())
    return op->emitError("internal error: pattern '")
               << listener.violator << "' changed the IR and then reported failure",
           failure();
  return listener.count;
}

LogicalResult dlc::applyAndRecordPatterns(
    Operation *op, StringRef pass, StringRef counter,
    function_ref<void(RewritePatternSet &)> populate) {
  RewritePatternSet patterns(op->getContext());
  populate(patterns);
  FailureOr<int64_t> n = applyCountedPatterns(op, std::move(patterns));
  if (failed(n))
    return failure();
  recordPassStat(pass, counter, *n);
  return success();
}

std::optional<Tensor> dlc::constantValue(Value v) {
  auto c = v.getDefiningOp<graph::ConstantOp>();
  if (!c || c.getType().getNumElements() > kMaxConstantElements)
    return std::nullopt;
  // A payload the runtime cannot read is simply not a usable constant here.
  ScopedDiagnosticHandler quiet(v.getContext(), [](Diagnostic &) { return success(); });
  FailureOr<Tensor> t = tensorFromAttr(c.getValue(), c.getLoc());
  if (failed(t))
    return std::nullopt;
  return *t;
}

bool dlc::isConstantSplat(Value v, double x) {
  auto c = v.getDefiningOp<graph::ConstantOp>();
  if (!c)
    return false;
  if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue())) {
    if (!dense.isSplat())
      return false;
    // One element says it all, whatever the size.
    auto one = dense.resizeSplat(RankedTensorType::get({}, dense.getElementType()));
    FailureOr<Tensor> t = tensorFromAttr(one, c.getLoc());
    return succeeded(t) && t->data[0] == x;
  }
  std::optional<Tensor> t = constantValue(v);
  return t && llvm::all_of(t->data, [&](double d) { return d == x; });
}

bool dlc::isScalarConstant(Value v) {
  auto c = v ? v.getDefiningOp<graph::ConstantOp>() : nullptr;
  return c && c.getType().getNumElements() == 1;
}

Operation *dlc::wrapInRegion(
    ArrayRef<Operation *> ops,
    function_ref<Operation *(OpBuilder &, TypeRange, ValueRange)> create) {
  llvm::SmallPtrSet<Operation *, 16> inGroup(ops.begin(), ops.end());
  SmallVector<Value> inputs, outputs;
  llvm::SmallPtrSet<Value, 16> seen;
  for (Operation *op : ops)
    for (Value v : op->getOperands())
      if (!(v.getDefiningOp() && inGroup.contains(v.getDefiningOp())) && !isScalarConstant(v) &&
          seen.insert(v).second)
        inputs.push_back(v);
  for (Operation *op : ops)
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(), [&](Operation *u) { return !inGroup.contains(u); }))
        outputs.push_back(r);
  if (outputs.empty())
    return nullptr; // dead: left for DeadCodeElimination

  OpBuilder b(ops.back());
  Operation *region = create(b, ValueRange(outputs).getTypes(), inputs);
  Block *body = b.createBlock(&region->getRegion(0));
  IRMapping map;
  for (Value v : inputs)
    map.map(v, body->addArgument(v.getType(), v.getLoc()));
  b.setInsertionPointToStart(body);
  for (Operation *op : ops) {
    for (Value v : op->getOperands())
      if (isScalarConstant(v) && !map.contains(v))
        map.map(v, b.clone(*v.getDefiningOp())->getResult(0));
    b.clone(*op, map);
  }
  SmallVector<Value> yielded;
  for (Value v : outputs)
    yielded.push_back(map.lookup(v));
  graph::YieldOp::create(b, region->getLoc(), yielded);
  for (auto [v, r] : llvm::zip(outputs, region->getResults()))
    v.replaceUsesWithIf(r, [&](OpOperand &use) { return !inGroup.contains(use.getOwner()); });
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  return region;
}

llvm::Error dlc::forEachSettingLine(
    StringRef text, StringRef source, StringRef form,
    function_ref<llvm::Error(StringRef, StringRef, StringRef)> fn) {
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (auto [i, raw] : llvm::enumerate(lines)) {
    StringRef line = raw.split('#').first.trim();
    if (line.empty())
      continue;
    llvm::Error error = llvm::Error::success();
    if (!line.contains('=')) {
      error = llvm::createStringError("expected '" + form + "', got '" + line + "'");
    } else {
      auto [key, value] = line.split('=');
      error = fn(key.trim(), value.trim(), line);
    }
    if (error)
      return llvm::createStringError(source + ":" + Twine(i + 1) + ": " +
                                     llvm::toString(std::move(error)));
  }
  return llvm::Error::success();
}

bool dlc::isComputeOpName(StringRef mnemonic, MLIRContext *ctx) {
  return RegisteredOperationName::lookup(("graph." + mnemonic).str(), ctx) &&
         !llvm::is_contained({"fused", "composite", "yield", "constant"}, mnemonic);
}

StagedOps::~StagedOps() {
  // Users were created after their operands: destroy them first.
  for (Operation *op : llvm::reverse(ops))
    op->destroy();
}

Value StagedOps::create(Location loc, StringRef name, ValueRange operands,
                        ArrayRef<NamedAttribute> attrs, Type resultType) {
  if (llvm::any_of(operands, [](Value v) { return !v; }))
    return {};
  // An invalid candidate is a match failure, not a diagnostic.
  ScopedDiagnosticHandler quiet(loc.getContext(),
                                [](Diagnostic &) { return success(); });
  FailureOr<Operation *> op = graph::buildDetachedGraphOp(
      loc, name, operands, attrs,
      resultType ? TypeRange(resultType) : TypeRange());
  if (failed(op))
    return {};
  ops.push_back(*op);
  return (*op)->getResult(0);
}

Value StagedOps::constant(Location loc, ElementsAttr value) {
  OpBuilder detached(loc.getContext());
  Operation *op = graph::ConstantOp::create(detached, loc, value);
  ops.push_back(op);
  return op->getResult(0);
}

Value StagedOps::constant(Location loc, const Tensor &t, StringRef name) {
  return constant(loc, elementsAttrFromTensor(t, loc.getContext(), name));
}

Value StagedOps::scalar(Location loc, Type elementType, double v) {
  auto type = RankedTensorType::get({}, elementType);
  Attribute value = isa<FloatType>(elementType)
                        ? Attribute(FloatAttr::get(elementType, v))
                        : Attribute(IntegerAttr::get(elementType, static_cast<int64_t>(v)));
  return constant(loc, DenseElementsAttr::get(type, value));
}

void StagedOps::commit() {
  for (Operation *op : ops)
    builder.insert(op);
  ops.clear();
}

Value dlc::createConstant(OpBuilder &builder, Location loc, const Tensor &t,
                          StringRef name) {
  return graph::ConstantOp::create(
      builder, loc, elementsAttrFromTensor(t, builder.getContext(), name));
}

std::optional<std::vector<double>>
dlc::perChannelScale(const Tensor &scale, RankedTensorType target,
                     int64_t axis) {
  int64_t rank = target.getRank();
  if (static_cast<int64_t>(scale.shape.size()) > rank)
    return std::nullopt;
  int64_t offset = rank - scale.shape.size();
  int64_t channels = target.getDimSize(axis);
  bool onAxis = false;
  for (size_t i = 0; i < scale.shape.size(); ++i) {
    int64_t d = scale.shape[i], dim = offset + i;
    if (d == 1)
      continue;
    if (dim != axis || d != channels)
      return std::nullopt;
    onAxis = true;
  }
  std::vector<double> values(channels);
  for (int64_t c = 0; c < channels; ++c)
    values[c] = onAxis ? scale.data[c] : scale.data[0];
  return values;
}

std::optional<ArrayRef<char>> dlc::payloadBytes(graph::ConstantOp c) {
  return payloadBytes(c.getValue());
}

std::optional<ArrayRef<char>> dlc::payloadBytes(ElementsAttr value) {
  auto type = cast<ShapedType>(value.getType());
  if (!type.getElementType().isIntOrFloat() || type.getElementTypeBitWidth() % 8 != 0)
    return std::nullopt;
  ArrayRef<char> bytes;
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    bytes = blob->getData();
  } else if (auto dense = dyn_cast<DenseElementsAttr>(value); dense && !dense.isSplat()) {
    bytes = dense.getRawData();
  } else {
    return std::nullopt;
  }
  // A payload of the wrong size is left to the interpreter, which reports it.
  if (static_cast<int64_t>(bytes.size()) != type.getNumElements() * type.getElementTypeBitWidth() / 8)
    return std::nullopt;
  return bytes;
}

AsmResourceBlob dlc::allocateBlob(size_t size) {
  return HeapAsmResourceBlob::allocate(size, /*align=*/64);
}
