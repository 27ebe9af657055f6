//===- CPUPlanBuffers.cpp - a model's buffers in one workspace -------------===//
//
// The body of a model function is a straight line of allocations and kernel
// calls; bufferization frees every buffer at the end. Planned here, each
// buffer is a view at a byte offset of one workspace, and buffers that are
// never live together share bytes: the function touches as much memory as
// is live at its busiest point rather than the sum of every intermediate.
//
// A buffer's lifetime is the span of the body's ops that use it (through its
// views too, and from inside their regions). Offsets are assigned largest
// buffer first, each at the lowest offset (aligned) where it overlaps no
// placed buffer whose lifetime overlaps its own: the greedy-by-size planner
// of TFLite and ONNX Runtime, within a few percent of the optimum on
// networks' chains.
//
// Kernels are planned first, and a kernel's workspace becomes an argument
// its callers pass: a buffer of the caller live for the call alone, so that
// kernels' temporaries share the model's workspace too (TVM's unified static
// memory planning does the same). The model function's workspace is then a
// global kept between runs, taken with an atomic flag: a run allocates
// nothing, and a run that finds the flag taken (two threads in one model at
// once) allocates a workspace of its own.
//
//===----------------------------------------------------------------------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
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

/// The largest workspace kept in a global: code under the small code model
/// reaches its data within 2 GiB, so a larger one is allocated per run.
constexpr int64_t kMaxStaticWorkspace = int64_t(1) << 30;

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

/// A function's planned workspace: allocated at the top of its body, freed
/// before its return, and what it replaced.
struct Workspace {
  memref::AllocOp alloc;
  memref::DeallocOp dealloc;
  int64_t buffers = 0, bufferBytes = 0;
};

/// Plans `func`'s buffers into one workspace; nothing when no buffer could
/// be planned.
std::optional<Workspace> planFunction(func::FuncOp func) {
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return std::nullopt;
  Block &body = func.front();
  DenseMap<Operation *, int64_t> position;
  for (auto [i, op] : llvm::enumerate(body))
    position[&op] = i;
  SmallVector<Buffer> buffers;
  for (auto alloc : body.getOps<memref::AllocOp>())
    if (std::optional<Buffer> b = lifetime(alloc, body, position))
      buffers.push_back(std::move(*b));
  if (buffers.empty())
    return std::nullopt;
  int64_t size = assignOffsets(buffers);
  int64_t alignment = llvm::max_element(buffers, [](const Buffer &x, const Buffer &y) {
                        return x.alignment < y.alignment;
                      })->alignment;

  OpBuilder b(func.getContext());
  b.setInsertionPointToStart(&body);
  Location loc = func.getLoc();
  Workspace ws;
  ws.alloc = memref::AllocOp::create(b, loc, MemRefType::get({size}, b.getI8Type()),
                                     b.getI64IntegerAttr(alignment));
  // The offsets, once each, at the top.
  DenseMap<int64_t, Value> offsets;
  for (Buffer &buf : buffers)
    if (!offsets.count(buf.offset))
      offsets[buf.offset] = arith::ConstantIndexOp::create(b, loc, buf.offset);
  for (Buffer &buf : buffers) {
    b.setInsertionPoint(buf.alloc);
    Value view = memref::ViewOp::create(b, buf.alloc.getLoc(), buf.alloc.getType(), ws.alloc,
                                        offsets[buf.offset], ValueRange{});
    for (memref::DeallocOp d : buf.deallocs)
      d.erase();
    buf.alloc.getResult().replaceAllUsesWith(view);
    buf.alloc.erase();
    ws.bufferBytes += buf.bytes;
  }
  b.setInsertionPoint(body.getTerminator());
  ws.dealloc = memref::DeallocOp::create(b, loc, ws.alloc);
  ws.buffers = buffers.size();
  return ws;
}

/// Makes `kernel`'s workspace its last argument, which every call in
/// `calls` allocates just before the call and frees after it.
void hoistWorkspace(func::FuncOp kernel, Workspace ws, ArrayRef<func::CallOp> calls) {
  MemRefType type = ws.alloc.getType();
  IntegerAttr alignment = ws.alloc.getAlignmentAttr();
  unsigned index = kernel.getNumArguments();
  if (failed(kernel.insertArgument(index, type, {}, ws.alloc.getLoc())))
    llvm_unreachable("appending an argument to a function with a body");
  ws.dealloc.erase();
  ws.alloc.getResult().replaceAllUsesWith(kernel.getArgument(index));
  ws.alloc.erase();
  for (func::CallOp call : calls) {
    OpBuilder b(call);
    auto alloc = memref::AllocOp::create(b, call.getLoc(), type, alignment);
    call.getOperandsMutable().append(alloc.getResult());
    b.setInsertionPointAfter(call);
    memref::DeallocOp::create(b, call.getLoc(), alloc);
  }
}

/// Makes `workspace`, `func`'s, a global taken for the run with an atomic
/// flag: a run that finds it taken allocates its own.
void makeStatic(func::FuncOp func, Workspace ws, SymbolTable &symbols) {
  MemRefType type = ws.alloc.getType();
  IntegerAttr alignment = ws.alloc.getAlignmentAttr();
  OpBuilder b(func);
  auto flagType = MemRefType::get({1}, b.getI32Type());
  Location loc = ws.alloc.getLoc();
  // The flag first, so that it does not lie beyond the workspace.
  auto flag = memref::GlobalOp::create(
      b, loc, (func.getSymName() + "_workspace_taken").str(), b.getStringAttr("private"),
      flagType, DenseElementsAttr::get(RankedTensorType::get({1}, b.getI32Type()), 0),
      /*constant=*/false, /*alignment=*/nullptr);
  auto global = memref::GlobalOp::create(
      b, loc, (func.getSymName() + "_workspace").str(), b.getStringAttr("private"), type,
      b.getUnitAttr(), /*constant=*/false, alignment);
  symbols.insert(flag);
  symbols.insert(global);

  b.setInsertionPoint(ws.alloc);
  Value flagRef = memref::GetGlobalOp::create(b, loc, flagType, flag.getSymName());
  Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
  Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value before = memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::assign, one, flagRef,
                                             ValueRange{c0});
  // The flag was clear: this run has the global.
  Value own =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, before, zero).getResult();
  auto choice = scf::IfOp::create(
      b, loc, own,
      [&](OpBuilder &t, Location l) {
        Value g = memref::GetGlobalOp::create(t, l, type, global.getSymName());
        scf::YieldOp::create(t, l, g);
      },
      [&](OpBuilder &e, Location l) {
        Value fresh = memref::AllocOp::create(e, l, type, alignment);
        scf::YieldOp::create(e, l, fresh);
      });
  ws.alloc.getResult().replaceAllUsesWith(choice.getResult(0));
  ws.alloc.erase();
  b.setInsertionPoint(ws.dealloc);
  scf::IfOp::create(
      b, loc, own,
      [&](OpBuilder &t, Location l) {
        memref::AtomicRMWOp::create(t, l, arith::AtomicRMWKind::assign, zero, flagRef,
                                    ValueRange{c0});
        scf::YieldOp::create(t, l);
      },
      [&](OpBuilder &e, Location l) {
        memref::DeallocOp::create(e, l, choice.getResult(0));
        scf::YieldOp::create(e, l);
      });
  ws.dealloc.erase();
}

struct CPUPlanBuffersPass : dlc::impl::CPUPlanBuffersPassBase<CPUPlanBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbolTables;
    SymbolTable &symbols = symbolTables.getSymbolTable(module);
    SymbolUserMap users(symbolTables, module);
    auto funcs = llvm::to_vector(module.getOps<func::FuncOp>());
    auto isKernel = [](func::FuncOp f) { return f->hasAttr("dlc.kernel"); };

    // Kernels first: a workspace hoisted into the callers is planned with
    // their buffers. Only a private kernel whose every use is a call from a
    // function that is no kernel is changed so.
    int64_t planned = 0, bufferBytes = 0, kernelWorkspaces = 0, hoisted = 0;
    for (func::FuncOp kernel : llvm::make_filter_range(funcs, isKernel)) {
      std::optional<Workspace> ws = planFunction(kernel);
      if (!ws)
        continue;
      planned += ws->buffers;
      ++kernelWorkspaces;
      SmallVector<func::CallOp> calls;
      bool onlyCalled = kernel.isPrivate();
      for (Operation *user : users.getUsers(kernel)) {
        auto call = dyn_cast<func::CallOp>(user);
        auto caller = call ? call->getParentOfType<func::FuncOp>() : nullptr;
        if (!caller || isKernel(caller)) {
          onlyCalled = false;
          break;
        }
        calls.push_back(call);
      }
      if (onlyCalled) {
        hoistWorkspace(kernel, *ws, calls);
        ++hoisted;
      }
    }

    int64_t workspaceBytes = 0, kept = 0;
    for (func::FuncOp func : llvm::make_filter_range(funcs, std::not_fn(isKernel))) {
      std::optional<Workspace> ws = planFunction(func);
      if (!ws)
        continue;
      planned += ws->buffers;
      bufferBytes += ws->bufferBytes;
      int64_t size = ws->alloc.getType().getNumElements();
      workspaceBytes += size;
      if (staticWorkspace && size <= kMaxStaticWorkspace) {
        makeStatic(func, *ws, symbols);
        ++kept;
      }
    }
    dlc::recordPassStat(getArgument(), "planned", planned);
    dlc::recordPassStat(getArgument(), "kernel-workspaces", kernelWorkspaces);
    dlc::recordPassStat(getArgument(), "hoisted", hoisted);
    dlc::recordPassStat(getArgument(), "static", kept);
    // What a run holds: the functions' buffers (kernels' hoisted
    // workspaces among them) before planning, and their workspaces after.
    dlc::recordPassStat(getArgument(), "buffer-bytes", bufferBytes);
    dlc::recordPassStat(getArgument(), "workspace-bytes", workspaceBytes);
  }
};
} // namespace
