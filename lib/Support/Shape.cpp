//===- Shape.cpp - shape arithmetic ----------------------------------------===//
#include "dlc/Support/Shape.h"

#include "llvm/Support/ErrorHandling.h"

#include <algorithm>

using namespace dlc;

std::optional<Shape> dlc::broadcastShapes(llvm::ArrayRef<int64_t> a,
                                          llvm::ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  Shape result(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    result[i] = da == 1 ? db : da;
  }
  return result;
}

std::optional<int64_t> dlc::normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

int64_t dlc::numElements(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::optional<int64_t> dlc::checkedNumElements(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    // Both factors are at most 2^48: their product fits in 128 bits.
    if (d < 0 || d > kMaxTensorElements ||
        static_cast<__int128>(n) * d > kMaxTensorElements)
      return std::nullopt;
    n *= d;
  }
  return n;
}

Shape dlc::rowMajorStrides(llvm::ArrayRef<int64_t> shape) {
  Shape strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

template <typename T>
static void permute(const T *in, llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> perm,
                    T *out) {
  // Axes of one element moved nowhere: without them, a 1 x 1 kernel's
  // OIHW -> HWIO is the transpose [O, I] -> [I, O].
  llvm::SmallVector<int64_t> kept; // output order, input axes
  for (int64_t a : perm)
    if (shape[a] != 1)
      kept.push_back(a);
  // Runs of output axes that are consecutive input axes (among the kept),
  // as one axis each: OIHW -> HWIO is [O, I, HW] -> [HW, I, O].
  auto nextKept = [&](int64_t a) {
    for (++a; a < static_cast<int64_t>(shape.size()) && shape[a] == 1;)
      ++a;
    return a;
  };
  llvm::SmallVector<int64_t> firstOf; // per run, in output order: its first input axis
  Shape runSize;
  for (size_t i = 0; i < kept.size(); ++i) {
    if (i > 0 && kept[i] == nextKept(kept[i - 1])) {
      runSize.back() *= shape[kept[i]];
      continue;
    }
    firstOf.push_back(kept[i]);
    runSize.push_back(shape[kept[i]]);
  }
  int64_t r = static_cast<int64_t>(firstOf.size());
  if (r == 0) {
    *out = *in;
    return;
  }
  // The runs in input order: their shape there and the permutation.
  llvm::SmallVector<int64_t> byInput(r);
  for (int64_t i = 0; i < r; ++i)
    byInput[i] = i;
  std::sort(byInput.begin(), byInput.end(),
            [&](int64_t a, int64_t b) { return firstOf[a] < firstOf[b]; });
  Shape inShape(r), p(r), outShape(runSize);
  for (int64_t k = 0; k < r; ++k) {
    inShape[k] = runSize[byInput[k]];
    p[byInput[k]] = k;
  }
  Shape inStrides = rowMajorStrides(inShape), outStrides = rowMajorStrides(outShape);
  int64_t inner = outShape[r - 1], innerStride = inStrides[p[r - 1]];
  // The output axis that is the input's innermost (the last one when the
  // permutation keeps it), and the outer axes, those of neither.
  int64_t q = std::find(p.begin(), p.end(), r - 1) - p.begin();
  llvm::SmallVector<int64_t> outer;
  for (int64_t i = 0; i + 1 < r; ++i)
    if (i != q)
      outer.push_back(i);
  Shape index(outer.size(), 0);
  int64_t count = 1;
  for (int64_t i : outer)
    count *= outShape[i];
  constexpr int64_t kBlock = 16;
  for (int64_t step = 0; step < count; ++step) {
    int64_t inBase = 0, outBase = 0;
    for (size_t k = 0; k < outer.size(); ++k) {
      inBase += index[k] * inStrides[p[outer[k]]];
      outBase += index[k] * outStrides[outer[k]];
    }
    if (q == r - 1) {
      std::copy(in + inBase, in + inBase + inner, out + outBase);
    } else {
      int64_t extent = outShape[q], qStride = outStrides[q];
      for (int64_t jb = 0; jb < inner; jb += kBlock)
        for (int64_t qb = 0; qb < extent; qb += kBlock)
          for (int64_t i = qb; i < std::min(qb + kBlock, extent); ++i)
            for (int64_t j = jb; j < std::min(jb + kBlock, inner); ++j)
              out[outBase + i * qStride + j] = in[inBase + i + j * innerStride];
    }
    for (int64_t k = static_cast<int64_t>(outer.size()) - 1;
         k >= 0 && ++index[k] == outShape[outer[k]]; --k)
      index[k] = 0;
  }
}

void dlc::permuteElements(const void *in, int64_t width, llvm::ArrayRef<int64_t> shape,
                          llvm::ArrayRef<int64_t> perm, void *out) {
  switch (width) {
  case 1: return permute(static_cast<const uint8_t *>(in), shape, perm, static_cast<uint8_t *>(out));
  case 2: return permute(static_cast<const uint16_t *>(in), shape, perm, static_cast<uint16_t *>(out));
  case 4: return permute(static_cast<const uint32_t *>(in), shape, perm, static_cast<uint32_t *>(out));
  case 8: return permute(static_cast<const uint64_t *>(in), shape, perm, static_cast<uint64_t *>(out));
  }
  llvm_unreachable("permuteElements: elements of 1, 2, 4 or 8 bytes");
}

int64_t dlc::axisIndex(int64_t linear, llvm::ArrayRef<int64_t> shape, int64_t axis) {
  int64_t inner = 1;
  for (int64_t d : shape.drop_front(axis + 1))
    inner *= d;
  return (linear / inner) % shape[axis];
}

Shape dlc::broadcastStrides(llvm::ArrayRef<int64_t> shape,
                            llvm::ArrayRef<int64_t> target) {
  Shape own = rowMajorStrides(shape);
  Shape strides(target.size(), 0);
  size_t offset = target.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i)
    strides[offset + i] = shape[i] == 1 ? 0 : own[i];
  return strides;
}

std::string dlc::formatShape(llvm::ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += 'x';
    s += std::to_string(shape[i]);
  }
  return s;
}

int64_t dlc::windowExtent(int64_t in, int64_t padBefore, int64_t padAfter, int64_t kernel,
                          int64_t stride, int64_t dilation, bool ceilMode) {
  __int128 span = static_cast<__int128>(in) + padBefore + padAfter -
                  static_cast<__int128>(dilation) * (kernel - 1) - 1;
  __int128 out = (ceilMode ? (span + stride - 1) / stride : span / stride) + 1;
  // A window that would start in the trailing padding is dropped (PyTorch).
  if (ceilMode && (out - 1) * stride >= static_cast<__int128>(in) + padBefore)
    --out;
  return static_cast<int64_t>(out); // at most in + pads <= 3 * 2^48
}

bool dlc::windowFits(int64_t span, int64_t kernel, int64_t dilation) {
  return span >= static_cast<__int128>(dilation) * (kernel - 1) + 1;
}
