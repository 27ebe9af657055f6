"""Writes small ONNX models for the importer tests into the given directory."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(0)


def save(name, nodes, inputs, outputs, inits=(), opset=13):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.save(model, f"{out}/{name}.onnx")


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


f32 = TensorProto.FLOAT
# A small CNN as torch exports it: Conv, BatchNormalization, Relu, MaxPool,
# a Shape -> Gather -> Unsqueeze -> Concat -> Reshape chain, Gemm, Softmax.
save("cnn", [
    helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv1", pads=[1, 1, 1, 1]),
    helper.make_node("BatchNormalization", ["c", "g", "be", "m", "v"], ["bn"], name="bn1"),
    helper.make_node("Relu", ["bn"], ["r"], name="relu1"),
    helper.make_node("MaxPool", ["r"], ["p"], name="pool1", kernel_shape=[2, 2], strides=[2, 2]),
    helper.make_node("Shape", ["p"], ["s"], name="shape"),
    helper.make_node("Gather", ["s", "zero"], ["n"], name="gather", axis=0),
    helper.make_node("Unsqueeze", ["n", "axes0"], ["n1"], name="unsq"),
    helper.make_node("Concat", ["n1", "minus1"], ["newshape"], name="concat", axis=0),
    helper.make_node("Reshape", ["p", "newshape"], ["flat"], name="flatten"),
    helper.make_node("Gemm", ["flat", "fw", "fb"], ["logits"], name="fc", transB=1),
    helper.make_node("Softmax", ["logits"], ["y"], name="softmax", axis=1),
], [helper.make_tensor_value_info("x", f32, [1, 3, 8, 8])],
   [helper.make_tensor_value_info("y", f32, [1, 10])], [
    init("w", rng.standard_normal((4, 3, 3, 3)).astype(np.float32) * 0.3),
    init("b", rng.standard_normal(4).astype(np.float32)),
    init("g", rng.uniform(0.5, 1.5, 4).astype(np.float32)),
    init("be", rng.standard_normal(4).astype(np.float32)),
    init("m", rng.standard_normal(4).astype(np.float32) * 0.1),
    init("v", rng.uniform(0.5, 2, 4).astype(np.float32)),
    init("zero", np.array(0, dtype=np.int64)),
    init("axes0", np.array([0], dtype=np.int64)),
    init("minus1", np.array([-1], dtype=np.int64)),
    init("fw", rng.standard_normal((10, 64)).astype(np.float32) * 0.2),
    init("fb", rng.standard_normal(10).astype(np.float32)),
])
np.save(f"{out}/cnn_input.npy", rng.standard_normal((1, 3, 8, 8)).astype(np.float32))

# Errors.
save("dynamic", [helper.make_node("Relu", ["x"], ["y"], name="relu")],
     [helper.make_tensor_value_info("x", f32, ["batch", 4])],
     [helper.make_tensor_value_info("y", f32, ["batch", 4])])
save("bad_attr", [helper.make_node("Conv", ["x", "w"], ["y"], name="conv_x", foo=3)],
     [helper.make_tensor_value_info("x", f32, [1, 1, 4, 4])],
     [helper.make_tensor_value_info("y", f32, [1, 1, 2, 2])],
     [init("w", np.ones((1, 1, 3, 3), dtype=np.float32))])
save("missing_init", [helper.make_node("Add", ["x", "nowhere"], ["y"], name="add0")],
     [helper.make_tensor_value_info("x", f32, [2])],
     [helper.make_tensor_value_info("y", f32, [2])])
save("bad_shapes", [helper.make_node("Conv", ["x", "w"], ["y"], name="conv_g", group=3)],
     [helper.make_tensor_value_info("x", f32, [1, 64, 4, 4])],
     [helper.make_tensor_value_info("y", f32, [1, 6, 2, 2])],
     [init("w", np.ones((6, 21, 3, 3), dtype=np.float32))])
save("double", [helper.make_node("Relu", ["x"], ["y"], name="relu")],
     [helper.make_tensor_value_info("x", TensorProto.DOUBLE, [2])],
     [helper.make_tensor_value_info("y", TensorProto.DOUBLE, [2])])
