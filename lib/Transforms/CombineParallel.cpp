//===- CombineParallel.cpp - TVM's parallel-op combiner --------------------===//
#include "CombineParallel.h"
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

void dlc::recordCombineCounts(StringRef pass, const CombineCounts &counts) {
  recordPassStat(pass, "combined", counts.groups);
  recordPassStat(pass, "branches", counts.branches);
  recordPassStat(pass, "followers", counts.followers);
}

Value dlc::concat(OpBuilder &b, Location loc, ValueRange values, int64_t axis) {
  if (values.size() == 1)
    return values.front();
  return ConcatOp::create(b, loc, values, axis);
}

Value dlc::reshape(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> shape) {
  auto type = tensorType(v);
  if (type.getShape() == shape)
    return v;
  return ReshapeOp::create(b, loc, RankedTensorType::get(shape, type.getElementType()), v);
}

namespace {
/// A branch's slice of a combined value, as a type.
RankedTensorType sliceType(const CombinedValue &c, size_t i) {
  auto t = tensorType(c.value);
  SmallVector<int64_t> shape(t.getShape());
  shape[c.axis] = c.sizes[i];
  return RankedTensorType::get(shape, t.getElementType());
}

/// `other`, the second operand of branch i's follower (whose result has
/// the branch's type), as a value that broadcasts against branch i's slice
/// of the combined value, or null. Handled: the branch's own shape, a
/// vector along the last dimension, and scalars (numpy broadcasting of
/// anything else would need a broadcast op).
Value toSliceSpace(OpBuilder &b, Location loc, Value other, RankedTensorType branch,
                   RankedTensorType slice) {
  auto t = tensorType(other);
  int64_t elements = t.getNumElements();
  SmallVector<int64_t> shape(slice.getRank(), 1);
  if (slice == branch) { // right-align, as numpy does
    if (t.getRank() > slice.getRank())
      return {};
    llvm::copy(t.getShape(), shape.end() - t.getRank());
  } else if (elements == branch.getNumElements() && t.getShape() == branch.getShape()) {
    shape.assign(slice.getShape().begin(), slice.getShape().end());
  } else if (elements == 1) {
    // all ones
  } else if (t.getRank() >= 1 && elements == t.getShape().back() &&
             elements == branch.getShape().back() && elements == slice.getShape().back()) {
    shape.back() = elements;
  } else {
    return {};
  }
  return reshape(b, loc, other, shape);
}

/// Whether `op` is an elementwise or broadcast op whose result has the
/// type of its operand `tip`.
bool isFollower(Operation *op, Value tip) {
  if (!isa<GraphDialect>(op->getDialect()) || op->getNumResults() != 1 || op->getNumRegions() ||
      getOpPatternKind(op) > OpPatternKind::Broadcast || isa<ConstantOp>(op) ||
      op->getResult(0).getType() != tip.getType())
    return false;
  return llvm::count(op->getOperands(), tip) == 1;
}

/// The followers one level down, or nothing if the branches differ there.
std::optional<SmallVector<Operation *>> nextFollowers(ArrayRef<Value> tips) {
  SmallVector<Operation *> next;
  for (Value tip : tips) {
    if (!tip.hasOneUse() || !isFollower(*tip.user_begin(), tip))
      return std::nullopt;
    next.push_back(*tip.user_begin());
  }
  Operation *first = next.front();
  unsigned position = llvm::find(first->getOperands(), tips.front()) - first->operand_begin();
  for (auto [op, tip] : llvm::zip(next, tips))
    if (op->getName() != first->getName() ||
        op->getAttrDictionary() != first->getAttrDictionary() ||
        op->getNumOperands() != first->getNumOperands() || op->getOperand(position) != tip)
      return std::nullopt;
  return next;
}

/// Whether `v` is available at the builder's insertion point.
bool availableAt(OpBuilder &b, Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != b.getInsertionBlock() ||
      b.getInsertionPoint() == b.getInsertionBlock()->end())
    return true;
  return def->isBeforeInBlock(&*b.getInsertionPoint());
}

/// The operand `k` of every follower as one operand of the combined
/// follower: the shared value if it does not vary along the axis, else the
/// branches' values concatenated along it; null if neither works.
Value combineOperand(OpBuilder &b, const CombinedValue &combined, ArrayRef<Operation *> followers,
                     unsigned k, ArrayRef<RankedTensorType> branchTypes) {
  Location loc = followers.front()->getLoc();
  SmallVector<Value> others;
  for (Operation *op : followers)
    others.push_back(op->getOperand(k));
  if (!llvm::all_of(others, [&](Value v) { return availableAt(b, v); }))
    return {};
  if (llvm::all_equal(others)) {
    // Side by side on an existing axis, a value that broadcasts along it
    // serves the combined op as it is.
    RankedTensorType slice = sliceType(combined, 0), other = tensorType(others.front());
    int64_t aligned = combined.axis - (slice.getRank() - other.getRank());
    if (slice == branchTypes.front() && other.getRank() <= slice.getRank() &&
        (aligned < 0 || other.getDimSize(aligned) == 1))
      return others.front();
    Value mapped = toSliceSpace(b, loc, others.front(), branchTypes.front(), slice);
    if (mapped && tensorType(mapped).getDimSize(combined.axis) == 1)
      return mapped;
  }
  SmallVector<Value> parts;
  for (auto [i, other] : llvm::enumerate(others)) {
    Value mapped = toSliceSpace(b, loc, other, branchTypes[i], sliceType(combined, i));
    if (!mapped || tensorType(mapped).getDimSize(combined.axis) != combined.sizes[i])
      return {};
    parts.push_back(mapped);
  }
  auto first = tensorType(parts.front());
  for (Value p : parts)
    for (int64_t d = 0; d < first.getRank(); ++d)
      if (d != combined.axis && tensorType(p).getDimSize(d) != first.getDimSize(d))
        return {};
  return concat(b, loc, parts, combined.axis);
}
} // namespace

CombineCounts dlc::combineParallelOps(func::FuncOp func, const ParallelOpCombiner &combiner,
                                      int64_t minBranches) {
  CombineCounts counts;
  // Roots by shared input, in block order, then into compatible groups.
  llvm::MapVector<Value, SmallVector<SmallVector<Operation *>>> byInput;
  for (Operation &op : func.getBody().front().without_terminator()) {
    if (!combiner.isRoot(&op))
      continue;
    auto &groups = byInput[combiner.sharedInput(&op)];
    auto it = llvm::find_if(groups, [&](auto &g) { return combiner.compatible(g.front(), &op); });
    if (it == groups.end())
      groups.push_back({&op});
    else
      it->push_back(&op);
  }
  for (auto &[input, groups] : byInput)
    for (SmallVector<Operation *> &roots : groups) {
      if (static_cast<int64_t>(roots.size()) < minBranches)
        continue;
      // Build after the last root, so that every root's operands exist.
      OpBuilder b(roots.back()->getContext());
      b.setInsertionPointAfter(roots.back());
      std::optional<CombinedValue> combined = combiner.combine(b, roots);
      if (!combined)
        continue;
      SmallVector<Value> tips;
      SmallVector<RankedTensorType> branchTypes;
      for (Operation *root : roots) {
        tips.push_back(root->getResult(0));
        branchTypes.push_back(tensorType(root->getResult(0)));
      }
      // Followers, level by level, while every branch has one alike.
      SmallVector<Operation *> originals(roots.begin(), roots.end());
      while (std::optional<SmallVector<Operation *>> next = nextFollowers(tips)) {
        Operation *first = next->front();
        unsigned position = llvm::find(first->getOperands(), tips.front()) - first->operand_begin();
        SmallVector<Value> operands;
        for (unsigned k = 0; k < first->getNumOperands(); ++k) {
          Value v =
              k == position ? combined->value : combineOperand(b, *combined, *next, k, branchTypes);
          if (!v)
            break;
          operands.push_back(v);
        }
        if (operands.size() != first->getNumOperands())
          break; // what was made for this level is dead; DCE takes it
        OperationState state(first->getLoc(), first->getName());
        state.addOperands(operands);
        state.addAttributes(first->getAttrs());
        state.addTypes(combined->value.getType());
        combined->value = b.create(state)->getResult(0);
        for (auto [i, follower] : llvm::enumerate(*next)) {
          tips[i] = follower->getResult(0);
          branchTypes[i] = tensorType(tips[i]);
          originals.push_back(follower);
        }
        ++counts.followers;
      }
      // The branches back out, and the originals are dead.
      Location loc = roots.front()->getLoc();
      SmallVector<Type> sliceTypes;
      for (size_t i = 0; i < roots.size(); ++i)
        sliceTypes.push_back(sliceType(*combined, i));
      auto split = SplitOp::create(b, loc, sliceTypes, combined->value, combined->axis);
      for (auto [i, tip] : llvm::enumerate(tips))
        tip.replaceAllUsesWith(reshape(b, loc, split.getResult(i), branchTypes[i].getShape()));
      for (Operation *op : llvm::reverse(originals))
        op->erase();
      ++counts.groups;
      counts.branches += roots.size();
    }
  // A branch's users may precede the last root, where the split now is.
  if (counts.groups)
    (void)sortTopologically(&func.getBody().front());
  return counts;
}
