//===- Passes.h - dlc conversion passes -------------------------*- C++ -*-===//
#ifndef DLC_CONVERSION_PASSES_H
#define DLC_CONVERSION_PASSES_H

// Light on purpose: each pass's file includes the dialects it uses and
// the ones its generated base class loads (dependentDialects).
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringRef.h"

#include "dlc/Conversion/CPUPipeline.h"

#include <memory>

namespace mlir {
class Pass;
class RewritePatternSet;
} // namespace mlir

namespace dlc {

/// The largest buffer a CPU thread's product tile keeps on its stack
/// (dlc-cpu-tile-and-fuse sizes product tiles by it): the OpenMP threads'
/// stacks are 4 MiB.
constexpr int64_t kCPUMaxStackTileBytes = 512 * 1024;
/// The largest padded plane a window op's tile keeps on its stack
/// (dlc-cpu-tile-and-fuse sizes NHWC window tiles by it; the default of
/// dlc-cpu-tile-buffers' max-bytes, the larger of the two): a vector's worth
/// of channels of a 114 x 114 plane with AVX-512 (832 KiB, MobileNetV2's
/// first depthwise convolutions) fits, so that a tile reads whole cache
/// lines of the input rather than half of each.
constexpr int64_t kCPUMaxStackPlaneBytes = 1024 * 1024;
/// The largest padded band of rows a window op's tile fills when whole
/// planes would be larger (NHWC planes from 56 x 56): with the band's
/// output, within a core's L2 cache.
constexpr int64_t kCPUWindowBandBytes = 128 * 1024;

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
