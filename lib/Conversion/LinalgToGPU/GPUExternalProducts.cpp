//===- GPUExternalProducts.cpp - cublas partitions' products as calls ------===//
#include "dlc/Conversion/Passes.h"
#include "dlc/Runtime/GemmPlan.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

namespace dlc {
#define GEN_PASS_DEF_GPUEXTERNALPRODUCTSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// Whether `op`'s body is out + cast(a) * cast(b), each cast optional.
static bool isMultiplyAdd(linalg::LinalgOp op) {
  Block &body = op->getRegion(0).front();
  if (body.getNumArguments() != 3 || body.getOperations().size() > 5)
    return false;
  auto add = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value out = body.getArgument(2);
  Value other = add.getLhs() == out ? add.getRhs() : add.getRhs() == out ? add.getLhs() : Value();
  auto mul = other ? other.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul)
    return false;
  auto source = [](Value v) {
    auto ext = v.getDefiningOp<arith::ExtFOp>();
    return ext ? ext.getIn() : v;
  };
  Value x = source(mul.getLhs()), y = source(mul.getRhs());
  Value a = body.getArgument(0), b = body.getArgument(1);
  return (x == a && y == b) || (x == b && y == a);
}

/// The runtime's name for an element type, if it takes it.
static std::optional<StringRef> typeName(Type t) {
  if (t.isF32())
    return StringRef("f32");
  if (t.isF16())
    return StringRef("f16");
  if (t.isBF16())
    return StringRef("bf16");
  return std::nullopt;
}

/// The rank-3 view [batch, rows, columns] of buffer `v`, which the product
/// indexes by `map`, whose dimensions are the loop dimensions of `groups`
/// (batch, rows, columns), each group one strided dimension (in the loops'
/// order; a group `v` lacks is of size 1, stride 0); null, with `why`
/// set, where the view cannot be made.
static Value matrixView(OpBuilder &b, Location loc, Value v, AffineMap map,
                        ArrayRef<ArrayRef<unsigned>> groups, dlc::MatrixView &matrix,
                        std::string &why) {
  auto type = cast<MemRefType>(v.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic) || !type.hasStaticShape()) {
    why = "an operand has a dynamic shape, stride or offset";
    return {};
  }
  SmallVector<int64_t, 3> sizes3, strides3;
  for (ArrayRef<unsigned> group : groups) {
    SmallVector<int64_t> dims; // v's dimensions of the group, in loop order
    for (unsigned d : group)
      if (std::optional<unsigned> pos =
              map.getResultPosition(getAffineDimExpr(d, v.getContext())))
        dims.push_back(*pos);
    if (!dims.empty() && dims.size() != group.size()) {
      why = "an operand is broadcast along part of a group of dimensions";
      return {};
    }
    int64_t size = 1, stride = 0;
    for (int64_t d : llvm::reverse(dims)) { // innermost first
      int64_t n = type.getDimSize(d);
      if (n == 1)
        continue;
      if (size > 1 && strides[d] != stride * size) {
        why = "an operand's dimensions of one group are not one strided dimension";
        return {};
      }
      if (size == 1)
        stride = strides[d];
      size *= n;
    }
    sizes3.push_back(size);
    strides3.push_back(size == 1 ? 0 : stride);
  }
  matrix = {sizes3[0], sizes3[1], sizes3[2], strides3[0], strides3[1], strides3[2]};
  auto view = memref::ReinterpretCastOp::create(
      b, loc, MemRefType::get(sizes3, type.getElementType(),
                              StridedLayoutAttr::get(v.getContext(), offset, strides3)),
      v, offset, sizes3, strides3);
  int64_t dyn = ShapedType::kDynamic;
  auto dynamicType = MemRefType::get({dyn, dyn, dyn}, type.getElementType(),
                                     StridedLayoutAttr::get(v.getContext(), dyn, {dyn, dyn, dyn}));
  return memref::CastOp::create(b, loc, dynamicType, view);
}

namespace {
struct GPUExternalProductsPass
    : dlc::impl::GPUExternalProductsPassBase<GPUExternalProductsPass> {
  using GPUExternalProductsPassBase::GPUExternalProductsPassBase;

  void runOnOperation() override {
    int64_t products = 0, kept = 0;
    for (auto func : llvm::to_vector(getOperation().getOps<func::FuncOp>())) {
      auto backend = func->getAttrOfType<StringAttr>(dlc::kKernelBackendAttr);
      if (!backend || backend != "cublas")
        continue;
      // The products (not their operands' conversions or initial values,
      // which a call may erase).
      SmallVector<linalg::LinalgOp> reductions;
      for (auto op : func.getBody().getOps<linalg::LinalgOp>())
        if (op.getNumReductionLoops() > 0)
          reductions.push_back(op);
      for (linalg::LinalgOp op : reductions) {
        std::string why;
        if (succeeded(callCublas(op, why))) {
          ++products;
          continue;
        }
        ++kept;
        op->emitWarning() << getArgument() << ": this product stays dlc's own kernel: " << why;
      }
    }
    dlc::recordPassStat(getArgument(), "products", products);
    dlc::recordPassStat(getArgument(), "kept", kept);
  }

  /// Replaces `op` with a call of the runtime's cuBLAS product, or says why not.
  LogicalResult callCublas(linalg::LinalgOp op, std::string &why) {
    FailureOr<linalg::ContractionDimensions> dims = linalg::inferContractionDims(op);
    if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 || !op.hasPureBufferSemantics() ||
        failed(dims) || dims->batch.size() + dims->m.size() + dims->n.size() + dims->k.size() !=
                            op.getNumLoops() ||
        dims->m.empty() || dims->n.empty() || dims->k.empty() || !isMultiplyAdd(op)) {
      why = "not a matrix product (out + a * b over batch, row, column and reduced dimensions)";
      return failure();
    }
    Value a = op.getDpsInputs()[0], b = op.getDpsInputs()[1], c = op.getDpsInits()[0];
    // Mixed precision's products read f32 copies of f16 (bf16) inputs and
    // write f32 that a truncation narrows: cuBLAS reads the narrow inputs,
    // and writes the narrow output when nothing else is added to it.
    linalg::GenericOp widenA = converting<arith::ExtFOp>(a, op, /*reads=*/false),
                      widenB = converting<arith::ExtFOp>(b, op, /*reads=*/false);
    if (widenA && widenB &&
        elementOf(widenA.getDpsInputs()[0]) == elementOf(widenB.getDpsInputs()[0])) {
      a = widenA.getDpsInputs()[0];
      b = widenB.getDpsInputs()[0];
    } else {
      widenA = widenB = nullptr;
    }
    linalg::LinalgOp init = initializer(c, op);
    auto fill = dyn_cast_or_null<linalg::FillOp>(init.getOperation());
    bool zeros = fill && matchPattern(fill.value(), m_AnyZeroFloat());
    linalg::GenericOp narrow = converting<arith::TruncFOp>(c, op, /*reads=*/true, init);
    // (initial values converted from the narrow type, such as a bias, are
    // then written in it)
    linalg::GenericOp widenedInit =
        zeros || !narrow ? nullptr
                         : converting<arith::ExtFOp>(c, op, /*reads=*/false, narrow,
                                                     /*anyMaps=*/true);
    if (narrow && elementOf(narrow.getDpsInits()[0]) == elementOf(a) &&
        (zeros || (widenedInit && elementOf(widenedInit.getDpsInputs()[0]) == elementOf(a))))
      c = narrow.getDpsInits()[0];
    else
      narrow = widenedInit = nullptr;
    std::optional<StringRef> in = typeName(elementOf(a)), out = typeName(elementOf(c));
    if (!in || elementOf(b) != elementOf(a) || !out || (*out != *in && *out != "f32")) {
      why = "cuBLAS takes f32, f16 or bf16 inputs of one type, and outputs of theirs or f32";
      return failure();
    }
    OpBuilder builder(op);
    Location loc = op.getLoc();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    ArrayRef<unsigned> batch = dims->batch, m = dims->m, n = dims->n, k = dims->k;
    SmallVector<Value, 4> operands;
    SmallVector<dlc::MatrixView, 3> matrices(3);
    for (auto [v, map, groups, matrix] :
         llvm::zip(SmallVector<Value>{a, b, c}, maps,
                   SmallVector<SmallVector<ArrayRef<unsigned>, 3>>{
                       {batch, m, k}, {batch, k, n}, {batch, m, n}},
                   matrices)) {
      Value view = matrixView(builder, loc, v, map, groups, matrix, why);
      if (!view)
        break;
      operands.push_back(view);
    }
    // The views must make one cuBLAS call (the runtime plans it again).
    if (operands.size() < 3 || !dlc::planGemm(matrices[0], matrices[1], matrices[2], why)) {
      for (Value made : operands)
        eraseView(made);
      return failure();
    }
    // Initial values of zero: the call's beta = 0, no fill.
    int32_t flags = (zeros ? 0 : dlc::kGemmAccumulate) | (tf32 ? dlc::kGemmTF32 : 0);
    operands.push_back(arith::ConstantIntOp::create(builder, loc, flags, 32));
    func::FuncOp callee = declaration(*in, *out, ValueRange(operands).getTypes());
    func::CallOp::create(builder, loc, callee, operands);
    if (widenedInit) { // the same values, in the narrow output
      OpBuilder before(widenedInit);
      linalg::GenericOp::create(
          before, widenedInit.getLoc(), TypeRange(), widenedInit.getDpsInputs(), ValueRange(c),
          widenedInit.getIndexingMapsArray(), widenedInit.getIteratorTypesArray(),
          [](OpBuilder &b, Location l, ValueRange args) { linalg::YieldOp::create(b, l, args[0]); });
    }
    // (a product of a buffer by itself has one widening)
    llvm::SetVector<Operation *> done;
    for (Operation *o : {widenA.getOperation(), widenB.getOperation(),
                         zeros ? fill.getOperation() : nullptr, widenedInit.getOperation(),
                         narrow.getOperation(), op.getOperation()})
      if (o)
        done.insert(o);
    for (Operation *o : done)
      o->erase();
    return success();
  }

  static Type elementOf(Value v) { return cast<MemRefType>(v.getType()).getElementType(); }

  /// What `c` holds when `product` starts: the one linalg op writing it
  /// before (a fill, a bias), if no other op uses it before the product and
  /// only linalg ops read it after.
  static linalg::LinalgOp initializer(Value c, Operation *product) {
    linalg::LinalgOp init;
    for (Operation *user : c.getUsers()) {
      if (user == product || isa<memref::DeallocOp>(user))
        continue;
      auto l = dyn_cast<linalg::LinalgOp>(user);
      if (!l || user->getBlock() != product->getBlock())
        return nullptr; // a view or a call: unknown
      bool writes = llvm::is_contained(l.getDpsInits(), c);
      if (!user->isBeforeInBlock(product)) {
        if (writes)
          return nullptr;
        continue; // a reader after
      }
      if (init || !writes || l.getNumDpsInits() != 1 || llvm::is_contained(l.getDpsInputs(), c))
        return nullptr;
      init = l;
    }
    return init;
  }

  /// The generic converting each element of buffer `v` (allocated in the
  /// kernel) with `Conversion`: into another buffer after `product`
  /// (`reads`), or from another buffer before it; identity maps unless
  /// `anyMaps`. Only if no op but `product`, deallocations and `also` uses
  /// `v`, so that the call can take the other buffer instead and the
  /// generic go.
  template <typename Conversion>
  static linalg::GenericOp converting(Value v, Operation *product, bool reads,
                                      Operation *also = nullptr, bool anyMaps = false) {
    if (!v.getDefiningOp<memref::AllocOp>())
      return nullptr;
    linalg::GenericOp found;
    for (Operation *user : v.getUsers()) {
      if (user == product || user == also || isa<memref::DeallocOp>(user))
        continue;
      auto g = dyn_cast<linalg::GenericOp>(user);
      if (!g || found || g.getNumDpsInputs() != 1 || g.getNumDpsInits() != 1 ||
          (reads ? g.getDpsInputs()[0] : g.getDpsInits()[0]) != v ||
          g->getBlock() != product->getBlock() || g->isBeforeInBlock(product) == reads ||
          g.getNumReductionLoops() > 0 ||
          (!anyMaps &&
           !llvm::all_of(g.getIndexingMapsArray(), [](AffineMap m) { return m.isIdentity(); })))
        return nullptr;
      Block &body = g.getRegion().front();
      auto conversion = body.getTerminator()->getOperand(0).getDefiningOp<Conversion>();
      if (body.getOperations().size() != 2 || !conversion ||
          conversion->getOperand(0) != body.getArgument(0))
        return nullptr;
      found = g;
    }
    return found;
  }

  /// Erases a view matrixView made (the cast and the reinterpret_cast).
  static void eraseView(Value view) {
    Operation *cast = view.getDefiningOp();
    Operation *reinterpret = cast->getOperand(0).getDefiningOp();
    cast->erase();
    reinterpret->erase();
  }

  /// `dlc_cublas_gemm_<in>_<out>`, declared once in the module.
  func::FuncOp declaration(StringRef in, StringRef out, TypeRange types) {
    ModuleOp module = getOperation();
    std::string name = (Twine(dlc::kCublasGemmPrefix) + in + "_" + out).str();
    if (auto existing = module.lookupSymbol<func::FuncOp>(name))
      return existing;
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    auto decl = func::FuncOp::create(b, module.getLoc(), name, b.getFunctionType(types, {}));
    decl.setPrivate();
    decl->setAttr("llvm.emit_c_interface", b.getUnitAttr());
    return decl;
  }
};
} // namespace
