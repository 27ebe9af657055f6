//===- Shape.h - shape arithmetic shared by dialect and runtime -*- C++ -*-===//
//
// The one place for numpy broadcasting, axis normalization and row-major
// strides. Nothing here depends on MLIR, so the runtime can use it too.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_SUPPORT_SHAPE_H
#define DLC_SUPPORT_SHAPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

namespace dlc {

using Shape = llvm::SmallVector<int64_t, 6>;

/// Numpy broadcast of two shapes, or nullopt when a pair of dimensions is
/// neither equal nor 1.
std::optional<Shape> broadcastShapes(llvm::ArrayRef<int64_t> a,
                                     llvm::ArrayRef<int64_t> b);

/// Maps a possibly negative axis into [0, rank), or nullopt if out of range.
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank);

/// Number of elements of a shape (1 for rank 0). The shape must be valid
/// (checkedNumElements): graph types are, by their verifier.
int64_t numElements(llvm::ArrayRef<int64_t> shape);

/// The most elements, and the largest dimension, of a tensor dlc accepts:
/// 2^48, so that element counts, byte sizes and index arithmetic of valid
/// tensors never overflow 64 bits (and counts are exact in a double).
constexpr int64_t kMaxTensorElements = int64_t(1) << 48;

/// Number of elements of a shape, or nullopt when a dimension is negative or
/// a dimension or the count exceeds kMaxTensorElements.
std::optional<int64_t> checkedNumElements(llvm::ArrayRef<int64_t> shape);

/// Row-major strides of a shape, in elements.
Shape rowMajorStrides(llvm::ArrayRef<int64_t> shape);

/// Copies the row-major elements `in` of `shape`, each `width` bytes (1,
/// 2, 4 or 8), into `out` with the axes permuted: axis i of `out` is axis
/// perm[i] of `in`. Axes that stay adjacent are moved as one, and a
/// permutation that moves the innermost axis copies blocks of both
/// innermost axes, so that reads and writes both stay within a few cache
/// lines (weights of hundreds of megabytes).
void permuteElements(const void *in, int64_t width, llvm::ArrayRef<int64_t> shape,
                     llvm::ArrayRef<int64_t> perm, void *out);

/// Index along `axis` of the element at row-major position `linear` of a
/// tensor of `shape`.
int64_t axisIndex(int64_t linear, llvm::ArrayRef<int64_t> shape, int64_t axis);

/// Strides to read a tensor of `shape` as if broadcast to `target`: 0 on
/// broadcast dimensions. `shape` must broadcast to `target`.
Shape broadcastStrides(llvm::ArrayRef<int64_t> shape,
                       llvm::ArrayRef<int64_t> target);

/// Output extent of a sliding window (convolution or pooling) of `kernel`
/// taps `dilation` apart moved by `stride` over `in` elements padded by
/// `padBefore` and `padAfter`. With `ceilMode` it rounds up, less a window
/// that would start in the trailing padding (PyTorch's rule). Operands are
/// at most 2^48 (the arithmetic is 128-bit); the padded input must hold one
/// dilated window (windowFits).
int64_t windowExtent(int64_t in, int64_t padBefore, int64_t padAfter, int64_t kernel,
                     int64_t stride, int64_t dilation, bool ceilMode);

/// Whether `span` padded elements hold one window of `kernel` taps
/// `dilation` apart.
bool windowFits(int64_t span, int64_t kernel, int64_t dilation);

/// "2x3x4" for diagnostics ("scalar" for rank 0).
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// The largest multiple of `step` that divides `range` and is at most
/// `limit`, but not below limit / 4; 0 if there is none. (The tiles of a
/// loop that need no remainder: the CPU's cache tiles, attention's blocks.)
inline int64_t dividingTile(int64_t range, int64_t step, int64_t limit) {
  for (int64_t t = std::min(range, limit) / step * step; t >= std::max(step, limit / 4); t -= step)
    if (range % t == 0)
      return t;
  return 0;
}

} // namespace dlc

#endif // DLC_SUPPORT_SHAPE_H
