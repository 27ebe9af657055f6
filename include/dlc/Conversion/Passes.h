//===- Passes.h - dlc conversion passes -------------------------*- C++ -*-===//
#ifndef DLC_CONVERSION_PASSES_H
#define DLC_CONVERSION_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

#include "dlc/Conversion/CPUPipeline.h"

#include <memory>

namespace mlir {
class Pass;
class RewritePatternSet;
} // namespace mlir

namespace dlc {

/// The largest buffer a CPU thread's tile keeps on its stack (the default
/// of dlc-cpu-tile-buffers' max-bytes; dlc-cpu-tile-and-fuse sizes tiles
/// by it): the OpenMP threads' stacks are 4 MiB.
constexpr int64_t kCPUMaxStackTileBytes = 512 * 1024;

/// On a kernel outlined from a partition function (PartitionGraph): the
/// backend that compiles it (the partition's graph.backend), e.g. `cublas`.
inline constexpr llvm::StringLiteral kKernelBackendAttr = "dlc.backend";

#define GEN_PASS_DECL
#include "dlc/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dlc/Conversion/Passes.h.inc"

/// Patterns lowering every graph op (but the region ops, which are inlined
/// first by the pass) to linalg/tensor/arith/math.
void populateGraphToLinalgConversionPatterns(mlir::RewritePatternSet &patterns);

/// dlc-cpu-pack-weights, packing the payloads `overwritable` accepts
/// within themselves.
std::unique_ptr<mlir::Pass> createCPUPackWeightsPass(const CPUPackWeightsPassOptions &options,
                                                     PayloadPredicate overwritable);

} // namespace dlc

#endif // DLC_CONVERSION_PASSES_H
