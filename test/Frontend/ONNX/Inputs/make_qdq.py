"""A small QDQ-quantized CNN as ONNX quantization tools write it, its input,
and the expected output computed independently with PyTorch (float64) and
numpy (round half to even, saturation), into the given directory.

x -> QuantizeLinear(uint8) -> DequantizeLinear -> Conv(DequantizeLinear(int8
weights per output channel), float bias) -> Relu -> QuantizeLinear(uint8) ->
DequantizeLinear -> MaxPool -> QuantizeLinear(int8) -> DequantizeLinear -> y
"""
import sys

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(7)

sx, zx = np.float32(0.02), np.uint8(128)
w = rng.integers(-100, 100, (4, 3, 3, 3)).astype(np.int8)
sw = rng.uniform(0.002, 0.01, 4).astype(np.float32)
zw = np.zeros(4, np.int8)
b = rng.uniform(-0.3, 0.3, 4).astype(np.float32)
sy, zy = np.float32(0.03), np.uint8(10)
sp, zp = np.float32(0.05), np.int8(-3)


def init(name, a):
    return numpy_helper.from_array(np.asarray(a), name)


nodes = [
    helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"], name="quant_x"),
    helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"], name="dequant_x"),
    helper.make_node("DequantizeLinear", ["w", "sw", "zw"], ["wd"], name="dequant_w", axis=0),
    helper.make_node("Conv", ["xd", "wd", "b"], ["c"], name="conv", pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["c"], ["r"], name="relu"),
    helper.make_node("QuantizeLinear", ["r", "sy", "zy"], ["rq"], name="quant_r"),
    helper.make_node("DequantizeLinear", ["rq", "sy", "zy"], ["rd"], name="dequant_r"),
    helper.make_node("MaxPool", ["rd"], ["p"], name="pool", kernel_shape=[2, 2], strides=[2, 2]),
    helper.make_node("QuantizeLinear", ["p", "sp", "zp"], ["pq"], name="quant_p"),
    helper.make_node("DequantizeLinear", ["pq", "sp", "zp"], ["y"], name="dequant_p"),
]
graph = helper.make_graph(
    nodes, "qdq_cnn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 4, 4])],
    [init("sx", sx), init("zx", zx), init("w", w), init("sw", sw), init("zw", zw), init("b", b),
     init("sy", sy), init("zy", zy), init("sp", sp), init("zp", zp)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
onnx.checker.check_model(model)
onnx.save(model, f"{out}/qdq_cnn.onnx")

x = rng.uniform(-2, 2, (1, 3, 8, 8)).astype(np.float32)
np.save(f"{out}/qdq_input.npy", x)


def quantize(v, s, z, lo, hi):
    return np.clip(np.rint(np.asarray(v, np.float64) / float(s)) + int(z), lo, hi)


def dequantize(q, s, z):
    return (np.asarray(q, np.float64) - float(z)) * float(s)


xd = dequantize(quantize(x, sx, zx, 0, 255), sx, zx)
wd = (w.astype(np.float64) - zw.reshape(4, 1, 1, 1)) * sw.astype(np.float64).reshape(4, 1, 1, 1)
c = torch.nn.functional.conv2d(torch.from_numpy(xd), torch.from_numpy(wd),
                               torch.from_numpy(b.astype(np.float64)), padding=1).numpy()
rd = dequantize(quantize(np.maximum(c, 0), sy, zy, 0, 255), sy, zy)
p = torch.nn.functional.max_pool2d(torch.from_numpy(rd), 2).numpy()
y = dequantize(quantize(p, sp, zp, -128, 127), sp, zp)
np.save(f"{out}/qdq_expected.npy", y.astype(np.float32))

# uint8 in and out: dlc holds them as i32 at the boundaries.
u8 = TensorProto.UINT8
io = helper.make_graph([
    helper.make_node("DequantizeLinear", ["q", "s", "z"], ["x"], name="dq"),
    helper.make_node("Relu", ["x"], ["r"], name="relu"),
    helper.make_node("QuantizeLinear", ["r", "s", "z"], ["y"], name="q"),
], "uint8_io", [helper.make_tensor_value_info("q", u8, [4])],
   [helper.make_tensor_value_info("y", u8, [4])],
   [init("s", np.float32(0.5)), init("z", np.uint8(100))])
onnx.save(helper.make_model(io, opset_imports=[helper.make_opsetid("", 13)]),
          f"{out}/uint8_io.onnx")
with open(f"{out}/uint8_in.pb", "wb") as f:
    f.write(numpy_helper.from_array(np.array([0, 99, 100, 255], np.uint8), "q").SerializeToString())

# uint8 as numbers and as quantized values in one graph: arithmetic wraps
# modulo 256 (numpy's uint8 arithmetic), casts to uint8 wrap, BitShift, and
# values that pass between plain and quantization operators.
def pb(name, a):
    with open(f"{out}/{name}.pb", "wb") as f:
        f.write(numpy_helper.from_array(a, name).SerializeToString())


q = np.array([0, 7, 100, 128, 200, 255], np.uint8)
c = np.array([255, 9, 156, 127, 100, 1], np.uint8)
k = np.array([0, 1, 3, 7, 8, 9], np.uint8)
fv = np.array([-1.0, 0.3, 12.6, 50.5, 51.5, 200.0], np.float32)
iv = np.array([0, -1, 255, 256, 300, -300], np.int32)
s, z = np.float32(0.5), np.uint8(20)
fq = np.clip(np.rint(fv / s) + z, 0, 255).astype(np.uint8)
mix = np.maximum(fq, q)
expected = {
    "add": q + c, "sub": q - c, "mul": q * q, "mix": mix,
    "back": ((mix.astype(np.float32) - np.float32(z)) * s).astype(np.float32),
    "ci": iv.astype(np.uint8), "cf": np.abs(fv).astype(np.uint8),
    "shl": (q.astype(np.int64) << k.astype(np.int64)).astype(np.uint8),
    "shr": (q.astype(np.int64) >> k.astype(np.int64)).astype(np.uint8),
}
v6 = lambda name, t: helper.make_tensor_value_info(name, t, [6])
mixed = helper.make_graph([
    helper.make_node("Add", ["q", "c"], ["add"], name="add"),
    helper.make_node("Sub", ["q", "c"], ["sub"], name="sub"),
    helper.make_node("Mul", ["q", "q"], ["mul"], name="mul"),
    helper.make_node("QuantizeLinear", ["f", "s", "z"], ["fq"], name="quant"),
    helper.make_node("Max", ["fq", "q"], ["mix"], name="max"),
    helper.make_node("DequantizeLinear", ["mix", "s", "z"], ["back"], name="dequant"),
    helper.make_node("Cast", ["i"], ["ci"], name="cast_int", to=u8),
    helper.make_node("Abs", ["f"], ["af"], name="abs"),
    helper.make_node("CastLike", ["af", "q"], ["cf"], name="cast_float"),
    helper.make_node("BitShift", ["q", "k"], ["shl"], name="shl", direction="LEFT"),
    helper.make_node("BitShift", ["q", "k"], ["shr"], name="shr", direction="RIGHT"),
], "uint8_mixed", [v6("q", u8), v6("f", TensorProto.FLOAT), v6("i", TensorProto.INT32)],
   [v6(name, TensorProto.FLOAT if name == "back" else u8) for name in expected],
   [init("c", c), init("k", k), init("s", s), init("z", z)])
onnx.save(helper.make_model(mixed, opset_imports=[helper.make_opsetid("", 15)]),
          f"{out}/uint8_mixed.onnx")
pb("q", q)
pb("f", fv)
pb("i", iv)
for name, a in expected.items():
    pb(f"expected_{name}", a)

# A result typed by an attribute, not by its uint8 input: int32, not wrapped.
eye = helper.make_graph([
    helper.make_node("EyeLike", ["q"], ["e"], name="eye", dtype=TensorProto.INT32),
    helper.make_node("Add", ["e", "big"], ["y"], name="add"),
], "uint8_eyelike", [helper.make_tensor_value_info("q", u8, [2, 3])],
   [helper.make_tensor_value_info("y", TensorProto.INT32, [2, 3])],
   [init("big", np.int32(300))])
onnx.save(helper.make_model(eye, opset_imports=[helper.make_opsetid("", 13)]),
          f"{out}/uint8_eyelike.onnx")

# DynamicQuantizeLinear of an all-zero input: scale 1, zero point 0.
dql = helper.make_graph([
    helper.make_node("DynamicQuantizeLinear", ["x"], ["y", "s", "z"], name="dql"),
], "dql_zeros", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
   [helper.make_tensor_value_info("y", u8, [3]),
    helper.make_tensor_value_info("s", TensorProto.FLOAT, []),
    helper.make_tensor_value_info("z", u8, [])])
onnx.save(helper.make_model(dql, opset_imports=[helper.make_opsetid("", 13)]),
          f"{out}/dql_zeros.onnx")
pb("zeros", np.zeros(3, np.float32))

# BitShift with a direction it does not know, and of other than uint8.
for name, t, direction in [("bitshift_direction", u8, "UP"),
                           ("bitshift_int32", TensorProto.INT32, "LEFT")]:
    g = helper.make_graph([helper.make_node("BitShift", ["a", "b"], ["y"], name="shift",
                                            direction=direction)], name,
                          [helper.make_tensor_value_info(n, t, [4]) for n in "ab"],
                          [helper.make_tensor_value_info("y", t, [4])])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]),
              f"{out}/{name}.onnx")

# Quantization operators fed what they cannot take: one diagnostic each.
def one_node(name, node, inputs, outputs, inits=()):
    g = helper.make_graph([node], name, inputs, outputs, list(inits))
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]),
              f"{out}/{name}.onnx")


f4 = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])]
one_node("dq_zero_type", helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"], name="dq"),
         [], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])],
         [init("q", np.zeros(4, np.int8)), init("s", np.float32(0.5)), init("z", np.uint8(3))])
one_node("q_zero_int64", helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], name="q"),
         f4, [helper.make_tensor_value_info("y", TensorProto.INT64, [4])],
         [init("s", np.float32(0.5)), init("z", np.int64(3))])
one_node("conv_integer_zero_type",
         helper.make_node("ConvInteger", ["x", "w", "xz"], ["y"], name="convint"),
         [], [helper.make_tensor_value_info("y", TensorProto.INT32, [1, 1, 2, 2])],
         [init("x", np.zeros((1, 1, 4, 4), np.uint8)), init("w", np.ones((1, 1, 3, 3), np.uint8)),
          init("xz", np.int8(1))])
one_node("qlinearconv_dynamic_scale",
         helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"],
                          ["y"], name="qconv"),
         [helper.make_tensor_value_info("xs", TensorProto.FLOAT, [])],
         [helper.make_tensor_value_info("y", u8, [1, 1, 2, 2])],
         [init("x", np.zeros((1, 1, 4, 4), np.uint8)), init("xz", np.uint8(0)),
          init("w", np.ones((1, 1, 3, 3), np.uint8)), init("ws", np.float32(0.1)),
          init("wz", np.uint8(0)), init("ys", np.float32(0.2)), init("yz", np.uint8(0)),
          init("b", np.zeros(1, np.int32))])
one_node("q_blocked", helper.make_node("QuantizeLinear", ["x", "s"], ["y"], name="q",
                                       block_size=2),
         f4, [helper.make_tensor_value_info("y", u8, [4])], [init("s", np.float32(0.5))])
