//===- MergeComposite.cpp - named op chains into graph.composite regions ---===//
//
// TVM's MergeComposite with a pattern table that is data: each pattern is a
// name and a chain of graph ops, each op reading the previous one's result;
// patterns are tried in table order (the priority), and every match becomes
// a graph.composite named after its pattern, which the backends compile as
// one kernel.
//
//===----------------------------------------------------------------------===//
#include "PassUtils.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Transforms/Passes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

namespace dlc {
#define GEN_PASS_DEF_MERGECOMPOSITEPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

namespace {
/// The builtin table, in priority order (longer chains first), in the
/// format of the `patterns` file.
constexpr llvm::StringLiteral kBuiltinPatterns = R"(
# name = op op ... : a chain, each op reading the previous op's result
conv2d_bias_add_relu = conv2d add add relu
conv2d_bias_relu = conv2d add relu
dense_bias_gelu = dense add gelu
dense_gelu = dense gelu
# attention with its context's heads merged into the rows' layout, then without
attention = batch_matmul reshape mul add softmax reshape batch_matmul reshape transpose reshape
attention = batch_matmul reshape div add softmax reshape batch_matmul reshape transpose reshape
attention = batch_matmul softmax batch_matmul reshape transpose reshape
attention = batch_matmul reshape mul add fast_softmax reshape batch_matmul reshape transpose reshape
attention = batch_matmul reshape div add fast_softmax reshape batch_matmul reshape transpose reshape
attention = batch_matmul fast_softmax batch_matmul reshape transpose reshape
attention = batch_matmul reshape mul add softmax reshape batch_matmul
attention = batch_matmul reshape div add softmax reshape batch_matmul
attention = batch_matmul softmax batch_matmul
attention = batch_matmul reshape mul add fast_softmax reshape batch_matmul
attention = batch_matmul reshape div add fast_softmax reshape batch_matmul
attention = batch_matmul fast_softmax batch_matmul
)";

struct CompositePattern {
  std::string name;
  SmallVector<std::string> ops; ///< full op names, graph.conv2d ...
};

/// Parses a pattern table; diagnostics name `source` and the line.
FailureOr<std::vector<CompositePattern>> parseTable(StringRef text, StringRef source,
                                                    MLIRContext *ctx, Location loc) {
  std::vector<CompositePattern> table;
  llvm::Error error = forEachSettingLine(
      text, source, "name = op op ...",
      [&](StringRef name, StringRef chain, StringRef line) -> llvm::Error {
        if (name.empty() || name.contains(' '))
          return llvm::createStringError("expected 'name = op op ...', got '" + line + "'");
        CompositePattern p{name.str(), {}};
        SmallVector<StringRef> ops;
        chain.split(ops, ' ', -1, /*KeepEmpty=*/false);
        for (StringRef op : ops) {
          if (!isComputeOpName(op, ctx))
            return llvm::createStringError("unknown graph op '" + op + "'");
          p.ops.push_back(("graph." + op).str());
        }
        if (p.ops.size() < 2)
          return llvm::createStringError("a pattern needs at least two ops, got " +
                                         Twine(p.ops.size()));
        table.push_back(std::move(p));
        return llvm::Error::success();
      });
  if (error) {
    emitError(loc) << "graph-merge-composite: " << llvm::toString(std::move(error));
    return failure();
  }
  return table;
}

/// The chain of `pattern` that starts at `op`, if it matches: each next op
/// is the only user of the previous one's (only) result.
std::optional<SmallVector<Operation *>> matchChain(Operation *op, const CompositePattern &pattern) {
  SmallVector<Operation *> chain;
  for (const std::string &name : pattern.ops) {
    if (!op || op->getName().getStringRef() != name)
      return std::nullopt;
    chain.push_back(op);
    if (chain.size() == pattern.ops.size())
      break;
    if (op->getNumResults() != 1 || !op->getResult(0).hasOneUse())
      return std::nullopt;
    op = *op->getResult(0).user_begin();
    if (op->getBlock() != chain.front()->getBlock())
      return std::nullopt;
  }
  return chain;
}

struct MergeCompositePass : dlc::impl::MergeCompositePassBase<MergeCompositePass> {
  using MergeCompositePassBase::MergeCompositePassBase;

  LogicalResult initialize(MLIRContext *ctx) override {
    std::string text = kBuiltinPatterns.str(), source = "<builtin>";
    if (!patterns.empty()) {
      auto file = llvm::MemoryBuffer::getFile(patterns);
      if (!file) {
        emitError(UnknownLoc::get(ctx))
            << "graph-merge-composite: cannot read pattern table '" << patterns
            << "': " << file.getError().message();
        return failure();
      }
      text = (*file)->getBuffer().str();
      source = patterns;
    }
    FailureOr<std::vector<CompositePattern>> parsed =
        parseTable(text, source, ctx, UnknownLoc::get(ctx));
    if (failed(parsed))
      return failure();
    table = std::move(*parsed);
    return success();
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Block &block = func.getBody().front();
    int64_t merged = 0;
    for (const CompositePattern &pattern : table) {
      int64_t count = 0;
      for (Block::iterator it = block.begin(); it != block.end();) {
        Operation *op = &*it;
        std::optional<SmallVector<Operation *>> chain = matchChain(op, pattern);
        if (!chain) {
          ++it;
          continue;
        }
        SmallVector<Location> locs =
            llvm::map_to_vector(*chain, [](Operation *o) { return o->getLoc(); });
        Location loc = FusedLoc::get(func.getContext(), locs);
        StringAttr name = StringAttr::get(func.getContext(), pattern.name);
        // The chain is erased: go on after the op before its first.
        Operation *prev = op->getPrevNode();
        llvm::SetVector<Operation *> constants;
        for (Operation *o : *chain)
          for (Value v : o->getOperands())
            if (auto c = v.getDefiningOp<ConstantOp>())
              constants.insert(c);
        if (!wrapInRegion(*chain, [&](OpBuilder &b, TypeRange results, ValueRange inputs) {
              return CompositeOp::create(b, loc, results, name, inputs);
            })) {
          ++it;
          continue;
        }
        // Scalars the region copied in, now read by nothing.
        for (Operation *c : constants) {
          if (!c->use_empty())
            continue;
          if (c == prev)
            prev = prev->getPrevNode();
          c->erase();
        }
        ++count;
        it = prev ? std::next(prev->getIterator()) : block.begin();
      }
      if (count)
        recordPassStat(getArgument(), pattern.name, count);
      merged += count;
    }
    recordPassStat(getArgument(), "composites", merged);
  }

  std::vector<CompositePattern> table;
};
} // namespace
