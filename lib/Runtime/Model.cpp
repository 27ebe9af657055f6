//===- Model.cpp - loading models and their inputs -------------------------===//
#include "dlc/Runtime/Model.h"
#include "dlc/Dialect/Graph/GraphDialect.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Runtime/TensorIO.h"
#include "dlc/Support/Memory.h"
#include "dlc/Support/Shape.h"

#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace dlc;

void dlc::registerModelDialects(DialectRegistry &registry) {
  registry.insert<graph::GraphDialect, func::FuncDialect>();
}

OwningOpRef<ModuleOp> dlc::loadModel(StringRef path, MLIRContext &context,
                                     const std::shared_ptr<llvm::SourceMgr> &sourceMgr) {
  // Aligned as the weights dlc writes are (elementsAttrFromTensor): the
  // bytecode reader refuses a buffer less aligned than the file's sections.
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(
      path, /*IsText=*/false, /*RequiresNullTerminator=*/true, llvm::Align(64));
  if (!buffer) {
    emitError(UnknownLoc::get(&context), "cannot open model file '")
        << path << "': " << buffer.getError().message();
    return nullptr;
  }
  sourceMgr->AddNewSourceBuffer(std::move(*buffer), SMLoc());
  // Shared, so that the bytecode reader references the weights in the
  // buffer instead of copying them (BERT-base's 420 MB).
  return parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
}

FailureOr<func::FuncOp> dlc::findEntry(ModuleOp module, StringRef name) {
  if (!name.empty()) {
    auto func = module.lookupSymbol<func::FuncOp>(name);
    if (!func || func.isExternal())
      return module.emitError("no function @") << name << " with a body";
    return func;
  }
  if (auto main = module.lookupSymbol<func::FuncOp>("main"))
    if (!main.isExternal())
      return main;
  SmallVector<func::FuncOp> candidates;
  // Private functions (kernels, partitions) are called, not entries.
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && func.isPublic())
      candidates.push_back(func);
  if (candidates.size() == 1)
    return candidates.front();
  InFlightDiagnostic diag = module.emitError();
  if (candidates.empty())
    return diag << "the module has no function with a body", failure();
  diag << "the module has " << candidates.size()
       << " functions and none is @main; choose one with --entry:";
  for (auto func : candidates)
    diag << " @" << func.getSymName();
  return failure();
}

llvm::Expected<std::vector<Tensor>>
dlc::loadInputs(ArrayRef<std::string> specs, func::FuncOp func) {
  FunctionType type = func.getFunctionType();
  std::vector<std::string> all(specs.begin(), specs.end());
  if (all.empty())
    all.push_back("random:seed=0");
  bool oneRandom = all.size() == 1 && StringRef(all[0]).starts_with("random:");
  if (!oneRandom && all.size() != type.getNumInputs())
    return llvm::createStringError(
        "the entry function takes " + std::to_string(type.getNumInputs()) +
        " inputs, but " + std::to_string(all.size()) + " --input given");
  std::vector<Tensor> inputs;
  for (unsigned i = 0; i < type.getNumInputs(); ++i) {
    StringRef spec = oneRandom ? StringRef(all[0]) : StringRef(all[i]);
    auto argType = dyn_cast<RankedTensorType>(type.getInput(i));
    std::optional<DType> dtype =
        argType ? dtypeOf(argType.getElementType()) : std::nullopt;
    if (!dtype || !argType.hasStaticShape() || !checkedNumElements(argType.getShape()))
      return llvm::createStringError("input " + std::to_string(i) +
                                     " has unsupported type");
    std::string tooLarge = checkFitsInMemory(
        static_cast<uint64_t>(argType.getNumElements()) * sizeof(double));
    if (!tooLarge.empty())
      return llvm::createStringError("input " + std::to_string(i) + " " + tooLarge);
    if (spec.consume_front("random:")) {
      uint64_t seed;
      if (!spec.consume_front("seed=") || spec.getAsInteger(10, seed))
        return llvm::createStringError(
            "bad input spec 'random:" + spec.str() +
            "': expected random:seed=N with an unsigned integer N");
      // Models may declare the valid range of an integer input (token ids).
      std::optional<std::pair<int64_t, int64_t>> range;
      if (auto r = func.getArgAttrOfType<DenseI64ArrayAttr>(i, "dlc.input_range"))
        if (r.size() == 2 && r[0] < r[1])
          range = std::make_pair(r[0], r[1]);
      inputs.push_back(randomTensor(*dtype, argType.getShape(), seed + i, range));
      continue;
    }
    llvm::Expected<Tensor> t = readTensorFile(spec);
    if (!t)
      return t.takeError();
    // numpy has no bf16: bf16 tensors travel in .npy files as f32 (as
    // --output and --save-input write them), and an f32 file given for a
    // bf16 input is rounded to bf16.
    if (*dtype == DType::BF16 && t->dtype == DType::F32 &&
        llvm::equal(t->shape, argType.getShape())) {
      for (double &v : t->data)
        v = roundToDType(DType::BF16, v);
      t->dtype = DType::BF16;
    }
    inputs.push_back(std::move(*t));
  }
  return inputs;
}
