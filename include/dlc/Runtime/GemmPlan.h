//===- GemmPlan.h - a strided matrix product as one cuBLAS call -*- C++ -*-===//
//
// dlc hands matrix products of partitions for the `cublas` target to
// cuBLAS's column-major strided batched GEMM. dlc's buffers are row-major
// views with any strides: planGemm maps C = A B over three views to the
// call's arguments (which operand comes first, transposes, leading
// dimensions, batch strides), or says why no call computes it. The CUDA
// runtime calls cuBLAS with the plan; the GPU emulator and the unit tests
// compute the plan's call with columnMajorGemm, cuBLAS's semantics, so that
// they check the mapping itself. Free of LLVM (compiled GPU models carry
// the runtime).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_RUNTIME_GEMMPLAN_H
#define DLC_RUNTIME_GEMMPLAN_H

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace dlc {

/// The runtime's calls, `dlc_cublas_gemm_<in>_<out>(A, B, C, flags)` over
/// rank-3 views (CUBLASRuntime.cpp), and their flags.
inline constexpr const char *kCublasGemmPrefix = "dlc_cublas_gemm_";
inline constexpr int32_t kGemmAccumulate = 1; ///< C += A B, else C = A B
inline constexpr int32_t kGemmTF32 = 2;       ///< f32 products on TF32 tensor cores

/// A batch of matrices in memory: element (p, i, j) at offset
/// p * batchStride + i * rowStride + j * colStride from the first.
struct MatrixView {
  int64_t batch = 1, rows = 1, cols = 1;
  int64_t batchStride = 0, rowStride = 0, colStride = 0;

  MatrixView transposed() const {
    return {batch, cols, rows, batchStride, colStride, rowStride};
  }
};

/// One column-major strided batched GEMM (cublasGemmStridedBatchedEx):
/// for each p < batch, C_p = alpha op(X_p) op(Y_p) + beta C_p with C_p of
/// m x n, op(X_p) of m x k and op(Y_p) of k x n, X_p at p * strideX.
/// `swapped`: X is dlc's B and Y its A (a row-major C is the column-major
/// C^T = B^T A^T).
struct GemmPlan {
  bool swapped = false, transX = false, transY = false;
  int64_t m = 0, n = 0, k = 0, batch = 1;
  int64_t ldx = 1, ldy = 1, ldc = 1;
  int64_t strideX = 0, strideY = 0, strideC = 0;
};

namespace gemm_plan_detail {
/// How a column-major call reads a view: transposed or not, with its
/// leading dimension; not `valid` where neither of its dimensions is
/// contiguous (or its other dimension's elements overlap).
struct Layout {
  bool valid = false, transposed = false;
  int64_t ld = 1;
};

inline Layout columnMajor(const MatrixView &v) {
  int64_t rows = std::max<int64_t>(v.rows, 1), cols = std::max<int64_t>(v.cols, 1);
  if (v.rowStride == 1 || v.rows == 1) { // stored as rows x cols, columns apart
    int64_t ld = v.cols == 1 ? rows : v.colStride;
    if (ld >= rows)
      return {true, false, ld};
  }
  if (v.colStride == 1 || v.cols == 1) { // stored as its transpose
    int64_t ld = v.rows == 1 ? cols : v.rowStride;
    if (ld >= cols)
      return {true, true, ld};
  }
  return {};
}
} // namespace gemm_plan_detail

/// The call that computes C = A B (plus C's values when the call's beta is
/// 1) over the views, or nothing, with `why` set. Batches of one are
/// broadcast (stride 0).
inline std::optional<GemmPlan> planGemm(MatrixView a, MatrixView b, MatrixView c,
                                        std::string &why) {
  using gemm_plan_detail::columnMajor;
  using gemm_plan_detail::Layout;
  if (a.rows != c.rows || b.cols != c.cols || a.cols != b.rows) {
    why = "the operands' shapes do not make a product";
    return std::nullopt;
  }
  for (MatrixView *v : {&a, &b})
    if (v->batch != c.batch && v->batch != 1) {
      why = "an operand's batch is neither the result's nor 1";
      return std::nullopt;
    }
  GemmPlan plan;
  // A C cuBLAS cannot write as it is (row-major) is the column-major
  // C^T = B^T A^T.
  if (Layout l = columnMajor(c); !l.valid || l.transposed) {
    plan.swapped = true;
    MatrixView at = a.transposed();
    a = b.transposed();
    b = at;
    c = c.transposed();
  }
  Layout x = columnMajor(a), y = columnMajor(b), z = columnMajor(c);
  if (!x.valid || !y.valid || !z.valid || z.transposed) {
    why = "an operand has neither its rows nor its columns contiguous";
    return std::nullopt;
  }
  plan.transX = x.transposed;
  plan.transY = y.transposed;
  plan.ldx = x.ld;
  plan.ldy = y.ld;
  plan.ldc = z.ld;
  plan.m = c.rows;
  plan.n = c.cols;
  plan.k = a.cols;
  plan.batch = c.batch;
  plan.strideX = a.batch == 1 ? 0 : a.batchStride;
  plan.strideY = b.batch == 1 ? 0 : b.batchStride;
  plan.strideC = c.batch == 1 ? 0 : c.batchStride;
  constexpr int64_t kMaxInt = std::numeric_limits<int32_t>::max();
  for (int64_t v : {plan.m, plan.n, plan.k, plan.batch, plan.ldx, plan.ldy, plan.ldc})
    if (v > kMaxInt) {
      why = "a size or leading dimension does not fit cuBLAS's 32-bit int";
      return std::nullopt;
    }
  return plan;
}

/// What cuBLAS computes for `plan`, element by element: `x`, `y` and `c`
/// read an operand's element at an offset (in elements) from its first,
/// `store` writes C's.
template <typename LoadX, typename LoadY, typename LoadC, typename StoreC>
void columnMajorGemm(const GemmPlan &plan, double alpha, double beta, LoadX x, LoadY y, LoadC c,
                     StoreC store) {
  for (int64_t p = 0; p < plan.batch; ++p)
    for (int64_t j = 0; j < plan.n; ++j)
      for (int64_t i = 0; i < plan.m; ++i) {
        double sum = 0;
        for (int64_t l = 0; l < plan.k; ++l) {
          int64_t xi = plan.transX ? l + i * plan.ldx : i + l * plan.ldx;
          int64_t yi = plan.transY ? j + l * plan.ldy : l + j * plan.ldy;
          sum += x(p * plan.strideX + xi) * y(p * plan.strideY + yi);
        }
        int64_t ci = p * plan.strideC + i + j * plan.ldc;
        store(ci, alpha * sum + (beta == 0 ? 0.0 : beta * c(ci)));
      }
}

} // namespace dlc

#endif // DLC_RUNTIME_GEMMPLAN_H
