//===- GPUHostBuffers.cpp - a function's buffers in device memory ----------===//
#include "dlc/Conversion/GPUPipeline.h"
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"

namespace dlc {
#define GEN_PASS_DEF_GPUHOSTBUFFERSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// The element types dlc's CUDA runtime uploads constants of
/// (dlc_cuda_constant_<type> in lib/Runtime/CUDARuntime.cpp).
static constexpr llvm::StringLiteral kUploadable[] = {"f16", "bf16", "f32", "f64", "i1",
                                                       "i8",  "i16",  "i32", "i64", "index"};

namespace {
struct GPUHostBuffersPass : dlc::impl::GPUHostBuffersPassBase<GPUHostBuffersPass> {
  void runOnOperation() override {
    int64_t numBuffers = 0, numConstants = 0, numZeroed = 0;
    SymbolTable symbols(getOperation());
    for (auto func : llvm::make_early_inc_range(getOperation().getOps<func::FuncOp>()))
      if (!func.isExternal() &&
          failed(runOnFunction(func, symbols, numBuffers, numConstants, numZeroed)))
        return signalPassFailure();
    dlc::recordPassStat(getArgument(), "buffers", numBuffers);
    dlc::recordPassStat(getArgument(), "constants", numConstants);
    dlc::recordPassStat(getArgument(), "zeroed-buffers", numZeroed);
  }

  /// `alloc` (marked dlc::kGPUZeroedBufferAttr) as the address of a zeroed
  /// global of its own, which the constants' upload puts in device memory
  /// once: the buffer persists from call to call.
  memref::GetGlobalOp zeroedGlobal(IRRewriter &rewriter, memref::AllocOp alloc,
                                   SymbolTable &symbols) {
    MemRefType type = alloc.getType();
    OpBuilder b = OpBuilder::atBlockBegin(getOperation().getBody());
    auto zeros = DenseElementsAttr::get(RankedTensorType::get(type.getShape(),
                                                              type.getElementType()),
                                        b.getZeroAttr(type.getElementType()));
    auto global = memref::GlobalOp::create(b, alloc.getLoc(), "dlc_zeroed",
                                           b.getStringAttr("private"), type, zeros,
                                           /*constant=*/false, /*alignment=*/nullptr);
    symbols.insert(global); // a unique name
    rewriter.setInsertionPoint(alloc);
    return rewriter.replaceOpWithNewOp<memref::GetGlobalOp>(alloc, type, global.getSymName());
  }

  /// `dlc_cuda_constant_<type>(memref<?xtype>) -> memref<?xtype>`, declared
  /// once in the module.
  FailureOr<func::FuncOp> uploadFunction(Operation *user, Type element) {
    std::string type;
    llvm::raw_string_ostream(type) << element;
    if (!llvm::is_contained(kUploadable, type))
      return user->emitError("a constant of element type ") << type
             << " cannot be put in device memory";
    std::string name = "dlc_cuda_constant_" + type;
    ModuleOp module = getOperation();
    if (auto existing = module.lookupSymbol<func::FuncOp>(name))
      return existing;
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    auto flat = MemRefType::get({ShapedType::kDynamic}, element);
    auto decl = func::FuncOp::create(b, module.getLoc(), name, b.getFunctionType({flat}, {flat}));
    decl.setPrivate();
    decl->setAttr("llvm.emit_c_interface", b.getUnitAttr());
    return decl;
  }

  LogicalResult runOnFunction(func::FuncOp func, SymbolTable &symbols, int64_t &numBuffers,
                              int64_t &numConstants, int64_t &numZeroed) {
    Block &body = func.getBody().front();
    SmallVector<memref::AllocOp> allocs, zeroed;
    SmallVector<memref::GetGlobalOp> globals;
    SmallVector<memref::DeallocOp> deallocs;
    WalkResult walk = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op))
        return WalkResult::skip();
      if (isa<memref::AllocOp, memref::GetGlobalOp>(op) && op->getBlock() != &body) {
        op->emitError("a buffer allocated inside a region cannot be put in device memory");
        return WalkResult::interrupt();
      }
      if (auto alloc = dyn_cast<memref::AllocOp>(op))
        (alloc->hasAttr(dlc::kGPUZeroedBufferAttr) ? zeroed : allocs).push_back(alloc);
      else if (auto global = dyn_cast<memref::GetGlobalOp>(op))
        globals.push_back(global);
      else if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
        deallocs.push_back(dealloc);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    numBuffers += allocs.size();
    numConstants += globals.size();
    numZeroed += zeroed.size();
    IRRewriter rewriter(&getContext());
    for (memref::AllocOp alloc : zeroed)
      globals.push_back(zeroedGlobal(rewriter, alloc, symbols));
    for (memref::DeallocOp dealloc : deallocs)
      rewriter.eraseOp(dealloc);
    SmallVector<Value> buffers;
    for (memref::AllocOp alloc : allocs) {
      rewriter.setInsertionPoint(alloc);
      auto device = gpu::AllocOp::create(rewriter, alloc.getLoc(), alloc.getType(),
                                         /*asyncToken=*/Type(), /*asyncDependencies=*/ValueRange(),
                                         alloc.getDynamicSizes(), /*symbolOperands=*/ValueRange(),
                                         /*hostShared=*/UnitAttr());
      buffers.push_back(device.getMemref());
      rewriter.replaceOp(alloc, device.getMemref());
    }
    for (memref::GetGlobalOp global : globals) {
      // The constant as memref<?xT> through the runtime's upload, and its
      // device copy viewed with the constant's own type.
      MemRefType type = global.getType();
      if (!type.getLayout().isIdentity())
        return global.emitError("a constant with a strided layout cannot be put in device memory");
      FailureOr<func::FuncOp> upload = uploadFunction(global, type.getElementType());
      if (failed(upload))
        return failure();
      Location loc = global.getLoc();
      rewriter.setInsertionPointAfter(global);
      int64_t n = type.getNumElements();
      auto flatType = MemRefType::get({n}, type.getElementType());
      Value flat = memref::ReinterpretCastOp::create(rewriter, loc, flatType, global.getResult(),
                                                     /*offset=*/0, ArrayRef<int64_t>{n},
                                                     ArrayRef<int64_t>{1});
      Value dynamic = memref::CastOp::create(rewriter, loc,
                                             upload->getFunctionType().getInput(0), flat);
      Value device = func::CallOp::create(rewriter, loc, *upload, dynamic).getResult(0);
      SmallVector<int64_t> strides = computeStrides(type.getShape());
      Value view = memref::ReinterpretCastOp::create(rewriter, loc, type, device, /*offset=*/0,
                                                     type.getShape(), strides);
      rewriter.replaceAllUsesExcept(global.getResult(), view, flat.getDefiningOp());
    }
    for (Operation &op : body)
      if (op.hasTrait<OpTrait::ReturnLike>()) {
        rewriter.setInsertionPoint(&op);
        for (Value buffer : buffers)
          gpu::DeallocOp::create(rewriter, op.getLoc(), /*asyncToken=*/Type(), ValueRange(),
                                 buffer);
      }
    return success();
  }
};
} // namespace
