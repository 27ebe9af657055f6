//===- ProductFusion.cpp - elementwise ops computed in a product's kernel -===//
#include "ProductFusion.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

Value dlc::rootOf(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

void dlc::forEachAccess(Value buffer, function_ref<void(Operation *)> visit) {
  SmallVector<Value> aliases = {buffer};
  while (!aliases.empty()) {
    Value alias = aliases.pop_back_val();
    for (Operation *user : alias.getUsers()) {
      if (auto view = dyn_cast<ViewLikeOpInterface>(user); view && view.getViewSource() == alias)
        aliases.push_back(view->getResult(0));
      else
        visit(user);
    }
  }
}

using dlc::applyMap, dlc::isReshapeOfRoot, dlc::rootOf;

bool dlc::isReshapeOfRoot(Value v) {
  while (isa_and_nonnull<memref::CollapseShapeOp, memref::ExpandShapeOp>(v.getDefiningOp()))
    v = v.getDefiningOp()->getOperand(0);
  return v == rootOf(v);
}

/// Whether `op` neither reads nor writes memory that exists and has no
/// regions: view ops, constants, index arithmetic, allocations, which
/// fusion may move across.
static bool isInert(Operation *op) {
  return op->getNumRegions() == 0 &&
         (isPure(op) || hasSingleEffect<MemoryEffects::Allocate>(op));
}

/// The op next to `op` in its block, after or before it, past inert ones.
static Operation *neighbour(Operation *op, bool after) {
  do
    op = after ? op->getNextNode() : op->getPrevNode();
  while (op && isInert(op));
  return op;
}

/// Whether `op` is a linalg op on static buffers of only parallel loops,
/// each of its outputs indexed by a permutation of them, whose body reads
/// no memory (what it reads are its operands: the fusion's checks see them
/// all) and can be copied elsewhere (linalg.index becomes the loop's value).
static bool isElementwise(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureBufferSemantics() ||
      linalgOp.getNumParallelLoops() != linalgOp.getNumLoops())
    return false;
  for (Value operand : op->getOperands())
    if (auto type = dyn_cast<MemRefType>(operand.getType()); type && !type.hasStaticShape())
      return false;
  bool copyable = llvm::all_of(linalgOp.getBlock()->without_terminator(), [](Operation &inner) {
    return isa<linalg::IndexOp>(inner) || (inner.getNumRegions() == 0 && isPure(&inner));
  });
  return copyable && llvm::all_of(linalgOp.getDpsInitsMutable(), [&](OpOperand &init) {
           return linalgOp.getMatchingIndexingMap(&init).isPermutation();
         });
}

bool dlc::usedBetween(Value buffer, Operation *first, Operation *last, Operation *except) {
  bool used = false;
  forEachAccess(buffer, [&](Operation *user) {
    if (user == except || isa<memref::DeallocOp>(user))
      return;
    Operation *inBlock = first->getBlock()->findAncestorOpInBlock(*user);
    used |= !inBlock || (!inBlock->isBeforeInBlock(first) && !last->isBeforeInBlock(inBlock));
  });
  return used;
}

/// Whether `v` is `output` or a reshape of it (viewIndices maps indices).
static bool isReshapeOf(Value v, Value output) {
  if (v == output)
    return true;
  Operation *def = v.getDefiningOp();
  return isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp>(def) &&
         def->getOperand(0) == output;
}

/// The buffers `op` writes, as roots (null: unknown, any).
static SmallVector<Value> writtenRoots(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return llvm::map_to_vector(linalgOp.getDpsInitsMutable(),
                               [](OpOperand &init) { return rootOf(init.get()); });
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return {rootOf(copy.getTarget())};
  if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) // freed: no longer readable
    return {rootOf(dealloc.getMemref())};
  if (isInert(op) || isa<memref::LoadOp>(op))
    return {};
  return {Value()};
}

/// Whether an op after `first` and before `last` (of one block) writes one
/// of `roots` or might.
static bool writtenBetween(ArrayRef<Value> roots, Operation *first, Operation *last) {
  for (Operation *op = first->getNextNode(); op && op != last; op = op->getNextNode())
    for (Value written : writtenRoots(op))
      if (!written || llvm::is_contained(roots, written))
        return true;
  return false;
}

/// The users of `root` and of its views that are not views or
/// deallocations, as the ops of `block` they are in; null if one is in
/// none.
static SmallVector<Operation *> accessesOf(Value root, Block *block) {
  SmallVector<Operation *> accesses;
  dlc::forEachAccess(root, [&](Operation *user) {
    if (!isa<memref::DeallocOp>(user))
      accesses.push_back(block->findAncestorOpInBlock(*user));
  });
  return accesses;
}

/// The value `op` (elementwise, of one output) yields for every element if
/// it is the same for all (defined outside its body: a constant, a fill's
/// scalar); else null.
static Value yieldedEverywhere(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return {};
  Value yielded = op.getBlock()->getTerminator()->getOperand(0);
  auto arg = dyn_cast<BlockArgument>(yielded);
  if (!arg)
    return yielded.getParentBlock() != op.getBlock() ? yielded : Value();
  Value operand = op->getOperand(arg.getArgNumber());
  return arg.getOwner() == op.getBlock() && op.isDpsInput(&op->getOpOperand(arg.getArgNumber())) &&
                 !isa<ShapedType>(operand.getType())
             ? operand
             : Value();
}

/// The arith.extf whose result `op` (of one output) yields, if any.
static arith::ExtFOp widening(linalg::LinalgOp op) {
  return op.getBlock()->getTerminator()->getOperand(0).getDefiningOp<arith::ExtFOp>();
}

/// The block argument of `op` (elementwise, of one input) that its output's
/// element is, or is widened from (arith.extf); null if neither.
static BlockArgument gatheredArgument(linalg::LinalgOp op) {
  Value yielded = op.getBlock()->getTerminator()->getOperand(0);
  if (arith::ExtFOp widen = widening(op))
    yielded = widen.getIn();
  auto arg = dyn_cast<BlockArgument>(yielded);
  return arg && arg.getOwner() == op.getBlock() && arg.getArgNumber() == 0 ? arg
                                                                           : BlockArgument();
}

/// Whether `op` (elementwise) writes each element of its one output with an
/// element of its one input, a buffer, or that element widened: an im2col,
/// a transpose, an arith.extf (from f16, bf16, ...).
static bool gathers(linalg::LinalgOp op) {
  return op.getNumDpsInits() == 1 && op.getNumDpsInputs() == 1 &&
         isa<MemRefType>(op.getDpsInputs()[0].getType()) && gatheredArgument(op);
}

/// Whether `op` writes every element of `root` without reading any: an
/// elementwise op whose output is `root` or a reshape of it and that reads
/// neither it nor its old values (bufferization may reuse a dead buffer).
static bool overwrites(Operation *op, Value root) {
  if (!isElementwise(op))
    return false;
  auto linalgOp = cast<linalg::LinalgOp>(op);
  bool written = false;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()) || rootOf(operand.get()) != root)
      continue;
    if (!linalgOp.isDpsInit(&operand) || !isReshapeOfRoot(operand.get()) ||
        !linalgOp.getMatchingBlockArgument(&operand).use_empty())
      return false;
    written = true;
  }
  return written;
}

/// Finds how `root`, a buffer that `consumer` alone reads (through
/// reshapes) and only ops moving or widening elements write, is computed
/// where `reader` (the product, `consumer` or after it) reads it; records it
/// and its own inputs' in `fused`. The buffer is the function's own, or an
/// argument that an op after `reader` overwrites (bufferization reuses
/// buffers: the values computed where they are read are never seen; the
/// function's arguments, like its buffers, are assumed not to alias).
/// `output` (the product's output, which its blocks write while others
/// read) is never a source. Returns whether it is.
static bool fuseBuffer(Value root, Operation *consumer, Operation *reader, Value output,
                       const SmallPtrSetImpl<Operation *> &taken,
                       DenseMap<Value, dlc::FusedBuffer> &fused) {
  auto rootType = dyn_cast<MemRefType>(root.getType());
  bool own = root.getDefiningOp<memref::AllocOp>();
  auto arg = dyn_cast<BlockArgument>(root);
  bool parameter = arg && arg.getOwner()->isEntryBlock() &&
                   isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
  if (!(own || parameter) || !rootType || !rootType.hasStaticShape() ||
      root == rootOf(output))
    return false;
  // Every operand of the consumer on the buffer a reshape of it, which
  // elementOf follows (a transposed or strided view of it would read the
  // buffer no one writes any more).
  for (Value operand : consumer->getOperands())
    if (isa<MemRefType>(operand.getType()) && rootOf(operand) == root &&
        !isReshapeOfRoot(operand))
      return false;
  Block *block = consumer->getBlock();
  SmallVector<Operation *> writers;
  bool overwritten = false;
  for (Operation *access : accessesOf(root, block)) {
    if (access == consumer)
      continue;
    if (access && !taken.contains(access) && reader->isBeforeInBlock(access) &&
        overwrites(access, root)) {
      overwritten = true; // reused for other values
      continue;
    }
    // every other access a write before the consumer (a second reader
    // still needs the buffer)
    if (!access || taken.contains(access) || !access->isBeforeInBlock(consumer) ||
        !llvm::is_contained(writtenRoots(access), root))
      return false;
    writers.push_back(access);
  }
  if (!own && !overwritten)
    return false;
  llvm::sort(writers, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  if (!llvm::all_of(writers, [](Operation *w) { return isa<linalg::LinalgOp>(w); }))
    return false;
  dlc::FusedBuffer buffer;
  Value source;
  if (writers.size() == 1 && isElementwise(writers[0]) &&
      gathers(cast<linalg::LinalgOp>(writers[0])) &&
      cast<linalg::LinalgOp>(writers[0]).getDpsInitOperand(0)->get() == root) {
    // an im2col, a transpose, a widening: its input read where needed
    buffer.gather = cast<linalg::LinalgOp>(writers[0]);
    source = buffer.gather.getDpsInputs()[0];
  } else if (writers.size() == 2 && isElementwise(writers[0]) &&
             isa<linalg::CopyOp>(writers[1])) {
    // a padding: a constant everywhere, a buffer pasted in a window
    auto fill = cast<linalg::LinalgOp>(writers[0]);
    auto paste = cast<linalg::CopyOp>(writers[1]);
    auto window = paste.getDpsInits()[0].getDefiningOp<memref::SubViewOp>();
    if (fill.getDpsInitOperand(0)->get() != root || !yieldedEverywhere(fill) || !window ||
        window.getSource() != root || !window.hasUnitStride() ||
        window.getType().getRank() != window.getSourceType().getRank() ||
        ShapedType::isDynamicShape(window.getStaticOffsets()) ||
        !cast<MemRefType>(paste.getDpsInputs()[0].getType()).hasStaticShape())
      return false;
    buffer.fill = fill;
    buffer.paste = paste;
    buffer.offsets = llvm::to_vector(window.getStaticOffsets());
    source = paste.getDpsInputs()[0];
  } else {
    return false;
  }
  // The source read at `reader`, not where the writers were: nothing in
  // between may write or free it, nor may the product write it (the
  // output is excluded, the product writes nothing else).
  // (It may be any view: elementOf loads it there unless it is fused in
  // turn, which requires a reshape.)
  if (rootOf(source) == root || rootOf(source) == rootOf(output) ||
      writtenBetween({rootOf(source)}, writers.back(), reader))
    return false;
  fused[root] = buffer;
  // Its own producers (an im2col's padding) fused too where they can be.
  fuseBuffer(rootOf(source), writers.back(), reader, output, taken, fused);
  return true;
}

SmallVector<Operation *> dlc::ProductFusion::ops() const {
  SmallVector<Operation *> all;
  if (init)
    all.push_back(init);
  for (const Epilogue &epilogue : epilogues)
    all.push_back(epilogue.op);
  for (const auto &[root, buffer] : inputs)
    for (linalg::LinalgOp op : {buffer.gather, buffer.fill, buffer.paste})
      if (op)
        all.push_back(op);
  return all;
}

dlc::ProductFusion dlc::findProductFusion(linalg::LinalgOp product,
                                          const SmallPtrSetImpl<Operation *> &taken) {
  ProductFusion fusion;
  Value output = product.getDpsInitOperand(0)->get();
  Value root = rootOf(output);
  for (OpOperand *input : product.getDpsInputOperands())
    fuseBuffer(rootOf(input->get()), product, product, output, taken, fusion.inputs);
  // Every buffer the product's kernel reads (those it computes it does not).
  llvm::SmallPtrSet<Value, 4> productBuffers = {root};
  auto reads = [&](Value buffer) {
    if (!fusion.inputs.contains(rootOf(buffer)))
      productBuffers.insert(rootOf(buffer));
  };
  for (OpOperand *input : product.getDpsInputOperands())
    reads(input->get());
  for (const auto &[buffer, producer] : fusion.inputs) {
    Operation *reading = producer.gather ? producer.gather : producer.paste;
    for (Value read : cast<linalg::LinalgOp>(reading).getDpsInputs())
      reads(read);
  }

  // The initial values: an op writing exactly the output, before which the
  // product's kernel then runs; it reads nothing the ops in between write
  // (there are none but inert ones) and not the output itself.
  Operation *before = neighbour(product, /*after=*/false);
  if (isElementwise(before) && !taken.contains(before)) {
    auto init = cast<linalg::LinalgOp>(before);
    bool fits = init.getNumDpsInits() == 1 && init.getDpsInitOperand(0)->get() == output &&
                init.getRegionOutputArgs()[0].use_empty() &&
                llvm::none_of(init.getDpsInputOperands(),
                              [&](OpOperand *in) { return rootOf(in->get()) == root; });
    if (fits) {
      fusion.init = init;
      for (OpOperand *in : init.getDpsInputOperands())
        productBuffers.insert(rootOf(in->get()));
    }
  }

  // The epilogue: an op reading the output through one operand, writing
  // buffers that neither the product, the initial values' op nor its own
  // other inputs read (each thread of the product's kernel computes some of
  // its elements: a buffer another thread reads would be raced), except
  // the output where it reads it: an update in place (a bias and an
  // activation), each thread writing the elements it computed.
  Operation *after = neighbour(product, /*after=*/true);
  if (!isElementwise(after) || taken.contains(after))
    return fusion;
  auto epilogue = cast<linalg::LinalgOp>(after);
  OpOperand *reading = nullptr;
  llvm::SmallPtrSet<Value, 4> inputs;
  for (OpOperand *in : epilogue.getDpsInputOperands()) {
    inputs.insert(rootOf(in->get()));
    if (rootOf(in->get()) != root)
      continue;
    if (reading || !isReshapeOf(in->get(), output) ||
        !epilogue.getMatchingIndexingMap(in).isPermutation())
      return fusion;
    reading = in;
  }
  OpOperand *inPlace = nullptr;
  for (OpOperand &init : epilogue.getDpsInitsMutable()) {
    if (rootOf(init.get()) != root)
      continue;
    bool same = reading ? init.get() == reading->get() &&
                              epilogue.getMatchingIndexingMap(&init) ==
                                  epilogue.getMatchingIndexingMap(reading)
                        : isReshapeOf(init.get(), output) &&
                              !epilogue.getMatchingBlockArgument(&init).use_empty();
    if (inPlace || !same)
      return fusion;
    inPlace = &init;
  }
  if (!reading)
    reading = inPlace; // the old value of its output
  if (!reading)
    return fusion;
  for (OpOperand &init : epilogue.getDpsInitsMutable()) {
    Value written = rootOf(init.get());
    if (&init != inPlace && (productBuffers.contains(written) || inputs.contains(written)))
      return fusion;
  }
  // A buffer of the function's own and read by no one later needs no
  // results (the caller's, a global's, may be read); one the epilogue
  // updates gets its results.
  auto readLater = [](Value buffer, Operation *reader) {
    return !buffer.getDefiningOp<memref::AllocOp>() ||
           usedBetween(buffer, reader->getNextNode(), reader->getBlock()->getTerminator(),
                       nullptr);
  };
  fusion.epilogues.push_back({epilogue, reading, !inPlace && readLater(root, epilogue)});

  // Then ops each reading, through one operand, element for element and
  // through a reshape, the one buffer the epilogue before writes, not in
  // place, and no other buffer the kernel writes (the product's output,
  // another epilogue's); writing buffers no op of the kernel reads.
  llvm::SmallPtrSet<Value, 4> written = {root};
  while (true) {
    linalg::LinalgOp before = fusion.epilogues.back().op;
    if (before.getNumDpsInits() != 1 || rootOf(before.getDpsInits()[0]) == root)
      break;
    Value buffer = before.getDpsInits()[0], bufferRoot = rootOf(buffer);
    written.insert(bufferRoot);
    Operation *next = neighbour(before, /*after=*/true);
    if (!isElementwise(next) || taken.contains(next))
      break;
    auto op = cast<linalg::LinalgOp>(next);
    OpOperand *in = nullptr;
    bool fits = true;
    for (OpOperand *candidate : op.getDpsInputOperands()) {
      inputs.insert(rootOf(candidate->get()));
      if (rootOf(candidate->get()) == bufferRoot && !in && isReshapeOf(candidate->get(), buffer) &&
          op.getMatchingIndexingMap(candidate).isPermutation())
        in = candidate;
      else
        fits &= !written.contains(rootOf(candidate->get()));
    }
    for (Value out : op.getDpsInits())
      fits &= !written.contains(rootOf(out)) && !productBuffers.contains(rootOf(out)) &&
              !inputs.contains(rootOf(out));
    if (!fits || !in)
      break;
    fusion.epilogues.push_back({op, in, readLater(bufferRoot, op)});
  }
  return fusion;
}

void dlc::moveEpilogueOperands(RewriterBase &rewriter, Operation *product,
                               const ProductFusion &fusion) {
  if (fusion.epilogues.empty())
    return;
  Operation *last = fusion.epilogues.back().op;
  for (Operation *o = product->getNextNode(); o != last;) {
    Operation *next = o->getNextNode();
    if (llvm::none_of(fusion.epilogues,
                      [&](const ProductFusion::Epilogue &e) { return e.op == o; }))
      rewriter.moveOpBefore(o, product);
    o = next;
  }
}

Value dlc::initialValue(OpBuilder &b, linalg::LinalgOp product, const ProductFusion &fusion,
                        ValueRange indices) {
  if (!fusion.init)
    return memref::LoadOp::create(b, product.getLoc(), product.getDpsInitOperand(0)->get(),
                                  indices);
  linalg::LinalgOp init = fusion.init;
  return emitIteration(b, init, loopsAt(init, *init.getDpsInitOperand(0), indices))[0];
}

void dlc::storeResult(OpBuilder &b, linalg::LinalgOp product, const ProductFusion &fusion,
                      ValueRange indices, Value result) {
  Location loc = product.getLoc();
  // `result` is the element of `buffer` at `at`.
  Value buffer = product.getDpsInitOperand(0)->get();
  SmallVector<Value> at(indices);
  for (const ProductFusion::Epilogue &epilogue : fusion.epilogues) {
    if (epilogue.storeInput)
      memref::StoreOp::create(b, loc, result, buffer, at);
    linalg::LinalgOp op = epilogue.op;
    SmallVector<Value> loops =
        loopsAt(op, *epilogue.input, viewIndices(b, loc, epilogue.input->get(), at));
    SmallVector<Value> values = emitIteration(b, op, loops, {{epilogue.input, result}});
    if (&epilogue == &fusion.epilogues.back()) {
      storeIteration(b, op, loops, values);
      return;
    }
    OpOperand *out = op.getDpsInitOperand(0); // what the next epilogue reads
    buffer = out->get();
    at = applyMap(b, loc, op.getMatchingIndexingMap(out), loops);
    result = values.front();
  }
  memref::StoreOp::create(b, loc, result, buffer, at);
}

SmallVector<Value> dlc::loopsAt(linalg::LinalgOp op, OpOperand &operand, ValueRange indices) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  SmallVector<Value> loops(op.getNumLoops());
  for (auto [r, index] : llvm::enumerate(indices))
    loops[map.getDimPosition(r)] = index;
  return loops;
}

SmallVector<Value> dlc::applyMap(OpBuilder &b, Location loc, AffineMap map, ValueRange loops) {
  return llvm::map_to_vector(map.getResults(), [&](AffineExpr e) -> Value {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      return loops[dim.getPosition()];
    if (auto constant = dyn_cast<AffineConstantExpr>(e))
      return arith::ConstantIndexOp::create(b, loc, constant.getValue());
    return affine::AffineApplyOp::create(b, loc, AffineMap::get(map.getNumDims(), 0, e), loops);
  });
}

SmallVector<Value> dlc::emitIteration(OpBuilder &b, linalg::LinalgOp op, ValueRange loops,
                                      ArrayRef<std::pair<OpOperand *, Value>> given,
                                      ElementLoader load) {
  Location loc = op.getLoc();
  IRMapping values;
  for (auto [operand, value] : given)
    values.map(op.getMatchingBlockArgument(operand), value);
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (values.contains(arg) || arg.use_empty()) // (a pooling's window shape)
      continue;
    Value v = operand.get();
    if (isa<MemRefType>(v.getType())) {
      SmallVector<Value> at = applyMap(b, loc, op.getMatchingIndexingMap(&operand), loops);
      v = load && op.isDpsInput(&operand) ? load(b, v, at)
                                          : memref::LoadOp::create(b, loc, v, at).getResult();
    }
    values.map(arg, v);
  }
  Block *body = op.getBlock();
  for (Operation &inner : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner))
      values.map(index.getResult(), loops[index.getDim()]);
    else
      b.clone(inner, values);
  }
  return llvm::map_to_vector(body->getTerminator()->getOperands(),
                             [&](Value v) { return values.lookupOrDefault(v); });
}

void dlc::storeIteration(OpBuilder &b, linalg::LinalgOp op, ValueRange loops, ValueRange values) {
  for (auto [init, value] : llvm::zip(op.getDpsInitsMutable(), values))
    memref::StoreOp::create(b, op.getLoc(), value, init.get(),
                            applyMap(b, op.getLoc(), op.getMatchingIndexingMap(&init), loops));
}

/// The indices of a reshape's finer shape `fine` (its `groups` of dimensions
/// each one of the coarser) from the coarser's `indices`.
static SmallVector<Value> splitGroups(OpBuilder &b, Location loc, ValueRange indices,
                                      ArrayRef<ReassociationIndices> groups,
                                      ArrayRef<int64_t> fine) {
  SmallVector<Value> split;
  for (auto [index, group] : llvm::zip(indices, groups)) {
    SmallVector<int64_t> basis = llvm::map_to_vector(group, [&](int64_t d) { return fine[d]; });
    if (basis.size() == 1)
      split.push_back(index);
    else
      llvm::append_range(split, dlc::delinearize(b, loc, index, basis));
  }
  return split;
}

/// The coarser shape's indices from the finer's (splitGroups' inverse).
static SmallVector<Value> joinGroups(OpBuilder &b, Location loc, ValueRange indices,
                                     ArrayRef<ReassociationIndices> groups,
                                     ArrayRef<int64_t> fine) {
  return llvm::map_to_vector(groups, [&](const ReassociationIndices &group) -> Value {
    SmallVector<Value> multi = llvm::map_to_vector(group, [&](int64_t d) { return indices[d]; });
    SmallVector<int64_t> basis = llvm::map_to_vector(group, [&](int64_t d) { return fine[d]; });
    if (multi.size() == 1)
      return multi.front();
    return affine::AffineLinearizeIndexOp::create(b, loc, multi, basis, /*disjoint=*/true);
  });
}

SmallVector<Value> dlc::viewIndices(OpBuilder &b, Location loc, Value view, ValueRange indices) {
  if (auto expand = view.getDefiningOp<memref::ExpandShapeOp>())
    return splitGroups(b, loc, indices, expand.getReassociationIndices(),
                       expand.getResultType().getShape());
  if (auto collapse = view.getDefiningOp<memref::CollapseShapeOp>())
    return joinGroups(b, loc, indices, collapse.getReassociationIndices(),
                      collapse.getSrcType().getShape());
  return llvm::to_vector(indices); // the output itself
}

/// The buffer `view` reshapes, `indices` (of `view`) replaced by its;
/// `view` itself if it is no reshape.
static Value reshapeSource(OpBuilder &b, Location loc, Value view, SmallVector<Value> &indices) {
  if (auto collapse = view.getDefiningOp<memref::CollapseShapeOp>()) {
    indices = splitGroups(b, loc, indices, collapse.getReassociationIndices(),
                          collapse.getSrcType().getShape());
    return collapse.getSrc();
  }
  if (auto expand = view.getDefiningOp<memref::ExpandShapeOp>()) {
    indices = joinGroups(b, loc, indices, expand.getReassociationIndices(),
                         expand.getResultType().getShape());
    return expand.getSrc();
  }
  return view;
}

/// The indices in the buffer `fused` (a padding of `buffer`) pastes of
/// `buffer`'s element at `indices`, clamped into it outside the window, and
/// the condition that the element is inside (null: the window is all of
/// `buffer`).
static Value pastedIndices(OpBuilder &b, Location loc, dlc::FusedBuffer fused, Value buffer,
                           ValueRange indices, SmallVectorImpl<Value> &shifted) {
  ArrayRef<int64_t> sizes =
      cast<MemRefType>(fused.paste.getDpsInputOperand(0)->get().getType()).getShape();
  ArrayRef<int64_t> full = cast<MemRefType>(buffer.getType()).getShape();
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value inside;
  for (auto [i, offset] : llvm::enumerate(fused.offsets)) {
    if (offset == 0 && sizes[i] == full[i]) {
      shifted.push_back(indices[i]);
      continue;
    }
    Value s = arith::SubIOp::create(b, loc, indices[i], index(offset));
    // below the window, `s` wraps around to a large unsigned value
    Value in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, s, index(sizes[i]));
    inside = inside ? arith::AndIOp::create(b, loc, inside, in).getResult() : in;
    shifted.push_back(s);
  }
  if (inside)
    for (Value &s : shifted)
      s = arith::SelectOp::create(b, loc, inside, s, index(0));
  return inside;
}

Value dlc::elementOf(OpBuilder &b, Location loc, const ProductFusion &fusion, Value buffer,
                     ValueRange at, SmallVectorImpl<Guard> *guards) {
  // A buffer of no fused producer is loaded where it is (its reshapes'
  // indices not computed).
  auto it = fusion.inputs.find(rootOf(buffer));
  if (it == fusion.inputs.end())
    return memref::LoadOp::create(b, loc, buffer, at);
  SmallVector<Value> indices(at);
  while (buffer != it->first) {
    Value source = reshapeSource(b, loc, buffer, indices);
    assert(source != buffer && "fuseBuffer admits reshapes of fused buffers only");
    buffer = source;
  }
  FusedBuffer fused = it->second;
  auto load = [&](OpBuilder &nb, Value v, ValueRange i) {
    return elementOf(nb, loc, fusion, v, i, guards);
  };
  if (fused.gather) {
    SmallVector<Value> loops = loopsAt(fused.gather, *fused.gather.getDpsInitOperand(0), indices);
    size_t before = guards ? guards->size() : 0;
    Value element = emitIteration(b, fused.gather, loops, {}, load)[0];
    // A widening gather's deferred paddings give values of its input's
    // type: widened too (exactly), as the element they replace.
    if (guards)
      for (Guard &guard : llvm::drop_begin(*guards, before))
        if (guard.second.getType() != element.getType())
          guard.second = arith::ExtFOp::create(b, loc, element.getType(), guard.second);
    return element;
  }
  // A padding: the pasted buffer's element inside the window (clamped
  // into it outside, where the padding value is taken instead; looked up
  // now, as folding may have replaced the constant since the search).
  Value padding = yieldedEverywhere(fused.fill);
  Value pasted = fused.paste.getDpsInputs()[0];
  SmallVector<Value> shifted;
  Value inside = pastedIndices(b, loc, fused, buffer, indices, shifted);
  Value value = elementOf(b, loc, fusion, pasted, shifted, guards);
  if (!inside)
    return value;
  if (guards) {
    guards->push_back({inside, padding});
    return value;
  }
  return arith::SelectOp::create(b, loc, inside, value, padding);
}

Value dlc::contiguousSource(const ProductFusion &fusion, Value buffer, int64_t values) {
  auto it = fusion.inputs.find(rootOf(buffer));
  // No producer fused: its own elements, loaded where they are.
  if (it == fusion.inputs.end()) {
    auto type = cast<MemRefType>(buffer.getType());
    return type.hasStaticShape() && type.getLayout().isIdentity() ? buffer : Value();
  }
  // (reshapes of a buffer of the identity layout keep its elements' order:
  // a chunk is consecutive in it)
  auto type = cast<MemRefType>(it->first.getType());
  if (!type.getLayout().isIdentity())
    return {};
  FusedBuffer fused = it->second;
  if (fused.gather) {
    AffineMap from = fused.gather.getMatchingIndexingMap(fused.gather.getDpsInputOperand(0));
    AffineMap to = fused.gather.getMatchingIndexingMap(fused.gather.getDpsInitOperand(0));
    Value source = fused.gather.getDpsInputs()[0];
    // Element for element (a widening): the same order.
    if (from == to && from.isIdentity())
      return contiguousSource(fusion, source, values);
    // Else the last dimension kept last, the others not depending on it (a
    // transpose of the others, an im2col whose innermost loop walks a
    // pixel's channels), a whole number of chunks long.
    if (from.getNumResults() == 0 || to.getNumResults() == 0 ||
        from.getResults().back() != to.getResults().back() ||
        !isa<AffineDimExpr>(from.getResults().back()) || type.getShape().back() % values != 0)
      return {};
    unsigned last = cast<AffineDimExpr>(from.getResults().back()).getPosition();
    if (llvm::any_of(from.getResults().drop_back(),
                     [&](AffineExpr e) { return e.isFunctionOfDim(last); }))
      return {};
    return contiguousSource(fusion, source, values);
  }
  // A padding by zeros, none along the last dimension (a whole number of
  // chunks long): a chunk is inside the window or outside it whole.
  Value pasted = fused.paste.getDpsInputs()[0];
  Value fill = yieldedEverywhere(fused.fill);
  if (fused.offsets.back() != 0 || type.getShape().back() % values != 0 ||
      cast<MemRefType>(pasted.getType()).getShape().back() != type.getShape().back() || !fill ||
      !matchPattern(fill, m_AnyZeroFloat()))
    return {};
  return contiguousSource(fusion, pasted, values);
}

SmallVector<Value> dlc::sourceIndices(OpBuilder &b, Location loc, const ProductFusion &fusion,
                                      Value buffer, ValueRange at, Value &inside) {
  auto it = fusion.inputs.find(rootOf(buffer));
  if (it == fusion.inputs.end())
    return SmallVector<Value>(at);
  SmallVector<Value> indices(at);
  while (buffer != it->first)
    buffer = reshapeSource(b, loc, buffer, indices);
  FusedBuffer fused = it->second;
  if (linalg::LinalgOp gather = fused.gather) {
    SmallVector<Value> loops = loopsAt(gather, *gather.getDpsInitOperand(0), indices);
    return sourceIndices(
        b, loc, fusion, gather.getDpsInputs()[0],
        applyMap(b, loc, gather.getMatchingIndexingMap(gather.getDpsInputOperand(0)), loops),
        inside);
  }
  // A padding: the pasted buffer's indices (clamped outside the window,
  // where the chunk is zeros).
  SmallVector<Value> shifted;
  if (Value window = pastedIndices(b, loc, fused, buffer, indices, shifted))
    inside = inside ? arith::AndIOp::create(b, loc, inside, window).getResult() : window;
  return sourceIndices(b, loc, fusion, fused.paste.getDpsInputs()[0], shifted, inside);
}

Type dlc::narrowType(const ProductFusion &fusion, Value buffer) {
  auto it = fusion.inputs.find(rootOf(buffer));
  if (it == fusion.inputs.end())
    return {};
  FusedBuffer fused = it->second;
  if (fused.gather) {
    if (arith::ExtFOp widen = widening(fused.gather)) {
      Type from = widen.getIn().getType();
      return from.isF16() || from.isBF16() ? from : Type();
    }
    return narrowType(fusion, fused.gather.getDpsInputs()[0]);
  }
  // A padding: its value must be one of the narrower type's too.
  Type narrow = narrowType(fusion, fused.paste.getDpsInputs()[0]);
  Value fill = yieldedEverywhere(fused.fill);
  FloatAttr padding;
  if (!narrow || !fill || !matchPattern(fill, m_Constant(&padding)))
    return {};
  bool lost = false;
  APFloat value = padding.getValue();
  value.convert(cast<FloatType>(narrow).getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
  return lost ? Type() : narrow;
}

SmallVector<Value> dlc::delinearize(OpBuilder &b, Location loc, Value linear,
                                    ArrayRef<int64_t> basis) {
  int64_t count = 1;
  for (int64_t n : basis)
    count *= n;
  if (count > std::numeric_limits<int32_t>::max())
    return affine::AffineDelinearizeIndexOp::create(b, loc, linear, basis).getResults();
  Type i32 = b.getI32Type();
  Value rest = arith::IndexCastUIOp::create(b, loc, i32, linear);
  SmallVector<Value> indices(basis.size());
  for (int64_t d = basis.size() - 1; d >= 0; --d) {
    Value size = arith::ConstantIntOp::create(b, loc, i32, basis[d]);
    Value index = d == 0 ? rest : arith::RemUIOp::create(b, loc, rest, size).getResult();
    indices[d] = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), index);
    if (d > 0)
      rest = arith::DivUIOp::create(b, loc, rest, size);
  }
  return indices;
}
