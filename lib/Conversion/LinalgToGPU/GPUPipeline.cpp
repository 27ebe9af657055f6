//===- GPUPipeline.cpp - graph dialect to NVPTX kernels --------------------===//
#include "dlc/Conversion/GPUPipeline.h"
#include "dlc/Conversion/CPUPipeline.h"
#include "dlc/Conversion/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

std::optional<dlc::GPUPhase> dlc::parseGPUPhase(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<GPUPhase>>(name)
      .Case("graph", GPUPhase::Graph)
      .Case("linalg", GPUPhase::Linalg)
      .Case("gpu", GPUPhase::GPU)
      .Case("nvvm", GPUPhase::NVVM)
      .Case("ptx", GPUPhase::PTX)
      .Case("llvm", GPUPhase::LLVM)
      .Default(std::nullopt);
}

/// The chips dlc compiles for, with the PTX ISA each needs and whether it
/// has sm_80's tensor cores: those of CUDA 13's ptxas (Turing and later).
struct Chip {
  const char *name, *ptx;
  bool tensorCores;
};
static constexpr Chip kChips[] = {
    {"sm_75", "+ptx80", false},  {"sm_80", "+ptx80", true},   {"sm_86", "+ptx80", true},
    {"sm_87", "+ptx80", true},   {"sm_89", "+ptx80", true},   {"sm_90", "+ptx80", true},
    {"sm_90a", "+ptx80", true},  {"sm_100", "+ptx87", true},  {"sm_100a", "+ptx87", true},
    {"sm_120", "+ptx87", true},  {"sm_120a", "+ptx87", true}};

static const Chip *findChip(llvm::StringRef name) {
  for (const Chip &chip : kChips)
    if (name == chip.name)
      return &chip;
  return nullptr;
}

llvm::Expected<dlc::GPUTarget> dlc::GPUTarget::get(llvm::StringRef arch) {
  if (const Chip *chip = findChip(arch)) {
    GPUTarget target;
    target.chip = chip->name;
    return target;
  }
  std::string known;
  for (const Chip &chip : kChips)
    known += (known.empty() ? "" : ", ") + std::string(chip.name);
  return llvm::createStringError("unknown GPU architecture '" + arch.str() + "' (known: " +
                                 known + ")");
}

std::string dlc::GPUTarget::ptxFeatures() const {
  const Chip *c = findChip(chip);
  return c ? c->ptx : "+ptx80";
}

bool dlc::GPUTarget::hasTensorCores() const {
  const Chip *c = findChip(chip);
  return c && c->tensorCores;
}

void dlc::registerGPUCompilerDialects(DialectRegistry &registry) {
  registerCPUCompilerDialects(registry);
  registry.insert<gpu::GPUDialect, NVVM::NVVMDialect>();
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerGPUDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  // The cubin embedded and loaded (#gpu.select_object) at translation.
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
  // convert-gpu-to-nvvm lowers the other dialects in kernels through their
  // ConvertToLLVMPatternInterface.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
}

/// Strided views, affine and structured control flow to plain control flow:
/// where the kernels' and the host code's lowerings to LLVM start.
static void addLowerToControlFlow(OpPassManager &pm) {
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
}

void dlc::buildGPULoweringPipeline(OpPassManager &pm, GPUPhase stopAfter,
                                   const GPUTarget &target) {
  if (stopAfter == GPUPhase::Graph)
    return;
  // As on the CPU, but math producers fused into every elementwise consumer:
  // the GPU's reduction kernels compute their producers themselves (fused
  // reductions), so no buffer of them is there to read back.
  // Attention a thread block per block of 8 KiB of scores: BERT-base's 128
  // keys in blocks of 16 rows, 96 blocks a sample, each buffer of the
  // block's softmax in shared memory.
  buildGraphToKernelsPipeline(pm, /*recomputeSharedMath=*/true, [](OpPassManager &kernels) {
    TileAttentionPassOptions attention;
    attention.rowMultiple = 1;
    attention.blockBytes = 8 << 10;
    kernels.addNestedPass<func::FuncOp>(createTileAttentionPass(attention));
  });
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (stopAfter == GPUPhase::Linalg)
    return;

  // Every op's output a buffer of its own, as before CSE.
  pm.addNestedPass<func::FuncOp>(createGPUSeparateEmptyTensorsPass());
  buildBufferizationPipeline(pm);
  // The products of partitions for the cublas target as calls of cuBLAS.
  GPUExternalProductsPassOptions external;
  external.tf32 = target.tf32;
  pm.addPass(createGPUExternalProductsPass(external));
  // Integer powers as helper functions, which kernel outlining copies into
  // the kernels' module.
  pm.addPass(createConvertMathToFuncs());
  // A product's function and the function after it that one kernel can
  // compute (a transpose of its output), as one function.
  if (target.mergeEpilogues)
    pm.addPass(createGPUMergeEpiloguesPass());
  // Runs of kernel functions working row by row (a layer norm, a softmax)
  // as one function, which dlc-gpu-map-to-threads launches as one kernel.
  if (target.rowKernels)
    pm.addPass(createGPUMergeRowKernelsPass());
  GPUMapToThreadsPassOptions threads;
  threads.tf32 = target.tf32;
  threads.maxTile = target.maxTile;
  threads.tileDepth = target.tileDepth;
  threads.splitBlocks = target.splitBlocks;
  threads.copyStages = target.copyStages;
  threads.fuseReductions = target.fuseReductions;
  threads.rowKernels = target.rowKernels;
  threads.lastBlockSums = target.lastBlockSums;
  threads.ldmatrix = target.ldmatrix;
  threads.vectorLoads = target.vectorLoads;
  threads.narrowMMA = target.hasTensorCores();
  pm.addNestedPass<func::FuncOp>(createGPUMapToThreadsPass(threads));
  pm.addPass(createGPUInlineKernelFunctionsPass());
  pm.addPass(createGPUHostBuffersPass());
  // Constants and index computations into the kernels (loop bounds become
  // constants there, not kernel arguments).
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createGPUMergeKernelModulesPass());
  pm.addPass(createCanonicalizerPass());
  if (stopAfter == GPUPhase::GPU)
    return;

  GpuNVVMAttachTargetOptions attach;
  attach.chip = target.chip;
  attach.features = target.ptxFeatures();
  attach.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(attach));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  addLowerToControlFlow(kernels);
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createGPUExternDynamicSharedPass());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  if (stopAfter == GPUPhase::NVVM)
    return;

  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = target.toolkit;
  binary.compilationTarget = stopAfter == GPUPhase::PTX ? "isa" : "bin";
  if (stopAfter == GPUPhase::PTX) {
    pm.addPass(createGpuModuleToBinaryPass(binary));
    return;
  }

  // The host code: launches on one stream, waited for once per function.
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  addLowerToControlFlow(pm);
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createFlattenConstantGlobalsPass());
}
