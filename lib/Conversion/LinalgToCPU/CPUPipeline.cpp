//===- CPUPipeline.cpp - graph dialect to LLVM for the host CPU ------------===//
#include "dlc/Conversion/CPUPipeline.h"
#include "CPUSchedules.h"
#include "dlc/Conversion/Passes.h"
#include "dlc/Dialect/Graph/GraphDialect.h"
#include "dlc/Support/Environment.h"
#include "dlc/Support/HostCPU.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/IR/TensorTilingInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"


using namespace mlir;

std::optional<dlc::Phase> dlc::parsePhase(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Phase>>(name)
      .Case("graph", Phase::Graph)
      .Case("linalg", Phase::Linalg)
      .Case("loops", Phase::Loops)
      .Case("llvm", Phase::LLVM)
      .Default(std::nullopt);
}

void dlc::registerCPUCompilerDialects(DialectRegistry &registry) {
  registry.insert<graph::GraphDialect, func::FuncDialect, arith::ArithDialect,
                  math::MathDialect, linalg::LinalgDialect, tensor::TensorDialect,
                  bufferization::BufferizationDialect, memref::MemRefDialect,
                  scf::SCFDialect, affine::AffineDialect, cf::ControlFlowDialect,
                  vector::VectorDialect, LLVM::LLVMDialect, omp::OpenMPDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerTilingInterfaceExternalModels(registry);
  tensor::registerTilingInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
}

void dlc::buildGraphToKernelsPipeline(OpPassManager &pm, bool recomputeSharedMath,
                                      llvm::function_ref<void(OpPassManager &)> onKernels) {
  // The graph ops' folders and canonicalizations (x + 0, reshape chains,
  // ...) whatever the pipeline was; constants stay where they are (scalars
  // copied into fused regions belong to them).
  GreedyRewriteConfig graphCanonicalize;
  graphCanonicalize.enableConstantCSE(false).setRegionSimplificationLevel(
      GreedySimplifyRegionLevel::Disabled);
  pm.addPass(createCanonicalizerPass(graphCanonicalize));
  // One function per kernel: fused regions and lone ops (FuseOps decided).
  pm.addPass(createOutlineKernelsPass());
  if (onKernels)
    onKernels(pm);
  pm.addNestedPass<func::FuncOp>(createConvertGraphToLinalgPass());
  CPUFuseElementwisePassOptions fusion;
  fusion.recomputeSharedMath = recomputeSharedMath;
  pm.addNestedPass<func::FuncOp>(createCPUFuseElementwisePass(fusion));
}

void dlc::buildBufferizationPipeline(OpPassManager &pm) {
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createNameConstantsPass());
  // Results become caller-provided buffers, copied into at the end (the
  // pass's hoist-static-allocs does nothing here: memref.alloc is not an
  // AllocationOpInterface in dlc's registry; the CPU computes in them with
  // dlc-cpu-results-in-place, the GPU's product fusion reads the copies).
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

LogicalResult dlc::runLoweringPipeline(PassManager &pm, ModuleOp module) {
  pm.enableVerifier(envSwitch("DLC_VERIFY_EACH"));
  if (failed(pm.run(module)))
    return failure();
  return verify(module);
}

void dlc::buildCPULoweringPipeline(OpPassManager &pm, Phase stopAfter,
                                   int64_t threads, PayloadPredicate overwritable) {
  if (stopAfter == Phase::Graph)
    return;
  buildCPUKernelsPipeline(pm, threads, std::move(overwritable));
  buildCPUCodePipeline(pm, stopAfter, threads);
}

void dlc::buildCPUKernelsPipeline(OpPassManager &pm, int64_t threads,
                                  PayloadPredicate overwritable) {
  buildGraphToKernelsPipeline(pm, /*recomputeSharedMath=*/false, [&](OpPassManager &kernels) {
    // A block's 64 KiB of scores in a core's L2 with its K and V.
    TileAttentionPassOptions attention;
    attention.rowMultiple = cpu::registerTile(hostVectorBits()).mr;
    attention.blockBytes = 64 << 10;
    kernels.addNestedPass<func::FuncOp>(createTileAttentionPass(attention));
    // With several threads only: on one, ResNet-50 measured the same
    // within noise (2026-12-07, AMD EPYC Zen 5).
    if (threads > 1) {
      TileWinogradPassOptions winograd;
      winograd.threads = threads;
      kernels.addNestedPass<func::FuncOp>(createTileWinogradPass(winograd));
    }
  });
  pm.addNestedPass<func::FuncOp>(createCPUWidenNarrowElementwisePass());
  pm.addNestedPass<func::FuncOp>(createCPUApproximateMathPass());
  // Constant B operands first (at compile time; tile-and-fuse and the
  // product kernels agree on the register tile), then the computed ones
  // read across their rows (at run time).
  CPUPackWeightsPassOptions pack;
  pack.vectorBits = hostVectorBits();
  pack.bf16Dots = hostHasBF16Dots();
  pm.addPass(createCPUPackWeightsPass(pack, std::move(overwritable)));
  pm.addNestedPass<func::FuncOp>(createCPUTransposeProductOperandsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void dlc::buildCPUCodePipeline(OpPassManager &pm, Phase stopAfter, int64_t threads) {
  int64_t vectorBits = hostVectorBits();
  CPUTileAndFusePassOptions tileAndFuse;
  tileAndFuse.threads = threads;
  tileAndFuse.vectorBits = vectorBits;
  pm.addNestedPass<func::FuncOp>(createCPUTileAndFusePass(tileAndFuse));
  CPUParallelizePassOptions parallel;
  parallel.threads = threads;
  pm.addNestedPass<func::FuncOp>(createCPUParallelizePass(parallel));
  pm.addNestedPass<func::FuncOp>(createCPUPadBordersPass());
  if (stopAfter == Phase::Linalg)
    return;

  buildBufferizationPipeline(pm);
  pm.addNestedPass<func::FuncOp>(createCPUResultsInPlacePass());
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createCPUTileBuffersPass());
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
  // Matrix products as register-tiled FMA kernels; strided copies as loops.
  CPUVectorizeContractionsPassOptions vectorize;
  vectorize.vectorBits = vectorBits;
  pm.addNestedPass<func::FuncOp>(createCPUVectorizeContractionsPass(vectorize));
  pm.addNestedPass<func::FuncOp>(createCPUCopiesToLinalgPass());
  // The other window ops (convolutions, pooling) as generics with the
  // output row innermost, which LLVM vectorizes.
  pm.addNestedPass<func::FuncOp>(createLinalgGeneralizeNamedOpsPass());
  CPUUnrollWindowsPassOptions windows;
  windows.vectorBits = vectorBits;
  pm.addNestedPass<func::FuncOp>(createCPUUnrollWindowsPass(windows));
  pm.addNestedPass<func::FuncOp>(createCPULoopOrderPass());
  CPUVectorizeReductionsPassOptions reductions;
  reductions.vectorBits = vectorBits;
  pm.addNestedPass<func::FuncOp>(createCPUVectorizeReductionsPass(reductions));
  pm.addNestedPass<func::FuncOp>(createCPUNoAliasArgsPass());
  // The model's buffers and its kernels' temporaries in one workspace of
  // the most memory live at once, kept between runs: after the passes that
  // recognize a buffer by its allocation (dlc-cpu-unroll-windows).
  pm.addPass(createCPUPlanBuffersPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  if (stopAfter == Phase::Loops)
    return;

  // Passes that rewrite within a function run on each function, in
  // parallel on the context's threads; those that add or convert symbols
  // (declarations, signatures, globals) on the module.
  OpPassManager &vectorToSCF = pm.nest<func::FuncOp>();
  vectorToSCF.addPass(createConvertVectorToSCFPass(VectorTransferToSCFOptions().enableFullUnroll()));
  // Thread-split loops become OpenMP; memrefs are lowered before the CFG so
  // that OpenMP's alloca scopes still have structured regions.
  vectorToSCF.addPass(createCPULocalizeConstantsPass());
  vectorToSCF.addPass(createForallToParallelLoopPass());
  ConvertSCFToOpenMPPassOptions omp;
  omp.numThreads = threads;
  pm.addPass(createConvertSCFToOpenMPPass(omp));
  OpPassManager &toLLVM = pm.nest<func::FuncOp>();
  toLLVM.addPass(createLowerAffinePass());
  toLLVM.addPass(memref::createExpandStridedMetadataPass());
  toLLVM.addPass(createLowerAffinePass());
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.x86Vector = true; // the bf16 dot products' intrinsics
  toLLVM.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  pm.addPass(createConvertMathToFuncs()); // integer powers
  // LLVM intrinsics first (math.fma as a libm call keeps loops scalar), the
  // functions LLVM has none for (erf, ...) as libm calls.
  pm.addNestedPass<func::FuncOp>(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  OpPassManager &toCF = pm.nest<func::FuncOp>();
  toCF.addPass(createSCFToControlFlowPass());
  toCF.addPass(createArithToLLVMConversionPass());
  toCF.addPass(createConvertIndexToLLVMPass());
  toCF.addPass(createUBToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createFlattenConstantGlobalsPass());
}
