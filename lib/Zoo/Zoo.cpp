//===- Zoo.cpp - the builtin model registry --------------------------------===//
#include "ModelBuilder.h"

using namespace mlir;
using namespace dlc::zoo;

static const ModelInfo kModels[] = {
    {"resnet18", "ResNet-18 (torchvision), 1000 classes", 224},
    {"resnet50", "ResNet-50 v1.5 (torchvision), 1000 classes", 224},
    {"mobilenet_v2", "MobileNetV2 (torchvision), 1000 classes", 224},
    {"ssd_resnet50", "SSD300 with a ResNet-50 backbone (NVIDIA), 81 classes, "
                     "box decoding and NMS (200 detections)",
     300},
    {"bert_base", "BERT-base (12 layers, hidden 768, 12 heads, FFN 3072) "
                  "with a question-answering head",
     0},
    {"bert_tiny", "BERT-tiny (2 layers, hidden 128, 2 heads, FFN 512) with a "
                  "question-answering head",
     0},
};

ArrayRef<ModelInfo> dlc::zoo::models() { return kModels; }

llvm::Expected<OwningOpRef<ModuleOp>>
dlc::zoo::buildModel(StringRef name, MLIRContext &ctx, const ZooOptions &in) {
  const ModelInfo *info = nullptr;
  for (const ModelInfo &m : kModels)
    if (m.name == name)
      info = &m;
  if (!info) {
    std::string names;
    for (const ModelInfo &m : kModels)
      names += (names.empty() ? "" : ", ") + m.name.str();
    return llvm::createStringError("unknown model '" + name.str() +
                                   "' (available: " + names + ")");
  }
  ZooOptions o = in;
  if (o.batch < 1)
    return llvm::createStringError(name.str() + ": --batch must be >= 1");
  if (info->defaultImage) {
    if (!o.image)
      o.image = info->defaultImage;
    // SSD's sixth feature map needs at least 17x17 features after layer2,
    // i.e. 257 pixels; the classifiers' five stride-2 stages need 32.
    int64_t minImage = name == "ssd_resnet50" ? 257 : 32;
    if (o.image < minImage)
      return llvm::createStringError(
          name.str() + ": --image must be >= " + std::to_string(minImage) +
          ", got " + std::to_string(o.image));
  }
  if (name == "resnet18")
    return buildResNet(ctx, o, 18);
  if (name == "resnet50")
    return buildResNet(ctx, o, 50);
  if (name == "mobilenet_v2")
    return buildMobileNetV2(ctx, o);
  if (name == "ssd_resnet50")
    return buildSsdResNet50(ctx, o);
  if (name == "bert_base")
    return buildBert(ctx, o, {12, 768, 12, 3072});
  return buildBert(ctx, o, {2, 128, 2, 512});
}
