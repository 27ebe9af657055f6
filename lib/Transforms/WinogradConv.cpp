//===- WinogradConv.cpp - 3x3 convolutions by Winograd's algorithm --------===//
//
// TVM's AlterOpLayout replaces a 3x3 convolution by
// contrib_conv2d_winograd_without_weight_transform where the target's
// strategy picks Winograd, and FoldConstant then transforms the weights.
// dlc transforms the constant weights right here, so that no pass order can
// leave the transform to run with every inference.
//
//===----------------------------------------------------------------------===//
#include "WinogradConv.h"

#include "PassUtils.h"
#include "dlc/Support/Winograd.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Threading.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

/// NCHW with OIHW kernels, or NHWC with HWIO ones.
static bool isNHWC(Conv2DOp conv) { return conv.getDataLayout() == "NHWC"; }

/// Whether F(m x m, 3 x 3) computes `conv` at all, whatever its size.
static bool isWinogradShape(Conv2DOp conv) {
  auto w = tensorType(conv.getWeight());
  auto is = [](ArrayRef<int64_t> a, int64_t x, int64_t y) { return a[0] == x && a[1] == y; };
  bool layouts = isNHWC(conv) ? conv.getKernelLayout() == "HWIO"
                              : conv.getDataLayout() == "NCHW" && conv.getKernelLayout() == "OIHW";
  int64_t kh = isNHWC(conv) ? 0 : 2;
  return layouts && conv.getGroups() == 1 && w.getDimSize(kh) == 3 && w.getDimSize(kh + 1) == 3 &&
         is(conv.getStrides(), 1, 1) && is(conv.getDilations(), 1, 1) &&
         conv.getType().getElementType().isF32() && w.hasStaticShape() &&
         conv.getType().hasStaticShape();
}

/// The largest tile, 4 or 2, that gives the output at least `minTiles`
/// tiles; 0 if none does.
static int64_t chooseTile(Conv2DOp conv, int64_t minTiles) {
  RankedTensorType out = conv.getType();
  int64_t h = isNHWC(conv) ? 1 : 2;
  for (int64_t m : {4, 2}) {
    int64_t tiles = out.getDimSize(0) * llvm::divideCeil(out.getDimSize(h), m) *
                    llvm::divideCeil(out.getDimSize(h + 1), m);
    if (tiles >= minTiles)
      return m;
  }
  return 0;
}

void dlc::rewriteWinogradConvs(func::FuncOp func, int64_t minTiles, StringRef pass) {
  struct Job {
    Conv2DOp conv;
    ConstantOp weights;
    int64_t tile;
    ArrayRef<float> kernels;
    AsmResourceBlob transformed;
    std::vector<float> read; ///< the kernels of a constant without f32 bytes (a splat)
  };
  int64_t small = 0, unreadable = 0;
  SmallVector<Job> jobs;
  for (Operation &op : func.getBody().getOps()) {
    auto conv = dyn_cast<Conv2DOp>(op);
    if (!conv || !isWinogradShape(conv))
      continue;
    int64_t m = chooseTile(conv, minTiles);
    if (!m) {
      ++small;
      continue;
    }
    auto constant = conv.getWeight().getDefiningOp<ConstantOp>();
    std::optional<Tensor> value;
    std::optional<ArrayRef<char>> bytes = constant ? payloadBytes(constant) : std::nullopt;
    if (!bytes && constant)
      value = constantValue(constant);
    if (!bytes && !value) {
      ++unreadable;
      continue;
    }
    int64_t alpha = m + 2, count = tensorType(conv.getWeight()).getNumElements();
    Job job{conv, constant, m, {}, allocateBlob(count / 9 * alpha * alpha * sizeof(float)), {}};
    if (bytes) {
      job.kernels = ArrayRef(reinterpret_cast<const float *>(bytes->data()), count);
    } else {
      job.read.assign(value->data.begin(), value->data.end());
      job.kernels = job.read;
    }
    jobs.push_back(std::move(job));
  }
  // The transforms (ResNet-50's 11 convolutions, SSD's 16 with its 48 MB
  // class head) on the context's threads.
  parallelForEach(func.getContext(), jobs, [](Job &job) {
    RankedTensorType wt = tensorType(job.conv.getWeight());
    MutableArrayRef<char> bytes = job.transformed.getMutableData();
    MutableArrayRef<float> out(reinterpret_cast<float *>(bytes.data()),
                               bytes.size() / sizeof(float));
    if (isNHWC(job.conv))
      winograd::transformWeightsHWIO(job.kernels, wt.getDimSize(2), wt.getDimSize(3), job.tile,
                                     out);
    else
      winograd::transformWeights(job.kernels, wt.getDimSize(0), wt.getDimSize(1), job.tile, out);
  });
  for (Job &job : jobs) {
    // OIHW [O, C, 3, 3] -> [alpha^2, O, C]; HWIO [3, 3, C, O] -> [alpha^2, C, O].
    RankedTensorType wt = tensorType(job.conv.getWeight());
    int64_t alpha = job.tile + 2, first = isNHWC(job.conv) ? 2 : 0;
    auto ut = RankedTensorType::get(
        {alpha * alpha, wt.getDimSize(first), wt.getDimSize(first + 1)}, wt.getElementType());
    OpBuilder b(job.conv);
    Value weight = ConstantOp::create(
        b, job.weights.getLoc(),
        DenseResourceElementsAttr::get(ut, "winograd", std::move(job.transformed)));
    SmallVector<Value> operands{job.conv.getInput(), weight};
    if (Value bias = job.conv.getBias())
      operands.push_back(bias);
    auto replacement = Conv2DWinogradOp::create(
        b, job.conv.getLoc(), job.conv.getType(), operands,
        {b.getNamedAttr("tile", b.getI64IntegerAttr(job.tile)),
         b.getNamedAttr("padding", job.conv.getPaddingAttr()),
         b.getNamedAttr("data_layout", job.conv.getDataLayoutAttr())});
    job.conv.getResult().replaceAllUsesWith(replacement.getResult());
    job.conv.erase();
    if (job.weights.use_empty())
      job.weights.erase();
  }
  recordPassStat(pass, "winograd", static_cast<int64_t>(jobs.size()));
  recordPassStat(pass, "winograd-small", small);
  recordPassStat(pass, "winograd-weights", unreadable);
}
