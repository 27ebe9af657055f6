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
save("uint16", [helper.make_node("Relu", ["x"], ["y"], name="relu")],
     [helper.make_tensor_value_info("x", TensorProto.UINT16, [2])],
     [helper.make_tensor_value_info("y", TensorProto.UINT16, [2])])

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
# A name defined twice: two initializers, two graph inputs.
save("duplicate_initializer", [helper.make_node("Add", ["x", "c"], ["y"], name="add")],
     [helper.make_tensor_value_info("x", TensorProto.UINT8, [2])],
     [helper.make_tensor_value_info("y", TensorProto.UINT8, [2])],
     [init("c", np.array([1, 2], np.uint8)), init("c", np.array([1.5, 2.5], np.float32))])
save("duplicate_input", [helper.make_node("Relu", ["x"], ["y"], name="relu")],
     [helper.make_tensor_value_info("x", f32, [2]), helper.make_tensor_value_info("x", f32, [3])],
     [helper.make_tensor_value_info("y", f32, [2])])
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

# Errors of the converters added with the ONNX node tests' operators.
i64 = TensorProto.INT64
save("mod_float_fmod0", [helper.make_node("Mod", ["a", "b"], ["y"], name="mod")],
     [vi("a", f32, [2]), vi("b", f32, [2])], [vi("y", f32, [2])])
save("trilu_rank1", [helper.make_node("Trilu", ["x"], ["y"], name="trilu")],
     [vi("x", f32, [3])], [vi("y", f32, [3])])
save("range_delta0", [helper.make_node("Range", ["s", "l", "d"], ["y"], name="range")], [],
     [vi("y", f32, [1])], [init("s", np.float32(0)), init("l", np.float32(4)),
                           init("d", np.float32(0))])
save("range_input", [helper.make_node("Range", ["s", "l", "d"], ["y"], name="range")],
     [vi("s", f32, [])], [vi("y", f32, [1])], [init("l", np.float32(4)), init("d", np.float32(1))])
save("tile_repeats", [helper.make_node("Tile", ["x", "r"], ["y"], name="tile")],
     [vi("x", f32, [2, 3])], [vi("y", f32, [4, 3])], [init("r", np.array([2], np.int64))])
save("tile_negative", [helper.make_node("Tile", ["x", "r"], ["y"], name="tile")],
     [vi("x", f32, [2, 3])], [vi("y", f32, [4, 3])], [init("r", np.array([2, -1], np.int64))])
save("d2s_mode", [helper.make_node("DepthToSpace", ["x"], ["y"], name="d2s", blocksize=2, mode="XYZ")],
     [vi("x", f32, [1, 4, 2, 2])], [vi("y", f32, [1, 1, 4, 4])])
save("d2s_channels", [helper.make_node("DepthToSpace", ["x"], ["y"], name="d2s", blocksize=2)],
     [vi("x", f32, [1, 6, 2, 2])], [vi("y", f32, [1, 1, 4, 4])])
save("s2d_size", [helper.make_node("SpaceToDepth", ["x"], ["y"], name="s2d", blocksize=2)],
     [vi("x", f32, [1, 1, 3, 4])], [vi("y", f32, [1, 4, 1, 2])])
save("onehot_depth", [helper.make_node("OneHot", ["i", "d", "v"], ["y"], name="onehot")],
     [vi("i", i64, [3])], [vi("y", f32, [3, 1])],
     [init("d", np.array([0], np.int64)), init("v", np.array([0, 1], np.float32))])
save("onehot_values", [helper.make_node("OneHot", ["i", "d", "v"], ["y"], name="onehot")],
     [vi("i", i64, [3])], [vi("y", f32, [3, 4])],
     [init("d", np.array([4], np.int64)), init("v", np.array([0, 1, 2], np.float32))])
save("nll_reduction", [helper.make_node("NegativeLogLikelihoodLoss", ["x", "t"], ["y"], name="nll",
                                        reduction="avg")],
     [vi("x", f32, [2, 3]), vi("t", i64, [2])], [vi("y", f32, [])])
save("nll_shapes", [helper.make_node("NegativeLogLikelihoodLoss", ["x", "t"], ["y"], name="nll")],
     [vi("x", f32, [2, 3, 4]), vi("t", i64, [2, 5])], [vi("y", f32, [])])
save("nll_weight", [helper.make_node("NegativeLogLikelihoodLoss", ["x", "t", "w"], ["y"], name="nll")],
     [vi("x", f32, [2, 3]), vi("t", i64, [2]), vi("w", f32, [4])], [vi("y", f32, [])])
save("sce_float_target", [helper.make_node("SoftmaxCrossEntropyLoss", ["x", "t"], ["y"], name="sce")],
     [vi("x", f32, [2, 3]), vi("t", f32, [2])], [vi("y", f32, [])])
save("lrn_size", [helper.make_node("LRN", ["x"], ["y"], name="lrn", size=0)],
     [vi("x", f32, [1, 4, 2, 2])], [vi("y", f32, [1, 4, 2, 2])])
save("instnorm_rank", [helper.make_node("InstanceNormalization", ["x", "s", "b"], ["y"], name="in")],
     [vi("x", f32, [2, 3]), vi("s", f32, [3]), vi("b", f32, [3])], [vi("y", f32, [2, 3])])
save("eyelike_rank", [helper.make_node("EyeLike", ["x"], ["y"], name="eye")],
     [vi("x", f32, [2, 2, 2])], [vi("y", f32, [2, 2, 2])])
save("hardmax_axis", [helper.make_node("Hardmax", ["x"], ["y"], name="hardmax", axis=2)],
     [vi("x", f32, [2, 3])], [vi("y", f32, [2, 3])])
save("mvn_axis", [helper.make_node("MeanVarianceNormalization", ["x"], ["y"], name="mvn", axes=[4])],
     [vi("x", f32, [1, 2, 2, 2])], [vi("y", f32, [1, 2, 2, 2])])
save("layernorm_stash", [helper.make_node("LayerNormalization", ["x", "s"], ["y", "m"], name="ln",
                                          stash_type=TensorProto.INT32)],
     [vi("x", f32, [2, 3]), vi("s", f32, [3])], [vi("y", f32, [2, 3]), vi("m", f32, [2, 1])])
save("argmax_axis", [helper.make_node("ArgMax", ["x"], ["y"], name="argmax", axis=2)],
     [vi("x", f32, [2, 3])], [vi("y", i64, [2, 1])])
save("gather_elements_rank", [helper.make_node("GatherElements", ["x", "i"], ["y"], name="ge")],
     [vi("x", f32, [2, 3]), vi("i", i64, [2])], [vi("y", f32, [2])])
empty = init("empty", np.zeros(0, np.float32))
save("resize_both", [helper.make_node("Resize", ["x", "", "s", "z"], ["y"], name="resize")],
     [vi("x", f32, [1, 1, 2, 2])], [vi("y", f32, [1, 1, 4, 4])],
     [init("s", np.array([1, 1, 2, 2], np.float32)), init("z", np.array([1, 1, 4, 4], np.int64))])
save("resize_neither", [helper.make_node("Resize", ["x", "", "empty"], ["y"], name="resize")],
     [vi("x", f32, [1, 1, 2, 2])], [vi("y", f32, [1, 1, 4, 4])], [empty])
save("resize_count", [helper.make_node("Resize", ["x", "", "s"], ["y"], name="resize")],
     [vi("x", f32, [1, 1, 2, 2])], [vi("y", f32, [1, 1, 4, 4])],
     [init("s", np.array([2, 2], np.float32))])
save("resize_mode", [helper.make_node("Resize", ["x", "", "s"], ["y"], name="resize", mode="area")],
     [vi("x", f32, [1, 1, 2, 2])], [vi("y", f32, [1, 1, 4, 4])],
     [init("s", np.array([1, 1, 2, 2], np.float32))])
save("resize_antialias", [helper.make_node("Resize", ["x", "", "s"], ["y"], name="resize",
                                           mode="linear", antialias=1)],
     [vi("x", f32, [1, 1, 4, 4])], [vi("y", f32, [1, 1, 2, 2])],
     [init("s", np.array([1, 1, 0.5, 0.5], np.float32))], opset=18)
save("einsum_terms", [helper.make_node("Einsum", ["a", "b"], ["y"], name="einsum", equation="ij->i")],
     [vi("a", f32, [2, 3]), vi("b", f32, [3])], [vi("y", f32, [2])])
save("einsum_sizes", [helper.make_node("Einsum", ["a", "b"], ["y"], name="einsum",
                                       equation="ij,jk->ik")],
     [vi("a", f32, [2, 3]), vi("b", f32, [4, 5])], [vi("y", f32, [2, 5])])
save("einsum_output", [helper.make_node("Einsum", ["a"], ["y"], name="einsum", equation="ij->iz")],
     [vi("a", f32, [2, 3])], [vi("y", f32, [2, 3])])
save("topk_k", [helper.make_node("TopK", ["x", "k"], ["v", "i"], name="topk")],
     [vi("x", f32, [2, 3])], [vi("v", f32, [2, 3]), vi("i", i64, [2, 3])],
     [init("k", np.array([4], np.int64))])
save("cumsum_axis", [helper.make_node("CumSum", ["x", "a"], ["y"], name="cumsum")],
     [vi("x", f32, [2, 3])], [vi("y", f32, [2, 3])], [init("a", np.array(2, np.int64))])
save("gathernd_shapes", [helper.make_node("GatherND", ["x", "i"], ["y"], name="gathernd")],
     [vi("x", f32, [2, 3])], [vi("y", f32, [2])], [init("i", np.zeros((2, 3), np.int64))])
save("conv4d", [helper.make_node("Conv", ["x", "w"], ["y"], name="conv4d")],
     [vi("x", f32, [1, 1, 4, 4, 4, 4])], [vi("y", f32, [1, 1, 4, 4, 4, 4])],
     [init("w", np.ones((1, 1, 1, 1, 1, 1), np.float32))])
save("conv3d_depth", [helper.make_node("Conv", ["x", "w"], ["y"], name="conv3d")],
     [vi("x", f32, [1, 1, 2, 4, 4])], [vi("y", f32, None)],
     [init("w", np.ones((1, 1, 3, 1, 1), np.float32))])
save("pool3d_pads", [helper.make_node("MaxPool", ["x"], ["y"], name="pool3d",
                                      kernel_shape=[2, 2, 2], pads=[2, 0, 0, 0, 0, 0])],
     [vi("x", f32, [1, 1, 4, 4, 4])], [vi("y", f32, None)])
save("pool4d", [helper.make_node("AveragePool", ["x"], ["y"], name="pool4d",
                                 kernel_shape=[2, 2, 2, 2])],
     [vi("x", f32, [1, 1, 4, 4, 4, 4])], [vi("y", f32, None)])
save("group_norm_groups", [helper.make_node("GroupNormalization", ["x", "s", "b"], ["y"],
                                            name="gn", num_groups=4)],
     [vi("x", f32, [1, 6, 2])], [vi("y", f32, [1, 6, 2])],
     [init("s", np.ones(4, np.float32)), init("b", np.zeros(4, np.float32))], opset=18)
save("group_norm_scale", [helper.make_node("GroupNormalization", ["x", "s", "b"], ["y"],
                                           name="gn", num_groups=2)],
     [vi("x", f32, [1, 6, 2])], [vi("y", f32, [1, 6, 2])],
     [init("s", np.ones(2, np.float32)), init("b", np.zeros(2, np.float32))], opset=21)
save("group_norm_empty", [helper.make_node("GroupNormalization", ["x", "s", "b"], ["y"],
                                           name="gn", num_groups=1 << 62)],
     [vi("x", f32, [0, 0, 2])], [vi("y", f32, [0, 0, 2])],
     [init("s", np.ones(0, np.float32)), init("b", np.zeros(0, np.float32))], opset=21)
save("pool3d_deep", [helper.make_node("AveragePool", ["x"], ["y"], name="pool3d",
                                      kernel_shape=[1, 1, 1])],
     [vi("x", f32, [1, 1, 1 << 40, 1, 1])], [vi("y", f32, None)])
save("conv3d_empty", [helper.make_node("Conv", ["x", "w"], ["y"], name="conv3d")],
     [vi("x", f32, [1 << 47, 0, 1 << 47, 1, 1])], [vi("y", f32, None)],
     [init("w", np.ones((1, 0, 1, 1, 1), np.float32))])
save("pool_kernel_rank", [helper.make_node("MaxPool", ["x"], ["y"], name="pool",
                                           kernel_shape=[2, 2, 2])],
     [vi("x", f32, [1, 1, 4, 4])], [vi("y", f32, None)])
save("pool_negative_pads", [helper.make_node("MaxPool", ["x"], ["y"], name="pool",
                                             kernel_shape=[2, 2], pads=[-1, 0, 0, 0])],
     [vi("x", f32, [1, 1, 4, 4])], [vi("y", f32, None)])
save("pool3d_taps", [helper.make_node("MaxPool", ["x"], ["y"], name="pool3d",
                                      kernel_shape=[300, 1, 1])],
     [vi("x", f32, [1, 1, 300, 1, 1])], [vi("y", f32, None)])
save("lrn_terms", [helper.make_node("LRN", ["x"], ["y"], name="lrn", size=301)],
     [vi("x", f32, [1, 300, 1, 1])], [vi("y", f32, [1, 300, 1, 1])])
save("lp_norm_axis", [helper.make_node("LpNormalization", ["x"], ["y"], name="lp", axis=2)],
     [vi("x", f32, [2, 3])], [vi("y", f32, [2, 3])])
save("lp_norm_p3", [helper.make_node("LpNormalization", ["x"], ["y"], name="lp", p=3)],
     [vi("x", f32, [2, 3])], [vi("y", f32, [2, 3])])
# Slice to INT64_MAX ("to the end") given by a Constant node: 2^63 as a
# double must saturate, not wrap to INT64_MIN.
save("slice_int64_max", [
    helper.make_node("Constant", [], ["e"], value=init("ev", np.array([2**63 - 1], np.int64))),
    helper.make_node("Slice", ["x", "s", "e", "a"], ["y"], name="slice")],
     [vi("x", f32, [1, 56, 4])], [vi("y", f32, [1, 53, 4])],
     [init("s", np.array([3], np.int64)), init("a", np.array([1], np.int64))])
save("scatter_indices", [helper.make_node("ScatterND", ["x", "i", "u"], ["y"], name="scatter")],
     [vi("x", f32, [4]), vi("i", i64, [1, 1]), vi("u", f32, [1])], [vi("y", f32, [4])])
save("scatter_range", [helper.make_node("ScatterElements", ["x", "i", "u"], ["y"], name="scatter")],
     [vi("x", f32, [4]), vi("u", f32, [1])], [vi("y", f32, [4])], [init("i", np.array([7], np.int64))])
save("scatter_shapes", [helper.make_node("ScatterND", ["x", "i", "u"], ["y"], name="scatter")],
     [vi("x", f32, [4, 2]), vi("u", f32, [3])], [vi("y", f32, [4, 2])],
     [init("i", np.array([[1]], np.int64))])
save("convtranspose_group", [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="deconv",
                                              group=3)],
     [vi("x", f32, [1, 4, 3, 3])], [vi("y", f32, [1, 6, 5, 5])],
     [init("w", np.ones((4, 2, 3, 3), np.float32))])
save("convtranspose_strides", [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="deconv",
                                                strides=[2])],
     [vi("x", f32, [1, 4, 3, 3])], [vi("y", f32, [1, 2, 5, 5])],
     [init("w", np.ones((4, 2, 3, 3), np.float32))])
# Opset 6 broadcasting: B's dimensions match A's from `axis` on.
save("legacy_add", [helper.make_node("Add", ["a", "b"], ["y"], name="add", broadcast=1, axis=1),
                    helper.make_node("Mul", ["y", "c"], ["z"], name="mul", broadcast=1)],
     [vi("a", f32, [2, 3, 4])], [vi("z", f32, [2, 3, 4])],
     [init("b", np.array([1, 2, 3], np.float32)), init("c", np.array([1, 2, 3, 4], np.float32))],
     opset=6)
a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
np.save(f"{out}/legacy_add_input.npy", a)
np.save(f"{out}/legacy_add_expected.npy",
        (a + np.array([1, 2, 3], np.float32).reshape(1, 3, 1)) * np.array([1, 2, 3, 4], np.float32))
save("legacy_nobroadcast", [helper.make_node("Sub", ["a", "b"], ["y"], name="sub")],
     [vi("a", f32, [2, 3])], [vi("y", f32, [2, 3])], [init("b", np.ones(3, np.float32))], opset=6)
save("legacy_axis", [helper.make_node("Add", ["a", "b"], ["y"], name="add", broadcast=1, axis=2)],
     [vi("a", f32, [2, 3])], [vi("y", f32, [2, 3])], [init("b", np.ones(3, np.float32))], opset=6)
save("legacy_gemm", [helper.make_node("Gemm", ["a", "b", "c"], ["y"], name="gemm")],
     [vi("a", f32, [2, 3])], [vi("y", f32, [2, 4])],
     [init("b", np.ones((3, 4), np.float32)), init("c", np.ones(4, np.float32))], opset=6)
# TopK of negative integers (taken positions must not read as 0) and CumSum
# with infinities (which travel forward only).
save("topk_int", [helper.make_node("TopK", ["x", "k"], ["v", "i"], name="topk")],
     [vi("x", i32, [5])], [vi("v", i32, [3]), vi("i", i64, [3])],
     [init("k", np.array([3], np.int64))])
np.save(f"{out}/topk_int_input.npy", np.array([-5, -3, -9, -1, -3], np.int32))
np.save(f"{out}/topk_int_values.npy", np.array([-1, -3, -3], np.int32))
np.save(f"{out}/topk_int_indices.npy", np.array([3, 1, 4], np.int64))
save("cumsum_inf", [helper.make_node("CumSum", ["x", "a"], ["y"], name="cumsum")],
     [vi("x", f32, [6])], [vi("y", f32, [6])], [init("a", np.array(0, np.int64))])
np.save(f"{out}/cumsum_inf_input.npy", np.array([1, 2, np.inf, 3, -np.inf, 4], np.float32))
np.save(f"{out}/cumsum_inf_expected.npy", np.array([1, 3, np.inf, np.inf, np.nan, np.nan],
                                                   np.float32))
