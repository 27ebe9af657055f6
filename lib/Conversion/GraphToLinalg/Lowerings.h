//===- Lowerings.h - graph-to-linalg patterns by op family ------*- C++ -*-===//
//
// Each op family's lowering patterns live in a file of their own and are
// added to ConvertGraphToLinalg's set by one function here.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_CONVERSION_GRAPHTOLINALG_LOWERINGS_H
#define DLC_CONVERSION_GRAPHTOLINALG_LOWERINGS_H

#include "mlir/IR/PatternMatch.h"

namespace dlc {

/// graph.nms as scf loops over buffers (Detection.cpp).
void populateDetectionLoweringPatterns(mlir::RewritePatternSet &patterns);

} // namespace dlc

#endif // DLC_CONVERSION_GRAPHTOLINALG_LOWERINGS_H
