//===- Importer.cpp - ONNX to the graph dialect ----------------------------===//
//
// Walks the ONNX graph in order, mapping each value name to an MLIR value.
// Ops are created generically and their result types inferred, so that a
// shape error in the model becomes an import error rather than a crash.
// Ops whose operands are all small constants are evaluated with the
// reference semantics right away: that is how Shape -> Gather -> Concat ->
// Reshape chains of exported models become static shapes.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"
#include "dlc/Dialect/Graph/GraphBuilder.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Runtime/Interpreter.h"
#include "dlc/Runtime/TensorIO.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include "onnx/onnx_pb.h"

#include <cmath>
#include <functional>
#include <limits>
#include <map>

using namespace mlir;
using namespace dlc;
using llvm::Error;
using llvm::Expected;
using namespace dlc::onnx_import;

char OnnxImportError::ID = 0;

/// Largest result (in elements) folded at import time: shape computations,
/// never weights. Integer and boolean results (shapes, indices, masks, such
/// as the attention masks vision transformers build) may be larger.
static constexpr int64_t kFoldLimit = 4096;
static constexpr int64_t kIndexFoldLimit = 1 << 20;


Error dlc::parseInputShape(StringRef spec, OnnxImportOptions &options) {
  auto [name, dims] = spec.rsplit(':');
  if (name.empty() || dims.empty() || spec.find(':') == StringRef::npos)
    return llvm::createStringError("bad --input-shape '" + spec.str() +
                                   "': expected name:DxDx... e.g. x:1x3x224x224");
  SmallVector<int64_t> shape;
  SmallVector<StringRef> parts;
  dims.split(parts, 'x');
  for (StringRef p : parts) {
    int64_t d;
    if (p.getAsInteger(10, d) || d < 0)
      return llvm::createStringError("bad --input-shape '" + spec.str() +
                                     "': '" + p.str() + "' is not a size");
    shape.push_back(d);
  }
  options.inputShapes[name] = shape;
  return Error::success();
}

/// The newest default-domain opset whose operator semantics the converters
/// follow (ONNX 1.17).
static constexpr int64_t kMaxOpset = 22;

std::optional<DType> onnx_import::dtypeFromOnnx(int code) {
  switch (code) {
  case onnx::TensorProto::FLOAT: return DType::F32;
  case onnx::TensorProto::FLOAT16: return DType::F16;
  case onnx::TensorProto::BFLOAT16: return DType::BF16;
  case onnx::TensorProto::DOUBLE: return DType::F64;
  case onnx::TensorProto::INT8: return DType::I8;
  case onnx::TensorProto::INT32: return DType::I32;
  case onnx::TensorProto::INT64: return DType::I64;
  case onnx::TensorProto::BOOL: return DType::I1;
  default: return std::nullopt;
  }
}

std::string onnx_import::onnxTypeName(int code) {
  if (onnx::TensorProto_DataType_IsValid(code))
    return onnx::TensorProto_DataType_Name(
        static_cast<onnx::TensorProto_DataType>(code));
  return "type " + std::to_string(code);
}

Error Importer::checkAttrs(Node &n, std::initializer_list<StringRef> known) {
  for (const auto &a : n.proto.attribute())
    if (!llvm::is_contained(known, StringRef(a.name())))
      return unsupported(n, "attribute '" + a.name() + "'");
  return Error::success();
}

std::string onnx_import::formatInts(ArrayRef<int64_t> values) {
  return llvm::join(llvm::map_range(values, [](int64_t v) { return std::to_string(v); }),
                    ", ");
}

Expected<Importer::Window> Importer::window(Node &n, ArrayRef<int64_t> spatial,
                                            ArrayRef<int64_t> kernel) {
  size_t dims = spatial.size();
  SmallVector<int64_t> strides = n.getInts("strides").value_or(SmallVector<int64_t>(dims, 1));
  SmallVector<int64_t> dil = n.getInts("dilations").value_or(SmallVector<int64_t>(dims, 1));
  SmallVector<int64_t> pads = n.getInts("pads").value_or(SmallVector<int64_t>(2 * dims, 0));
  auto valid = [&](ArrayRef<int64_t> v) {
    return v.size() == dims && llvm::all_of(v, [](int64_t x) { return x >= 1; });
  };
  if (!valid(strides) || !valid(dil))
    return fail(n, "strides and dilations must be " + llvm::Twine(dims) +
                       " values >= 1, got strides [" + formatInts(strides) +
                       "] and dilations [" + formatInts(dil) + "]");
  if (pads.size() != 2 * dims)
    return fail(n, "pads must be " + llvm::Twine(2 * dims) + " values, got [" +
                       formatInts(pads) + "]");
  if (auto ks = n.getInts("kernel_shape"))
    if (ArrayRef<int64_t>(*ks) != kernel)
      return fail(n, "kernel_shape does not match the weight's shape");
  // Extents within a tensor's 2^48 elements, so that the arithmetic on
  // them cannot overflow.
  for (size_t i = 0; i < dims; ++i)
    if (kernel[i] < 1 || __int128(kernel[i] - 1) * dil[i] + 1 > kMaxTensorElements ||
        strides[i] > kMaxTensorElements)
      return fail(n, "the kernel " + formatShape(kernel) + " with dilations [" + formatInts(dil) +
                         "] and strides [" + formatInts(strides) +
                         "] must be non-empty and within 2^48 elements");
  if (llvm::any_of(pads, [](int64_t p) { return p < 0 || p > kMaxTensorElements; }))
    return fail(n, "pads must be in [0, 2^48], got [" + formatInts(pads) + "]");
  Window w{SmallVector<int64_t>(kernel), strides, dil, pads};
  std::string mode = n.getString("auto_pad", "NOTSET");
  if (mode != "NOTSET") {
    if (mode != "SAME_UPPER" && mode != "SAME_LOWER" && mode != "VALID")
      return fail(n, "bad auto_pad '" + mode + "'");
    autoPad(mode, spatial, w.kernel, w.strides, w.dilations, w.pads);
  }
  return w;
}

Importer::Window Importer::Window::planar() const {
  int64_t r = rank();
  if (r == 1)
    return {{1, kernel[0]}, {1, strides[0]}, {1, dilations[0]}, {0, pads[0], 0, pads[1]}};
  int64_t d = r - 2; // the first of H and W
  return {{kernel[d], kernel[d + 1]},
          {strides[d], strides[d + 1]},
          {dilations[d], dilations[d + 1]},
          {pads[d], pads[d + 1], pads[r + d], pads[r + d + 1]}};
}

Expected<SmallVector<Value>> Importer::depthTaps(Node &n, Value x, int64_t axis,
                                                 const Window &w, bool ceilMode,
                                                 double padValue) {
  ArrayRef<int64_t> shape = typeOf(x).getShape();
  if (typeOf(x).getNumElements() == 0)
    return unsupported(n, "a 3-D window over an input with no elements");
  int64_t in = shape[axis], k = w.kernel[0], s = w.strides[0], d = w.dilations[0];
  int64_t before = w.pads[0], after = w.pads[3];
  if (!windowFits(in + before + after, k, d))
    return fail(n, "the depth window (kernel " + llvm::Twine(k) + ", dilation " +
                       llvm::Twine(d) + ") does not fit the padded depth " +
                       llvm::Twine(in) + " + " + llvm::Twine(before) + " + " +
                       llvm::Twine(after));
  if (k > kMaxWindowTerms)
    return unsupported(n, "a depth window of " + llvm::Twine(k) + " taps (at most " +
                              llvm::Twine(kMaxWindowTerms) + ")");
  int64_t out = windowExtent(in, before, after, k, s, d, ceilMode);
  // Ceil mode's last window may reach past the end padding.
  int64_t reach = (out - 1) * s + (k - 1) * d + 1;
  after = std::max(after, reach - in - before);
  Composition c(*this, n);
  Value padded = x;
  if (before || after) {
    SmallVector<int64_t> padBefore(shape.size(), 0), padAfter(shape.size(), 0);
    padBefore[axis] = before;
    padAfter[axis] = after;
    padded = c.op(graph::PadOp::getOperationName(), x,
                  {ints("pad_before", padBefore), ints("pad_after", padAfter),
                   f64("value", padValue)});
  }
  SmallVector<Value> taps;
  for (int64_t j = 0; j < k; ++j) {
    SmallVector<int64_t> starts(shape.size(), 0), ends(typeOf(padded).getShape()),
        steps(shape.size(), 1);
    starts[axis] = j * d;
    ends[axis] = j * d + (out - 1) * s + 1;
    steps[axis] = s;
    taps.push_back(c.op(graph::SliceOp::getOperationName(), padded,
                        {ints("starts", starts), ints("ends", ends), ints("steps", steps)}));
  }
  if (c.failed())
    return c.value(padded).takeError();
  return taps;
}

Expected<Value> Importer::in(Node &n, int i) {
  if (!n.hasInput(i))
    return fail(n, "missing input " + llvm::Twine(i));
  auto it = values.find(n.proto.input(i));
  if (it == values.end())
    return fail(n, "input '" + n.proto.input(i) +
                       "' is not produced by any earlier node, input or "
                       "initializer");
  return it->second;
}

std::optional<Tensor> Importer::constantOf(Value v) {
  auto c = v.getDefiningOp<graph::ConstantOp>();
  if (!c)
    return std::nullopt;
  FailureOr<Tensor> t = tensorFromAttr(c.getValue(), c.getLoc());
  if (failed(t))
    return std::nullopt;
  return *t;
}

Expected<Tensor> Importer::constIn(Node &n, int i, StringRef what) {
  Expected<Value> v = in(n, i);
  if (!v)
    return v.takeError();
  std::optional<Tensor> t = constantOf(*v);
  if (!t) {
    auto error = std::make_unique<OnnxImportError>(
        (path + ": " + n.label + ": unsupported: " + what + " (input " + llvm::Twine(i) +
         ") is not a constant; dlc needs static shapes")
            .str(),
        true);
    error->nonConstantValue = n.proto.input(i);
    return Error(std::move(error));
  }
  return *t;
}

Expected<SmallVector<int64_t>> Importer::constInts(Node &n, int i, StringRef what) {
  Expected<Tensor> t = constIn(n, i, what);
  if (!t)
    return t.takeError();
  SmallVector<int64_t> ints;
  for (double v : t->data)
    ints.push_back(toInt64(v));
  return ints;
}

Expected<SmallVector<int64_t>> Importer::intsAttrOrIn(Node &n, StringRef attr, int i) {
  if (auto a = n.getInts(attr))
    return *a;
  if (n.hasInput(i))
    return constInts(n, i, attr);
  return SmallVector<int64_t>{};
}

void Importer::holdUint8As(const std::string &name, Uint8Form form, Location loc) {
  Uint8Form &held = uint8Values.at(name);
  if (held == form)
    return;
  held = form;
  Value v = values.at(name);
  bool wide = form == Uint8Form::Wide;
  DType dtype = wide ? DType::I32 : DType::I8;
  int64_t shift = wide ? 128 : -128;
  auto type = typeOf(v).clone(mlirElementType(dtype, &ctx));
  auto c = v.getDefiningOp<graph::ConstantOp>();
  auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : DenseElementsAttr();
  if (dense && dense.isSplat()) { // a splat stays one, whatever its size
    values[name] = filled(type.getShape(), dtype,
                          dense.getSplatValue<APInt>().getSExtValue() + shift);
  } else if (std::optional<Tensor> t = constantOf(v)) {
    Tensor converted(dtype, t->shape);
    for (int64_t i = 0; i < t->size(); ++i)
      converted.data[i] = t->data[i] + shift;
    values[name] = constant(converted, name);
  } else if (wide) {
    Value extended = graph::CastOp::create(builder, loc, type, v);
    values[name] = graph::AddOp::create(builder, loc, extended, scalar(DType::I32, shift));
  } else {
    Value shifted = graph::AddOp::create(builder, loc, v, scalar(DType::I32, shift));
    values[name] = graph::CastOp::create(builder, loc, type, shifted);
  }
}

Value Importer::wrapUint8(Value wide, Location loc) {
  // Down to i8 and back: the cast to i8 wraps modulo 256.
  auto i8 = typeOf(wide).clone(builder.getI8Type());
  Value shifted = graph::AddOp::create(builder, loc, wide, scalar(DType::I32, -128));
  Value narrow = graph::CastOp::create(builder, loc, i8, shifted);
  Value extended = graph::CastOp::create(builder, loc, typeOf(wide), narrow);
  return graph::AddOp::create(builder, loc, extended, scalar(DType::I32, 128));
}

void Importer::markUint8Results(Node &n) {
  StringRef op = n.proto.op_type();
  // The input whose type the results take (the data, not the condition,
  // indices or exponent); none where an attribute gives it (Cast's `to`,
  // EyeLike's `dtype`, ...).
  int source = op == "Where" ? 1 : op == "OneHot" ? 2 : 0;
  if (op == "Cast" || op == "CastLike" || n.attr("dtype") || !isUint8(n, source))
    return;
  // The operators that take uint8 in ONNX and can leave [0, 255].
  static const std::set<std::string> kWrapping = {
      "Add", "Sub", "Mul", "Einsum", "BitShift", "Shrink", "ScatterND", "ScatterElements"};
  bool wraps = kWrapping.count(n.proto.op_type());
  for (int i = 0; i < n.proto.output_size(); ++i) {
    const std::string &out = n.proto.output(i);
    if (out.empty() || !typeOf(values.at(out)).getElementType().isInteger(32))
      continue;
    uint8Values[out] = Uint8Form::Wide;
    if (wraps)
      values[out] = wrapUint8(values[out], n.loc);
  }
}

Value Importer::constant(const Tensor &t, StringRef name) {
  ElementsAttr attr = elementsAttrFromTensor(t, &ctx, name);
  return graph::ConstantOp::create(builder, builder.getUnknownLoc(), attr);
}

Expected<SmallVector<Value>>
Importer::makeOp(Node &n, StringRef name, ValueRange operands,
                 ArrayRef<NamedAttribute> attrs, TypeRange resultTypes,
                 unsigned numResults) {
  diagnostics.clear();
  FailureOr<Operation *> created = graph::createGraphOp(
      builder, n.loc, name, operands, attrs, resultTypes, numResults);
  if (failed(created))
    return fail(n, diagnostics.empty() ? "cannot create " + name : diagnostics);
  Operation *op = *created;
  auto discard = [&](const llvm::Twine &why) {
    op->erase();
    return fail(n, why);
  };
  // Fold ops on small constants right away.
  bool allConstant = llvm::all_of(op->getOperands(), [](Value v) {
    return v.getDefiningOp<graph::ConstantOp>();
  });
  int64_t resultElements = 0;
  bool indices = true;
  for (Type t : op->getResultTypes()) {
    auto type = cast<RankedTensorType>(t);
    resultElements += type.getNumElements();
    indices &= isa<IntegerType>(type.getElementType());
  }
  int64_t limit = indices ? kIndexFoldLimit : kFoldLimit;
  SmallVector<Value> results(op->getResults());
  // Quantization stays visible (FakeQuantizationToInteger reads it).
  bool quantization = isa<graph::QuantizeOp, graph::DequantizeOp>(op);
  if (allConstant && resultElements <= limit && op->getNumOperands() && !quantization) {
    std::vector<Tensor> ins;
    for (Value v : op->getOperands())
      ins.push_back(*constantOf(v));
    FailureOr<std::vector<Tensor>> outs = evaluateOp(op, ins);
    if (failed(outs))
      return discard(diagnostics);
    for (auto [i, t] : llvm::enumerate(*outs))
      results[i] = constant(t, "folded");
    op->erase();
  }
  return results;
}

Expected<Tensor> Importer::tensorFromProto(const onnx::TensorProto &proto,
                                           StringRef what, bool *uint8) {
  bool isUint8 = proto.data_type() == onnx::TensorProto::UINT8;
  if (isUint8 && uint8)
    *uint8 = true;
  if (!dtypeFromOnnx(proto.data_type()) && !(isUint8 && uint8))
    return makeError(path + ": " + what + ": unsupported: data type " +
                         onnxTypeName(proto.data_type()),
                     true);
  std::string bytes;
  proto.SerializeToString(&bytes);
  Expected<Tensor> t = parseTensorProto(bytes);
  if (!t)
    return makeError(path + ": " + what + ": " + llvm::toString(t.takeError()),
                     false);
  return isUint8 ? shiftedUint8(*t) : std::move(*t);
}


void onnx_import::autoPad(StringRef mode, ArrayRef<int64_t> in, ArrayRef<int64_t> k,
                          ArrayRef<int64_t> s, ArrayRef<int64_t> d,
                          SmallVectorImpl<int64_t> &pads) {
  size_t dims = in.size();
  pads.assign(2 * dims, 0);
  if (mode == "VALID")
    return;
  for (size_t i = 0; i < dims; ++i) {
    int64_t out = (in[i] + s[i] - 1) / s[i];
    int64_t total =
        std::max<int64_t>(0, (out - 1) * s[i] + (k[i] - 1) * d[i] + 1 - in[i]);
    int64_t small = total / 2, large = total - small;
    pads[i] = mode == "SAME_UPPER" ? small : large;
    pads[i + dims] = mode == "SAME_UPPER" ? large : small;
  }
}

const Importer::ConverterTable &Importer::converters() {
  static const ConverterTable table = [] {
    ConverterTable t;
    registerElementwise(t);
    registerReductions(t);
    registerLinear(t);
    registerPooling(t);
    registerNormalization(t);
    registerShape(t);
    registerQuantization(t);
    registerLosses(t);
    return t;
  }();
  return table;
}

//===----------------------------------------------------------------------===//
// Graph
//===----------------------------------------------------------------------===//

Error Importer::importGraph(const onnx::GraphProto &graph, func::FuncOp &func) {
  std::set<std::string> initializerNames;
  for (const auto &init : graph.initializer())
    initializerNames.insert(init.name());

  // Inputs: every graph input that is not an initializer.
  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  std::vector<std::pair<std::string, Tensor>> boundInputs;
  std::set<std::string> inputNames;
  for (const auto &input : graph.input()) {
    if (initializerNames.count(input.name()))
      continue;
    std::string what = path + ": input '" + input.name() + "'";
    if (!inputNames.insert(input.name()).second)
      return makeError(what + " is listed more than once", false);
    if (!input.type().has_tensor_type())
      return makeError(what + ": unsupported: not a tensor", true);
    const auto &tt = input.type().tensor_type();
    // UINT8 inputs arrive as i32 holding their values (see uint8Values).
    bool uint8 = tt.elem_type() == onnx::TensorProto::UINT8;
    std::optional<DType> dt = uint8 ? DType::I32 : dtypeFromOnnx(tt.elem_type());
    if (uint8)
      uint8Values[input.name()] = Uint8Form::Wide;
    if (!dt)
      return makeError(what + ": unsupported: data type " +
                           onnxTypeName(tt.elem_type()),
                       true);
    auto bound = options.constantInputs.find(input.name());
    if (bound != options.constantInputs.end()) {
      boundInputs.emplace_back(input.name(), bound->second);
      continue;
    }
    SmallVector<int64_t> shape;
    auto it = options.inputShapes.find(input.name());
    if (it != options.inputShapes.end()) {
      shape = it->second;
    } else {
      if (!tt.has_shape())
        return makeError(what + " has no shape; give --input-shape=" +
                             input.name() + ":DxDx...",
                         false);
      for (auto [i, d] : llvm::enumerate(tt.shape().dim())) {
        if (!d.has_dim_value() || d.dim_value() < 0)
          return makeError(what + " has dynamic dimension " + llvm::Twine(i) +
                               (d.has_dim_param() ? " ('" + d.dim_param() + "')"
                                                  : std::string()) +
                               "; give --input-shape=" + input.name() +
                               ":DxDx...",
                           false);
        shape.push_back(d.dim_value());
      }
    }
    if (!checkedNumElements(shape))
      return makeError(what + " has shape " + formatShape(shape) +
                           ": a negative dimension or more than 2^48 elements",
                       false);
    argTypes.push_back(RankedTensorType::get(shape, mlirElementType(*dt, &ctx)));
    argNames.push_back(input.name());
  }

  Location fileLoc = FileLineColLoc::get(&ctx, path, 0, 0);
  func = func::FuncOp::create(builder, fileLoc, "main",
                              builder.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  for (auto [arg, name] : llvm::zip(entry->getArguments(), argNames)) {
    values[name] = arg;
    func.setArgAttr(arg.getArgNumber(), "onnx.name",
                    builder.getStringAttr(name));
  }

  for (auto &[name, t] : boundInputs) {
    if (uint8Values.count(name)) // test data of UINT8: the values, held wide
      t.dtype = DType::I32;
    values[name] = constant(t, name);
  }
  for (const auto &init : graph.initializer()) {
    if (values.count(init.name()))
      return makeError(path + ": initializer '" + init.name() +
                           "' is defined more than once",
                       false);
    bool uint8 = false;
    Expected<Tensor> t =
        tensorFromProto(init, "initializer '" + init.name() + "'", &uint8);
    if (!t)
      return t.takeError();
    if (uint8)
      uint8Values[init.name()] = Uint8Form::Shifted;
    values[init.name()] = constant(*t, init.name());
  }

  // Capture the diagnostics emitted while building ops.
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    if (!diagnostics.empty())
      diagnostics += "; ";
    diagnostics += diag.str();
    return success();
  });

  for (auto [index, nodeProto] : llvm::enumerate(graph.node())) {
    std::string name = nodeProto.name().empty()
                           ? "#" + std::to_string(index)
                           : nodeProto.name();
    if (!nodeProto.domain().empty() && nodeProto.domain() != "ai.onnx")
      return makeError(path + ": node '" + name + "' (" + nodeProto.op_type() +
                           "): unsupported: operator domain '" +
                           nodeProto.domain() + "'",
                       true);
    Node n{nodeProto,
           "node '" + name + "' (" + nodeProto.op_type() + ", opset " +
               std::to_string(opset) + ")",
           NameLoc::get(builder.getStringAttr(name), fileLoc), opset};
    auto it = converters().find(nodeProto.op_type());
    if (it == converters().end())
      return unsupported(n, "operator " + nodeProto.op_type());
    for (int i = 0; i < nodeProto.input_size(); ++i)
      if (!nodeProto.input(i).empty() && !values.count(nodeProto.input(i)))
        return fail(n, "input '" + nodeProto.input(i) +
                           "' is not produced by any earlier node, input or "
                           "initializer");
    if (!n.hasOutput(0))
      return fail(n, "has no output 0 (every operator produces it)");
    static const std::set<std::string> kQuantizationOps = {
        "QuantizeLinear", "DequantizeLinear", "QLinearConv", "QLinearMatMul",
        "ConvInteger", "MatMulInteger"};
    bool quantization = kQuantizationOps.count(nodeProto.op_type());
    for (const std::string &input : nodeProto.input())
      if (uint8Values.count(input))
        holdUint8As(input, quantization ? Uint8Form::Shifted : Uint8Form::Wide, n.loc);
    for (int i = 0; i < nodeProto.output_size(); ++i) {
      const std::string &out = nodeProto.output(i);
      if (out.empty())
        continue;
      if (values.count(out) ||
          llvm::count(llvm::make_range(nodeProto.output().begin(),
                                       nodeProto.output().begin() + i), out))
        return fail(n, "output '" + out +
                           "' is already defined by an earlier node, graph "
                           "input, initializer or output of this node");
    }
    if (Error e = it->second(*this, n))
      return e;
    if (!n.attrError.empty())
      return fail(n, n.attrError);
    for (int i = 0; i < nodeProto.output_size(); ++i)
      if (!nodeProto.output(i).empty() && !values.count(nodeProto.output(i)))
        return fail(n, "output '" + nodeProto.output(i) + "' was not produced");
    if (!quantization)
      markUint8Results(n);
  }

  SmallVector<Value> results;
  for (const auto &output : graph.output()) {
    auto it = values.find(output.name());
    if (it == values.end())
      return makeError(path + ": graph output '" + output.name() +
                           "' is not produced by any node",
                       false);
    if (uint8Values.count(output.name())) // leaves as i32 holding the values
      holdUint8As(output.name(), Uint8Form::Wide,
                  NameLoc::get(builder.getStringAttr(output.name()), fileLoc));
    results.push_back(values.at(output.name()));
  }
  func::ReturnOp::create(builder, fileLoc, results);
  // Constants left without users by folding (shape computations).
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*entry)))
    if (isa<graph::ConstantOp>(op) && op.use_empty())
      op.erase();
  func.setType(builder.getFunctionType(argTypes, TypeRange(ValueRange(results))));
  return Error::success();
}

Expected<OwningOpRef<ModuleOp>> Importer::run(StringRef bytes) {
  onnx::ModelProto model;
  if (bytes.empty() || !model.ParseFromArray(bytes.data(), bytes.size()))
    return makeError(path + ": not a valid ONNX model (protobuf parse failed; "
                            "truncated or not an .onnx file?)",
                     false);
  if (!model.has_graph())
    return makeError(path + ": the model has no graph", false);
  bool hasDefault = false;
  for (const auto &o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") {
      opset = o.version();
      hasDefault = true;
    }
  if (!hasDefault)
    return makeError(path + ": unsupported: the model imports no opset of the "
                            "default ONNX domain",
                     true);
  // Opset 1 models are read too: an operator whose opset-1 form differs
  // (legacy attributes such as `broadcast` or `consumed_inputs`) is refused
  // by its converter's attribute check.
  if (opset < 1)
    return makeError(path + ": opset " + llvm::Twine(opset) +
                         " of the default ONNX domain is not a valid opset",
                     false);
  if (opset > kMaxOpset)
    return makeError(path + ": unsupported: opset " + llvm::Twine(opset) +
                         " of the default ONNX domain (this importer knows "
                         "opsets 1 to " + llvm::Twine(kMaxOpset) + ")",
                     true);
  OwningOpRef<ModuleOp> module = ModuleOp::create(FileLineColLoc::get(&ctx, path, 0, 0));
  builder.setInsertionPointToStart(module->getBody());
  func::FuncOp func;
  if (Error e = importGraph(model.graph(), func))
    return std::move(e);
  if (failed(verify(*module)))
    return makeError(path + ": the imported module does not verify", false);
  return module;
}

Expected<OwningOpRef<ModuleOp>>
dlc::importOnnxFile(StringRef path, MLIRContext &context,
                    const OnnxImportOptions &options) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError(path + ": cannot read: " + buffer.getError().message(), false);
  return importOnnxBuffer((*buffer)->getBuffer(), path, context, options);
}

Expected<OwningOpRef<ModuleOp>>
dlc::importOnnxBuffer(StringRef bytes, StringRef name, MLIRContext &context,
                      const OnnxImportOptions &options) {
  context.loadDialect<graph::GraphDialect, func::FuncDialect>();
  Importer importer(context, name, options);
  return importer.run(bytes);
}
