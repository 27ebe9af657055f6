//===- MobileNetV2.cpp - MobileNetV2 (as torchvision) ----------------------===//
//
// Sandler et al., "MobileNetV2: Inverted Residuals and Linear Bottlenecks":
// expansion 1x1 conv, depthwise 3x3 conv, linear 1x1 projection, ReLU6.
//
//===----------------------------------------------------------------------===//
#include "ModelBuilder.h"

using namespace mlir;
using namespace dlc::zoo;

static Value convBnRelu6(ModelBuilder &m, Value x, const std::string &name,
                         int64_t out, int64_t k, int64_t stride,
                         int64_t groups) {
  Value y = m.conv(x, name + ".0", out, k, stride, (k - 1) / 2, groups);
  return m.relu6(m.batchNorm(y, name + ".1"), name + ".2");
}

static Value invertedResidual(ModelBuilder &m, Value x, const std::string &name,
                              int64_t out, int64_t stride, int64_t expand) {
  int64_t in = ModelBuilder::shape(x)[1], hidden = in * expand;
  Value y = x;
  int idx = 0;
  if (expand != 1)
    y = convBnRelu6(m, y, name + ".conv." + std::to_string(idx++), hidden, 1, 1, 1);
  y = convBnRelu6(m, y, name + ".conv." + std::to_string(idx++), hidden, 3,
                  stride, hidden);
  y = m.conv(y, name + ".conv." + std::to_string(idx), out, 1, 1, 0);
  y = m.batchNorm(y, name + ".conv." + std::to_string(idx + 1));
  if (stride == 1 && in == out)
    y = m.add(x, y, name + ".add");
  return y;
}

llvm::Expected<OwningOpRef<ModuleOp>>
dlc::zoo::buildMobileNetV2(MLIRContext &ctx, const ZooOptions &o) {
  ModelBuilder m(ctx, o.seed);
  auto f32 = Float32Type::get(&ctx);
  Value x = m.begin({{"image", RankedTensorType::get(
                                   {o.batch, 3, o.image, o.image}, f32)}})[0];
  // t (expansion), c (channels), n (repeats), s (first stride)
  const int64_t settings[7][4] = {{1, 16, 1, 1},  {6, 24, 2, 2},  {6, 32, 3, 2},
                                  {6, 64, 4, 2},  {6, 96, 3, 1},  {6, 160, 3, 2},
                                  {6, 320, 1, 1}};
  x = convBnRelu6(m, x, "features.0", 32, 3, 2, 1);
  int block = 1;
  for (const auto &s : settings)
    for (int64_t i = 0; i < s[2]; ++i, ++block)
      x = invertedResidual(m, x, "features." + std::to_string(block), s[1],
                           i == 0 ? s[3] : 1, s[0]);
  x = convBnRelu6(m, x, "features." + std::to_string(block), 1280, 1, 1, 1);
  Value logits = m.dense(m.globalPoolFlatten(x, "avgpool"), "classifier.1", 1000);
  return m.finish(logits);
}
