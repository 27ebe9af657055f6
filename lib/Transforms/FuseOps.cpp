//===- FuseOps.cpp - TVM's operator fusion into graph.fused regions --------===//
//
// TVM's FuseOps (src/relay/analysis/graph_partitioner.cc): a forward graph of
// the function's ops, its post-dominator tree, and union-find groups merged
// in three phases by the ops' pattern kinds. Each group becomes one
// graph.fused region, which the backends compile as one kernel.
//
//===----------------------------------------------------------------------===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace dlc {
#define GEN_PASS_DEF_FUSEOPSPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

namespace {
using Kind = OpPatternKind;

Kind combine(Kind a, Kind b) { return a > b ? a : b; }

/// A node of the forward graph: one op, with an edge per use of its results.
struct Node {
  Operation *op;
  size_t index;
  Kind pattern;
  /// A result is used outside the graph (returned): no post-dominator.
  bool externRef = false;
  struct Edge {
    Node *node;
    Kind pattern;
  };
  SmallVector<Edge> outputs;
};

/// The post-dominator tree node of a graph node.
struct DomNode {
  DomNode *parent = nullptr;
  int depth = 1;
  /// The combined pattern of the edges to the post-dominator.
  Kind pattern = Kind::ElemWise;
};

/// A union-find group of nodes.
struct Group {
  Group *parent = nullptr;
  Kind pattern;
  Node *root;
  Operation *anchor = nullptr; ///< the OutEWiseFusable op, if any
  int64_t numNodes = 1;

  Group *findRoot() {
    Group *g = this;
    while (g->parent)
      g = g->parent;
    for (Group *p = this; p != g;) { // path compression
      Group *next = p->parent;
      p->parent = g;
      p = next;
    }
    return g;
  }
};

class GraphPartitioner {
public:
  GraphPartitioner(Block &block, int64_t maxDepth) : maxDepth(maxDepth) { build(block); }

  /// The groups, one per node; with fusion off, every node alone.
  std::vector<Group> &partition(bool fuse) {
    postDominators();
    groups.resize(nodes.size());
    for (auto [i, node] : llvm::enumerate(nodes)) {
      groups[i].pattern = node->pattern;
      groups[i].root = node.get();
      if (node->pattern == Kind::OutEWiseFusable)
        groups[i].anchor = node->op;
    }
    if (fuse)
      for (int phase = 0; phase < 3; ++phase)
        runFuse(phase);
    return groups;
  }

  ArrayRef<std::unique_ptr<Node>> graphNodes() const { return nodes; }

private:
  /// Nodes in block order (a topological order: producers first).
  void build(Block &block) {
    for (Operation &op : block.without_terminator()) {
      auto node = std::make_unique<Node>();
      node->op = &op;
      node->index = nodes.size();
      node->pattern = getOpPatternKind(&op);
      nodeOf[&op] = node.get();
      nodes.push_back(std::move(node));
    }
    for (auto &node : nodes) {
      Operation *user = node->op;
      Kind userKind = node->pattern;
      for (Value operand : user->getOperands()) {
        Operation *def = operand.getDefiningOp();
        auto it = def ? nodeOf.find(def) : nodeOf.end();
        if (it == nodeOf.end())
          continue; // a function argument
        // A broadcast op reading an operand of its own shape is elementwise
        // on that edge.
        Kind edge = userKind;
        if (edge == Kind::Broadcast && user->getNumResults() == 1 &&
            operand.getType() == user->getResult(0).getType())
          edge = Kind::ElemWise;
        it->second->outputs.push_back({node.get(), edge});
      }
    }
    // Values used by the terminator or by ops in other blocks leave the graph.
    for (auto &node : nodes)
      for (Operation *user : node->op->getUsers())
        if (!nodeOf.count(user))
          node->externRef = true;
  }

  DomNode *lca(DomNode *lhs, DomNode *rhs, Kind &pattern) {
    while (lhs != rhs) {
      if (!lhs || !rhs)
        return nullptr;
      if (lhs->depth < rhs->depth) {
        pattern = combine(pattern, rhs->pattern);
        rhs = rhs->parent;
      } else if (rhs->depth < lhs->depth) {
        pattern = combine(pattern, lhs->pattern);
        lhs = lhs->parent;
      } else {
        pattern = combine(pattern, lhs->pattern);
        pattern = combine(pattern, rhs->pattern);
        lhs = lhs->parent;
        rhs = rhs->parent;
      }
    }
    return lhs;
  }

  /// The post-dominator tree, built from the outputs back.
  void postDominators() {
    dom.resize(nodes.size());
    for (size_t i = nodes.size(); i-- > 0;) {
      Node *node = nodes[i].get();
      DomNode &d = dom[i];
      if (node->externRef || node->outputs.empty()) {
        d.pattern = node->externRef ? Kind::Opaque : Kind::ElemWise;
        continue;
      }
      Kind pattern = Kind::ElemWise;
      DomNode *parent = &dom[node->outputs.front().node->index];
      pattern = combine(pattern, node->outputs.front().pattern);
      for (const Node::Edge &e : llvm::drop_begin(node->outputs)) {
        parent = lca(parent, &dom[e.node->index], pattern);
        pattern = combine(pattern, e.pattern);
      }
      d.parent = parent;
      d.depth = parent ? parent->depth + 1 : 1;
      d.pattern = pattern;
    }
    for (auto [i, d] : llvm::enumerate(dom))
      if (d.parent)
        domParentNode[i] = nodes[d.parent - dom.data()].get();
  }

  /// Whether every node on a path from `src` (exclusive) to `sink`
  /// (inclusive) is in a group whose pattern `cond(kind, isSink)` accepts.
  template <typename F> bool checkPath(Node *src, Node *sink, F cond) {
    visited.clear();
    for (const Node::Edge &e : src->outputs)
      if (!checkPathImpl(e.node, sink, cond))
        return false;
    return true;
  }
  template <typename F> bool checkPathImpl(Node *src, Node *sink, F cond) {
    if (!visited.insert(src).second)
      return true;
    Group *g = groups[src->index].findRoot();
    if (!cond(g->pattern, src == sink))
      return false;
    if (src == sink)
      return true;
    for (const Node::Edge &e : src->outputs)
      if (!checkPathImpl(e.node, sink, cond))
        return false;
    return true;
  }

  void mergeFromTo(Group *child, Group *parent) {
    child = child->findRoot();
    parent = parent->findRoot();
    if (child == parent)
      return;
    parent->numNodes += child->numNodes;
    child->parent = parent;
    if (child->anchor) {
      parent->anchor = child->anchor;
      parent->pattern = combine(child->pattern, parent->pattern);
    }
  }

  /// Merges every group on a path from `src` to `sink` into sink's group.
  void commitFuse(Node *src, Node *sink) {
    visited.clear();
    commitFuseImpl(src, sink, &groups[sink->index]);
  }
  void commitFuseImpl(Node *src, Node *sink, Group *target) {
    if (src == sink || !visited.insert(src).second)
      return;
    mergeFromTo(&groups[src->index], target);
    for (const Node::Edge &e : src->outputs)
      commitFuseImpl(e.node, sink, target);
  }

  int64_t countNodesUpToSink(Node *src, Node *sink) {
    if (src == sink || !visited.insert(src).second)
      return 0;
    int64_t sum = groups[src->index].numNodes;
    for (const Node::Edge &e : src->outputs)
      sum += countNodesUpToSink(e.node, sink);
    return sum;
  }
  int64_t countFusedNodesWithNewChild(Node *child, Node *domParent) {
    visited.clear();
    return groups[domParent->index].findRoot()->numNodes + countNodesUpToSink(child, domParent);
  }

  void runFuse(int phase) {
    for (size_t nid = 0; nid < nodes.size(); ++nid) {
      Node *node = nodes[nid].get();
      DomNode &d = dom[nid];
      Group *group = &groups[nid];
      if (group->pattern == Kind::Opaque || !d.parent)
        continue;
      Node *parent = domParentNode[nid];
      if (countFusedNodesWithNewChild(node, parent) > maxDepth)
        continue;
      Group *parentGroup = &groups[parent->index];
      if (phase == 2) {
        // Injective ops into intermediate tuples.
        if (group->pattern > Kind::Injective)
          continue;
        Group *parentRoot = parentGroup->findRoot();
        if (parentRoot->pattern == Kind::Tuple)
          continue;
        if (parentGroup->pattern == Kind::Tuple && parentRoot->pattern <= Kind::Injective &&
            checkPath(node, parent, [](Kind k, bool) { return k <= Kind::Injective; }))
          commitFuse(node, parent);
        continue;
      }
      if (group->findRoot() == parentGroup->findRoot())
        continue;
      if (parentGroup->pattern == Kind::Tuple)
        continue;
      if (group->pattern == Kind::OutEWiseFusable) {
        // conv2d-like: into an elementwise post-dominator through broadcasts.
        if (phase != 0 || d.pattern != Kind::ElemWise)
          continue;
        if (checkPath(node, parent, [](Kind k, bool) { return k <= Kind::Broadcast; }))
          commitFuse(node, parent);
      } else if (group->pattern <= Kind::Broadcast) {
        // Into an injective or reduction post-dominator; the sink may
        // already hold a conv2d-like op.
        if (d.pattern > Kind::Injective && d.pattern != Kind::CommReduce)
          continue;
        auto cond = [](Kind k, bool isSink) {
          if (!isSink)
            return k <= Kind::Injective;
          return k <= Kind::Broadcast || k == Kind::CommReduce || k == Kind::Injective ||
                 k == Kind::OutEWiseFusable;
        };
        if (checkPath(node, parent, cond))
          commitFuse(node, parent);
      } else if (group->pattern == Kind::Injective || group->pattern == Kind::Tuple) {
        // Deferred to phase 1, so that conv2d-like groups finish first.
        if (phase != 1)
          continue;
        if (checkPath(node, parent, [](Kind k, bool) { return k <= Kind::Injective; }))
          commitFuse(node, parent);
      }
      // CommReduce never starts a fusion.
    }
  }

  int64_t maxDepth;
  std::vector<std::unique_ptr<Node>> nodes;
  DenseMap<Operation *, Node *> nodeOf;
  std::vector<DomNode> dom;
  DenseMap<size_t, Node *> domParentNode;
  std::vector<Group> groups;
  llvm::SmallPtrSet<Node *, 32> visited;
};

struct FuseOpsPass : dlc::impl::FuseOpsPassBase<FuseOpsPass> {
  using FuseOpsPassBase::FuseOpsPassBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    if (maxDepth < 1) {
      func.emitError() << "graph-fuse-ops: max-depth must be >= 1, got "
                       << static_cast<int64_t>(maxDepth);
      return signalPassFailure();
    }
    Block &block = func.getBody().front();
    llvm::SmallPtrSet<Operation *, 32> usedBefore;
    for (auto c : block.getOps<ConstantOp>())
      if (!c->use_empty())
        usedBefore.insert(c);
    GraphPartitioner partitioner(block, maxDepth);
    // Level -1 is the pipeline's level when it sets none: fusion on.
    std::vector<Group> &groups = partitioner.partition(fuseOptLevel != 0);
    ArrayRef<std::unique_ptr<Node>> nodes = partitioner.graphNodes();

    // The ops of each group in block order; constants stay outside.
    llvm::MapVector<Group *, SmallVector<Operation *>> members;
    for (auto [i, node] : llvm::enumerate(nodes)) {
      Operation *op = node->op;
      if (isa<ConstantOp, FusedOp, CompositeOp>(op) || !isa<GraphDialect>(op->getDialect()))
        continue;
      members[groups[i].findRoot()].push_back(op);
    }
    int64_t regions = 0, fused = 0;
    for (auto &[group, ops] : members) {
      Operation *named = group->anchor ? group->anchor : group->root->op;
      StringAttr pattern = StringAttr::get(func.getContext(), stringifyOpPatternKind(group->pattern));
      if (!wrapInRegion(ops, [&](OpBuilder &b, TypeRange results, ValueRange inputs) {
            return FusedOp::create(b, named->getLoc(), results, inputs, pattern);
          }))
        continue;
      ++regions;
      if (ops.size() > 1)
        fused += ops.size();
    }
    // Scalar constants now copied into the regions.
    for (Operation &op : llvm::make_early_inc_range(block))
      if (isScalarConstant(op.getNumResults() ? op.getResult(0) : Value()) && op.use_empty() &&
          usedBefore.contains(&op))
        op.erase();
    if (!sortTopologically(&block)) {
      func.emitError("graph-fuse-ops: the fused regions form a cycle");
      return signalPassFailure();
    }
    recordPassStat(getArgument(), "groups", regions);
    recordPassStat(getArgument(), "fused-ops", fused);
  }
};
} // namespace
