//===- Winograd.h - minimal-filtering transforms for 3x3 convolutions --*- C++ -*-===//
//
// Winograd's F(m x m, 3 x 3) (Lavin and Gray, "Fast Algorithms for
// Convolutional Neural Networks", 2016): a stride-1 3x3 convolution
// computes each m x m output tile of each channel pair as
//   Y = AT [ (G g GT) . (BT d B) ] A
// from the (m + 2) x (m + 2) input tile d and the 3x3 kernel g, summed over
// the input channels. Summed in the transformed domain, the channel sums
// become (m + 2)^2 independent matrix products of (C x O) weights: 36
// products of a tile's 16 outputs for m = 4 instead of 144 multiplications.
// The graph pass (AlterOpLayout's winograd option), the reference interpreter
// and the lowering all read the transforms here.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_SUPPORT_WINOGRAD_H
#define DLC_SUPPORT_WINOGRAD_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace dlc::winograd {

/// The transforms of F(m x m, 3 x 3), row-major: BT [alpha x alpha],
/// G [alpha x 3] and AT [m x alpha], alpha = m + 2.
struct Transforms {
  int64_t m, alpha;
  llvm::ArrayRef<float> bt, g, at;
};

/// Whether F(m x m, 3 x 3) is provided: m = 2 or 4.
bool isSupportedTile(int64_t m);

/// The transforms of F(m x m, 3 x 3); `m` must be supported.
Transforms transforms(int64_t m);

/// The transformed weights U [alpha^2, O, C] of 3x3 weights `w` [O, C, 3, 3]:
/// U[xi * alpha + nu, o, c] = (G w[o, c] GT)[xi, nu].
void transformWeights(llvm::ArrayRef<float> w, int64_t o, int64_t c, int64_t m,
                      llvm::MutableArrayRef<float> u);

/// The transformed weights U [alpha^2, C, O] of 3x3 weights `w` [3, 3, C, O]
/// (HWIO, for NHWC convolutions):
/// U[xi * alpha + nu, c, o] = (G w[:, :, c, o] GT)[xi, nu].
void transformWeightsHWIO(llvm::ArrayRef<float> w, int64_t c, int64_t o, int64_t m,
                          llvm::MutableArrayRef<float> u);

} // namespace dlc::winograd

#endif
