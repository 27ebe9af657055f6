//===- CPUPlanBuffers.cpp - a function's buffers in one workspace ----------===//
//
// The body of a model function is a straight line of allocations and kernel
// calls; bufferization frees every buffer at the end. Planned here, each
// buffer is a view at a byte offset of one workspace, and buffers that are
// never live together share bytes: the function allocates once per run, and
// touches as much memory as is live at its busiest point rather than the sum
// of every intermediate.
//
// A buffer's lifetime is the span of the body's ops that use it (through its
// views too, and from inside their regions). Offsets are assigned largest
// buffer first, each at the lowest offset (aligned) where it overlaps no
// placed buffer whose lifetime overlaps its own: the greedy-by-size planner
// of TFLite and ONNX Runtime, within a few percent of the optimum on
// networks' chains.
//
//===----------------------------------------------------------------------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace dlc {
#define GEN_PASS_DEF_CPUPLANBUFFERSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// Offsets in the workspace are multiples of this (a cache line, and the
/// alignment dlc's allocations ask for).
constexpr int64_t kAlignment = 64;

struct Buffer {
  memref::AllocOp alloc;
  int64_t bytes;
  int64_t alignment;
  // Positions in the body of the first and last op that use the buffer.
  int64_t first, last;
  SmallVector<memref::DeallocOp> deallocs;
  int64_t offset = -1;
};

/// The bytes of a static allocation of integers or floats (i1 is a byte).
std::optional<int64_t> allocatedBytes(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  Type element = type.getElementType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      !isa<IntegerType, FloatType>(element) || !alloc.getSymbolOperands().empty() ||
      type.getMemorySpace())
    return std::nullopt;
  return type.getNumElements() * llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
}

/// `alloc`'s lifetime in `body`, whose ops are numbered by `position`, and
/// its deallocations; nothing when a use escapes the body, reaches a
/// terminator, or reaches an op that produces memrefs without being a view.
std::optional<Buffer> lifetime(memref::AllocOp alloc, Block &body,
                               const DenseMap<Operation *, int64_t> &position) {
  std::optional<int64_t> bytes = allocatedBytes(alloc);
  if (!bytes)
    return std::nullopt;
  // Before its first use a buffer holds nothing: an allocation hoisted to
  // the top of the body does not make it live there.
  Buffer b{alloc, *bytes, std::max<int64_t>(kAlignment, alloc.getAlignment().value_or(1)),
           std::numeric_limits<int64_t>::max(), -1, {}};
  SmallVector<Value> aliases = {alloc.getResult()};
  while (!aliases.empty()) {
    Value v = aliases.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      Operation *top = body.findAncestorOpInBlock(*user);
      // Returned, or yielded out of a region (scf.if), the buffer lives on
      // as a value this walk does not follow.
      if (!top || user->hasTrait<OpTrait::IsTerminator>())
        return std::nullopt;
      if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
        b.deallocs.push_back(dealloc);
        continue;
      }
      b.first = std::min(b.first, position.lookup(top));
      b.last = std::max(b.last, position.lookup(top));
      if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        if (view.getViewSource() == v) {
          aliases.push_back(view->getResult(0));
          continue;
        }
      }
      if (llvm::any_of(user->getResultTypes(), llvm::IsaPred<BaseMemRefType>))
        return std::nullopt;
    }
  }
  if (b.last < 0) // never used
    b.first = b.last = position.lookup(alloc);
  return b;
}

/// Gives every buffer an offset; returns the workspace's size.
int64_t assignOffsets(MutableArrayRef<Buffer> buffers) {
  SmallVector<Buffer *> order = llvm::map_to_vector(buffers, [](Buffer &b) { return &b; });
  llvm::stable_sort(order, [](Buffer *a, Buffer *b) { return a->bytes > b->bytes; });
  int64_t size = 0;
  SmallVector<Buffer *> placed;
  for (Buffer *b : order) {
    // The placed buffers live at the same time, by offset.
    SmallVector<Buffer *> live;
    for (Buffer *p : placed)
      if (p->first <= b->last && b->first <= p->last)
        live.push_back(p);
    llvm::sort(live, [](Buffer *x, Buffer *y) { return x->offset < y->offset; });
    int64_t offset = 0;
    for (Buffer *p : live) {
      if (offset + b->bytes <= p->offset)
        break;
      offset = std::max<int64_t>(offset, llvm::alignTo(p->offset + p->bytes, b->alignment));
    }
    b->offset = offset;
    size = std::max(size, offset + b->bytes);
    placed.push_back(b);
  }
  return size;
}

struct CPUPlanBuffersPass : dlc::impl::CPUPlanBuffersPassBase<CPUPlanBuffersPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return;
    Block &body = func.front();
    DenseMap<Operation *, int64_t> position;
    for (auto [i, op] : llvm::enumerate(body))
      position[&op] = i;
    SmallVector<Buffer> buffers;
    for (auto alloc : body.getOps<memref::AllocOp>())
      if (std::optional<Buffer> b = lifetime(alloc, body, position))
        buffers.push_back(std::move(*b));
    if (buffers.size() < 2)
      return;
    int64_t size = assignOffsets(buffers);
    int64_t alignment = llvm::max_element(buffers, [](const Buffer &x, const Buffer &y) {
                          return x.alignment < y.alignment;
                        })->alignment;

    OpBuilder b(&getContext());
    b.setInsertionPointToStart(&body);
    Location loc = func.getLoc();
    auto workspaceType = MemRefType::get({size}, b.getI8Type());
    Value workspace =
        memref::AllocOp::create(b, loc, workspaceType, b.getI64IntegerAttr(alignment));
    // The offsets, once each, at the top.
    DenseMap<int64_t, Value> offsets;
    for (Buffer &buf : buffers)
      if (!offsets.count(buf.offset))
        offsets[buf.offset] = arith::ConstantIndexOp::create(b, loc, buf.offset);
    int64_t bufferBytes = 0;
    for (Buffer &buf : buffers) {
      b.setInsertionPoint(buf.alloc);
      Value offset = offsets[buf.offset];
      Value view = memref::ViewOp::create(b, buf.alloc.getLoc(), buf.alloc.getType(), workspace,
                                          offset, ValueRange{});
      for (memref::DeallocOp d : buf.deallocs)
        d.erase();
      buf.alloc.getResult().replaceAllUsesWith(view);
      buf.alloc.erase();
      bufferBytes += buf.bytes;
    }
    b.setInsertionPoint(body.getTerminator());
    memref::DeallocOp::create(b, loc, workspace);
    dlc::recordPassStat(getArgument(), "planned", buffers.size());
    // A kernel's workspace lives only while it runs: the bytes counted are
    // the model function's, what a run holds between its kernels.
    if (func->hasAttr("dlc.kernel")) {
      dlc::recordPassStat(getArgument(), "kernel-workspaces", 1);
      return;
    }
    dlc::recordPassStat(getArgument(), "buffer-bytes", bufferBytes);
    dlc::recordPassStat(getArgument(), "workspace-bytes", size);
  }
};
} // namespace
