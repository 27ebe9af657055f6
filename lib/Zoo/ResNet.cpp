//===- ResNet.cpp - ResNet-18/50 (v1.5, as torchvision) --------------------===//
//
// He et al., "Deep Residual Learning for Image Recognition", with the v1.5
// change of torchvision: a bottleneck block strides in its 3x3 convolution.
//
//===----------------------------------------------------------------------===//
#include "ModelBuilder.h"

using namespace mlir;
using namespace dlc::zoo;

static constexpr double kResidualGammaLo = 0.1, kResidualGammaHi = 0.3;

static Value basicBlock(ModelBuilder &m, Value x, const std::string &name,
                        int64_t planes, int64_t stride) {
  Value out = m.relu(m.batchNorm(m.conv(x, name + ".conv1", planes, 3, stride, 1),
                                 name + ".bn1"),
                     name + ".relu1");
  // A small last gamma keeps the residual sum's scale bounded over depth, as
  // trained networks have it (random statistics do not normalize).
  out = m.batchNorm(m.conv(out, name + ".conv2", planes, 3, 1, 1), name + ".bn2",
                    kResidualGammaLo, kResidualGammaHi);
  Value identity = x;
  if (stride != 1 || ModelBuilder::shape(x)[1] != planes)
    identity = m.batchNorm(m.conv(x, name + ".downsample.0", planes, 1, stride, 0),
                           name + ".downsample.1");
  return m.relu(m.add(out, identity, name + ".add"), name + ".relu2");
}

static Value bottleneck(ModelBuilder &m, Value x, const std::string &name,
                        int64_t planes, int64_t stride) {
  Value out = m.relu(m.batchNorm(m.conv(x, name + ".conv1", planes, 1, 1, 0),
                                 name + ".bn1"),
                     name + ".relu1");
  out = m.relu(m.batchNorm(m.conv(out, name + ".conv2", planes, 3, stride, 1),
                           name + ".bn2"),
               name + ".relu2");
  out = m.batchNorm(m.conv(out, name + ".conv3", planes * 4, 1, 1, 0),
                    name + ".bn3", kResidualGammaLo, kResidualGammaHi);
  Value identity = x;
  if (stride != 1 || ModelBuilder::shape(x)[1] != planes * 4)
    identity = m.batchNorm(
        m.conv(x, name + ".downsample.0", planes * 4, 1, stride, 0),
        name + ".downsample.1");
  return m.relu(m.add(out, identity, name + ".add"), name + ".relu3");
}

Value dlc::zoo::buildResNetBody(ModelBuilder &m, Value x,
                                ArrayRef<int64_t> blocks, bool isBottleneck,
                                int64_t numStages, bool strideOneLastStage) {
  x = m.relu(m.batchNorm(m.conv(x, "conv1", 64, 7, 2, 3), "bn1"), "relu");
  x = m.op(dlc::graph::MaxPool2DOp::getOperationName(), "maxpool", x,
           {m.ints("kernel_size", {3, 3}), m.ints("strides", {2, 2}),
            m.ints("padding", {1, 1, 1, 1})});
  for (int64_t stage = 0; stage < numStages; ++stage) {
    int64_t planes = 64 << stage;
    for (int64_t i = 0; i < blocks[stage]; ++i) {
      int64_t stride = (i == 0 && stage > 0) ? 2 : 1;
      if (stage == numStages - 1 && strideOneLastStage)
        stride = 1;
      std::string name =
          "layer" + std::to_string(stage + 1) + "." + std::to_string(i);
      x = isBottleneck ? bottleneck(m, x, name, planes, stride)
                       : basicBlock(m, x, name, planes, stride);
    }
  }
  return x;
}

llvm::Expected<OwningOpRef<ModuleOp>>
dlc::zoo::buildResNet(MLIRContext &ctx, const ZooOptions &o, int depth) {
  ModelBuilder m(ctx, o.seed);
  auto f32 = Float32Type::get(&ctx);
  Value image = m.begin({{"image", RankedTensorType::get(
                                       {o.batch, 3, o.image, o.image}, f32)}})[0];
  bool isBottleneck = depth == 50;
  SmallVector<int64_t> blocks = isBottleneck ? SmallVector<int64_t>{3, 4, 6, 3}
                                             : SmallVector<int64_t>{2, 2, 2, 2};
  Value features = buildResNetBody(m, image, blocks, isBottleneck, 4, false);
  Value logits = m.dense(m.globalPoolFlatten(features, "avgpool"), "fc", 1000);
  return m.finish(logits);
}
