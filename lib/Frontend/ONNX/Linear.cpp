//===- Linear.cpp - ONNX convolutions and matrix products -----------------===//
//
// Conv (explicit, SAME and VALID padding, groups; 1-D as 2-D over a height
// of 1; 3-D as 2-D convolutions of every output depth's planes, one per
// depth tap of the kernel, summed) becomes graph.conv2d;
// MatMul graph.matmul; Gemm graph.dense where B is a transposed constant
// or graph.matmul otherwise, with alpha, beta and C applied around it.
// ConvTranspose (1-D, 2-D and 3-D) is the convolution of the input spread by the strides
// (zeros between its elements), padded by (k - 1) d - pad on each side (the
// output padding at the end), with the kernel flipped and its in and out
// channels swapped per group. Einsum lays every operand out over all of the
// equation's labels (a
// repeated label in one operand takes its diagonal), multiplies them with
// broadcasting and sums the labels the output drops: general, and exact,
// but it materializes the full product.
//
//===----------------------------------------------------------------------===//
#include "Importer.h"

#include "llvm/Support/MathExtras.h"

#include "dlc/Runtime/Interpreter.h"
#include "dlc/Support/Shape.h"

#include <cctype>
#include <map>

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;

void Importer::registerLinear(ConverterTable &t) {
  t["Conv"] = &Importer::convertConv;
  t["Gemm"] = &Importer::convertGemm;
  t["MatMul"] = &Importer::convertMatMul;
  t["Einsum"] = &Importer::convertEinsum;
  t["ConvTranspose"] = &Importer::convertConvTranspose;
}

Error Importer::convertConv(Node &n) {
  if (Error e = checkAttrs(n, {"auto_pad", "dilations", "group", "kernel_shape",
                               "pads", "strides"}))
    return e;
  Expected<Value> x = in(n, 0), w = in(n, 1);
  if (!x)
    return x.takeError();
  if (!w)
    return w.takeError();
  Expected<Value> bias = optionalIn(n, 2);
  if (!bias)
    return bias.takeError();
  return result(n, conv(n, *x, *w, *bias));
}

Expected<Value> Importer::conv(Node &n, Value x, Value w, Value bias) {
  int64_t rank = typeOf(x).getRank();
  if (rank < 3 || rank > 5)
    return unsupported(n, n.proto.op_type() + " on a rank-" + llvm::Twine(rank) +
                              " input (only 1-D, 2-D and 3-D convolutions)");
  if (typeOf(w).getRank() != rank)
    return fail(n, "the weight has rank " + llvm::Twine(typeOf(w).getRank()) +
                       ", the input rank " + llvm::Twine(rank) + " (they must be equal)");
  Expected<Window> win = window(n, typeOf(x).getShape().drop_front(2),
                                typeOf(w).getShape().drop_front(2));
  if (!win)
    return win.takeError();
  if (rank == 5)
    return conv3d(n, x, w, bias, *win, n.getInt("group", 1));
  // A 1-D convolution is a 2-D one over a height of 1.
  bool oneD = rank == 3;
  if (oneD) {
    Expected<Value> x2 = reshape(n, x, insertUnitDim(typeOf(x).getShape(), 2));
    if (!x2)
      return x2.takeError();
    Expected<Value> w2 = reshape(n, w, insertUnitDim(typeOf(w).getShape(), 2));
    if (!w2)
      return w2.takeError();
    x = *x2;
    w = *w2;
  }
  Window plane = win->planar();
  SmallVector<Value> operands{x, w};
  if (bias)
    operands.push_back(bias);
  Expected<Value> y = make(n, graph::Conv2DOp::getOperationName(), operands,
                           {ints("strides", plane.strides), ints("padding", plane.pads),
                            ints("dilations", plane.dilations),
                            i64("groups", n.getInt("group", 1))});
  if (!y || !oneD)
    return y;
  SmallVector<int64_t> shape(typeOf(*y).getShape());
  shape.erase(shape.begin() + 2);
  return reshape(n, *y, shape);
}

Expected<Value> Importer::conv3d(Node &n, Value x, Value w, Value bias, const Window &win,
                                 int64_t groups) {
  // x [N, C, D, H, W] as [N, D, C, H, W]: the planes of one output depth
  // under one depth tap are then a batch [N * Do, C, H, W] of 2-D inputs.
  Composition c(*this, n);
  Expected<Value> xt =
      c.value(c.op(graph::TransposeOp::getOperationName(), x, {ints("perm", {0, 2, 1, 3, 4})}));
  if (!xt)
    return xt.takeError();
  Expected<SmallVector<Value>> taps = depthTaps(n, *xt, 1, win, false, 0.0);
  if (!taps)
    return taps.takeError();
  ArrayRef<int64_t> ws = typeOf(w).getShape();
  int64_t batch = typeOf(x).getDimSize(0), channels = typeOf(x).getDimSize(1);
  int64_t depth = typeOf(taps->front()).getDimSize(1);
  Window plane = win.planar();
  Value sum;
  for (auto [j, tap] : llvm::enumerate(*taps)) {
    ArrayRef<int64_t> ts = typeOf(tap).getShape();
    Value planes = c.reshape(tap, {batch * depth, channels, ts[3], ts[4]});
    // Weight [O, C / g, KD, KH, KW] at depth tap j.
    Value wj = c.op(graph::SliceOp::getOperationName(), w,
                    {ints("starts", {0, 0, int64_t(j), 0, 0}),
                     ints("ends", {ws[0], ws[1], int64_t(j) + 1, ws[3], ws[4]}),
                     ints("steps", {1, 1, 1, 1, 1})});
    wj = c.reshape(wj, {ws[0], ws[1], ws[3], ws[4]});
    SmallVector<Value> operands{planes, wj};
    if (bias && j == 0)
      operands.push_back(bias);
    Value y = c.op(graph::Conv2DOp::getOperationName(), operands,
                   {ints("strides", plane.strides), ints("padding", plane.pads),
                    ints("dilations", plane.dilations), i64("groups", groups)});
    sum = j ? c.add(sum, y) : y;
  }
  if (c.failed())
    return c.value(sum);
  // [N * Do, O, Ho, Wo] back to [N, O, Do, Ho, Wo].
  ArrayRef<int64_t> ys = typeOf(sum).getShape();
  Value y = c.reshape(sum, {batch, depth, ys[1], ys[2], ys[3]});
  return c.value(c.op(graph::TransposeOp::getOperationName(), y, {ints("perm", {0, 2, 1, 3, 4})}));
}

Error Importer::convertMatMul(Node &n) {
  if (Error e = checkAttrs(n, {}))
    return e;
  Expected<Value> a = in(n, 0), b = in(n, 1);
  if (!a)
    return a.takeError();
  if (!b)
    return b.takeError();
  return result(n, make(n, graph::MatmulOp::getOperationName(), {*a, *b}));
}

Error Importer::convertGemm(Node &n) {
  // Before opset 7, `broadcast` says whether C broadcasts (numpy's
  // unidirectional rule, as later opsets always apply).
  if (Error e = n.opset < 7 ? checkAttrs(n, {"alpha", "beta", "transA", "transB", "broadcast"})
                            : checkAttrs(n, {"alpha", "beta", "transA", "transB"}))
    return e;
  Expected<Value> a = in(n, 0), b = in(n, 1);
  if (!a)
    return a.takeError();
  if (!b)
    return b.takeError();
  if (typeOf(*a).getRank() != 2 || typeOf(*b).getRank() != 2)
    return fail(n, "Gemm operands must be matrices");
  Value lhs = *a, weight = *b;
  if (n.getInt("transA", 0)) {
    Expected<Value> t = make(n, graph::TransposeOp::getOperationName(), lhs, {ints("perm", {1, 0})});
    if (!t)
      return t.takeError();
    lhs = *t;
  }
  // graph.dense takes the weight as [out, in], i.e. B transposed.
  if (!n.getInt("transB", 0)) {
    Expected<Value> t = make(n, graph::TransposeOp::getOperationName(), weight, {ints("perm", {1, 0})});
    if (!t)
      return t.takeError();
    weight = *t;
  }
  float alpha = n.getFloat("alpha", 1.0f), beta = n.getFloat("beta", 1.0f);
  // A 1-D C with beta 1 and alpha 1 is the dense layer's own bias.
  int64_t outFeatures = typeOf(weight).getDimSize(0);
  if (n.opset < 7 && n.hasInput(2) && !n.getInt("broadcast", 0)) {
    Expected<Value> c = in(n, 2);
    if (!c)
      return c.takeError();
    SmallVector<int64_t> mn{typeOf(lhs).getDimSize(0), outFeatures};
    if (typeOf(*c).getShape() != ArrayRef<int64_t>(mn))
      return fail(n, "C " + formatShape(typeOf(*c).getShape()) + " is not " + formatShape(mn) +
                         " and broadcast is 0");
  }
  if (n.hasInput(2) && alpha == 1.0f && beta == 1.0f) {
    Expected<Value> c = in(n, 2);
    if (!c)
      return c.takeError();
    if (typeOf(*c).getShape() == ArrayRef<int64_t>{outFeatures}) {
      Expected<Value> y = make(n, graph::DenseOp::getOperationName(), {lhs, weight, *c});
      if (!y)
        return y.takeError();
      define(n, 0, *y);
      return Error::success();
    }
  }
  Expected<Value> y = make(n, graph::DenseOp::getOperationName(), {lhs, weight});
  if (!y)
    return y.takeError();
  DType dt = *dtypeOf(typeOf(*y).getElementType());
  if (alpha != 1.0f) {
    y = make(n, graph::MulOp::getOperationName(), {*y, scalar(dt, alpha)});
    if (!y)
      return y.takeError();
  }
  if (n.hasInput(2) && beta != 0.0f) {
    Expected<Value> c = in(n, 2);
    if (!c)
      return c.takeError();
    Value bias = *c;
    if (beta != 1.0f) {
      Expected<Value> scaled = make(n, graph::MulOp::getOperationName(), {bias, scalar(dt, beta)});
      if (!scaled)
        return scaled.takeError();
      bias = *scaled;
    }
    y = make(n, graph::AddOp::getOperationName(), {*y, bias});
    if (!y)
      return y.takeError();
  }
  define(n, 0, *y);
  return Error::success();
}

Error Importer::convertEinsum(Node &n) {
  if (Error e = checkAttrs(n, {"equation"}))
    return e;
  std::string equation;
  for (char ch : n.getString("equation", ""))
    if (ch != ' ')
      equation += ch;
  Expected<SmallVector<Value>> given = ins(n, n.proto.input_size());
  if (!given)
    return given.takeError();
  SmallVector<Value> operands = std::move(*given);
  auto bad = [&](const llvm::Twine &why) {
    return fail(n, "equation '" + equation + "': " + why);
  };
  StringRef eq(equation);
  auto [lhs, rhs] = eq.split("->");
  bool explicitOutput = eq.contains("->");
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != operands.size())
    return bad("has " + llvm::Twine(terms.size()) + " operand terms for " +
               llvm::Twine(operands.size()) + " inputs");
  // Labels: letters, and for "..." the characters '0'.. standing for the
  // broadcast dimensions, aligned from the right.
  int64_t ellipsis = 0;
  for (auto [term, v] : llvm::zip(terms, operands)) {
    int64_t letters = term.size() - (term.contains("...") ? 3 : 0);
    if (term.contains("..."))
      ellipsis = std::max<int64_t>(ellipsis, typeOf(v).getRank() - letters);
  }
  auto expand = [&](StringRef term, int64_t rank, std::string &labels) -> bool {
    size_t dots = term.find("...");
    int64_t letters = term.size() - (dots == StringRef::npos ? 0 : 3);
    int64_t covered = dots == StringRef::npos ? 0 : rank - letters;
    if (covered < 0 || (dots == StringRef::npos && letters != rank))
      return false;
    for (size_t i = 0; i < term.size(); ++i) {
      if (i == dots) {
        for (int64_t e = ellipsis - covered; e < ellipsis; ++e)
          labels += static_cast<char>('0' + e);
        i += 2;
      } else if (std::isalpha(static_cast<unsigned char>(term[i]))) {
        labels += term[i];
      } else {
        return false;
      }
    }
    return true;
  };
  SmallVector<std::string> labels(operands.size());
  std::map<char, int64_t> size, count;
  for (size_t i = 0; i < operands.size(); ++i) {
    ArrayRef<int64_t> shape = typeOf(operands[i]).getShape();
    if (!expand(terms[i], shape.size(), labels[i]))
      return bad("term '" + terms[i] + "' does not fit input " + llvm::Twine(i) + " of shape " +
                 formatShape(shape));
    for (auto [label, dim] : llvm::zip(labels[i], shape)) {
      ++count[label];
      int64_t &s = size[label];
      if (s > 1 && dim > 1 && s != dim)
        return bad("label '" + std::string(1, label) + "' has sizes " + llvm::Twine(s) +
                   " and " + llvm::Twine(dim));
      s = std::max(s, dim);
    }
  }
  std::string out;
  if (explicitOutput) {
    if (!expand(rhs, ellipsis + rhs.size() - (rhs.contains("...") ? 3 : 0), out))
      return bad("bad output term '" + rhs + "'");
    for (char label : out)
      if (!size.count(label))
        return bad("output label '" + std::string(1, label) + "' is in no input");
    for (size_t i = 0; i < out.size(); ++i)
      if (out.find(out[i], i + 1) != std::string::npos)
        return bad("output label '" + std::string(1, out[i]) + "' is repeated");
  } else { // the broadcast dimensions, then the labels used once, sorted
    for (int64_t e = 0; e < ellipsis; ++e)
      out += static_cast<char>('0' + e);
    for (auto [label, c] : count)
      if (c == 1 && std::isalpha(static_cast<unsigned char>(label)))
        out += label;
  }
  // All labels: the output's in order, then the summed ones.
  std::string all = out;
  for (const std::string &l : labels)
    for (char label : l)
      if (all.find(label) == std::string::npos)
        all += label;
  int64_t rank = all.size();
  Composition c(*this, n);
  Value product;
  for (size_t i = 0; i < operands.size(); ++i) {
    Value v = operands[i];
    std::string l = labels[i];
    // A label repeated within the operand: keep the diagonal (the identity
    // mask over the two dimensions, summed over the second).
    for (size_t p = 0; p < l.size(); ++p)
      for (size_t q = p + 1; q < l.size(); ++q) {
        if (l[q] != l[p])
          continue;
        ArrayRef<int64_t> shape = typeOf(v).getShape();
        SmallVector<int64_t> maskShape(shape.size(), 1);
        maskShape[p] = shape[p];
        maskShape[q] = shape[q];
        if (Error e = checkConstantSize(n, maskShape, "a diagonal mask"))
          return e;
        Tensor eye(DType::I1, maskShape);
        for (int64_t j = 0; j < std::min(shape[p], shape[q]); ++j)
          eye.data[j * rowMajorStrides(maskShape)[p] + j * rowMajorStrides(maskShape)[q]] = 1;
        v = c.reduce(graph::ReduceSumOp::getOperationName(),
                     c.select(constant(eye, "diagonal"), v, c.scalarLike(v, 0)),
                     {static_cast<int64_t>(q)}, false);
        l.erase(q, 1);
        --q;
      }
    // Transposed into the order of `all`, with size-1 dimensions for the
    // labels it lacks.
    SmallVector<int64_t> perm, shape;
    for (char label : all) {
      size_t at = l.find(label);
      if (at != std::string::npos)
        perm.push_back(at);
    }
    if (!llvm::is_sorted(perm))
      v = c.op(graph::TransposeOp::getOperationName(), v, {ints("perm", perm)});
    ArrayRef<int64_t> vs = typeOf(v).getShape();
    for (size_t j = 0, next = 0; j < all.size(); ++j)
      shape.push_back(l.find(all[j]) != std::string::npos ? vs[next++] : 1);
    v = c.reshape(v, shape);
    product = product ? c.mul(product, v) : v;
  }
  SmallVector<int64_t> summed;
  for (int64_t d = out.size(); d < rank; ++d)
    summed.push_back(d);
  Value y = summed.empty() ? product
                           : c.reduce(graph::ReduceSumOp::getOperationName(), product, summed, false);
  return c.finish(y);
}

Error Importer::convertConvTranspose(Node &n) {
  if (Error e = checkAttrs(n, {"auto_pad", "dilations", "group", "kernel_shape", "output_padding",
                               "output_shape", "pads", "strides"}))
    return e;
  Expected<Value> xIn = in(n, 0), wIn = in(n, 1);
  if (!xIn)
    return xIn.takeError();
  if (!wIn)
    return wIn.takeError();
  Expected<Value> biasIn = optionalIn(n, 2);
  if (!biasIn)
    return biasIn.takeError();
  Value bias = *biasIn;
  int64_t rank = typeOf(*xIn).getRank();
  if (rank < 3 || rank > 5 || typeOf(*wIn).getRank() != rank)
    return unsupported(n, "ConvTranspose on a rank-" + llvm::Twine(rank) +
                              " input (only 1-D, 2-D and 3-D)");
  int64_t dims = rank - 2, g = n.getInt("group", 1);
  ArrayRef<int64_t> xs = typeOf(*xIn).getShape(), ws = typeOf(*wIn).getShape();
  if (g < 1 || xs[1] != ws[0] || ws[0] % g)
    return fail(n, "input channels " + llvm::Twine(xs[1]) + ", weight " + formatShape(ws) +
                       " and group " + llvm::Twine(g) + " do not fit together");
  auto intsOr = [&](StringRef name, int64_t count, int64_t value) {
    return n.getInts(name).value_or(SmallVector<int64_t>(count, value));
  };
  SmallVector<int64_t> strides = intsOr("strides", dims, 1), dil = intsOr("dilations", dims, 1);
  SmallVector<int64_t> pads = intsOr("pads", 2 * dims, 0);
  SmallVector<int64_t> outPad = intsOr("output_padding", dims, 0);
  SmallVector<int64_t> kernel(ws.drop_front(2));
  if (strides.size() != size_t(dims) || dil.size() != size_t(dims) ||
      pads.size() != size_t(2 * dims) || outPad.size() != size_t(dims) ||
      llvm::any_of(strides, [](int64_t v) { return v < 1 || v > (1 << 16); }) ||
      llvm::any_of(dil, [](int64_t v) { return v < 1 || v > (1 << 16); }))
    return fail(n, "strides, dilations, pads and output_padding must have " +
                       llvm::Twine(dims) + ", " + llvm::Twine(dims) + ", " +
                       llvm::Twine(2 * dims) + " and " + llvm::Twine(dims) +
                       " values (strides and dilations in [1, 65536])");
  if (auto ks = n.getInts("kernel_shape"))
    if (ArrayRef<int64_t>(*ks) != ArrayRef<int64_t>(kernel))
      return fail(n, "kernel_shape does not match the weight's shape");
  // Every extent below stays within a tensor's 2^48 elements, so that the
  // arithmetic on them cannot overflow.
  auto beyond = [](__int128 v) { return v < -kMaxTensorElements || v > kMaxTensorElements; };
  for (int64_t i = 0; i < dims; ++i)
    if (kernel[i] < 1 || beyond(__int128(kernel[i] - 1) * dil[i] + 1) ||
        beyond(__int128(xs[2 + i] - 1) * strides[i] + 1) || beyond(pads[i]) ||
        beyond(pads[dims + i]) || beyond(outPad[i]))
      return fail(n, "the kernel " + formatShape(kernel) + " (dilations [" + formatInts(dil) +
                         "]), the input spread by the strides [" + formatInts(strides) +
                         "], pads [" + formatInts(pads) + "] and output_padding [" +
                         formatInts(outPad) +
                         "] must be non-empty and within 2^48 elements");
  // Explicit output sizes (output_shape, or the input times the strides for
  // SAME padding) fix the total padding.
  std::string mode = n.getString("auto_pad", "NOTSET");
  std::optional<SmallVector<int64_t>> outShape = n.getInts("output_shape");
  bool sameShape = !outShape && (mode == "SAME_UPPER" || mode == "SAME_LOWER");
  if (sameShape) {
    outShape.emplace();
    for (int64_t i = 0; i < dims; ++i)
      outShape->push_back(xs[2 + i] * strides[i]);
  } else if (mode != "NOTSET" && mode != "VALID" && mode != "SAME_UPPER" && mode != "SAME_LOWER") {
    return fail(n, "bad auto_pad '" + mode + "'");
  }
  if (outShape) {
    if (outShape->size() > size_t(dims))
      outShape->erase(outShape->begin(), outShape->end() - dims); // N, C given too
    if (outShape->size() != size_t(dims) || llvm::any_of(*outShape, beyond))
      return fail(n, (sameShape ? "auto_pad " + mode + " asks for an output of [" +
                                      formatInts(*outShape) + "], beyond 2^48"
                                : "output_shape must have " + std::to_string(dims) +
                                      " values within 2^48, got [" + formatInts(*outShape) +
                                      "]"));
    for (int64_t i = 0; i < dims; ++i) {
      int64_t total = strides[i] * (xs[2 + i] - 1) + outPad[i] + (kernel[i] - 1) * dil[i] + 1 -
                      (*outShape)[i];
      // A negative total (an output larger than the input reaches) pads
      // the result; halves are rounded down, as ONNX's reference does.
      bool upper = mode == "SAME_UPPER";
      int64_t half = llvm::divideFloorSigned(total, 2);
      pads[i] = upper ? half : total - half;
      pads[dims + i] = upper ? total - half : half;
    }
  }
  Composition c(*this, n);
  Value x = *xIn, w = *wIn;
  if (dims == 1) { // over a height of 1
    x = c.reshape(x, insertUnitDim(xs, 2));
    w = c.reshape(w, insertUnitDim(ws, 2));
    kernel.insert(kernel.begin(), 1);
    strides.insert(strides.begin(), 1);
    dil.insert(dil.begin(), 1);
    outPad.insert(outPad.begin(), 0);
    pads = {0, pads[0], 0, pads[1]};
    dims = 2;
  }
  ArrayRef<int64_t> shape = typeOf(x).getShape();
  int64_t r = dims + 2;
  // The input spread by the strides: [N, C, S1, 1, S2, 1, ...] padded to
  // [N, C, S1, s1, S2, s2, ...], then [N, C, S1 s1, S2 s2, ...] cut to
  // (Si - 1) si + 1.
  if (llvm::any_of(strides, [](int64_t v) { return v > 1; })) {
    SmallVector<int64_t> units(shape.take_front(2)), spread(shape.take_front(2)),
        cut(shape.take_front(2));
    for (int64_t i = 0; i < dims; ++i) {
      units.append({shape[2 + i], 1});
      spread.push_back(shape[2 + i] * strides[i]);
      cut.push_back((shape[2 + i] - 1) * strides[i] + 1);
    }
    SmallVector<int64_t> zeros(units.size(), 0), after(units.size(), 0);
    for (int64_t i = 0; i < dims; ++i)
      after[3 + 2 * i] = strides[i] - 1;
    Value v = c.op(graph::PadOp::getOperationName(), c.reshape(x, units),
                   {ints("pad_before", zeros), ints("pad_after", after)});
    x = c.op(graph::SliceOp::getOperationName(), c.reshape(v, spread),
             {ints("starts", SmallVector<int64_t>(r, 0)), ints("ends", cut),
              ints("steps", SmallVector<int64_t>(r, 1))});
  }
  // Padded by (k - 1) d - pad (the output padding at the end); a negative
  // amount crops.
  SmallVector<int64_t> before(r, 0), after(r, 0), cutBefore(r, 0), cutAfter(r, 0);
  for (int64_t i = 0; i < dims; ++i) {
    int64_t reach = (kernel[i] - 1) * dil[i];
    int64_t lo = reach - pads[i], hi = reach - pads[dims + i] + outPad[i];
    before[2 + i] = std::max<int64_t>(lo, 0);
    after[2 + i] = std::max<int64_t>(hi, 0);
    cutBefore[2 + i] = std::max<int64_t>(-lo, 0);
    cutAfter[2 + i] = std::max<int64_t>(-hi, 0);
  }
  auto any = [](ArrayRef<int64_t> v) { return llvm::any_of(v, [](int64_t x) { return x; }); };
  if (any(before) || any(after))
    x = c.op(graph::PadOp::getOperationName(), x,
             {ints("pad_before", before), ints("pad_after", after)});
  if (any(cutBefore) || any(cutAfter)) {
    SmallVector<int64_t> ends(typeOf(x).getShape());
    for (int64_t i = 2; i < r; ++i)
      ends[i] -= cutAfter[i];
    x = c.op(graph::SliceOp::getOperationName(), x,
             {ints("starts", cutBefore), ints("ends", ends),
              ints("steps", SmallVector<int64_t>(r, 1))});
  }
  // The kernel [C_in, C_out / g, k...] as [C_out, C_in / g, k...], flipped
  // in space.
  int64_t cin = shape[1], coutPerGroup = typeOf(w).getShape()[1];
  SmallVector<int64_t> grouped{g, cin / g, coutPerGroup}, perm{0, 2, 1},
      flipped{g * coutPerGroup, cin / g};
  for (int64_t i = 0; i < dims; ++i) {
    grouped.push_back(kernel[i]);
    perm.push_back(3 + i);
    flipped.push_back(kernel[i]);
  }
  Value k = c.op(graph::TransposeOp::getOperationName(), c.reshape(w, grouped),
                 {ints("perm", perm)});
  SmallVector<int64_t> starts{0, 0}, ends{g * coutPerGroup, cin / g}, steps{1, 1};
  for (int64_t i = 0; i < dims; ++i) {
    starts.push_back(kernel[i] - 1);
    ends.push_back(-1);
    steps.push_back(-1);
  }
  k = c.op(graph::SliceOp::getOperationName(), c.reshape(k, flipped),
           {ints("starts", starts), ints("ends", ends), ints("steps", steps)});
  if (c.failed())
    return c.finish(x);
  if (dims == 3) {
    Window unit{kernel, {1, 1, 1}, dil, SmallVector<int64_t>(6, 0)};
    return result(n, conv3d(n, x, k, bias, unit, g));
  }
  SmallVector<Value> operands{x, k};
  if (bias)
    operands.push_back(bias);
  Value y = c.op(graph::Conv2DOp::getOperationName(), operands,
                 {ints("strides", {1, 1}), ints("padding", {0, 0, 0, 0}),
                  ints("dilations", dil), i64("groups", g)});
  if (rank == 3 && !c.failed()) {
    SmallVector<int64_t> ys(typeOf(y).getShape());
    ys.erase(ys.begin() + 2);
    y = c.reshape(y, ys);
  }
  return c.finish(y);
}
