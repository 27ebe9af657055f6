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

# Malformed models a mutation probe produced: each must be one diagnostic.
x4 = [helper.make_tensor_value_info("x", f32, [1, 1, 4, 4])]
y4 = [helper.make_tensor_value_info("y", f32, [1, 1, 4, 4])]
save("no_outputs", [helper.make_node("Relu", ["x"], [], name="relu")], x4, y4)
save("conv_stride0", [helper.make_node("Conv", ["x", "w"], ["y"], name="conv",
                                       auto_pad="SAME_UPPER", strides=[0, 1])],
     x4, y4, [init("w", np.ones((1, 1, 3, 3), dtype=np.float32))])
save("pool_scalar_strides", [helper.make_node("AveragePool", ["x"], ["y"], name="pool",
                                              auto_pad="SAME_UPPER", kernel_shape=[3, 3],
                                              strides=[2])], x4, y4)
save("constant_of_shape_negative",
     [helper.make_node("ConstantOfShape", ["s"], ["y"], name="fill")], [],
     [helper.make_tensor_value_info("y", f32, [2, 3])],
     [init("s", np.array([-1, 3], dtype=np.int64))])
save("constant_of_shape_huge",
     [helper.make_node("ConstantOfShape", ["s"], ["y"], name="fill")], [],
     [helper.make_tensor_value_info("y", f32, [1])],
     [init("s", np.array([1 << 32, 1 << 32], dtype=np.int64))])
save("split_negative", [helper.make_node("Split", ["x", "sizes"], ["a", "b"], name="split",
                                         axis=2)], x4,
     [helper.make_tensor_value_info("a", f32, None), helper.make_tensor_value_info("b", f32, None)],
     [init("sizes", np.array([-1, 5], dtype=np.int64))])
save("huge_input", [helper.make_node("Relu", ["x"], ["y"], name="relu")],
     [helper.make_tensor_value_info("x", f32, [1 << 32, 1 << 32])],
     [helper.make_tensor_value_info("y", f32, [1 << 32, 1 << 32])])
save("huge_pad", [helper.make_node("Pad", ["x", "pads"], ["y"], name="pad")], x4, y4,
     [init("pads", np.array([0, 0, 0, 0, 0, 0, 1 << 50, 0], dtype=np.int64))])
# Valid, but 16 TiB: refused when run, by what would allocate it.
save("pad_beyond_memory", [helper.make_node("Pad", ["x", "pads"], ["y"], name="pad")], x4, y4,
     [init("pads", np.array([0, 0, 0, 0, 0, 0, 1 << 40, 0], dtype=np.int64))])
save("attr_type", [helper.make_node("Softmax", ["x"], ["y"], name="softmax", axis=1.5)], x4, y4)
save("duplicate_output", [helper.make_node("Relu", ["x"], ["y"], name="relu"),
                          helper.make_node("Neg", ["x"], ["y"], name="neg")], x4, y4)
save("opset0", [helper.make_node("Relu", ["x"], ["y"], name="relu")], x4, y4, opset=0)
save("opset999", [helper.make_node("Relu", ["x"], ["y"], name="relu")], x4, y4, opset=999)

# The new converters' errors: each a one-node model the importer refuses.
i32, b1 = TensorProto.INT32, TensorProto.BOOL
vi = helper.make_tensor_value_info
save("celu_alpha0", [helper.make_node("Celu", ["x"], ["y"], name="celu", alpha=0.0)],
     [vi("x", f32, [2])], [vi("y", f32, [2])])
save("hardswish_int", [helper.make_node("HardSwish", ["x"], ["y"], name="hs")],
     [vi("x", i32, [2])], [vi("y", i32, [2])])
save("logsoftmax_axis", [helper.make_node("LogSoftmax", ["x"], ["y"], name="ls", axis=3)],
     [vi("x", f32, [2, 3])], [vi("y", f32, [2, 3])])
save("and_float", [helper.make_node("And", ["a", "b"], ["y"], name="and")],
     [vi("a", f32, [2]), vi("b", f32, [2])], [vi("y", b1, [2])])
save("isinf_int", [helper.make_node("IsInf", ["x"], ["y"], name="isinf")],
     [vi("x", i32, [2])], [vi("y", b1, [2])])
save("expand_bad", [helper.make_node("Expand", ["x", "shape"], ["y"], name="expand")],
     [vi("x", f32, [3])], [vi("y", f32, [4])], [init("shape", np.array([4], np.int64))])
save("reducel2_int", [helper.make_node("ReduceL2", ["x"], ["y"], name="rl2")],
     [vi("x", i32, [2, 3])], [vi("y", i32, [1, 1])])
