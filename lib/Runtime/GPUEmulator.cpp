//===- GPUEmulator.cpp - run GPU kernels on the CPU -----------------------===//
//
// An interpreter of the ops the GPU pipeline leaves at its `gpu` phase
// (arith, math, affine.apply, scf, memref, gpu, the nvvm ops dlc's kernels
// use, a few llvm ops), with GPU threads as ucontext fibers. See
// GPUEmulator.h for what it checks and what not.
//
//===----------------------------------------------------------------------===//
#include "dlc/Runtime/GPUEmulator.h"
#include "dlc/Runtime/GemmPlan.h"
#include "dlc/Runtime/Interpreter.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>
#include <map>
#include <ucontext.h>

using namespace mlir;
using llvm::Twine;

namespace {

/// A strided view of memory: the aligned base, offset, sizes and strides in
/// elements, as a memref descriptor.
struct MemRefVal {
  char *data = nullptr;
  int64_t offset = 0;
  SmallVector<int64_t, 4> sizes, strides;
};

struct Aggregate;

/// A value of any type the emulator knows: integers (index, iN: their bits,
/// zero-extended) and pointers in `i`, floats (rounded to their type) in
/// `f`, memrefs and vectors or LLVM structs (element by element) in an
/// immutable aggregate, shared by copies.
struct Val {
  uint64_t i = 0;
  double f = 0;
  std::shared_ptr<const Aggregate> agg;
  const MemRefVal &m() const;
  const std::vector<Val> &elems() const;
};

struct Aggregate {
  MemRefVal m;
  std::vector<Val> elems;
};

const MemRefVal &Val::m() const { return agg->m; }
const std::vector<Val> &Val::elems() const { return agg->elems; }

Val memrefVal(MemRefVal m) {
  Val v;
  v.agg = std::make_shared<const Aggregate>(Aggregate{std::move(m), {}});
  return v;
}

Val aggregateVal(std::vector<Val> elems) {
  Val v;
  v.agg = std::make_shared<const Aggregate>(Aggregate{{}, std::move(elems)});
  return v;
}

constexpr int64_t kWarpSize = 32;
constexpr size_t kFiberStackBytes = 256 * 1024;
/// The byte buffers the model allocates and shared memory start filled with.
constexpr unsigned char kUninitialized = 0xff;

unsigned bitWidth(Type t) {
  if (t.isIndex())
    return 64;
  if (auto i = dyn_cast<IntegerType>(t))
    return i.getWidth();
  if (isa<LLVM::LLVMPointerType>(t))
    return 64;
  return 0;
}

uint64_t truncBits(uint64_t v, unsigned width) {
  return width >= 64 ? v : v & ((uint64_t(1) << width) - 1);
}

int64_t signExtend(uint64_t v, unsigned width) {
  if (width >= 64)
    return static_cast<int64_t>(v);
  uint64_t sign = uint64_t(1) << (width - 1);
  return static_cast<int64_t>((truncBits(v, width) ^ sign) - sign);
}

/// Mantissa and exponent bits of f16 and bf16.
std::pair<int, int> halfFormat(Type t) {
  return t.isF16() ? std::pair{10, 5} : std::pair{7, 8};
}

double roundToType(Type t, double x) {
  if (t.isF32())
    return static_cast<double>(static_cast<float>(x));
  if (t.isF64())
    return x;
  if (t.isF16() || t.isBF16()) {
    auto [mant, exp] = halfFormat(t);
    return dlc::widenFloatBits(dlc::narrowFloatBits(x, mant, exp), mant, exp);
  }
  return x;
}

/// Bytes of an element in memory (i1 takes a byte, as LLVM stores it).
int64_t byteSize(Type t) {
  if (t.isIndex())
    return 8;
  if (auto v = dyn_cast<VectorType>(t))
    return v.getNumElements() * byteSize(v.getElementType());
  return std::max<int64_t>(1, (t.getIntOrFloatBitWidth() + 7) / 8);
}

/// The float `bits` of type `t` hold.
double floatFromBits(Type t, uint64_t bits) {
  if (t.isF32())
    return llvm::bit_cast<float>(static_cast<uint32_t>(bits));
  if (t.isF64())
    return llvm::bit_cast<double>(bits);
  auto [mant, exp] = halfFormat(t);
  return dlc::widenFloatBits(bits & 0xffff, mant, exp);
}

uint64_t bitsOfFloat(Type t, double value) {
  if (t.isF32())
    return llvm::bit_cast<uint32_t>(static_cast<float>(value));
  if (t.isF64())
    return llvm::bit_cast<uint64_t>(value);
  auto [mant, exp] = halfFormat(t);
  return dlc::narrowFloatBits(value, mant, exp);
}

/// All the bits of a value of type `t` (vectors packed, element 0 lowest).
uint64_t bitsOf(Type t, const Val &v) {
  if (auto vt = dyn_cast<VectorType>(t)) {
    unsigned w = vt.getElementType().getIntOrFloatBitWidth();
    uint64_t bits = 0;
    for (int64_t k = 0; k < vt.getNumElements(); ++k)
      bits |= truncBits(bitsOf(vt.getElementType(), v.elems()[k]), w)
              << (k * w);
    return bits;
  }
  if (isa<FloatType>(t))
    return bitsOfFloat(t, v.f);
  return v.i;
}

Val fromBits(Type t, uint64_t bits) {
  Val v;
  if (auto vt = dyn_cast<VectorType>(t)) {
    unsigned w = vt.getElementType().getIntOrFloatBitWidth();
    std::vector<Val> elems;
    for (int64_t k = 0; k < vt.getNumElements(); ++k)
      elems.push_back(
          fromBits(vt.getElementType(), truncBits(bits >> (k * w), w)));
    v = aggregateVal(std::move(elems));
  } else if (isa<FloatType>(t)) {
    v.f = floatFromBits(t, bits);
  } else {
    v.i = truncBits(bits, bitWidth(t));
  }
  return v;
}

Val loadScalar(Type t, const char *p) {
  uint64_t bits = 0;
  std::memcpy(&bits, p, byteSize(t)); // little-endian
  if (t.isInteger(1))
    bits &= 1;
  return fromBits(t, bits);
}

void storeScalar(Type t, const Val &v, char *p) {
  uint64_t bits = bitsOf(t, v);
  std::memcpy(p, &bits, byteSize(t));
}

MemRefVal identityView(char *data, ArrayRef<int64_t> shape) {
  MemRefVal m;
  m.data = data;
  m.sizes.assign(shape.begin(), shape.end());
  m.strides.resize(shape.size());
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    m.strides[d] = stride;
    stride *= shape[d];
  }
  return m;
}

std::string describe(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "'" << op->getName() << "' at " << op->getLoc();
  return s;
}

class Emulator;

/// One GPU thread (or the host): its values, and as a fiber its context and
/// what it waits for.
struct Thread {
  enum class State { Runnable, AtBarrier, AtWarpOp, Done };
  Emulator &emu;
  gpu::GPUFuncOp kernel; // null on the host
  int64_t tid[3] = {0, 0, 0}, linear = 0;
  int64_t ops = 0; ///< the ops it ran in the block running
  /// The values of the function running, by slot (Emulator::slots).
  const DenseMap<Value, unsigned> *slots = nullptr;
  std::vector<Val> frame;
  State state = State::Runnable;
  Operation *waitingAt = nullptr; // the synchronization it waits at
  SmallVector<Val, 4> collectiveIn, collectiveOut;
  /// A kernel thread's entry block arguments (runBlock).
  SmallVector<Val> entryArgs;
  ucontext_t context;
  /// cp.async copies not yet committed, and committed groups not yet waited
  /// for.
  struct Copy {
    char *dst;
    const char *src;
    int64_t bytes, srcBytes;
  };
  std::vector<Copy> uncommitted;
  std::vector<std::vector<Copy>> groups;

  explicit Thread(Emulator &emu) : emu(emu) {}
  Val &get(Value v) { return frame[slots->find(v)->second]; }
  void set(Value v, Val x) { get(v) = std::move(x); }
  /// The values of `values`, in order.
  SmallVector<Val> getAll(ValueRange values) {
    return llvm::map_to_vector(values, [&](Value v) { return get(v); });
  }
  /// Sets `values[k]` to `xs[k]`.
  void setAll(ValueRange values, ArrayRef<Val> xs) {
    for (auto [v, x] : llvm::zip_equal(values, xs))
      set(v, x);
  }
  /// Makes `fn`'s frame the one running; returns the one before.
  std::pair<const DenseMap<Value, unsigned> *, std::vector<Val>>
  enter(Operation *fn);
  LogicalResult fail(Operation *op, const Twine &message);
  LogicalResult run(Operation *op);
  /// Runs `region` from its entry block with `args`, following branches;
  /// `results` get the operands of the terminator that ends it.
  LogicalResult runRegion(Region &region, ArrayRef<Val> args,
                          SmallVectorImpl<Val> &results);
  LogicalResult runArith(Operation *op, bool &handled);
  LogicalResult runMemRef(Operation *op, bool &handled);
  LogicalResult runGPU(Operation *op, bool &handled);
  LogicalResult call(func::FuncOp callee, ArrayRef<Val> args,
                     SmallVectorImpl<Val> &results, Operation *at);
  /// A call of the runtime's cuBLAS product (dlc_cublas_gemm_*).
  LogicalResult cublasGemm(func::FuncOp callee, ArrayRef<Val> args, Operation *at);
  /// Waits at `op` (a block barrier or a warp op) until the emulator performs
  /// it.
  LogicalResult synchronize(Operation *op, State state);
  void completeCopies(size_t keep);
};

/// A block's fibers and shared memory.
struct BlockRun {
  std::vector<std::unique_ptr<Thread>> threads; ///< made once a launch
  int64_t bid[3] = {0, 0, 0}, bdim[3] = {1, 1, 1}, gdim[3] = {1, 1, 1};
  char *dynamicShared = nullptr;
  int64_t dynamicSharedBytes = 0;
  std::vector<char *> scratch; ///< the block's shared and private memory
  DenseMap<Operation *, MemRefVal> sharedGlobals; ///< workgroup memref.globals
};

class Emulator {
public:
  explicit Emulator(const dlc::GPUEmulatorOptions &options)
      : options(options) {}
  ~Emulator() {
    for (auto &[p, a] : allocations)
      std::free(p);
  }
  llvm::Expected<std::vector<dlc::Tensor>> run(func::FuncOp entry,
                                               ArrayRef<dlc::Tensor> inputs);

  /// `bytes` of memory, filled with kUninitialized.
  char *allocate(int64_t bytes) {
    size_t size = std::max<int64_t>(64, (bytes + 63) / 64 * 64);
    char *p = static_cast<char *>(std::aligned_alloc(64, size));
    std::memset(p, kUninitialized, size);
    allocations[p] = bytes;
    return p;
  }
  /// A buffer of `type`'s (static) shape.
  MemRefVal allocate(MemRefType type) {
    return identityView(
        allocate(type.getNumElements() * byteSize(type.getElementType())),
        type.getShape());
  }
  bool release(char *p) {
    auto it = allocations.find(p);
    if (it == allocations.end())
      return false;
    std::free(p);
    allocations.erase(it);
    return true;
  }
  /// Whether [p, p + bytes) lies in one allocation: the one holding `within`
  /// when given (a view's base: its element is in its own buffer).
  bool inBounds(const char *p, int64_t bytes,
                const char *within = nullptr) const {
    const char *key = within ? within : p;
    auto it = allocations.upper_bound(const_cast<char *>(key));
    if (it == allocations.begin())
      return false;
    --it;
    return key < it->first + it->second && p >= it->first &&
           p + bytes <= it->first + it->second;
  }
  FailureOr<MemRefVal> global(memref::GlobalOp g, Thread &t, Operation *at);
  /// The slots of the values `fn` defines, numbered once.
  const DenseMap<Value, unsigned> &slotsOf(Operation *fn) {
    std::unique_ptr<DenseMap<Value, unsigned>> &table = slotTables[fn];
    if (!table) {
      table = std::make_unique<DenseMap<Value, unsigned>>();
      fn->walk([&](Operation *op) {
        for (Region &region : op->getRegions())
          for (Block &b : region)
            for (BlockArgument arg : b.getArguments())
              table->try_emplace(arg, table->size());
        for (Value result : op->getResults())
          table->try_emplace(result, table->size());
      });
    }
    return *table;
  }
  LogicalResult launch(gpu::LaunchFuncOp op, Thread &host);

  BlockRun *block = nullptr; ///< the block running
  std::string error;         ///< the first error, once one happened
  ucontext_t scheduler;
  dlc::GPUEmulatorStats stats;
  const dlc::GPUEmulatorOptions options;

private:
  LogicalResult runBlock(gpu::GPUFuncOp kernel, ArrayRef<Val> args);
  LogicalResult performWarpOp(ArrayRef<Thread *> lanes);

  std::map<char *, int64_t> allocations;
  DenseMap<Operation *, MemRefVal> globals; ///< host globals, made once
  DenseMap<Operation *, std::unique_ptr<DenseMap<Value, unsigned>>> slotTables;
  DenseMap<Operation *, size_t> kernelIndex; ///< in stats.kernels
  std::vector<std::unique_ptr<char[]>> stacks;
};

/// The bits of element `k` of `dense` (its only one if a splat).
uint64_t elementBits(DenseElementsAttr dense, int64_t k) {
  int64_t index = dense.isSplat() ? 0 : k;
  if (isa<FloatType>(dense.getElementType()))
    return APFloat(*(dense.getValues<APFloat>().begin() + index))
        .bitcastToAPInt()
        .getZExtValue();
  return APInt(*(dense.getValues<APInt>().begin() + index)).getZExtValue();
}

/// The bytes of a constant payload, element by element as in memory.
LogicalResult writeElements(Attribute value, Type elementType, char *out,
                            int64_t count) {
  int64_t width = byteSize(elementType);
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || static_cast<int64_t>(blob->getData().size()) != count * width)
      return failure();
    std::memcpy(out, blob->getData().data(), count * width);
    return success();
  }
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return failure();
  for (int64_t k = 0; k < count; ++k) {
    uint64_t bits = elementBits(dense, k);
    std::memcpy(out + k * width, &bits, width);
  }
  return success();
}

FailureOr<MemRefVal> Emulator::global(memref::GlobalOp g, Thread &t,
                                      Operation *at) {
  auto type = g.getType();
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  bool workgroup = space && space.getValue() == gpu::AddressSpace::Workgroup;
  if (workgroup && !block)
    return t.fail(at, "shared memory outside a kernel");
  DenseMap<Operation *, MemRefVal> &made =
      workgroup ? block->sharedGlobals : globals;
  auto it = made.find(g);
  if (it != made.end())
    return it->second;
  int64_t count = type.getNumElements();
  MemRefVal m = allocate(type);
  if (auto init = g.getInitialValueAttr())
    if (!isa<UnitAttr>(init) &&
        failed(writeElements(init, type.getElementType(), m.data, count))) {
      (void)t.fail(at,
                   "the initial value of @" + g.getSymName() +
                       " is missing or not a dense or dense_resource payload");
      return failure();
    }
  if (workgroup)
    block->scratch.push_back(m.data);
  return made[g] = m;
}

LogicalResult Thread::fail(Operation *op, const Twine &message) {
  if (emu.error.empty()) {
    std::string where =
        kernel ? "kernel @" + kernel.getName().str() +
                     llvm::formatv(
                         ", block ({0}, {1}, {2}), thread ({3}, {4}, {5})",
                         emu.block->bid[0], emu.block->bid[1],
                         emu.block->bid[2], tid[0], tid[1], tid[2])
                         .str()
               : std::string("host code");
    emu.error =
        "GPU emulator: " + where + ": " + describe(op) + ": " + message.str();
  }
  return failure();
}

LogicalResult Thread::runRegion(Region &region, ArrayRef<Val> args,
                                SmallVectorImpl<Val> &results) {
  Block *block = &region.front();
  SmallVector<Val> blockArgs(args.begin(), args.end());
  while (true) {
    setAll(block->getArguments(), blockArgs);
    for (Operation &op : block->without_terminator())
      if (failed(run(&op)))
        return failure();
    // Branches between the blocks (helper functions with loops, as
    // convert-math-to-funcs writes them); any other terminator ends the region.
    Operation *term = block->getTerminator();
    auto forward = [&](Block *next, ValueRange operands) {
      blockArgs = getAll(operands);
      block = next;
    };
    if (auto br = dyn_cast<cf::BranchOp>(term)) {
      forward(br.getDest(), br.getDestOperands());
    } else if (auto cond = dyn_cast<cf::CondBranchOp>(term)) {
      if (get(cond.getCondition()).i)
        forward(cond.getTrueDest(), cond.getTrueDestOperands());
      else
        forward(cond.getFalseDest(), cond.getFalseDestOperands());
    } else if (isa<func::ReturnOp, gpu::ReturnOp, scf::YieldOp, scf::ConditionOp,
                   scf::ReduceOp, scf::ReduceReturnOp>(term)) {
      results.assign(getAll(term->getOperands()));
      return success();
    } else {
      return fail(term, "the emulator does not know this terminator");
    }
  }
}

LogicalResult Thread::call(func::FuncOp callee, ArrayRef<Val> args,
                           SmallVectorImpl<Val> &results, Operation *at) {
  if (callee.isExternal()) {
    // dlc's CUDA runtime uploads constants; here host memory is the device's.
    if (callee.getName().starts_with("dlc_cuda_constant_") &&
        args.size() == 1) {
      results.assign(args.begin(), args.end());
      return success();
    }
    // The runtime's cuBLAS products: the call cuBLAS is given
    // (GemmPlan.h), computed as cuBLAS defines it.
    if (callee.getName().starts_with(dlc::kCublasGemmPrefix) && args.size() == 4)
      return cublasGemm(callee, args, at);
    return fail(at, "calls @" + callee.getName() +
                        ", which the emulator does not know");
  }
  auto caller = enter(callee);
  LogicalResult result = runRegion(callee.getBody(), args, results);
  slots = caller.first;
  frame = std::move(caller.second);
  return result;
}

LogicalResult Thread::cublasGemm(func::FuncOp callee, ArrayRef<Val> args,
                                 Operation *at) {
  auto view = [](const MemRefVal &m) {
    return dlc::MatrixView{m.sizes[0], m.sizes[1], m.sizes[2],
                           m.strides[0], m.strides[1], m.strides[2]};
  };
  const MemRefVal &a = args[0].m(), &b = args[1].m(), &c = args[2].m();
  if (a.sizes.size() != 3 || b.sizes.size() != 3 || c.sizes.size() != 3)
    return fail(at, "a cuBLAS product of views not of rank 3");
  std::string why;
  std::optional<dlc::GemmPlan> plan = dlc::planGemm(view(a), view(b), view(c), why);
  if (!plan)
    return fail(at, "a product for cuBLAS: " + why);
  auto elementOf = [&](unsigned i) {
    return cast<MemRefType>(callee.getArgumentTypes()[i]).getElementType();
  };
  Type inType = elementOf(0), outType = elementOf(2);
  auto loader = [&](const MemRefVal &m, Type t) {
    return [&m, t](int64_t i) {
      return loadScalar(t, m.data + (m.offset + i) * byteSize(t)).f;
    };
  };
  const MemRefVal &x = plan->swapped ? b : a, &y = plan->swapped ? a : b;
  bool accumulate = args[3].i & dlc::kGemmAccumulate;
  dlc::columnMajorGemm(*plan, 1.0, accumulate ? 1.0 : 0.0, loader(x, inType),
                       loader(y, inType), loader(c, outType),
                       [&](int64_t i, double v) {
                         Val r;
                         r.f = v;
                         storeScalar(outType, r,
                                     c.data + (c.offset + i) * byteSize(outType));
                       });
  return success();
}

std::pair<const DenseMap<Value, unsigned> *, std::vector<Val>>
Thread::enter(Operation *fn) {
  auto before = std::make_pair(slots, std::move(frame));
  slots = &emu.slotsOf(fn);
  frame.assign(slots->size(), Val());
  return before;
}

LogicalResult Thread::synchronize(Operation *op, State s) {
  if (!kernel)
    return fail(op, "a synchronization outside a kernel");
  waitingAt = op;
  state = s;
  swapcontext(&context, &emu.scheduler);
  waitingAt = nullptr;
  return emu.error.empty() ? success() : failure();
}

void Thread::completeCopies(size_t keep) {
  while (groups.size() > keep) {
    for (const Copy &c : groups.front()) {
      std::memcpy(c.dst, c.src, c.srcBytes);
      std::memset(c.dst + c.srcBytes, 0, c.bytes - c.srcBytes);
    }
    groups.erase(groups.begin());
  }
}

/// The value of a one-operand float op, if `op` is one.
std::optional<double> unaryFloat(Operation *op, double a) {
  return llvm::TypeSwitch<Operation *, std::optional<double>>(op)
      .Case([&](math::ExpOp) { return std::exp(a); })
      .Case([&](math::Exp2Op) { return std::exp2(a); })
      .Case([&](math::LogOp) { return std::log(a); })
      .Case([&](math::Log2Op) { return std::log2(a); })
      .Case([&](math::ErfOp) { return std::erf(a); })
      .Case([&](math::SqrtOp) { return std::sqrt(a); })
      .Case([&](math::RsqrtOp) { return 1.0 / std::sqrt(a); })
      .Case([&](math::TanhOp) { return std::tanh(a); })
      .Case([&](math::AbsFOp) { return std::fabs(a); })
      .Case([&](math::FloorOp) { return std::floor(a); })
      .Case([&](math::CeilOp) { return std::ceil(a); })
      .Case([&](math::SinOp) { return std::sin(a); })
      .Case([&](math::CosOp) { return std::cos(a); })
      .Case([&](math::TanOp) { return std::tan(a); })
      .Case([&](math::AsinOp) { return std::asin(a); })
      .Case([&](math::AcosOp) { return std::acos(a); })
      .Case([&](math::AtanOp) { return std::atan(a); })
      .Case([&](math::SinhOp) { return std::sinh(a); })
      .Case([&](math::CoshOp) { return std::cosh(a); })
      .Case([&](math::AsinhOp) { return std::asinh(a); })
      .Case([&](math::AcoshOp) { return std::acosh(a); })
      .Case([&](math::AtanhOp) { return std::atanh(a); })
      .Case([&](math::Log10Op) { return std::log10(a); })
      .Case([&](math::Log1pOp) { return std::log1p(a); })
      .Case([&](math::ExpM1Op) { return std::expm1(a); })
      .Case([&](math::CbrtOp) { return std::cbrt(a); })
      .Case([&](math::RoundOp) { return std::round(a); })
      .Case([&](math::RoundEvenOp) { return std::nearbyint(a); })
      .Case([&](math::TruncOp) { return std::trunc(a); })
      .Case([&](arith::NegFOp) { return -a; })
      .Default([](Operation *) { return std::nullopt; });
}

double maximumf(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return NAN;
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

double minimumf(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return NAN;
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

int64_t evalAffine(AffineExpr e, ArrayRef<int64_t> dims,
                   ArrayRef<int64_t> symbols) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue();
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return dims[d.getPosition()];
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return symbols[s.getPosition()];
  auto b = cast<AffineBinaryOpExpr>(e);
  int64_t l = evalAffine(b.getLHS(), dims, symbols),
          r = evalAffine(b.getRHS(), dims, symbols);
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return l + r;
  case AffineExprKind::Mul:
    return l * r;
  case AffineExprKind::Mod:
    return r == 0 ? 0 : ((l % r) + r) % r;
  case AffineExprKind::FloorDiv:
    return r == 0 ? 0 : llvm::divideFloorSigned(l, r);
  case AffineExprKind::CeilDiv:
    return r == 0 ? 0 : llvm::divideCeilSigned(l, r);
  default:
    return 0;
  }
}

/// `whole` with its element at `position` (nested) replaced by `part`.
Val insertAt(const Val &whole, ArrayRef<int64_t> position, const Val &part) {
  if (position.empty())
    return part;
  std::vector<Val> elems = whole.elems();
  elems[position.front()] =
      insertAt(elems[position.front()], position.drop_front(), part);
  return aggregateVal(std::move(elems));
}

/// A scalar value of type `t` from a constant attribute.
FailureOr<Val> constantVal(Attribute attr, Type t) {
  Val v;
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    v.i = truncBits(i.getValue().getZExtValue(), bitWidth(t));
    return v;
  }
  if (auto f = dyn_cast<FloatAttr>(attr)) {
    v.f = f.getValueAsDouble();
    return v;
  }
  if (auto d = dyn_cast<DenseElementsAttr>(attr)) {
    auto vt = dyn_cast<VectorType>(t);
    if (!vt)
      return failure();
    std::vector<Val> elems;
    for (int64_t k = 0; k < vt.getNumElements(); ++k)
      elems.push_back(fromBits(vt.getElementType(), elementBits(d, k)));
    return aggregateVal(std::move(elems));
  }
  return failure();
}

/// The value an OpFoldResult stands for.
int64_t foldValue(Thread &t, OpFoldResult r) {
  if (auto attr = dyn_cast<Attribute>(r))
    return cast<IntegerAttr>(attr).getInt();
  return static_cast<int64_t>(t.get(cast<Value>(r)).i);
}

LogicalResult Thread::runArith(Operation *op, bool &handled) {
  handled = true;
  Type rt = op->getNumResults() ? op->getResult(0).getType() : Type();
  auto ival = [&](unsigned k) { return get(op->getOperand(k)).i; };
  auto fval = [&](unsigned k) { return get(op->getOperand(k)).f; };
  auto setInt = [&](uint64_t v) {
    Val r;
    r.i = truncBits(v, bitWidth(rt));
    set(op->getResult(0), std::move(r));
    return success();
  };
  auto setFloat = [&](double v) {
    Val r;
    r.f = roundToType(rt, v);
    set(op->getResult(0), std::move(r));
    return success();
  };
  // (vector values are only moved: loaded, selected whole, bitcast)
  bool selectsWhole = isa<arith::SelectOp>(op) && op->getOperand(0).getType().isInteger(1);
  if (rt && isa<VectorType>(rt) && !selectsWhole &&
      !isa<arith::ConstantOp, arith::BitcastOp, LLVM::BitcastOp, LLVM::LoadOp>(op))
    return fail(op, "vector arithmetic is not emulated");
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    FailureOr<Val> v = constantVal(c.getValue(), rt);
    if (failed(v))
      return fail(op, "a constant of this type is not emulated");
    set(op->getResult(0), *v);
    return success();
  }
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::AndIOp,
          arith::OrIOp, arith::XOrIOp, arith::ShLIOp, arith::ShRUIOp,
          arith::ShRSIOp, arith::MinUIOp, arith::MaxUIOp, arith::MinSIOp,
          arith::MaxSIOp, arith::DivUIOp, arith::RemUIOp, arith::DivSIOp,
          arith::RemSIOp, arith::FloorDivSIOp, arith::CeilDivSIOp,
          arith::CeilDivUIOp>(op)) {
    unsigned w = bitWidth(rt);
    uint64_t a = ival(0), b = ival(1);
    int64_t sa = signExtend(a, w), sb = signExtend(b, w);
    bool divides =
        isa<arith::DivUIOp, arith::RemUIOp, arith::DivSIOp, arith::RemSIOp,
            arith::FloorDivSIOp, arith::CeilDivSIOp, arith::CeilDivUIOp>(op);
    if (divides && b == 0)
      return fail(op, "division by zero");
    if (isa<arith::DivSIOp, arith::RemSIOp, arith::FloorDivSIOp,
            arith::CeilDivSIOp>(op) &&
        sb == -1 && sa == signExtend(uint64_t(1) << (w - 1), w))
      return fail(op, "signed division overflows");
    return setInt(
        llvm::TypeSwitch<Operation *, uint64_t>(op)
            .Case([&](arith::AddIOp) { return a + b; })
            .Case([&](arith::SubIOp) { return a - b; })
            .Case([&](arith::MulIOp) { return a * b; })
            .Case([&](arith::AndIOp) { return a & b; })
            .Case([&](arith::OrIOp) { return a | b; })
            .Case([&](arith::XOrIOp) { return a ^ b; })
            .Case([&](arith::ShLIOp) { return b >= w ? 0 : a << b; })
            .Case([&](arith::ShRUIOp) { return b >= w ? 0 : a >> b; })
            .Case([&](arith::ShRSIOp) {
              return static_cast<uint64_t>(sa >> std::min<uint64_t>(b, w - 1));
            })
            .Case([&](arith::MinUIOp) { return std::min(a, b); })
            .Case([&](arith::MaxUIOp) { return std::max(a, b); })
            .Case([&](arith::MinSIOp) {
              return static_cast<uint64_t>(std::min(sa, sb));
            })
            .Case([&](arith::MaxSIOp) {
              return static_cast<uint64_t>(std::max(sa, sb));
            })
            .Case([&](arith::DivUIOp) { return a / b; })
            .Case([&](arith::RemUIOp) { return a % b; })
            .Case(
                [&](arith::DivSIOp) { return static_cast<uint64_t>(sa / sb); })
            .Case(
                [&](arith::RemSIOp) { return static_cast<uint64_t>(sa % sb); })
            .Case([&](arith::FloorDivSIOp) {
              return static_cast<uint64_t>(llvm::divideFloorSigned(sa, sb));
            })
            .Case([&](arith::CeilDivSIOp) {
              return static_cast<uint64_t>(llvm::divideCeilSigned(sa, sb));
            })
            .Case([&](arith::CeilDivUIOp) { return a / b + (a % b != 0); })
            .Default([](Operation *) { return uint64_t(0); }));
  }
  if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
          arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
          arith::MinNumFOp, arith::RemFOp, math::PowFOp, math::Atan2Op,
          math::CopySignOp>(op)) {
    double a = fval(0), b = fval(1);
    return setFloat(
        llvm::TypeSwitch<Operation *, double>(op)
            .Case([&](arith::AddFOp) { return a + b; })
            .Case([&](arith::SubFOp) { return a - b; })
            .Case([&](arith::MulFOp) { return a * b; })
            .Case([&](arith::DivFOp) { return a / b; })
            .Case([&](arith::MaximumFOp) { return maximumf(a, b); })
            .Case([&](arith::MinimumFOp) { return minimumf(a, b); })
            .Case([&](arith::MaxNumFOp) { return std::fmax(a, b); })
            .Case([&](arith::MinNumFOp) { return std::fmin(a, b); })
            .Case([&](arith::RemFOp) { return std::fmod(a, b); })
            .Case([&](math::PowFOp) { return std::pow(a, b); })
            .Case([&](math::Atan2Op) { return std::atan2(a, b); })
            .Case([&](math::CopySignOp) { return std::copysign(a, b); })
            .Default([](Operation *) { return 0.0; }));
  }
  if (isa<math::FmaOp>(op) && rt.isF32()) // rounded once, as the hardware's
    return setFloat(std::fmaf(static_cast<float>(fval(0)),
                              static_cast<float>(fval(1)),
                              static_cast<float>(fval(2))));
  if (isa<math::FmaOp>(op))
    return setFloat(std::fma(fval(0), fval(1), fval(2)));
  if (auto cmp = dyn_cast<arith::CmpIOp>(op))
    return setInt(arith::applyCmpPredicate(
        cmp.getPredicate(), APInt(bitWidth(cmp.getLhs().getType()), ival(0)),
        APInt(bitWidth(cmp.getLhs().getType()), ival(1))));
  if (auto cmp = dyn_cast<arith::CmpFOp>(op))
    return setInt(arith::applyCmpPredicate(cmp.getPredicate(), APFloat(fval(0)),
                                           APFloat(fval(1))));
  if (isa<arith::SelectOp>(op)) {
    set(op->getResult(0),
        ival(0) ? get(op->getOperand(1)) : get(op->getOperand(2)));
    return success();
  }
  if (isa<arith::IndexCastOp, arith::ExtSIOp>(op))
    return setInt(static_cast<uint64_t>(
        signExtend(ival(0), bitWidth(op->getOperand(0).getType()))));
  if (isa<arith::IndexCastUIOp, arith::ExtUIOp, arith::TruncIOp>(op))
    return setInt(ival(0));
  if (isa<arith::ExtFOp, arith::TruncFOp>(op))
    return setFloat(fval(0));
  if (isa<arith::SIToFPOp>(op))
    return setFloat(static_cast<double>(
        signExtend(ival(0), bitWidth(op->getOperand(0).getType()))));
  if (isa<arith::UIToFPOp>(op))
    return setFloat(static_cast<double>(ival(0)));
  if (isa<arith::FPToSIOp>(op))
    return setInt(
        static_cast<uint64_t>(static_cast<int64_t>(std::trunc(fval(0)))));
  if (isa<arith::FPToUIOp>(op))
    return setInt(static_cast<uint64_t>(std::trunc(fval(0))));
  if (isa<arith::BitcastOp, LLVM::BitcastOp>(op)) {
    set(op->getResult(0), fromBits(rt, bitsOf(op->getOperand(0).getType(),
                                              get(op->getOperand(0)))));
    return success();
  }
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
    AffineMap map = apply.getAffineMap();
    SmallVector<int64_t> operands;
    for (Value v : apply.getMapOperands())
      operands.push_back(static_cast<int64_t>(get(v).i));
    ArrayRef<int64_t> all(operands);
    return setInt(static_cast<uint64_t>(
        evalAffine(map.getResult(0), all.take_front(map.getNumDims()),
                   all.drop_front(map.getNumDims()))));
  }
  if (op->getNumOperands() == 1 && rt && isa<FloatType>(rt))
    if (std::optional<double> v = unaryFloat(op, fval(0)))
      return setFloat(*v);
  handled = false;
  return success();
}

LogicalResult Thread::runMemRef(Operation *op, bool &handled) {
  handled = true;
  auto element = [&](const MemRefVal &m, ValueRange indices, Type et,
                     char *&address) -> LogicalResult {
    int64_t linear = m.offset;
    for (auto [k, index] : llvm::enumerate(indices)) {
      int64_t i = static_cast<int64_t>(get(index).i);
      if (i < 0 || i >= m.sizes[k])
        return fail(op, "index " + Twine(i) + " of dimension " + Twine(k) +
                            " is outside [0, " + Twine(m.sizes[k]) + ")");
      linear += i * m.strides[k];
    }
    address = m.data + linear * byteSize(et);
    if (!emu.inBounds(address, byteSize(et), m.data))
      return fail(op, "the element is outside its buffer");
    return success();
  };
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    char *address;
    Type et = load.getMemRefType().getElementType();
    if (failed(
            element(get(load.getMemRef()).m(), load.getIndices(), et, address)))
      return failure();
    set(load.getResult(), loadScalar(et, address));
    return success();
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    char *address;
    Type et = store.getMemRefType().getElementType();
    if (failed(element(get(store.getMemRef()).m(), store.getIndices(), et,
                       address)))
      return failure();
    storeScalar(et, get(store.getValueToStore()), address);
    return success();
  }
  if (auto rmw = dyn_cast<memref::AtomicRMWOp>(op)) {
    char *address;
    Type et = rmw.getMemRefType().getElementType();
    if (failed(
            element(get(rmw.getMemref()).m(), rmw.getIndices(), et, address)))
      return failure();
    Val old = loadScalar(et, address), operand = get(rmw.getValue()),
        updated = old;
    unsigned w = bitWidth(et);
    switch (rmw.getKind()) {
    case arith::AtomicRMWKind::addi:
      updated.i = truncBits(old.i + operand.i, w);
      break;
    case arith::AtomicRMWKind::addf:
      updated.f = roundToType(et, old.f + operand.f);
      break;
    case arith::AtomicRMWKind::assign:
      updated = operand;
      break;
    case arith::AtomicRMWKind::maximumf:
      updated.f = maximumf(old.f, operand.f);
      break;
    case arith::AtomicRMWKind::minimumf:
      updated.f = minimumf(old.f, operand.f);
      break;
    case arith::AtomicRMWKind::maxs:
      updated.i = truncBits(
          std::max(signExtend(old.i, w), signExtend(operand.i, w)), w);
      break;
    case arith::AtomicRMWKind::mins:
      updated.i = truncBits(
          std::min(signExtend(old.i, w), signExtend(operand.i, w)), w);
      break;
    case arith::AtomicRMWKind::maxu:
      updated.i = std::max(old.i, operand.i);
      break;
    case arith::AtomicRMWKind::minu:
      updated.i = std::min(old.i, operand.i);
      break;
    case arith::AtomicRMWKind::ori:
      updated.i = old.i | operand.i;
      break;
    case arith::AtomicRMWKind::andi:
      updated.i = old.i & operand.i;
      break;
    default:
      return fail(op, "this atomic kind is not emulated");
    }
    storeScalar(et, updated, address);
    set(rmw.getResult(), old);
    return success();
  }
  if (auto g = dyn_cast<memref::GetGlobalOp>(op)) {
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        op, g.getNameAttr());
    if (!global)
      return fail(op, "no global @" + g.getName());
    FailureOr<MemRefVal> m = emu.global(global, *this, op);
    if (failed(m))
      return failure();
    set(g.getResult(), memrefVal(*m));
    return success();
  }
  // Host memory is the device's: gpu.alloc as memref.alloc.
  if (isa<memref::AllocOp, memref::AllocaOp, gpu::AllocOp>(op)) {
    auto type = cast<MemRefType>(op->getResult(0).getType());
    if (!type.hasStaticShape() || op->getNumResults() != 1)
      return fail(op, "dynamic or asynchronous allocations are not emulated");
    set(op->getResult(0), memrefVal(emu.allocate(type)));
    return success();
  }
  if (isa<memref::DeallocOp, gpu::DeallocOp>(op)) {
    Value buffer = isa<gpu::DeallocOp>(op)
                       ? cast<gpu::DeallocOp>(op).getMemref()
                       : cast<memref::DeallocOp>(op).getMemref();
    if (!emu.release(get(buffer).m().data))
      return fail(op, "frees a buffer that is not allocated");
    return success();
  }
  if (auto cast = dyn_cast<memref::CastOp>(op)) {
    set(cast.getResult(), get(cast.getSource()));
    return success();
  }
  if (auto dim = dyn_cast<memref::DimOp>(op)) {
    Val v;
    v.i = get(dim.getSource()).m().sizes[get(dim.getIndex()).i];
    set(dim.getResult(), std::move(v));
    return success();
  }
  if (auto sub = dyn_cast<memref::SubViewOp>(op)) {
    const MemRefVal &src = get(sub.getSource()).m();
    MemRefVal v;
    v.data = src.data;
    v.offset = src.offset;
    llvm::SmallBitVector dropped = sub.getDroppedDims();
    for (auto [k, off, size, stride] :
         llvm::enumerate(sub.getMixedOffsets(), sub.getMixedSizes(),
                         sub.getMixedStrides())) {
      v.offset += foldValue(*this, off) * src.strides[k];
      if (dropped.test(k))
        continue;
      v.sizes.push_back(foldValue(*this, size));
      v.strides.push_back(foldValue(*this, stride) * src.strides[k]);
    }
    set(sub.getResult(), memrefVal(std::move(v)));
    return success();
  }
  if (auto re = dyn_cast<memref::ReinterpretCastOp>(op)) {
    MemRefVal v;
    v.data = get(re.getSource()).m().data;
    v.offset = foldValue(*this, re.getMixedOffsets()[0]);
    for (OpFoldResult s : re.getMixedSizes())
      v.sizes.push_back(foldValue(*this, s));
    for (OpFoldResult s : re.getMixedStrides())
      v.strides.push_back(foldValue(*this, s));
    set(re.getResult(), memrefVal(std::move(v)));
    return success();
  }
  if (auto collapse = dyn_cast<memref::CollapseShapeOp>(op)) {
    const MemRefVal &src = get(collapse.getSrc()).m();
    MemRefVal v;
    v.data = src.data;
    v.offset = src.offset;
    for (const ReassociationIndices &group :
         collapse.getReassociationIndices()) {
      int64_t size = 1;
      for (int64_t d : group)
        size *= src.sizes[d];
      v.sizes.push_back(size);
      // The stride of the group's innermost dimension of more than one
      // element: those of size 1 may have any stride (a column's subview).
      int64_t stride = src.strides[group.back()];
      for (int64_t d : llvm::reverse(group))
        if (src.sizes[d] > 1) {
          stride = src.strides[d];
          break;
        }
      v.strides.push_back(stride);
    }
    set(collapse.getResult(), memrefVal(std::move(v)));
    return success();
  }
  if (auto expand = dyn_cast<memref::ExpandShapeOp>(op)) {
    const MemRefVal &src = get(expand.getSrc()).m();
    MemRefVal v;
    v.data = src.data;
    v.offset = src.offset;
    SmallVector<OpFoldResult> shape = expand.getMixedOutputShape();
    v.sizes.resize(shape.size());
    v.strides.resize(shape.size());
    for (auto [s, group] : llvm::enumerate(expand.getReassociationIndices())) {
      int64_t stride = src.strides[s];
      for (int64_t d : llvm::reverse(group)) {
        v.sizes[d] = foldValue(*this, shape[d]);
        v.strides[d] = stride;
        stride *= v.sizes[d];
      }
    }
    set(expand.getResult(), memrefVal(std::move(v)));
    return success();
  }
  if (auto view = dyn_cast<memref::ViewOp>(op)) {
    const MemRefVal &src = get(view.getSource()).m();
    auto type = view.getType();
    SmallVector<int64_t> shape(type.getShape());
    auto dynamicSizes = view.getSizes().begin();
    for (int64_t &s : shape)
      if (ShapedType::isDynamic(s))
        s = static_cast<int64_t>(get(*dynamicSizes++).i);
    set(view.getResult(),
        memrefVal(
            identityView(src.data + src.offset +
                             static_cast<int64_t>(get(view.getByteShift()).i),
                         shape)));
    return success();
  }
  if (auto extract = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(op)) {
    Val v;
    v.i = reinterpret_cast<uint64_t>(get(extract.getSource()).m().data);
    set(extract.getResult(), std::move(v));
    return success();
  }
  if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    const MemRefVal &src = get(copy.getSource()).m(),
                    &dst = get(copy.getTarget()).m();
    Type et = cast<MemRefType>(copy.getSource().getType()).getElementType();
    int64_t count = 1, width = byteSize(et);
    for (int64_t s : src.sizes)
      count *= s;
    for (int64_t k = 0; k < count; ++k) {
      int64_t rest = k, a = src.offset, b = dst.offset;
      for (int64_t d = static_cast<int64_t>(src.sizes.size()) - 1; d >= 0;
           --d) {
        a += rest % src.sizes[d] * src.strides[d];
        b += rest % src.sizes[d] * dst.strides[d];
        rest /= src.sizes[d];
      }
      std::memcpy(dst.data + b * width, src.data + a * width, width);
    }
    return success();
  }
  handled = false;
  return success();
}

LogicalResult Thread::runGPU(Operation *op, bool &handled) {
  handled = true;
  auto setIndex = [&](int64_t v) {
    Val r;
    r.i = static_cast<uint64_t>(v);
    set(op->getResult(0), std::move(r));
    return success();
  };
  auto dim = [](gpu::Dimension d) { return static_cast<unsigned>(d); };
  if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
    return setIndex(tid[dim(id.getDimension())]);
  if (auto id = dyn_cast<gpu::BlockIdOp>(op))
    return setIndex(emu.block->bid[dim(id.getDimension())]);
  if (auto id = dyn_cast<gpu::BlockDimOp>(op))
    return setIndex(emu.block->bdim[dim(id.getDimension())]);
  if (auto id = dyn_cast<gpu::GridDimOp>(op))
    return setIndex(emu.block->gdim[dim(id.getDimension())]);
  if (isa<gpu::LaneIdOp>(op))
    return setIndex(linear % kWarpSize);
  if (isa<gpu::DynamicSharedMemoryOp>(op)) {
    set(op->getResult(0),
        memrefVal(identityView(emu.block->dynamicShared,
                               {emu.block->dynamicSharedBytes})));
    return success();
  }
  if (isa<gpu::BarrierOp, NVVM::Barrier0Op>(op))
    return synchronize(op, State::AtBarrier);
  if (isa<gpu::ShuffleOp, NVVM::MmaOp, NVVM::LdMatrixOp, NVVM::SyncWarpOp>(op)) {
    collectiveIn.assign(getAll(op->getOperands()));
    if (failed(synchronize(op, State::AtWarpOp)))
      return failure();
    setAll(op->getResults(), collectiveOut);
    return success();
  }
  // One thread runs at a time: memory is sequentially consistent.
  if (isa<NVVM::MembarOp>(op))
    return success();
  if (auto copy = dyn_cast<NVVM::CpAsyncOp>(op)) {
    int64_t bytes = copy.getSize();
    int64_t srcBytes = copy.getCpSize()
                           ? static_cast<int64_t>(get(copy.getCpSize()).i)
                           : bytes;
    char *dst = reinterpret_cast<char *>(get(copy.getDst()).i);
    const char *src = reinterpret_cast<const char *>(get(copy.getSrc()).i);
    if (srcBytes > bytes)
      return fail(op,
                  "copies " + Twine(srcBytes) + " bytes into " + Twine(bytes));
    if (!emu.inBounds(dst, bytes) || (srcBytes && !emu.inBounds(src, srcBytes)))
      return fail(op, "copies from or to outside every buffer");
    // (PTX: both addresses aligned to the copy's size)
    if (reinterpret_cast<uintptr_t>(dst) % bytes || reinterpret_cast<uintptr_t>(src) % bytes)
      return fail(op, "copies " + Twine(bytes) + " bytes from or to an address not aligned to " +
                          Twine(bytes));
    uncommitted.push_back({dst, src, bytes, srcBytes});
    return success();
  }
  if (isa<NVVM::CpAsyncCommitGroupOp>(op)) {
    groups.push_back(std::move(uncommitted));
    uncommitted.clear();
    return success();
  }
  if (auto wait = dyn_cast<NVVM::CpAsyncWaitGroupOp>(op)) {
    completeCopies(wait.getN());
    return success();
  }
  if (auto tf32 = dyn_cast<NVVM::ConvertFloatToTF32Op>(op)) {
    uint32_t bits = static_cast<uint32_t>(
        bitsOfFloat(Float32Type::get(op->getContext()), get(tf32.getSrc()).f));
    // Rounded to nearest, ties away from zero; NaN and infinities kept.
    if ((bits & 0x7f800000u) != 0x7f800000u)
      bits = (bits + 0x1000u) & ~0x1fffu;
    Val v;
    v.i = bits;
    set(tf32.getRes(), std::move(v));
    return success();
  }
  // Loads and stores through pointers (a kernel's 16-byte chunks staged
  // through registers), element by element, aligned to their size as
  // PTX's vector loads and stores must be.
  if (isa<LLVM::LoadOp, LLVM::StoreOp>(op)) {
    auto load = dyn_cast<LLVM::LoadOp>(op);
    Type type = load ? load.getType() : cast<LLVM::StoreOp>(op).getValue().getType();
    auto vector = dyn_cast<VectorType>(type);
    Type element = vector ? vector.getElementType() : type;
    int64_t count = vector ? vector.getNumElements() : 1, width = byteSize(element);
    int64_t bytes = count * width;
    char *p = reinterpret_cast<char *>(
        get(load ? load.getAddr() : cast<LLVM::StoreOp>(op).getAddr()).i);
    StringRef what = load ? "loads " : "stores ";
    if (!emu.inBounds(p, bytes))
      return fail(op, what + Twine(bytes) + " bytes outside every buffer");
    if (reinterpret_cast<uintptr_t>(p) % bytes)
      return fail(op, what + Twine(bytes) + " bytes at an address not aligned to " +
                          Twine(bytes));
    if (!load) {
      const Val &v = get(cast<LLVM::StoreOp>(op).getValue());
      for (int64_t k = 0; k < count; ++k)
        storeScalar(element, vector ? v.elems()[k] : v, p + k * width);
      return success();
    }
    std::vector<Val> elements;
    for (int64_t k = 0; k < count; ++k)
      elements.push_back(loadScalar(element, p + k * width));
    set(load.getResult(), vector ? aggregateVal(std::move(elements)) : elements.front());
    return success();
  }
  if (isa<gpu::LaunchFuncOp>(op) && kernel)
    return fail(op, "a launch from a kernel is not emulated");
  if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op))
    return emu.launch(launch, *this);
  handled = false;
  return success();
}

LogicalResult Thread::run(Operation *op) {
  if (!emu.error.empty())
    return failure();
  ++emu.stats.ops;
  ++ops;
  for (auto family : {&Thread::runArith, &Thread::runMemRef, &Thread::runGPU}) {
    bool handled = false;
    if (failed((this->*family)(op, handled)))
      return failure();
    if (handled)
      return success();
  }
  SmallVector<Val> results;
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    unsigned w = bitWidth(loop.getInductionVar().getType());
    int64_t lb = signExtend(get(loop.getLowerBound()).i, w);
    int64_t ub = signExtend(get(loop.getUpperBound()).i, w);
    int64_t step = signExtend(get(loop.getStep()).i, w);
    if (step <= 0)
      return fail(op, "a loop step of " + Twine(step));
    SmallVector<Val> carried = getAll(loop.getInitArgs()), args;
    for (int64_t iv = lb; iv < ub; iv += step) {
      args.assign(1, Val());
      args[0].i = truncBits(static_cast<uint64_t>(iv), w);
      args.append(carried.begin(), carried.end());
      if (failed(runRegion(loop.getRegion(), args, results)))
        return failure();
      carried = results;
    }
    setAll(loop.getResults(), carried);
    return success();
  }
  if (auto loop = dyn_cast<scf::WhileOp>(op)) {
    // The before region's scf.condition yields the condition, then the
    // values the after region (or the loop's results) takes.
    SmallVector<Val> carried = getAll(loop.getInits()), passed;
    while (true) {
      if (failed(runRegion(loop.getBefore(), carried, results)))
        return failure();
      passed.assign(results.begin() + 1, results.end());
      if (!results.front().i)
        break;
      if (failed(runRegion(loop.getAfter(), passed, results)))
        return failure();
      carried = results;
    }
    setAll(loop.getResults(), passed);
    return success();
  }
  if (auto loops = dyn_cast<scf::ParallelOp>(op)) {
    // Its iterations one after another, in order; reductions combined by
    // their scf.reduce regions in that order.
    SmallVector<int64_t> lbs, ubs, steps, ivs;
    for (auto [lb, ub, step] : llvm::zip(
             loops.getLowerBound(), loops.getUpperBound(), loops.getStep())) {
      lbs.push_back(static_cast<int64_t>(get(lb).i));
      ubs.push_back(static_cast<int64_t>(get(ub).i));
      steps.push_back(static_cast<int64_t>(get(step).i));
      if (steps.back() <= 0)
        return fail(op, "a loop step of " + Twine(steps.back()));
      if (lbs.back() >= ubs.back()) {
        setAll(loops.getResults(), getAll(loops.getInitVals()));
        return success();
      }
    }
    SmallVector<Val> carried = getAll(loops.getInitVals());
    auto reduce = cast<scf::ReduceOp>(loops.getBody()->getTerminator());
    ivs = lbs;
    SmallVector<Val> args, combined;
    while (true) { // every iteration
      args.clear();
      for (int64_t iv : ivs) {
        args.emplace_back();
        args.back().i = static_cast<uint64_t>(iv);
      }
      if (failed(runRegion(loops.getRegion(), args, results)))
        return failure();
      for (auto [k, value] : llvm::enumerate(results)) {
        Val pair[] = {carried[k], value};
        if (failed(runRegion(reduce.getReductions()[k], pair, combined)))
          return failure();
        carried[k] = combined.front();
      }
      // The next iteration, the last dimension fastest.
      int64_t d = static_cast<int64_t>(ivs.size()) - 1;
      for (; d >= 0; --d) {
        ivs[d] += steps[d];
        if (ivs[d] < ubs[d])
          break;
        ivs[d] = lbs[d];
      }
      if (d < 0)
        break;
    }
    setAll(loops.getResults(), carried);
    return success();
  }
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    Region &region = get(branch.getCondition()).i ? branch.getThenRegion()
                                                  : branch.getElseRegion();
    if (region.empty())
      return success();
    if (failed(runRegion(region, {}, results)))
      return failure();
    setAll(branch.getResults(), results);
    return success();
  }
  if (auto callOp = dyn_cast<func::CallOp>(op)) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        op, callOp.getCalleeAttr());
    if (!callee)
      return fail(op, "no function @" + callOp.getCallee());
    if (failed(call(callee, getAll(callOp.getOperands()), results, op)))
      return failure();
    setAll(callOp.getResults(), results);
    return success();
  }
  if (isa<LLVM::IntToPtrOp, LLVM::PtrToIntOp>(op)) {
    set(op->getResult(0), get(op->getOperand(0)));
    return success();
  }
  if (auto extract = dyn_cast<LLVM::ExtractValueOp>(op)) {
    const Val *v = &get(extract.getContainer());
    for (int64_t k : extract.getPosition())
      v = &v->elems()[k];
    set(extract.getResult(), *v);
    return success();
  }
  if (auto insert = dyn_cast<LLVM::InsertValueOp>(op)) {
    set(insert.getResult(),
        insertAt(get(insert.getContainer()), insert.getPosition(),
                 get(insert.getValue())));
    return success();
  }
  if (isa<LLVM::UndefOp, LLVM::PoisonOp, LLVM::ZeroOp, ub::PoisonOp>(op)) {
    Type type = op->getResult(0).getType();
    if (auto s = dyn_cast<LLVM::LLVMStructType>(type))
      set(op->getResult(0), aggregateVal(std::vector<Val>(s.getBody().size())));
    else if (auto vt = dyn_cast<VectorType>(type))
      set(op->getResult(0),
          aggregateVal(std::vector<Val>(vt.getNumElements())));
    else
      set(op->getResult(0), Val());
    return success();
  }
  return fail(op, "the emulator does not know this op");
}

/// The 16 x 8 (x k) tensor-core product of a warp: each lane's A, B and C
/// fragments (PTX ISA, "Matrix Fragments for mma.m16n8k16" and k8 for
/// 16-bit and tf32 inputs) gathered, multiplied, and D scattered back.
LogicalResult mmaSync(NVVM::MmaOp mma, ArrayRef<Thread *> lanes) {
  NVVM::MMAShapeAttr shape = mma.getShape();
  int64_t m = shape.getM(), n = shape.getN(), k = shape.getK();
  auto fail = [&](const Twine &why) { return lanes.front()->fail(mma, why); };
  if (m != 16 || n != 8 || lanes.size() != kWarpSize)
    return fail("only m16n8 products of a full warp are emulated");
  if (mma.getLayoutA() != NVVM::MMALayout::row ||
      mma.getLayoutB() != NVVM::MMALayout::col)
    return fail("only row-major A and column-major B are emulated");
  Type aType = mma.getOperandA().front().getType();
  std::optional<NVVM::MMATypes> ptx = mma.getMultiplicandAPtxType();
  bool tf32 =
      ptx ? *ptx == NVVM::MMATypes::tf32 : aType.isInteger(32) && k <= 8;
  bool bf16 = ptx ? *ptx == NVVM::MMATypes::bf16 : false;
  bool f16 = ptx ? *ptx == NVVM::MMATypes::f16 : isa<VectorType>(aType);
  if (!tf32 && !bf16 && !f16)
    return fail("only f16, bf16 and tf32 products are emulated");
  if (!mma.getOperandC().front().getType().isF32())
    return fail("only f32 accumulators are emulated");
  MLIRContext *ctx = mma.getContext();
  Type half = bf16 ? Type(BFloat16Type::get(ctx)) : Type(Float16Type::get(ctx));
  // A lane's fragment elements: two 16-bit values or one tf32 per register.
  auto elements = [&](OperandRange regs, ArrayRef<Val> values) {
    SmallVector<double, 8> out;
    for (auto [reg, v] : llvm::zip_equal(regs, values)) {
      uint64_t bits = bitsOf(reg.getType(), v);
      if (tf32) {
        out.push_back(
            floatFromBits(Float32Type::get(ctx), bits & ~uint64_t(0x1fff)));
      } else {
        out.push_back(floatFromBits(half, bits & 0xffff));
        out.push_back(floatFromBits(half, (bits >> 16) & 0xffff));
      }
    }
    return out;
  };
  unsigned numA = mma.getOperandA().size(), numB = mma.getOperandB().size();
  std::vector<double> a(m * k, 0), b(k * n, 0), c(m * n, 0);
  for (auto [lane, t] : llvm::enumerate(lanes)) {
    ArrayRef<Val> in = t->collectiveIn;
    SmallVector<double, 8> fa =
        elements(mma.getOperandA(), in.take_front(numA));
    SmallVector<double, 8> fb =
        elements(mma.getOperandB(), in.slice(numA, numB));
    int64_t g = lane / 4, q = lane % 4;
    for (auto [i, x] : llvm::enumerate(fa)) {
      int64_t row = tf32 ? g + 8 * (i & 1) : g + 8 * ((i >> 1) & 1);
      int64_t col = tf32 ? q + 4 * (i >> 1) : q * 2 + (i & 1) + 8 * (i >> 2);
      a[row * k + col] = x;
    }
    for (auto [i, x] : llvm::enumerate(fb)) {
      int64_t row = tf32 ? q + 4 * i : q * 2 + (i & 1) + 8 * (i >> 1);
      b[row * n + g] = x;
    }
    for (int64_t i = 0; i < 4; ++i)
      c[(g + 8 * (i >> 1)) * n + q * 2 + (i & 1)] = in[numA + numB + i].f;
  }
  for (auto [lane, t] : llvm::enumerate(lanes)) {
    int64_t g = lane / 4, q = lane % 4;
    std::vector<Val> d;
    for (int64_t i = 0; i < 4; ++i) {
      int64_t row = g + 8 * (i >> 1), col = q * 2 + (i & 1);
      double sum = c[row * n + col];
      for (int64_t kk = 0; kk < k; ++kk)
        sum += a[row * k + kk] * b[kk * n + col];
      Val e;
      e.f = static_cast<float>(sum);
      d.push_back(e);
    }
    t->collectiveOut.assign(1, aggregateVal(std::move(d)));
  }
  return success();
}

/// A warp's ldmatrix (PTX ISA, "ldmatrix"): `num` 8 x 8 matrices of 16-bit
/// elements, each row 16 consecutive bytes, 16-byte aligned, the rows of
/// matrix m at the addresses of lanes 8m to 8m + 7; lane l receives, of
/// each matrix in turn, the word (two elements) l % 4 of row l / 4, or
/// with .trans (the column-major layout) elements l / 4 of rows 2 (l % 4)
/// and 2 (l % 4) + 1, the first in the low half.
LogicalResult ldMatrix(NVVM::LdMatrixOp load, ArrayRef<Thread *> lanes,
                       const Emulator &emu) {
  auto fail = [&](const Twine &why) {
    return lanes.front()->fail(load, why);
  };
  NVVM::LdStMatrixShapeAttr shape = load.getShape();
  if (lanes.size() != kWarpSize)
    return fail("only ldmatrix of a full warp is emulated");
  if (shape.getM() != 8 || shape.getN() != 8 ||
      load.getEltType() != NVVM::LdStMatrixEltType::B16)
    return fail("only ldmatrix of 8 x 8 b16 matrices is emulated");
  bool transposed = load.getLayout() == NVVM::MMALayout::col;
  int64_t num = load.getNum();
  for (int64_t l = 0; l < 8 * num; ++l) {
    const char *row =
        reinterpret_cast<const char *>(lanes[l]->collectiveIn[0].i);
    if (reinterpret_cast<uintptr_t>(row) % 16 != 0)
      return lanes[l]->fail(load, "a row's address is not 16-byte aligned");
    if (!emu.inBounds(row, 16))
      return lanes[l]->fail(load, "reads a row outside every buffer");
  }
  for (auto [l, t] : llvm::enumerate(lanes)) {
    std::vector<Val> words;
    for (int64_t m = 0; m < num; ++m) {
      auto row = [&](int64_t r) {
        return reinterpret_cast<const char *>(
            lanes[8 * m + r]->collectiveIn[0].i);
      };
      uint32_t bits = 0;
      if (transposed) {
        uint16_t low, high;
        std::memcpy(&low, row(2 * (l % 4)) + 2 * (l / 4), 2);
        std::memcpy(&high, row(2 * (l % 4) + 1) + 2 * (l / 4), 2);
        bits = low | uint32_t(high) << 16;
      } else {
        std::memcpy(&bits, row(l / 4) + 4 * (l % 4), 4);
      }
      Val w;
      w.i = bits;
      words.push_back(w);
    }
    t->collectiveOut.assign(
        1, num == 1 ? words.front() : aggregateVal(std::move(words)));
  }
  return success();
}

LogicalResult Emulator::performWarpOp(ArrayRef<Thread *> lanes) {
  Operation *op = lanes.front()->waitingAt;
  for (Thread *t : lanes)
    if (t->waitingAt != op)
      return t->fail(
          op, "lanes of a warp wait at different warp operations (the other: " +
                  describe(t->waitingAt) + ")");
  if (auto mma = dyn_cast<NVVM::MmaOp>(op))
    return mmaSync(mma, lanes);
  if (auto load = dyn_cast<NVVM::LdMatrixOp>(op))
    return ldMatrix(load, lanes, *this);
  if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op)) {
    // By lane id: a lane that exited, or is past the block's end, is none.
    Thread *byLane[kWarpSize] = {};
    for (Thread *t : lanes)
      byLane[t->linear % kWarpSize] = t;
    for (Thread *t : lanes) {
      int64_t offset = static_cast<int64_t>(t->collectiveIn[1].i);
      int64_t width = static_cast<int64_t>(t->collectiveIn[2].i),
              l = t->linear % kWarpSize, src = 0;
      switch (shuffle.getMode()) {
      case gpu::ShuffleMode::XOR:
        src = l ^ offset;
        break;
      case gpu::ShuffleMode::DOWN:
        src = l + offset;
        break;
      case gpu::ShuffleMode::UP:
        src = l - offset;
        break;
      case gpu::ShuffleMode::IDX:
        src = offset;
        break;
      }
      if (width < 1 || width > kWarpSize)
        return t->fail(op, "a shuffle width of " + Twine(width));
      bool valid = src >= 0 && src < width;
      if (valid && !byLane[src])
        return t->fail(op, "reads lane " + Twine(src) +
                               ", which has exited or is not in the block");
      Val ok;
      ok.i = valid;
      t->collectiveOut.assign(
          {valid ? byLane[src]->collectiveIn[0] : t->collectiveIn[0], ok});
    }
    return success();
  }
  for (Thread *t : lanes) // nvvm.bar.warp.sync
    t->collectiveOut.clear();
  return success();
}

/// A fiber's entry: runs its thread's kernel body.
void fiberMain(unsigned lo, unsigned hi) {
  auto *t = reinterpret_cast<Thread *>((uint64_t(hi) << 32) | lo);
  SmallVector<Val> results;
  if (succeeded(t->runRegion(t->kernel.getBody(), t->entryArgs, results)))
    t->completeCopies(0); // the hardware completes copies nobody waited for
  t->state = Thread::State::Done;
} // returns to the scheduler through uc_link

LogicalResult Emulator::runBlock(gpu::GPUFuncOp kernel, ArrayRef<Val> args) {
  BlockRun &b = *block;
  int64_t count = static_cast<int64_t>(b.threads.size());
  while (static_cast<int64_t>(stacks.size()) < count)
    stacks.emplace_back(new char[kFiberStackBytes]); // untouched until used
  SmallVector<Val> attributed;
  for (BlockArgument w : kernel.getWorkgroupAttributions()) {
    attributed.push_back(memrefVal(allocate(cast<MemRefType>(w.getType()))));
    b.scratch.push_back(attributed.back().m().data);
  }
  for (int64_t linear = 0; linear < count; ++linear) {
    Thread *t = b.threads[linear].get();
    t->state = Thread::State::Runnable;
    t->waitingAt = nullptr;
    t->uncommitted.clear();
    t->groups.clear();
    t->tid[0] = linear % b.bdim[0];
    t->tid[1] = linear / b.bdim[0] % b.bdim[1];
    t->tid[2] = linear / (b.bdim[0] * b.bdim[1]);
    // The kernel's arguments, then its workgroup and private attributions.
    t->entryArgs.assign(args.begin(), args.end());
    t->entryArgs.append(attributed.begin(), attributed.end());
    for (BlockArgument p : kernel.getPrivateAttributions()) {
      t->entryArgs.push_back(
          memrefVal(allocate(cast<MemRefType>(p.getType()))));
      b.scratch.push_back(t->entryArgs.back().m().data);
    }
    getcontext(&t->context);
    t->context.uc_stack.ss_sp = stacks[linear].get();
    t->context.uc_stack.ss_size = kFiberStackBytes;
    t->context.uc_link = &scheduler;
    uint64_t p = reinterpret_cast<uint64_t>(t);
    makecontext(&t->context, reinterpret_cast<void (*)()>(fiberMain), 2,
                static_cast<unsigned>(p & 0xffffffffu),
                static_cast<unsigned>(p >> 32));
  }
  while (true) {
    for (int64_t k = 0; k < count; ++k) {
      Thread *t = b.threads[options.reverse ? count - 1 - k : k].get();
      if (t->state == Thread::State::Runnable) {
        swapcontext(&scheduler, &t->context);
      }
    }
    if (!error.empty()) {
      // Unwind every waiting fiber: each returns failure from where it waits.
      bool waiting = true;
      while (waiting) {
        waiting = false;
        for (auto &t : b.threads)
          if (t->state != Thread::State::Done) {
            waiting = true;
            t->state = Thread::State::Runnable;
            swapcontext(&scheduler, &t->context);
          }
      }
      return failure();
    }
    bool progressed = false, allAtBarrier = true, anyLive = false;
    for (int64_t w = 0; w < count; w += kWarpSize) {
      SmallVector<Thread *, 32> lanes;
      bool ready = true;
      for (int64_t l = w; l < std::min(count, w + kWarpSize); ++l) {
        Thread *t = b.threads[l].get();
        if (t->state == Thread::State::Done)
          continue;
        anyLive = true;
        ready &= t->state == Thread::State::AtWarpOp;
        allAtBarrier &= t->state == Thread::State::AtBarrier;
        lanes.push_back(t);
      }
      if (ready && !lanes.empty()) {
        if (failed(performWarpOp(lanes)))
          break; // unwound above, next round
        for (Thread *t : lanes)
          t->state = Thread::State::Runnable;
        progressed = true;
      }
    }
    if (!error.empty())
      continue;
    if (!anyLive)
      return success();
    if (progressed)
      continue;
    if (allAtBarrier) {
      // bar.sync is aligned: every thread of the block at the same barrier.
      Thread *first = nullptr;
      for (auto &t : b.threads) {
        if (t->state == Thread::State::Done) {
          Thread *waiting = first;
          for (auto &u : b.threads)
            if (!waiting && u->state == Thread::State::AtBarrier)
              waiting = u.get();
          (void)waiting->fail(waiting->waitingAt,
                              "thread " + Twine(waiting->linear) +
                                  " waits at this barrier, thread " +
                                  Twine(t->linear) + " has exited");
          break;
        }
        if (!first)
          first = t.get();
        else if (t->waitingAt != first->waitingAt) {
          (void)t->fail(t->waitingAt, "thread " + Twine(t->linear) +
                                          " waits at this barrier, thread " +
                                          Twine(first->linear) + " at " +
                                          describe(first->waitingAt));
          break;
        }
      }
      if (!error.empty())
        continue;
      for (auto &t : b.threads)
        t->state = Thread::State::Runnable;
      continue;
    }
    // Some threads wait at a block barrier, others at a warp operation.
    Thread *atBarrier = nullptr, *atWarp = nullptr;
    for (auto &t : b.threads) {
      if (t->state == Thread::State::AtBarrier && !atBarrier)
        atBarrier = t.get();
      if (t->state == Thread::State::AtWarpOp && !atWarp)
        atWarp = t.get();
    }
    (void)atWarp->fail(
        atWarp->waitingAt,
        "deadlock: thread " + Twine(atWarp->linear) +
            " waits here while thread " + Twine(atBarrier->linear) +
            " waits at the block barrier " + describe(atBarrier->waitingAt));
  }
}

LogicalResult Emulator::launch(gpu::LaunchFuncOp op, Thread &host) {
  auto kernel =
      SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(op, op.getKernel());
  if (!kernel)
    return host.fail(op, "no kernel " +
                             Twine(op.getKernelModuleName().getValue()) +
                             "::" + op.getKernelName().getValue());
  SmallVector<Val> args;
  for (Value v : op.getKernelOperands())
    args.push_back(host.get(v));
  if (args.size() != kernel.getNumArguments())
    return host.fail(op, "passes " + Twine(args.size()) +
                             " operands to a kernel of " +
                             Twine(kernel.getNumArguments()) + " arguments");
  gpu::KernelDim3 grid = op.getGridSizeOperandValues(),
                  blockSize = op.getBlockSizeOperandValues();
  BlockRun b;
  Value gridValues[] = {grid.x, grid.y, grid.z},
        blockValues[] = {blockSize.x, blockSize.y, blockSize.z};
  for (int d = 0; d < 3; ++d) {
    b.gdim[d] = static_cast<int64_t>(host.get(gridValues[d]).i);
    b.bdim[d] = static_cast<int64_t>(host.get(blockValues[d]).i);
    if (b.gdim[d] < 1 || b.bdim[d] < 1)
      return host.fail(op, "launches an empty grid or block");
  }
  if (b.bdim[0] * b.bdim[1] * b.bdim[2] > 1024)
    return host.fail(op, "launches more than 1024 threads a block");
  if (Value bytes = op.getDynamicSharedMemorySize())
    b.dynamicSharedBytes = static_cast<int64_t>(host.get(bytes).i);
  ++stats.launches;
  auto [known, added] = kernelIndex.try_emplace(kernel, stats.kernels.size());
  if (added)
    stats.kernels.push_back({kernel.getName().str()});
  dlc::GPUEmulatorStats::Kernel &kernelStats = stats.kernels[known->second];
  ++kernelStats.launches;
  int64_t opsBefore = stats.ops;
  for (int64_t linear = 0; linear < b.bdim[0] * b.bdim[1] * b.bdim[2];
       ++linear) {
    b.threads.push_back(std::make_unique<Thread>(*this));
    b.threads.back()->kernel = kernel;
    b.threads.back()->linear = linear;
    b.threads.back()->enter(kernel);
  }
  BlockRun *outer = block;
  block = &b;
  LogicalResult result = success();
  int64_t blocks = b.gdim[0] * b.gdim[1] * b.gdim[2];
  for (int64_t n = 0; n < blocks && succeeded(result); ++n) {
    int64_t linear = options.reverse ? blocks - 1 - n : n;
    b.bid[0] = linear % b.gdim[0];
    b.bid[1] = linear / b.gdim[0] % b.gdim[1];
    b.bid[2] = linear / (b.gdim[0] * b.gdim[1]);
    // Shared memory as a GPU leaves it: whatever was there.
    if (b.dynamicSharedBytes) {
      b.dynamicShared = allocate(b.dynamicSharedBytes);
      b.scratch.push_back(b.dynamicShared);
    }
    for (std::unique_ptr<Thread> &t : b.threads)
      t->ops = 0;
    result = runBlock(kernel, args);
    for (std::unique_ptr<Thread> &t : b.threads)
      kernelStats.longestThread = std::max(kernelStats.longestThread, t->ops);
    for (char *p : b.scratch)
      release(p);
    b.scratch.clear();
    b.sharedGlobals.clear();
    ++stats.blocks;
    stats.threads += static_cast<int64_t>(b.threads.size());
    kernelStats.threads += static_cast<int64_t>(b.threads.size());
  }
  kernelStats.ops += stats.ops - opsBefore;
  block = outer;
  return result;
}

llvm::Expected<std::vector<dlc::Tensor>>
Emulator::run(func::FuncOp entry, ArrayRef<dlc::Tensor> inputs) {
  FunctionType type = entry.getFunctionType();
  if (type.getNumResults() || type.getNumInputs() < inputs.size())
    return llvm::createStringError(
        "GPU emulator: @" + entry.getName().str() +
        " does not take its inputs then its outputs as buffers");
  Thread host(*this);
  SmallVector<Val> args;
  std::vector<dlc::Tensor> outputs;
  for (auto [k, argType] : llvm::enumerate(type.getInputs())) {
    auto mt = dyn_cast<MemRefType>(argType);
    std::optional<dlc::DType> dtype =
        mt ? dlc::dtypeOf(mt.getElementType()) : std::nullopt;
    if (!mt || !mt.hasStaticShape() || !dtype)
      return llvm::createStringError(
          "GPU emulator: argument " + std::to_string(k) + " of @" +
          entry.getName().str() + " is not a buffer of static shape");
    int64_t width = byteSize(mt.getElementType());
    Val v = memrefVal(allocate(mt));
    if (k < inputs.size()) {
      if (inputs[k].size() != mt.getNumElements())
        return llvm::createStringError(
            "GPU emulator: input " + std::to_string(k) + " has " +
            std::to_string(inputs[k].size()) + " elements, @" +
            entry.getName().str() + " takes " +
            std::to_string(mt.getNumElements()));
      for (int64_t e = 0; e < mt.getNumElements(); ++e)
        dlc::encodeElement(*dtype, inputs[k].data[e], v.m().data + e * width);
    } else {
      outputs.emplace_back(*dtype, mt.getShape());
    }
    args.push_back(std::move(v));
  }
  SmallVector<Val> results;
  if (failed(host.call(entry, args, results, entry)))
    return llvm::createStringError(error);
  for (auto [k, t] : llvm::enumerate(outputs)) {
    const MemRefVal &m = args[inputs.size() + k].m();
    int64_t width = dlc::dtypeBytes(t.dtype);
    for (int64_t e = 0; e < t.size(); ++e)
      t.data[e] = dlc::decodeElement(t.dtype, m.data + e * width);
  }
  return outputs;
}

} // namespace

llvm::Expected<std::vector<dlc::Tensor>>
dlc::emulateGPU(ModuleOp module, StringRef entry, ArrayRef<Tensor> inputs,
                const GPUEmulatorOptions &options, GPUEmulatorStats *stats) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal())
    return llvm::createStringError("GPU emulator: no function @" + entry.str() +
                                   " to run");
  Emulator emu(options);
  llvm::Expected<std::vector<Tensor>> outputs = emu.run(func, inputs);
  if (stats)
    *stats = emu.stats;
  return outputs;
}
