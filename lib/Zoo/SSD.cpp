//===- SSD.cpp - SSD300 with a ResNet-50 backbone --------------------------===//
//
// Liu et al., "SSD: Single Shot MultiBox Detector", as NVIDIA's SSD300 v1.1
// (the MLPerf reference): ResNet-50 up to conv4_x with its first block's
// stride set to 1 (38x38 features at 300x300), five extra blocks, 3x3 class
// and box heads on six feature maps (4, 6, 6, 6, 4, 4 default boxes per
// position; 8732 in all), box decoding against the default boxes, softmax,
// and static-shape non-maximum suppression (200 detections).
//
//===----------------------------------------------------------------------===//
#include "ModelBuilder.h"
#include "dlc/Runtime/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace dlc;
using namespace dlc::zoo;

static constexpr int64_t kClasses = 81; // COCO + background

/// Default boxes (cx, cy, w, h) for the feature map sizes, in the head's order:
/// per feature map, each box shape, then each position row by row.
static Tensor defaultBoxes(int64_t image, ArrayRef<int64_t> featureSizes) {
  // NVIDIA's dboxes300_coco, scaled to the image size.
  const double scales[7] = {21, 45, 99, 153, 207, 261, 315};
  const std::vector<std::vector<double>> ratios = {{2}, {2, 3}, {2, 3},
                                                   {2, 3}, {2}, {2}};
  std::vector<double> boxes;
  for (size_t k = 0; k < featureSizes.size(); ++k) {
    double s1 = scales[k] / 300.0, s2 = scales[k + 1] / 300.0;
    std::vector<std::pair<double, double>> sizes = {{s1, s1},
                                                    {std::sqrt(s1 * s2), std::sqrt(s1 * s2)}};
    for (double a : ratios[k]) {
      double w = s1 * std::sqrt(a), h = s1 / std::sqrt(a);
      sizes.push_back({w, h});
      sizes.push_back({h, w});
    }
    int64_t f = featureSizes[k];
    for (auto [w, h] : sizes)
      for (int64_t i = 0; i < f; ++i)
        for (int64_t j = 0; j < f; ++j) {
          double cx = (j + 0.5) / f, cy = (i + 0.5) / f;
          for (double v : {cx, cy, w, h})
            boxes.push_back(std::clamp(v, 0.0, 1.0));
        }
  }
  (void)image;
  Tensor t(DType::F32, {static_cast<int64_t>(boxes.size() / 4), 4});
  for (size_t i = 0; i < boxes.size(); ++i)
    t.data[i] = roundToDType(DType::F32, boxes[i]);
  return t;
}

static Value extraBlock(ModelBuilder &m, Value x, const std::string &name,
                        int64_t mid, int64_t out, int64_t stride, int64_t pad) {
  Value y = m.relu(m.batchNorm(m.conv(x, name + ".0", mid, 1, 1, 0), name + ".1"),
                   name + ".2");
  return m.relu(m.batchNorm(m.conv(y, name + ".3", out, 3, stride, pad), name + ".4"),
                name + ".5");
}

llvm::Expected<OwningOpRef<ModuleOp>>
dlc::zoo::buildSsdResNet50(MLIRContext &ctx, const ZooOptions &o) {
  ModelBuilder m(ctx, o.seed);
  auto f32 = Float32Type::get(&ctx);
  Value image = m.begin({{"image", RankedTensorType::get(
                                       {o.batch, 3, o.image, o.image}, f32)}})[0];
  // Backbone: conv1 .. layer3, with layer3 not striding.
  SmallVector<Value> features;
  features.push_back(buildResNetBody(m, image, {3, 4, 6}, true, 3, true));
  const int64_t extras[5][4] = {// mid, out, stride, pad
                                {256, 512, 2, 1},
                                {256, 512, 2, 1},
                                {128, 256, 2, 1},
                                {128, 256, 1, 0},
                                {128, 256, 1, 0}};
  for (int i = 0; i < 5; ++i)
    features.push_back(extraBlock(m, features.back(),
                                  "additional_blocks." + std::to_string(i),
                                  extras[i][0], extras[i][1], extras[i][2],
                                  extras[i][3]));
  const int64_t boxesPerPosition[6] = {4, 6, 6, 6, 4, 4};
  SmallVector<Value> locs, confs;
  SmallVector<int64_t> sizes;
  for (int i = 0; i < 6; ++i) {
    ArrayRef<int64_t> s = ModelBuilder::shape(features[i]);
    sizes.push_back(s[2]);
    int64_t nd = boxesPerPosition[i], positions = s[2] * s[3];
    std::string idx = std::to_string(i);
    Value loc = m.conv(features[i], "loc." + idx, nd * 4, 3, 1, 1, 1, true);
    Value conf = m.conv(features[i], "conf." + idx, nd * kClasses, 3, 1, 1, 1, true);
    locs.push_back(m.reshape(loc, {o.batch, 4, nd * positions}, "loc." + idx + ".view"));
    confs.push_back(m.reshape(conf, {o.batch, kClasses, nd * positions},
                              "conf." + idx + ".view"));
  }
  Value loc = m.op(dlc::graph::ConcatOp::getOperationName(), "loc.cat", locs, {m.i64("axis", 2)});
  Value conf = m.op(dlc::graph::ConcatOp::getOperationName(), "conf.cat", confs, {m.i64("axis", 2)});

  // Decode: xy = loc.xy * 0.1 * dbox.wh + dbox.xy; wh = exp(loc.wh * 0.2) * dbox.wh.
  Tensor dboxes = defaultBoxes(o.image, sizes);
  int64_t numBoxes = dboxes.shape[0];
  Tensor dxy(DType::F32, {numBoxes, 2}), dwh(DType::F32, {numBoxes, 2});
  for (int64_t b = 0; b < numBoxes; ++b)
    for (int q = 0; q < 2; ++q) {
      dxy.data[b * 2 + q] = dboxes.data[b * 4 + q];
      dwh.data[b * 2 + q] = dboxes.data[b * 4 + 2 + q];
    }
  Value boxXY = m.constant(dxy, "default_boxes.xy");
  Value boxWH = m.constant(dwh, "default_boxes.wh");
  Value t = m.transpose(loc, {0, 2, 1}, "decode.permute"); // [N, B, 4]
  auto half = [&](int64_t start, StringRef name) {
    return m.op(dlc::graph::SliceOp::getOperationName(), name, t,
                {m.ints("starts", {0, 0, start}),
                 m.ints("ends", {o.batch, numBoxes, start + 2}),
                 m.ints("steps", {1, 1, 1})});
  };
  Value xy = m.add(m.mul(m.mul(half(0, "decode.xy"), m.scalar(0.1), "decode.scale_xy"),
                         boxWH, "decode.xy_wh"),
                   boxXY, "decode.xy_offset");
  Value wh = m.mul(m.op(dlc::graph::ExpOp::getOperationName(), "decode.exp",
                        m.mul(half(2, "decode.wh"), m.scalar(0.2), "decode.scale_wh")),
                   boxWH, "decode.wh_scale");
  Value halfWH = m.mul(wh, m.scalar(0.5), "decode.half_wh");
  Value lt = m.op(dlc::graph::SubOp::getOperationName(), "decode.lt", {xy, halfWH});
  Value rb = m.add(xy, halfWH, "decode.rb");
  Value boxes = m.op(dlc::graph::ConcatOp::getOperationName(), "decode.ltrb", {lt, rb}, {m.i64("axis", 2)});
  Value scores = m.op(dlc::graph::SoftmaxOp::getOperationName(), "scores", conf, {m.i64("axis", 1)});
  SmallVector<Value> detections = m.ops(
      dlc::graph::NmsOp::getOperationName(), "nms", {boxes, scores},
      {m.f64("iou_threshold", 0.5), m.f64("score_threshold", 0.05),
       m.i64("max_detections", 200), m.i64("background_class", 0)},
      {}, 3);
  return m.finish(detections);
}
