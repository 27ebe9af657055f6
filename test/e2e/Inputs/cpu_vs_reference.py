"""Compiled CPU code against the reference interpreter.

1. Every function of test/Interpreter/*.mlir (hand-computed cases of every op).
2. A sweep of generated cases per op: conv2d (layouts, strides, dilations,
   groups and depthwise, asymmetric padding, odd sizes), pooling (ceil mode,
   count_include_pad, padding), broadcasting binary ops, dense / matmul /
   batch_matmul (transposes, batch broadcast, 1-D operands), reductions,
   softmax, layer_norm, transpose, slices with negative steps, pads, nms
   (per-class cap, empty slots, no background class, batches, f16), f16 and
   bf16 pooling.
3. Small zoo models (graph passes on: the default, every level, composites,
   NHWC layouts), on one thread (sequential tile loops) and on two (OpenMP
   tile loops).

Tolerances: |cpu - ref| <= 1e-5 + 1e-4 |ref| (f32 math; the reference
accumulates in f64), 1e-4 + 1e-3 |ref| for whole models.
Prints one line per failure and 'N passed, N failed'.
"""
import os
import random
import re
import subprocess
import sys

bin_dir, interp_dir, work = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(work, exist_ok=True)
passed = failed = 0


def run(*args):
    return subprocess.run(args, capture_output=True, text=True)


def outputs_of(path, entry):
    r = run(f"{bin_dir}/dlc-run", path, f"--entry={entry}")
    return r.stdout.count("\noutput ") + r.stdout.startswith("output ") if r.returncode == 0 else 0


def compare(label, path, entry, atol="1e-5", rtol="1e-4", pipeline="none", threads=1):
    global passed, failed
    n = outputs_of(path, entry)
    if n == 0:
        return
    refs = [os.path.join(work, f"ref{i}.npy") for i in range(n)]
    run(f"{bin_dir}/dlc-run", path, f"--entry={entry}", "--input=random:seed=3",
        *[f"--output={p}" for p in refs])
    r = run(f"{bin_dir}/dlc-run", path, f"--entry={entry}", "--target=cpu",
            f"--pipeline={pipeline}", f"--threads={threads}", "--input=random:seed=3",
            *[f"--expect={p}" for p in refs], f"--atol={atol}", f"--rtol={rtol}")
    ok = r.returncode == 0
    passed += ok
    failed += not ok
    if not ok:
        print(f"FAIL {label}: {(r.stdout + r.stderr).strip()[-300:]}")


# 1. Hand-written cases.
for name in sorted(os.listdir(interp_dir)):
    if not name.endswith(".mlir"):
        continue
    path = os.path.join(interp_dir, name)
    for entry in re.findall(r"^func\.func @(\w+)", open(path).read(), re.M):
        compare(f"{name} @{entry}", path, entry)

# 2. Generated cases.
rng = random.Random(2026)


def t(shape, et="f32"):
    return "tensor<" + "".join(f"{d}x" for d in shape) + et + ">"


def window(size, k, s, d, p0, p1, ceil=False):
    span = size + p0 + p1 - d * (k - 1) - 1
    out = (span + s - 1) // s + 1 if ceil else span // s + 1
    if ceil and (out - 1) * s >= size + p0:
        out -= 1
    return out


cases = []
for i in range(24):  # conv2d
    nhwc = rng.random() < 0.3
    c = rng.choice([1, 3, 4, 6, 8])
    kind = rng.choice(["plain", "plain", "depthwise", "grouped"])
    g = 1 if kind == "plain" else (c if kind == "depthwise" else rng.choice([x for x in (2, 3) if c % x == 0] or [1]))
    if nhwc and kind == "grouped":
        g = 1
    o = c if kind == "depthwise" else g * rng.choice([1, 2, 3])
    kh, kw = rng.choice([1, 2, 3, 5]), rng.choice([1, 3])
    s = [rng.choice([1, 2, 3]), rng.choice([1, 2])]
    d = [rng.choice([1, 1, 2]), rng.choice([1, 2])]
    p = [rng.randint(0, 2) for _ in range(4)]
    h, w = rng.randint(5, 13), rng.randint(5, 11)
    if h + p[0] + p[2] < d[0] * (kh - 1) + 1 or w + p[1] + p[3] < d[1] * (kw - 1) + 1:
        continue
    oh, ow = window(h, kh, s[0], d[0], p[0], p[2]), window(w, kw, s[1], d[1], p[1], p[3])
    x = [1, h, w, c] if nhwc else [1, c, h, w]
    wt = [kh, kw, c // g, o] if nhwc else [o, c // g, kh, kw]
    y = [1, oh, ow, o] if nhwc else [1, o, oh, ow]
    bias = rng.random() < 0.5
    attrs = (f'strides = array<i64: {s[0]}, {s[1]}>, dilations = array<i64: {d[0]}, {d[1]}>, '
             f'padding = array<i64: {p[0]}, {p[1]}, {p[2]}, {p[3]}>, groups = {g} : i64')
    if nhwc:
        attrs += ', data_layout = "NHWC", kernel_layout = "HWIO"'
    args = f"%x: {t(x)}, %w: {t(wt)}" + (f", %b: {t([o])}" if bias else "")
    ops = "%x, %w" + (", %b" if bias else "")
    types = f"{t(x)}, {t(wt)}" + (f", {t([o])}" if bias else "")
    cases.append((f"conv2d_{i}", f"""func.func @main({args}) -> {t(y)} {{
  %0 = graph.conv2d {ops} {{{attrs}}} : ({types}) -> {t(y)}
  %1 = graph.relu %0 : {t(y)}
  return %1 : {t(y)}
}}"""))

for i in range(16):  # pooling
    op = rng.choice(["max_pool2d", "avg_pool2d"])
    k = [rng.choice([2, 3]), rng.choice([1, 2, 3])]
    s = [rng.choice([1, 2]), rng.choice([1, 2])]
    p = [rng.randint(0, k[0] - 1), rng.randint(0, k[1] - 1), rng.randint(0, k[0] - 1), rng.randint(0, k[1] - 1)]
    ceil = rng.random() < 0.4
    h, w = rng.randint(4, 9), rng.randint(4, 9)
    oh, ow = window(h, k[0], s[0], 1, p[0], p[2], ceil), window(w, k[1], s[1], 1, p[1], p[3], ceil)
    attrs = (f"kernel_size = array<i64: {k[0]}, {k[1]}>, strides = array<i64: {s[0]}, {s[1]}>, "
             f"padding = array<i64: {p[0]}, {p[1]}, {p[2]}, {p[3]}>, ceil_mode = {'true' if ceil else 'false'}")
    if op == "avg_pool2d":
        attrs += f", count_include_pad = {'true' if rng.random() < 0.5 else 'false'}"
    cases.append((f"{op}_{i}", f"""func.func @main(%x: {t([1, 3, h, w])}) -> {t([1, 3, oh, ow])} {{
  %0 = graph.{op} %x {{{attrs}}} : ({t([1, 3, h, w])}) -> {t([1, 3, oh, ow])}
  return %0 : {t([1, 3, oh, ow])}
}}"""))

shapes = [([2, 3, 4], [4]), ([2, 1, 4], [3, 1]), ([5], [1]), ([1, 4, 1, 3], [2, 1, 5, 1]), ([3, 5], [3, 5]), ([], [2, 3])]
for i, (a, b) in enumerate(shapes):  # broadcasting binary ops
    out = [max(x, y) for x, y in zip([1] * (max(len(a), len(b)) - len(a)) + a, [1] * (max(len(a), len(b)) - len(b)) + b)]
    op = ["add", "sub", "mul", "div", "maximum", "minimum"][i % 6]
    cases.append((f"{op}_broadcast_{i}", f"""func.func @main(%a: {t(a)}, %b: {t(b)}) -> {t(out)} {{
  %0 = graph.{op} %a, %b : ({t(a)}, {t(b)}) -> {t(out)}
  return %0 : {t(out)}
}}"""))

for i in range(10):  # dense, matmul, batch_matmul
    m, k, n = rng.randint(1, 7), rng.randint(1, 9), rng.randint(1, 6)
    kind = i % 3
    if kind == 0:
        cases.append((f"dense_{i}", f"""func.func @main(%x: {t([2, m, k])}, %w: {t([n, k])}, %b: {t([n])}) -> {t([2, m, n])} {{
  %0 = graph.dense %x, %w, %b : ({t([2, m, k])}, {t([n, k])}, {t([n])}) -> {t([2, m, n])}
  return %0 : {t([2, m, n])}
}}"""))
    elif kind == 1:
        cases.append((f"matmul_{i}", f"""func.func @main(%a: {t([3, 1, m, k])}, %b: {t([2, k, n])}, %v: {t([k])}) -> ({t([3, 2, m, n])}, {t([3, 1, m])}) {{
  %0 = graph.matmul %a, %b : ({t([3, 1, m, k])}, {t([2, k, n])}) -> {t([3, 2, m, n])}
  %1 = graph.matmul %a, %v : ({t([3, 1, m, k])}, {t([k])}) -> {t([3, 1, m])}
  return %0, %1 : {t([3, 2, m, n])}, {t([3, 1, m])}
}}"""))
    else:
        ta, tb = rng.random() < 0.5, rng.random() < 0.5
        a = [3, k, m] if ta else [3, m, k]
        b = [1, n, k] if tb else [1, k, n]
        cases.append((f"batch_matmul_{i}", f"""func.func @main(%a: {t(a)}, %b: {t(b)}) -> {t([3, m, n])} {{
  %0 = graph.batch_matmul %a, %b {{transpose_a = {str(ta).lower()}, transpose_b = {str(tb).lower()}}} : ({t(a)}, {t(b)}) -> {t([3, m, n])}
  return %0 : {t([3, m, n])}
}}"""))

# Products whose second operand is read as [.., n, k] with enough rows that
# the CPU copies it transposed first (dlc-cpu-transpose-product-operands):
# attention's scores and a dense layer with a computed weight, sizes that
# are not multiples of a register tile.
cases.append(("batch_matmul_scores", f"""func.func @main(%q: {t([2, 19, 8])}, %k: {t([2, 13, 8])}) -> {t([2, 19, 13])} {{
  %0 = graph.batch_matmul %q, %k {{transpose_a = false, transpose_b = true}} : ({t([2, 19, 8])}, {t([2, 13, 8])}) -> {t([2, 19, 13])}
  return %0 : {t([2, 19, 13])}
}}"""))
cases.append(("dense_computed_weight", f"""func.func @main(%x: {t([9, 35])}, %w: {t([37, 35])}, %b: {t([37])}) -> {t([9, 37])} {{
  %0 = graph.dense %x, %w, %b : ({t([9, 35])}, {t([37, 35])}, {t([37])}) -> {t([9, 37])}
  return %0 : {t([9, 37])}
}}"""))

for i, (axes, keep) in enumerate([([1], False), ([0, 2], True), ([], False), ([-1], True)]):
    shape = [3, 4, 5]
    norm = [a % 3 for a in axes] or [0, 1, 2]
    out = [(1 if keep else None) if d in norm else s for d, s in enumerate(shape)]
    out = [s for s in out if s is not None]
    for op in ("reduce_sum", "reduce_mean", "reduce_max"):
        cases.append((f"{op}_{i}", f"""func.func @main(%x: {t(shape)}) -> {t(out)} {{
  %0 = graph.{op} %x {{axes = array<i64{''.join(f', {a}' for a in axes)[1:] and ':' + ''.join(f', {a}' for a in axes)[1:]}>, keepdims = {str(keep).lower()}}} : ({t(shape)}) -> {t(out)}
  return %0 : {t(out)}
}}"""))

for axis in (0, 1, -1):
    cases.append((f"softmax_{axis}", f"""func.func @main(%x: {t([3, 4, 5])}) -> {t([3, 4, 5])} {{
  %0 = graph.softmax %x {{axis = {axis} : i64}} : {t([3, 4, 5])}
  return %0 : {t([3, 4, 5])}
}}"""))
cases.append(("layer_norm", f"""func.func @main(%x: {t([2, 3, 8])}, %g: {t([3, 8])}, %b: {t([3, 8])}) -> {t([2, 3, 8])} {{
  %0 = graph.layer_norm %x, %g, %b {{axis = 1 : i64}} : ({t([2, 3, 8])}, {t([3, 8])}, {t([3, 8])}) -> {t([2, 3, 8])}
  return %0 : {t([2, 3, 8])}
}}"""))
# Rows long enough for dlc-cpu-vectorize-reductions (vectors of partial
# results, a scalar remainder: 771 = 48 x 16 + 3, 37 = 2 x 16 + 5, 6 = 4 + 2)
# and for tile-and-fuse's row tiles of reductions that keep a dimension.
cases.append(("rows_layer_norm", f"""func.func @main(%x: {t([1, 64, 771])}, %g: {t([771])}, %b: {t([771])}) -> {t([1, 64, 771])} {{
  %0 = graph.layer_norm %x, %g, %b {{axis = 2 : i64}} : ({t([1, 64, 771])}, {t([771])}, {t([771])}) -> {t([1, 64, 771])}
  return %0 : {t([1, 64, 771])}
}}"""))
cases.append(("rows_softmax", f"""func.func @main(%x: {t([2, 3, 40, 37])}) -> {t([2, 3, 40, 37])} {{
  %0 = graph.softmax %x {{axis = -1 : i64}} : {t([2, 3, 40, 37])}
  return %0 : {t([2, 3, 40, 37])}
}}"""))
for op, shape, keep in (("reduce_max", [96, 130], "true"), ("reduce_sum", [96, 130], "false"),
                        ("reduce_mean", [64, 6], "true")):
    out = [shape[0], 1] if keep == "true" else [shape[0]]
    cases.append((f"rows_{op}", f"""func.func @main(%x: {t(shape)}) -> {t(out)} {{
  %0 = graph.{op} %x {{axes = array<i64: 1>, keepdims = {keep}}} : ({t(shape)}) -> {t(out)}
  return %0 : {t(out)}
}}"""))
cases.append(("transpose_slice_pad", f"""func.func @main(%x: {t([2, 3, 7])}) -> ({t([7, 2, 3])}, {t([2, 2, 3])}, {t([4, 5, 9])}) {{
  %0 = graph.transpose %x {{perm = array<i64: 2, 0, 1>}} : ({t([2, 3, 7])}) -> {t([7, 2, 3])}
  %1 = graph.slice %x {{starts = array<i64: 0, 2, 6>, ends = array<i64: 2, -1, 0>, steps = array<i64: 1, -2, -2>}} : ({t([2, 3, 7])}) -> {t([2, 2, 3])}
  %2 = graph.pad %x {{pad_before = array<i64: 1, 1, 1>, pad_after = array<i64: 1, 1, 1>, mode = "reflect"}} : ({t([2, 3, 7])}) -> {t([4, 5, 9])}
  return %0, %1, %2 : {t([7, 2, 3])}, {t([2, 2, 3])}, {t([4, 5, 9])}
}}"""))

# nms on random boxes (overlapping often) and scores: the per-class cap,
# empty slots, no background class, several batches, f16.
for i, (n, nb, nc, k, iou, bg, et) in enumerate([(2, 40, 4, 5, 0.5, 0, "f32"), (1, 60, 3, 200, 0.3, -1, "f32"),
                                                 (3, 25, 5, 12, 0.7, 2, "f32"), (1, 30, 3, 10, 0.5, 0, "f16")]):
    b, sc = t([n, nb, 4], et), t([n, nc, nb], et)
    outs = f"{t([n, k, 4], et)}, {t([n, k], et)}, {t([n, k], 'i64')}"
    cases.append((f"nms_{i}", f"""func.func @main(%b: {b}, %s: {sc}) -> ({outs}) {{
  %0:3 = graph.nms %b, %s {{iou_threshold = {iou} : f64, max_detections = {k} : i64, background_class = {bg} : i64}} : ({b}, {sc}) -> ({outs})
  return %0#0, %0#1, %0#2 : {outs}
}}"""))

# Dense layers with constant weights, which the CPU stores as panels of
# the register tile's width (dlc-cpu-pack-weights) when n is a multiple of
# it: batched inputs, a single row split across threads along n (the
# panels whole in every thread's tile; on 4 threads, 96 columns are not
# split into 4 x 24, which would cut 32-wide panels), n a multiple of 16
# only, n of no panel width, and one kernel called with two weights.
def weight(n, k):
    return "dense<[" + ", ".join(
        "[" + ", ".join(f"{rng.uniform(-1, 1):.3f}" for _ in range(k)) + "]" for _ in range(n)) + "]>"


for name, x, n, k in [("dense_const_batched", [2, 5, 9], 64, 9), ("dense_const_row", [1, 128], 512, 128),
                      ("dense_const_row96", [1, 1024], 96, 1024),
                      ("dense_const_48", [7, 16], 48, 16), ("dense_const_40", [3, 8], 40, 8)]:
    y = x[:-1] + [n]
    cases.append((name, f"""func.func @main(%x: {t(x)}, %b: {t([n])}) -> {t(y)} {{
  %w = graph.constant {weight(n, k)} : {t([n, k])}
  %0 = graph.dense %x, %w, %b : ({t(x)}, {t([n, k])}, {t([n])}) -> {t(y)}
  return %0 : {t(y)}
}}"""))
cases.append(("dense_const_two_weights", f"""func.func @main(%x: {t([6, 32])}) -> ({t([6, 64])}, {t([6, 64])}) {{
  %w1 = graph.constant {weight(64, 32)} : {t([64, 32])}
  %w2 = graph.constant {weight(64, 32)} : {t([64, 32])}
  %0 = graph.dense %x, %w1 : ({t([6, 32])}, {t([64, 32])}) -> {t([6, 64])}
  %1 = graph.dense %x, %w2 : ({t([6, 32])}, {t([64, 32])}) -> {t([6, 64])}
  return %0, %1 : {t([6, 64])}, {t([6, 64])}
}}"""))

# NHWC convolutions with constant HWIO weights: products of the im2col rows
# (a reshape for 1 x 1) and the weight as [KH*KW*C, O], packed when O is a
# multiple of the panel width (32, 64; 16 in panels of one vector with
# AVX-512), read along its rows otherwise (24, 144 with AVX-512); fewer
# columns than two vectors (16, 24 with AVX-512) take register tiles one
# vector wide.
def hwio(kh, kw, c, o):
    return "dense<" + str([[[[round(rng.uniform(-1, 1), 3) for _ in range(o)] for _ in range(c)]
                             for _ in range(kw)] for _ in range(kh)]) + ">"


for name, (h, w, c), (kh, s, p), o in [("nhwc_const_1x1", (9, 7, 16), (1, 1, 0), 64),
                                       ("nhwc_const_3x3s2", (11, 10, 3), (3, 2, 1), 32),
                                       ("nhwc_const_3x3_24", (8, 8, 8), (3, 1, 1), 24),
                                       ("nhwc_const_1x1_16", (9, 9, 32), (1, 1, 0), 16),
                                       ("nhwc_const_1x1_144", (7, 6, 24), (1, 1, 0), 144)]:
    oh, ow = window(h, kh, s, 1, p, p), window(w, kh, s, 1, p, p)
    x, wt, y = [1, h, w, c], [kh, kh, c, o], [1, oh, ow, o]
    cases.append((name, f"""func.func @main(%x: {t(x)}, %b: {t([o])}) -> {t(y)} {{
  %w = graph.constant {hwio(kh, kh, c, o)} : {t(wt)}
  %0 = graph.conv2d %x, %w, %b {{strides = array<i64: {s}, {s}>, padding = array<i64: {p}, {p}, {p}, {p}>, groups = 1 : i64, data_layout = "NHWC", kernel_layout = "HWIO"}} : ({t(x)}, {t(wt)}, {t([o])}) -> {t(y)}
  %1 = graph.relu %0 : {t(y)}
  return %1 : {t(y)}
}}"""))

# NHWC windows at stride 1 on planes large enough that their tiles are
# bands of rows (dlc-cpu-tile-and-fuse's rowBands), each padding its own
# band: the first and last bands reach the border, and with a prime height
# the bands are single rows; dilations, uneven padding, and pooling's -inf.
for name, (h, w, c), (k, d, p) in [("nhwc_bands_dw", (72, 72, 24), (3, 1, (1, 1, 1, 1))),
                                   ("nhwc_bands_dilated", (72, 70, 16), (3, 2, (2, 1, 1, 2))),
                                   ("nhwc_bands_prime", (71, 72, 32), (3, 1, (1, 1, 1, 1)))]:
    oh, ow = window(h, k, 1, d, p[0], p[2]), window(w, k, 1, d, p[1], p[3])
    x, wt, y = [1, h, w, c], [k, k, 1, c], [1, oh, ow, c]
    cases.append((name, f"""func.func @main(%x: {t(x)}, %w: {t(wt)}, %b: {t([c])}) -> {t(y)} {{
  %0 = graph.conv2d %x, %w, %b {{strides = array<i64: 1, 1>, dilations = array<i64: {d}, {d}>, padding = array<i64: {p[0]}, {p[1]}, {p[2]}, {p[3]}>, groups = {c} : i64, data_layout = "NHWC", kernel_layout = "HWIO"}} : ({t(x)}, {t(wt)}, {t([c])}) -> {t(y)}
  %1 = graph.relu %0 : {t(y)}
  return %1 : {t(y)}
}}"""))
cases.append(("nhwc_bands_pool", f"""func.func @main(%x: {t([1, 72, 72, 24])}) -> {t([1, 72, 72, 24])} {{
  %0 = graph.max_pool2d %x {{layout = "NHWC", kernel_size = array<i64: 3, 3>, strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>}} : ({t([1, 72, 72, 24])}) -> {t([1, 72, 72, 24])}
  return %0 : {t([1, 72, 72, 24])}
}}"""))

# Products whose n no column tile divides (361, 300 > 256): B's columns
# in blocks with the last one peeled off, rows whole in a thread's tile
# (36 and 18 rows, which tiles of 6 rows divide).
cases.append(("blocked_conv", f"""func.func @main(%x: {t([1, 8, 19, 19])}, %w: {t([18, 8, 3, 3])}) -> {t([1, 18, 19, 19])} {{
  %0 = graph.conv2d %x, %w {{strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64}} : ({t([1, 8, 19, 19])}, {t([18, 8, 3, 3])}) -> {t([1, 18, 19, 19])}
  return %0 : {t([1, 18, 19, 19])}
}}"""))
cases.append(("blocked_matmul", f"""func.func @main(%a: {t([36, 40])}, %b: {t([40, 300])}) -> {t([36, 300])} {{
  %0 = graph.matmul %a, %b : ({t([36, 40])}, {t([40, 300])}) -> {t([36, 300])}
  return %0 : {t([36, 300])}
}}"""))

# A weight the graph passes computed (folded: a payload the CPU compiler may
# pack within itself) read by a dense layer, which packs it, and by an add,
# which reads it as it is: the payload must keep its bytes for the add.
shared = os.path.join(work, "shared_folded_weight.mlir")
with open(shared, "w") as f:
    f.write(f"""func.func @main(%x: {t([4, 64])}, %y: {t([64, 64])}) -> ({t([4, 64])}, {t([64, 64])}) {{
  %w = graph.constant {weight(64, 64)} : {t([64, 64])}
  %two = graph.constant dense<2.0> : {t([])}
  %w2 = graph.mul %w, %two : ({t([64, 64])}, {t([])}) -> {t([64, 64])}
  %0 = graph.dense %x, %w2 : ({t([4, 64])}, {t([64, 64])}) -> {t([4, 64])}
  %1 = graph.add %y, %w2 : ({t([64, 64])}, {t([64, 64])}) -> {t([64, 64])}
  return %0, %1 : {t([4, 64])}, {t([64, 64])}
}}
""")
compare("generated shared_folded_weight O3", shared, "main", pipeline="O3")

# f16 and bf16 pooling: the row loops computed in f32 vectors, widened
# where read and rounded where stored (max pooling exactly; an average
# rounded once, where the reference rounds its exact result: within one
# unit in the last place, 2^-8 relative for bf16, 2^-11 for f16).
narrow_cases = []
for i, (et, op, layout) in enumerate([("bf16", "max_pool2d", "NHWC"), ("bf16", "avg_pool2d", "NHWC"),
                                      ("f16", "max_pool2d", "NCHW"), ("f16", "avg_pool2d", "NHWC"),
                                      ("bf16", "max_pool2d", "NCHW")]):
    shape, out = ([1, 20, 20, 24], [1, 10, 10, 24]) if layout == "NHWC" else ([1, 4, 20, 37], [1, 4, 10, 19])
    attrs = (f'layout = "{layout}", kernel_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, '
             f"padding = array<i64: 1, 1, 1, 1>")
    narrow_cases.append((f"{op}_{et}_{layout}_{i}", f"""func.func @main(%x: {t(shape, et)}) -> {t(out, et)} {{
  %0 = graph.{op} %x {{{attrs}}} : ({t(shape, et)}) -> {t(out, et)}
  return %0 : {t(out, et)}
}}""", "0" if op == "max_pool2d" else "1e-3", "0" if op == "max_pool2d" else "8e-3"))
for name, text, atol, rtol in narrow_cases:
    path = os.path.join(work, f"{name}.mlir")
    with open(path, "w") as f:
        f.write(text + "\n")
    compare(f"generated {name}", path, "main", atol=atol, rtol=rtol)

for name, text in cases:
    path = os.path.join(work, f"{name}.mlir")
    with open(path, "w") as f:
        f.write(text + "\n")
    compare(f"generated {name}", path, "main")
    if name.startswith(("dense_const", "blocked", "nhwc_const", "nhwc_bands", "rows_")):
        for threads in (2, 4):
            compare(f"generated {name} threads={threads}", path, "main", threads=threads)

# 3. Small zoo models: the default pipeline on one thread (sequential tile
# loops), and every optimization level on two (OpenMP ones): O0 compiles
# every op as a kernel of its own, O1 and up the groups FuseOps made.
for model, opts in (("resnet18", ["--image=32"]), ("mobilenet_v2", ["--image=32"]),
                    ("bert_tiny", ["--seq=8"])):
    path = os.path.join(work, f"{model}.mlirbc")
    run(f"{bin_dir}/dlc-zoo", model, *opts, "-o", path)
    compare(f"zoo {model} threads=1", path, "main", "1e-4", "1e-3", "default", 1)
    for level in ("O0", "O1", "O2", "O3", "O4", "auto"):
        compare(f"zoo {model} {level} threads=2", path, "main", "1e-4", "1e-3", level, 2)
    # Composites are kernels too.
    composites = "list:SimplifyInference,FoldConstant,FoldScaleAxis,MergeComposite,FuseOps"
    compare(f"zoo {model} composites threads=2", path, "main", "1e-4", "1e-3", composites, 2)
    # NHWC convolutions, and AlterOpLayout turning them back into what the
    # CPU description wants.
    nhwc = "list:ConvertLayout,SimplifyInference,FoldConstant,FoldScaleAxis,FuseOps"
    compare(f"zoo {model} NHWC threads=2", path, "main", "1e-4", "1e-3", nhwc, 2)
    altered = "list:ConvertLayout,SimplifyInference,FoldConstant,AlterOpLayout,FuseOps"
    compare(f"zoo {model} NHWC altered threads=2", path, "main", "1e-4", "1e-3", altered, 2)
    # Partitioned for an "external" target that is a second description of
    # the CPU: the partitions are functions the CPU compiles and calls.
    ext = os.path.join(os.path.dirname(__file__), "../../../examples/targets/cpu-ext.txt")
    byoc = (f"list:SimplifyInference,FoldConstant,MergeComposite,AnnotateTarget{{targets={ext}}},"
            "MergeCompilerRegions,PartitionGraph,FuseOps")
    compare(f"zoo {model} partitioned threads=2", path, "main", "1e-4", "1e-3", byoc, 2)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
