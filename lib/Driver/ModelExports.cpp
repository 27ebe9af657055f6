//===- ModelExports.cpp - what a compiled model tells a program -----------===//
#include "ModelExports.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Runtime/Tensor.h"
#include "dlc/Support/Random.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace dlc;

/// A private constant C string global named `name`.
static LLVM::GlobalOp stringGlobal(OpBuilder &b, Location loc, StringRef name,
                                   StringRef value, LLVM::Linkage linkage) {
  std::string bytes = value.str();
  bytes.push_back('\0');
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size());
  return LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true, linkage, name,
                                b.getStringAttr(bytes));
}

void dlc::addSignatureExport(
    ModuleOp module, StringRef symbol, FunctionType signature,
    ArrayRef<std::optional<std::pair<int64_t, int64_t>>> inputRanges,
    ArrayRef<DetectionOutputs> detections) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto line = [&](StringRef kind, Type type) {
    auto tensor = cast<RankedTensorType>(type);
    std::optional<DType> dtype = dtypeOf(tensor.getElementType());
    os << kind << " " << (dtype ? dtypeName(*dtype) : StringRef("?")) << " [";
    llvm::interleave(tensor.getShape(), os, ",");
    os << "]";
  };
  for (auto [i, t] : llvm::enumerate(signature.getInputs())) {
    line("in", t);
    if (i < inputRanges.size() && inputRanges[i])
      os << " range " << inputRanges[i]->first << " " << inputRanges[i]->second;
    os << "\n";
  }
  for (Type t : signature.getResults()) {
    line("out", t);
    os << "\n";
  }
  for (const DetectionOutputs &d : detections)
    os << "detections " << d.boxes << " " << d.scores << " " << d.classes << "\n";
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  stringGlobal(b, module.getLoc(), (symbol + "_signature").str(), text, LLVM::Linkage::External);
}

/// The bytes of a global's dense data, or nothing for data that is not
/// dense bytes (splats, sub-byte elements, other attributes).
static std::optional<ArrayRef<char>> denseBytes(Attribute value) {
  auto shaped = dyn_cast_or_null<ElementsAttr>(value);
  if (!shaped || !shaped.getElementType().isIntOrFloat() ||
      shaped.getElementType().getIntOrFloatBitWidth() % 8)
    return std::nullopt;
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (dense.isSplat())
      return std::nullopt;
    return dense.getRawData();
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
  return std::nullopt;
}

/// The zoo's recipe for a weight: its parameter's name and range, where
/// `value` is a zoo parameter (`dlc.zoo.weights` names it) whose bytes the
/// generator reproduces exactly (graph passes may have changed them).
struct ZooRecipe {
  std::string name;
  uint64_t seed;
  double lo, hi;
};
static std::optional<ZooRecipe> zooRecipe(ModuleOp module, Attribute value, ArrayRef<char> data) {
  auto resource = dyn_cast<DenseResourceElementsAttr>(value);
  auto zoo = module->getAttrOfType<DictionaryAttr>("dlc.zoo.weights");
  if (!resource || !zoo || !resource.getElementType().isF32())
    return std::nullopt;
  auto seed = zoo.getAs<IntegerAttr>("seed");
  auto ranges = zoo.getAs<DictionaryAttr>("ranges");
  StringRef name = resource.getRawHandle().getKey();
  auto range = ranges ? ranges.getAs<DenseF64ArrayAttr>(name) : DenseF64ArrayAttr();
  if (!seed || !range || range.size() != 2)
    return std::nullopt;
  ZooRecipe recipe{name.str(), seed.getValue().getZExtValue(), range[0], range[1]};
  std::vector<float> regenerated(data.size() / sizeof(float));
  zoo::uniformParameter(regenerated.data(), regenerated.size(),
                        zoo::parameterSeed(recipe.name, recipe.seed), recipe.lo, recipe.hi);
  if (regenerated.size() * sizeof(float) != data.size() ||
      std::memcmp(regenerated.data(), data.data(), data.size()) != 0)
    return std::nullopt;
  return recipe;
}

llvm::Expected<WeightsWritten> dlc::externalizeWeights(ModuleOp module, StringRef symbol,
                                                       StringRef weightsPath, uint64_t minBytes,
                                                       bool recipes) {
  std::error_code ec;
  llvm::raw_fd_ostream file(weightsPath, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError(weightsPath.str() + ": cannot write: " + ec.message());
  auto u64 = [&](uint64_t v) {
    char bytes[8];
    for (int i = 0; i < 8; ++i)
      bytes[i] = static_cast<char>(v >> (8 * i));
    file.write(bytes, 8);
  };
  auto f64 = [&](double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    u64(bits);
  };
  SmallVector<LLVM::GlobalOp> moved;
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    std::optional<ArrayRef<char>> data;
    if (global.getConstant())
      data = denseBytes(global.getValueOrNull());
    if (data && data->size() >= minBytes)
      moved.push_back(global);
  }
  file.write("DLCWGT02", 8);
  u64(moved.size());
  WeightsWritten written;
  SmallVector<int64_t> sizes;
  OpBuilder b(module.getContext());
  for (LLVM::GlobalOp global : moved) {
    auto value = cast<ElementsAttr>(*global.getValue());
    ArrayRef<char> data = *denseBytes(value);
    u64(global.getSymName().size());
    file << global.getSymName();
    u64(data.size());
    std::optional<ZooRecipe> recipe = recipes ? zooRecipe(module, value, data) : std::nullopt;
    file << static_cast<char>(recipe ? 1 : 0);
    if (recipe) {
      u64(recipe->name.size());
      file << recipe->name;
      u64(recipe->seed);
      f64(recipe->lo);
      f64(recipe->hi);
      written.regenerable += data.size();
    } else {
      file.write(data.data(), data.size());
    }
    written.bytes += data.size();
    sizes.push_back(static_cast<int64_t>(data.size()));
    // Zero-filled: the object file reserves it without storing it.
    auto type = cast<ShapedType>(value.getType());
    global.setValueAttr(DenseElementsAttr::get(type, b.getZeroAttr(type.getElementType())));
    global.setConstant(false);
  }
  file.close();
  if (file.has_error())
    return llvm::createStringError(weightsPath.str() + ": cannot write: " +
                                   file.error().message());

  // The table, in the file's order.
  Location loc = module.getLoc();
  b.setInsertionPointToEnd(module.getBody());
  auto ptr = LLVM::LLVMPointerType::get(module.getContext());
  auto entry = LLVM::LLVMStructType::getLiteral(module.getContext(), {ptr, ptr, b.getI64Type()});
  auto tableType = LLVM::LLVMArrayType::get(entry, moved.size());
  SmallVector<LLVM::GlobalOp> names;
  for (auto [i, global] : llvm::enumerate(moved))
    names.push_back(stringGlobal(b, loc, (symbol + "_weight_name_" + Twine(i)).str(),
                                 global.getSymName(), LLVM::Linkage::Private));
  auto table = LLVM::GlobalOp::create(b, loc, tableType, /*isConstant=*/true,
                                      LLVM::Linkage::External, (symbol + "_weights").str(),
                                      Attribute());
  LLVM::GlobalOp::create(b, loc, b.getI64Type(), /*isConstant=*/true, LLVM::Linkage::External,
                         (symbol + "_weights_count").str(), b.getI64IntegerAttr(moved.size()));
  b.setInsertionPointToStart(b.createBlock(&table.getInitializerRegion()));
  Value init = LLVM::UndefOp::create(b, loc, tableType);
  for (auto [i, global] : llvm::enumerate(moved)) {
    int64_t row = static_cast<int64_t>(i);
    Value name = LLVM::AddressOfOp::create(b, loc, names[i]);
    Value data = LLVM::AddressOfOp::create(b, loc, global);
    Value bytes = LLVM::ConstantOp::create(b, loc, b.getI64Type(), b.getI64IntegerAttr(sizes[i]));
    init = LLVM::InsertValueOp::create(b, loc, init, name, ArrayRef<int64_t>{row, 0});
    init = LLVM::InsertValueOp::create(b, loc, init, data, ArrayRef<int64_t>{row, 1});
    init = LLVM::InsertValueOp::create(b, loc, init, bytes, ArrayRef<int64_t>{row, 2});
  }
  LLVM::ReturnOp::create(b, loc, init);
  return written;
}
