"""Half-precision ONNX models for half-precision.test: a 3x3 convolution
with a bias and a ReLU in f16 and in bf16, the initializers in raw_data or in
int32_data (bit patterns, as onnx.helper writes them), with an input and the
expected output computed by numpy in f64 on the same rounded values, rounded
to the type at the end. bf16 travels in .npy files as f32.

    make_half_models.py OUT_DIR
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(11)


def to_bf16(a):
    """f32 values rounded to bf16 (nearest even), as f32 and as bits."""
    u = a.astype(np.float32).view(np.uint32).astype(np.uint64)
    bits = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return (bits.astype(np.uint32) << 16).view(np.float32), bits


def rounded(a, elem):
    if elem == TensorProto.FLOAT16:
        return a.astype(np.float16).astype(np.float32)
    return to_bf16(a)[0]


def initializer(name, a, elem, raw):
    if raw and elem == TensorProto.FLOAT16:
        return numpy_helper.from_array(a.astype(np.float16), name)
    if raw:
        return helper.make_tensor(name, elem, a.shape, to_bf16(a)[1].tobytes(), raw=True)
    # int32_data: onnx.helper converts the values to the type's bits.
    return helper.make_tensor(name, elem, a.shape, a.ravel().tolist())


def conv_relu(x, w, b):
    n, c, h, wd = x.shape
    o = w.shape[0]
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    y = np.zeros((n, o, h, wd))
    for i in range(3):
        for j in range(3):
            y += np.einsum("nchw,oc->nohw", xp[:, :, i:i + h, j:j + wd], w[:, :, i, j].astype(np.float64))
    return np.maximum(y + b.astype(np.float64)[None, :, None, None], 0)


for elem, type_name in ((TensorProto.FLOAT16, "f16"), (TensorProto.BFLOAT16, "bf16")):
    for raw in (True, False):
        name = f"conv_{type_name}_{'raw' if raw else 'int32'}"
        w = rounded(rng.standard_normal((4, 3, 3, 3)), elem)
        b = rounded(rng.standard_normal(4), elem)
        x = rounded(rng.standard_normal((1, 3, 8, 8)), elem)
        graph = helper.make_graph(
            [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["y"])], name,
            [helper.make_tensor_value_info("x", elem, [1, 3, 8, 8])],
            [helper.make_tensor_value_info("y", elem, [1, 4, 8, 8])],
            [initializer("w", w, elem, raw), initializer("b", b, elem, raw)])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
        onnx.checker.check_model(model)
        onnx.save(model, f"{out}/{name}.onnx")
        y = rounded(conv_relu(x, w, b), elem)
        if elem == TensorProto.FLOAT16:
            x, y = x.astype(np.float16), y.astype(np.float16)
        np.save(f"{out}/{name}_input.npy", x)
        np.save(f"{out}/{name}_expected.npy", y)
