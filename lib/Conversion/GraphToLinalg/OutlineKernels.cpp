//===- OutlineKernels.cpp - one function per kernel ------------------------===//
//
// The graph decides fusion, the backend obeys: every graph.fused or
// graph.composite region, and every compute op outside all regions, becomes
// a private function of its own (a kernel) called from where it was. The
// lowering passes work function by function, so nothing is fused across
// kernels and everything within one may be.
//
//===----------------------------------------------------------------------===//
#include "dlc/Analysis/Fingerprint.h"
#include "dlc/Conversion/Passes.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Transforms/PassLedger.h"
#include "dlc/Transforms/TargetDescription.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

namespace dlc {
#define GEN_PASS_DEF_OUTLINEKERNELSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc::graph;

namespace {
/// Ops that only reinterpret a tensor's shape: views, not kernels.
bool isView(Operation *op) { return isa<ReshapeOp, ExpandDimsOp, SqueezeOp>(op); }

/// Whether `use` is a factor of a convolution or a matrix product (its
/// input or weight, either side of a matrix product), read through views
/// or not.
bool isFactor(OpOperand &use) {
  Operation *user = use.getOwner();
  if (isView(user))
    return llvm::any_of(user->getResult(0).getUses(), isFactor);
  return isa<Conv2DOp, Conv2DWinogradOp, DenseOp, MatmulOp, BatchMatmulOp>(user) &&
         use.getOperandNumber() < 2;
}

/// Whether `use`, an operand of a region op or of a single op, is a
/// constant copied into the kernel rather than passed: tiny ones, and
/// splats but a product's factors. Others (weights, biases) are arguments,
/// so that kernels differing only in the data they read are one kernel. A
/// splat factor copied in would be folded into the product's body, leaving
/// a loop nest that is no product for the backends' kernels (a 1x1
/// convolution of a splat weight ran 40x slower that way).
bool sinks(OpOperand &use, int64_t maxElements) {
  auto c = use.get().getDefiningOp<ConstantOp>();
  if (!c)
    return false;
  if (c.getType().getNumElements() <= maxElements)
    return true;
  auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
  if (!dense || !dense.isSplat())
    return false;
  Operation *op = use.getOwner();
  if (!isa<FusedOp, CompositeOp>(op))
    return !isFactor(use);
  Value arg = op->getRegion(0).front().getArgument(use.getOperandNumber());
  return llvm::none_of(arg.getUses(), isFactor);
}

/// What a kernel computes, for people reading profiles (the machine code's
/// perf map, CodeGen.cpp): its ops, views left out, and its results'
/// shapes, e.g. "conv2d+add+clip -> 1x56x56x144xf32".
static constexpr llvm::StringLiteral kSummaryAttr = "dlc.kernel_summary";

static std::string summary(func::FuncOp kernel) {
  constexpr size_t maxOps = 6;
  SmallVector<StringRef> ops;
  size_t more = 0;
  kernel.walk([&](Operation *op) {
    if (!isa<GraphDialect>(op->getDialect()) || isa<ConstantOp>(op) || isView(op))
      return;
    if (ops.size() < maxOps)
      ops.push_back(op->getName().stripDialect());
    else
      ++more;
  });
  std::string text = llvm::join(ops, "+");
  if (more)
    text += "+" + std::to_string(more) + " more";
  SmallVector<std::string> results;
  for (Type t : kernel.getResultTypes()) {
    std::string shape;
    llvm::raw_string_ostream os(shape);
    if (auto tensor = dyn_cast<RankedTensorType>(t)) {
      for (int64_t d : tensor.getShape())
        os << d << "x";
      os << tensor.getElementType();
    } else {
      os << t;
    }
    results.push_back(shape);
  }
  return text + " -> " + llvm::join(results, ", ");
}

struct OutlineKernelsPass : dlc::impl::OutlineKernelsPassBase<OutlineKernelsPass> {
  using OutlineKernelsPassBase::OutlineKernelsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    int64_t kernels = 0, views = 0;
    SmallVector<func::FuncOp> outlined;
    for (func::FuncOp func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (func.isExternal() || func->hasAttr("dlc.kernel"))
        continue;
      SmallVector<Operation *> ops;
      for (Operation &op : func.getBody().front().without_terminator())
        if (isa<GraphDialect>(op.getDialect()) && !isa<ConstantOp>(op) && !isView(&op))
          ops.push_back(&op);
      for (Operation *op : ops) {
        if (func::FuncOp kernel = outline(op, func, symbols)) {
          ++kernels;
          outlined.push_back(kernel);
        } else {
          ++views;
        }
      }
    }
    int64_t distinct = deduplicate(outlined, module);
    dlc::recordPassStat(getArgument(), "kernels", kernels);
    dlc::recordPassStat(getArgument(), "distinct", distinct);
    dlc::recordPassStat(getArgument(), "views", views);
  }

  /// Kernels with one fingerprint (the same computation on the same types,
  /// reading different buffers; their attributes, the backend too) become
  /// one: calls go to the first, the others are erased. Returns the number
  /// of distinct kernels.
  int64_t deduplicate(ArrayRef<func::FuncOp> kernels, ModuleOp module) {
    llvm::StringMap<func::FuncOp> first;
    for (func::FuncOp kernel : kernels) {
      auto [it, inserted] = first.try_emplace(dlc::structuralFingerprint(kernel), kernel);
      if (inserted)
        continue;
      if (failed(SymbolTable::replaceAllSymbolUses(kernel, it->second.getSymNameAttr(),
                                                   module)))
        continue; // keep the duplicate: correct, only not shared
      kernel.erase();
    }
    return first.size();
  }


  /// Outlines `op` (a region op or a single op) into a kernel; inlines a
  /// region that computes nothing (only views) instead and returns null.
  func::FuncOp outline(Operation *op, func::FuncOp parent, SymbolTable &symbols) {
    MLIRContext *ctx = op->getContext();
    bool region = isa<FusedOp, CompositeOp>(op);
    // The kernel's operands: the op's, less the constants it copies.
    SmallVector<Value> inputs;
    for (OpOperand &use : op->getOpOperands())
      if (!sinks(use, maxConstantElements) && !llvm::is_contained(inputs, use.get()))
        inputs.push_back(use.get());

    OpBuilder b(ctx);
    auto type = FunctionType::get(ctx, ValueRange(inputs).getTypes(), op->getResultTypes());
    std::string name = (parent.getSymName() + "_kernel").str();
    auto kernel = func::FuncOp::create(b, op->getLoc(), name, type);
    kernel.setPrivate();
    kernel->setAttr("dlc.kernel", region && op->hasAttr("pattern")
                                      ? op->getAttr("pattern")
                                      : b.getStringAttr(op->getName().getStringRef()));
    if (auto composite = dyn_cast<CompositeOp>(op))
      kernel->setAttr("dlc.composite", composite.getNameAttr());
    if (auto backend = parent->getAttrOfType<StringAttr>(dlc::kBackendAttr))
      kernel->setAttr(dlc::kKernelBackendAttr, backend);
    Block *body = kernel.addEntryBlock();
    b.setInsertionPointToStart(body);
    IRMapping map;
    for (auto [v, arg] : llvm::zip(inputs, body->getArguments()))
      map.map(v, arg);
    auto mapped = [&](Value v) {
      if (!map.contains(v)) // a sunk constant
        map.map(v, b.clone(*v.getDefiningOp())->getResult(0));
      return map.lookup(v);
    };
    SmallVector<Value> results;
    if (region) {
      Block &inner = op->getRegion(0).front();
      for (auto [arg, v] : llvm::zip(inner.getArguments(), op->getOperands()))
        map.map(arg, mapped(v));
      for (Operation &o : inner.without_terminator())
        b.clone(o, map);
      for (Value v : inner.getTerminator()->getOperands())
        results.push_back(map.lookup(v));
    } else {
      for (Value v : op->getOperands())
        mapped(v);
      llvm::append_range(results, b.clone(*op, map)->getResults());
    }

    // Trailing views are the caller's: a kernel that returned a view of its
    // own buffer would have to copy it into the caller's.
    SmallVector<SmallVector<Operation *>> trailing(results.size());
    for (auto [i, v] : llvm::enumerate(results))
      while (Operation *def = v.getDefiningOp()) {
        if (!isView(def) || !v.use_empty())
          break;
        trailing[i].push_back(def);
        v = def->getOperand(0);
        results[i] = v;
      }
    bool computes = llvm::any_of(results, [&](Value v) { return !isa<BlockArgument>(v); });
    if (!computes) {
      kernel.erase();
      if (region)
        inlineRegionOp(op);
      return {};
    }
    auto ret = func::ReturnOp::create(b, op->getLoc(), results);
    kernel.setFunctionType(
        FunctionType::get(ctx, kernel.getArgumentTypes(), ret.getOperandTypes()));
    kernel->setAttr(kSummaryAttr, b.getStringAttr(summary(kernel)));
    symbols.insert(kernel, std::next(Block::iterator(parent)));

    b.setInsertionPoint(op);
    auto call = func::CallOp::create(b, op->getLoc(), kernel, inputs);
    for (auto [i, result] : llvm::enumerate(op->getResults())) {
      Value v = call.getResult(i);
      // Re-apply the trailing views, innermost first.
      for (Operation *view : llvm::reverse(trailing[i])) {
        IRMapping viewMap;
        viewMap.map(view->getOperand(0), v);
        v = b.clone(*view, viewMap)->getResult(0);
      }
      result.replaceAllUsesWith(v);
    }
    op->erase();
    for (auto &views : trailing) // now unused in the kernel
      for (Operation *view : views)
        view->erase();
    return kernel;
  }
};
} // namespace
