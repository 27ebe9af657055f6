//===- ModelBuilder.h - layers for the zoo's model builders -----*- C++ -*-===//
#ifndef DLC_LIB_ZOO_MODELBUILDER_H
#define DLC_LIB_ZOO_MODELBUILDER_H

#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Runtime/Tensor.h"
#include "dlc/Zoo/Zoo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace dlc::zoo {

/// Builds @main layer by layer. Every op is located at its layer name
/// (torchvision style, e.g. "layer1.0.conv1"), and every weight is a
/// dense_resource constant of that name with values fixed by (seed, name).
class ModelBuilder {
public:
  ModelBuilder(mlir::MLIRContext &context, uint64_t seed);

  struct Input {
    llvm::StringRef name;
    mlir::RankedTensorType type;
    /// Valid values [lo, hi) of an integer input (token ids, types, masks):
    /// recorded as `dlc.input_range` so that random inputs are meaningful.
    std::optional<std::pair<int64_t, int64_t>> range = std::nullopt;
  };
  /// Starts @main with these inputs; returns the arguments.
  llvm::SmallVector<mlir::Value> begin(llvm::ArrayRef<Input> inputs);
  /// Returns `results` and hands over the module.
  mlir::OwningOpRef<mlir::ModuleOp> finish(mlir::ValueRange results);

  // Generic ops (types inferred); `name` locates the op.
  mlir::Value op(llvm::StringRef opName, llvm::StringRef name,
                 mlir::ValueRange operands,
                 llvm::ArrayRef<mlir::NamedAttribute> attrs = {},
                 mlir::Type resultType = {});
  llvm::SmallVector<mlir::Value> ops(llvm::StringRef opName, llvm::StringRef name,
                                     mlir::ValueRange operands,
                                     llvm::ArrayRef<mlir::NamedAttribute> attrs,
                                     mlir::TypeRange resultTypes,
                                     unsigned numResults);
  mlir::NamedAttribute attr(llvm::StringRef name, mlir::Attribute value) {
    return b.getNamedAttr(name, value);
  }
  mlir::NamedAttribute ints(llvm::StringRef name, llvm::ArrayRef<int64_t> v) {
    return attr(name, b.getDenseI64ArrayAttr(v));
  }
  mlir::NamedAttribute i64(llvm::StringRef name, int64_t v) {
    return attr(name, b.getI64IntegerAttr(v));
  }
  mlir::NamedAttribute f64(llvm::StringRef name, double v) {
    return attr(name, b.getF64FloatAttr(v));
  }

  // Weights and constants.
  /// Uniform in [-bound, bound).
  mlir::Value param(llvm::StringRef name, llvm::ArrayRef<int64_t> shape,
                    double bound);
  /// Uniform in [lo, hi).
  mlir::Value paramRange(llvm::StringRef name, llvm::ArrayRef<int64_t> shape,
                         double lo, double hi);
  mlir::Value constant(const Tensor &t, llvm::StringRef name);
  mlir::Value scalar(double v);

  // Layers.
  mlir::Value conv(mlir::Value x, llvm::StringRef name, int64_t out, int64_t k,
                   int64_t stride, int64_t pad, int64_t groups = 1,
                   bool bias = false);
  /// Inference-time batch norm with gamma uniform in [gammaLo, gammaHi).
  mlir::Value batchNorm(mlir::Value x, llvm::StringRef name,
                        double gammaLo = 0.5, double gammaHi = 1.5);
  mlir::Value relu(mlir::Value x, llvm::StringRef name);
  mlir::Value relu6(mlir::Value x, llvm::StringRef name);
  mlir::Value add(mlir::Value a, mlir::Value b, llvm::StringRef name);
  mlir::Value mul(mlir::Value a, mlir::Value b, llvm::StringRef name);
  mlir::Value dense(mlir::Value x, llvm::StringRef name, int64_t out);
  mlir::Value layerNorm(mlir::Value x, llvm::StringRef name, double eps);
  mlir::Value reshape(mlir::Value x, llvm::ArrayRef<int64_t> shape,
                      llvm::StringRef name);
  mlir::Value transpose(mlir::Value x, llvm::ArrayRef<int64_t> perm,
                        llvm::StringRef name);
  mlir::Value globalPoolFlatten(mlir::Value x, llvm::StringRef name);

  static llvm::ArrayRef<int64_t> shape(mlir::Value v) {
    return llvm::cast<mlir::RankedTensorType>(v.getType()).getShape();
  }
  mlir::OpBuilder &builder() { return b; }
  mlir::MLIRContext &context() { return ctx; }

private:
  mlir::Location loc(llvm::StringRef name);

  mlir::MLIRContext &ctx;
  mlir::OpBuilder b;
  uint64_t seed;
  /// Each parameter's range, by name (dlc.zoo.weights).
  llvm::SmallVector<mlir::NamedAttribute> ranges;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp func;
};

// The model builders (one file each).
mlir::Value buildResNetBody(ModelBuilder &m, mlir::Value x,
                            llvm::ArrayRef<int64_t> blocks, bool bottleneck,
                            int64_t numStages, bool strideOneLastStage);
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
buildResNet(mlir::MLIRContext &ctx, const ZooOptions &o, int depth);
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
buildMobileNetV2(mlir::MLIRContext &ctx, const ZooOptions &o);
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
buildSsdResNet50(mlir::MLIRContext &ctx, const ZooOptions &o);
struct BertConfig {
  int64_t layers, hidden, heads, ffn, vocab = 30522, maxPositions = 512;
};
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
buildBert(mlir::MLIRContext &ctx, const ZooOptions &o, const BertConfig &cfg);

} // namespace dlc::zoo

#endif // DLC_LIB_ZOO_MODELBUILDER_H
