"""Writes one-node ONNX models of operators and attributes PyTorch does not
export as such (GroupNormalization at opsets 18 and 21, LpNormalization, a
3-D AveragePool counting its padding), each with an input and numpy's or
PyTorch's result, into the given directory: NAME.onnx, NAME_input.npy,
NAME_expected.npy."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(0)
f32 = TensorProto.FLOAT


def save(name, node, x, y, inits, opset):
    graph = helper.make_graph(
        [node], name, [helper.make_tensor_value_info("x", f32, list(x.shape))],
        [helper.make_tensor_value_info("y", f32, list(y.shape))],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.save(model, f"{out}/{name}.onnx")
    np.save(f"{out}/{name}_input.npy", x)
    np.save(f"{out}/{name}_expected.npy", y.astype(np.float32))


def group_norm(x, groups, scale, bias, eps, per_channel):
    n, c = x.shape[:2]
    g = x.astype(np.float64).reshape(n, groups, -1)
    g = (g - g.mean(axis=2, keepdims=True)) / np.sqrt(g.var(axis=2, keepdims=True) + eps)
    if per_channel:
        shape = [1, c] + [1] * (x.ndim - 2)
        return g.reshape(x.shape) * scale.reshape(shape) + bias.reshape(shape)
    return (g * scale.reshape(1, groups, 1) + bias.reshape(1, groups, 1)).reshape(x.shape)


# GroupNormalization: opset 18 scales each group, opset 21 each channel.
for name, shape, groups, opset in [("group_norm18", (2, 6, 5, 4), 3, 18),
                                   ("group_norm21", (2, 8, 7), 4, 21)]:
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float32)
    per = groups if opset < 21 else shape[1]
    scale = rng.uniform(0.5, 1.5, per).astype(np.float32)
    bias = rng.standard_normal(per).astype(np.float32)
    node = helper.make_node("GroupNormalization", ["x", "scale", "bias"], ["y"], name="gn",
                            num_groups=groups, epsilon=1e-3)
    save(name, node, x, group_norm(x, groups, scale, bias, 1e-3, opset >= 21),
         {"scale": scale, "bias": bias}, opset)

# LpNormalization: L1 along axis 1, L2 along the last axis.
for name, p, axis in [("lp_norm1", 1, 1), ("lp_norm2", 2, -1)]:
    x = rng.standard_normal((3, 4, 5)).astype(np.float32)
    norm = np.linalg.norm(x.astype(np.float64), ord=p, axis=axis, keepdims=True)
    node = helper.make_node("LpNormalization", ["x"], ["y"], name="lp", p=p, axis=axis)
    save(name, node, x, x / norm, {}, 13)

# A 3-D average pool counting its padding, in ceil mode (PyTorch exports
# count_include_pad as an explicit Pad): PyTorch's result.
import torch  # noqa: E402

x = rng.standard_normal((1, 2, 7, 6, 5)).astype(np.float32)
y = torch.nn.functional.avg_pool3d(torch.from_numpy(x), (3, 2, 3), stride=(2, 2, 1),
                                   padding=(1, 1, 1), ceil_mode=True,
                                   count_include_pad=True).numpy()
node = helper.make_node("AveragePool", ["x"], ["y"], name="pool", kernel_shape=[3, 2, 3],
                        strides=[2, 2, 1], pads=[1, 1, 1, 1, 1, 1], ceil_mode=1,
                        count_include_pad=1)
save("avg_pool3d_include_pad", node, x, y, {}, 13)
