"""Differential test: random small graphs, the reference interpreter against
the CPU at every pipeline (none, O0..O4).

    differential.py BIN_DIR WORK [GRAPHS] [--seed=S] [--minutes=M]

Each graph is a random chain of shape-preserving ops on an input of random
shape 1xCxHxW (C 1-5, H and W 2-9), drawn so that the semantics every target
must share are exercised:
- NaN, injected by adding a constant that holds one (and folded at compile
  time where the pipeline folds constants): relu, maximum, minimum, clip,
  max pooling, reduce_max and softmax propagate it;
- gather indices out of range (clamped, graph.gather);
- f16 and bf16 convolutions and products (accumulated in f32 on the CPU,
  in f64 by the reference: one final rounding apart);
- the elementwise math, rounding, comparison and select ops, reductions
  (sum, mean, max, min, prod) and arg_max/arg_min, gather_elements, resize
  (nearest, linear, cubic, random coordinate modes), transposes and f64.

Long runs: --minutes=M keeps drawing graphs (from --seed) until M minutes
have passed; every failing graph stays in WORK to be kept as a test.

Tolerances: 1e-5 + 1e-4 |ref| for f32 graphs; 2e-2 + 2e-2 |ref| once a
graph computes in f16/bf16 (an output one rounding apart in bf16 is 2^-8
relative, and later ops carry it). Prints one line per failure and
'N passed, N failed'.
"""
import os
import random
import subprocess
import sys
import time

args = [a for a in sys.argv[1:] if not a.startswith("--")]
opts = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--"))
bin_dir, work = args[0], args[1]
os.makedirs(work, exist_ok=True)
GRAPHS = int(args[2]) if len(args) > 2 else 30
MINUTES = float(opts.get("minutes", 0))
PIPELINES = ["none", "O0", "O1", "O2", "O3", "O4"]
SHAPE = [1, 4, 6, 6]
NAN = "0x7FC00000"
rng = random.Random(int(opts.get("seed", 17)))


def ty(shape=SHAPE, et="f32"):
    return "tensor<" + "".join(f"{d}x" for d in shape) + et + ">"


def floats(n, nan_at=None):
    vals = [f"{rng.uniform(-1, 1):.4f}" for _ in range(n)]
    if nan_at is not None:
        vals[nan_at] = NAN
    return "[" + ", ".join(vals) + "]"


class Graph:
    def __init__(self):
        self.lines, self.n, self.low = [], 0, False

    def emit(self, text):
        name = f"%v{self.n}"
        self.n += 1
        self.lines.append(f"  {name} = {text}")
        return name

    def const(self, shape, nan_at=None, et="f32"):
        """Random values in [-1, 1), a NaN at flat position `nan_at`."""
        n = 1
        for d in shape:
            n *= d
        flat = self.emit(f"graph.constant dense<{floats(n, nan_at)}> : {ty([n], et)}")
        return self.reshape(flat, [n], shape, et)

    def reshape(self, v, src, dst, et="f32"):
        return self.emit(f"graph.reshape {v} : ({ty(src, et)}) -> {ty(dst, et)}")

    def step(self, x):
        t = ty()
        size = SHAPE[0] * SHAPE[1] * SHAPE[2] * SHAPE[3]
        n, c_, h, w = SHAPE
        kind = rng.choice(["nan", "nan_folded", "relu", "maximum", "minimum", "clip",
                           "max_pool", "reduce_max", "softmax", "gather", "conv_low",
                           "dense_low", "residual", "math", "rounding", "compare_select",
                           "reduce", "arg", "gather_elements", "resize", "transpose", "f64"])
        if kind == "math":  # bounded inputs keep every function finite
            op, pre = rng.choice([("sin", None), ("cos", None), ("atan", None), ("sinh", None),
                                  ("asinh", None), ("tanh", None), ("tan", "clip"),
                                  ("asin", "clip"), ("acos", "clip"), ("atanh", "clip"),
                                  ("cosh", None)])
            bound = 0.9 if pre else 3.0
            v = self.emit(f"graph.clip {x} {{min = {-bound} : f64, max = {bound} : f64}} : {t}")
            y = self.emit(f"graph.{op} {v} : {t}")
            return self.emit(f"graph.clip {y} {{min = -4.0 : f64, max = 4.0 : f64}} : {t}")
        if kind == "rounding":
            op = rng.choice(["floor", "ceil", "round"])
            k = self.const([1])
            scaled = self.emit(f"graph.mul {x}, {k} : ({t}, {ty([1])}) -> {t}")
            return self.emit(f"graph.{op} {scaled} : {t}")
        if kind == "compare_select":
            pred = rng.choice(["eq", "ne", "lt", "le", "gt", "ge"])
            c = self.const(SHAPE, nan_at=rng.choice([None, rng.randrange(size)]))
            m = self.emit(f"graph.compare \"{pred}\", {x}, {c} : ({t}, {t}) -> {ty(SHAPE, 'i1')}")
            return self.emit(f"graph.select {m}, {x}, {c} : ({ty(SHAPE, 'i1')}, {t}, {t}) -> {t}")
        if kind == "reduce":
            op = rng.choice(["reduce_sum", "reduce_mean", "reduce_max", "reduce_min",
                             "reduce_prod"])
            axis = rng.choice([1, 2, 3])
            kept = list(SHAPE)
            kept[axis] = 1
            v = x
            if op == "reduce_prod":  # bounded factors: a well-conditioned product
                v = self.emit(f"graph.clip {x} {{min = -1.5 : f64, max = 1.5 : f64}} : {t}")
            r = self.emit(f"graph.{op} {v} {{axes = array<i64: {axis}>, keepdims = true}} : "
                          f"({t}) -> {ty(kept)}")
            return self.emit(f"graph.add {x}, {r} : ({t}, {ty(kept)}) -> {t}")
        if kind == "arg":
            op = rng.choice(["arg_max", "arg_min"])
            axis = rng.choice([1, 2, 3])
            kept = list(SHAPE)
            kept[axis] = 1
            last = rng.choice(["true", "false"])
            i = self.emit(f"graph.{op} {x} {{axis = {axis} : i64, select_last_index = {last}}} : "
                          f"({t}) -> {ty(kept, 'i64')}")
            f = self.emit(f"graph.cast {i} : ({ty(kept, 'i64')}) -> {ty(kept)}")
            return self.emit(f"graph.add {x}, {f} : ({t}, {ty(kept)}) -> {t}")
        if kind == "gather_elements":
            axis = rng.choice([1, 2, 3])
            idx = [rng.randrange(-SHAPE[axis], SHAPE[axis]) for _ in range(size)]
            flat = self.emit(f"graph.constant dense<{idx}> : tensor<{size}xi64>")
            i = self.reshape(flat, [size], SHAPE, "i64")
            return self.emit(f"graph.gather_elements {x}, {i} {{axis = {axis} : i64}} : "
                             f"({t}, {ty(SHAPE, 'i64')}) -> {t}")
        if kind == "resize":  # up along one axis, back down along the same one
            mode = rng.choice(["nearest", "linear", "cubic"])
            coords = rng.choice(["half_pixel", "pytorch_half_pixel", "align_corners",
                                 "asymmetric", "tf_half_pixel_for_nn", "half_pixel_symmetric"])
            axis = rng.choice([2, 3])
            up = list(SHAPE)
            up[axis] *= 2
            sc = ["1.0"] * 4
            sc[axis] = "2.0"
            y = self.emit(f"graph.resize {x} {{scales = array<f64: {', '.join(sc)}>, mode = \"{mode}\", "
                          f"coordinate_transformation_mode = \"{coords}\"}} : ({t}) -> {ty(up)}")
            sc[axis] = "0.5"
            return self.emit(f"graph.resize {y} {{scales = array<f64: {', '.join(sc)}>, mode = \"{mode}\", "
                             f"coordinate_transformation_mode = \"{coords}\"}} : ({ty(up)}) -> {t}")
        if kind == "transpose" and h == w:
            y = self.emit(f"graph.transpose {x} {{perm = array<i64: 0, 1, 3, 2>}} : ({t}) -> {t}")
            return self.emit(f"graph.add {x}, {y} : ({t}, {t}) -> {t}")
        if kind == "f64":
            d = ty(SHAPE, "f64")
            y = self.emit(f"graph.cast {x} : ({t}) -> {d}")
            e = self.emit(f"graph.exp {y} : {d}")
            return self.emit(f"graph.cast {e} : ({d}) -> {t}")
        if kind == "nan":
            c = self.const(SHAPE, nan_at=rng.randrange(size))
            return self.emit(f"graph.add {x}, {c} : ({t}, {t}) -> {t}")
        if kind == "nan_folded":  # relu/max of a constant NaN: folded at O1+
            c = self.const(SHAPE, nan_at=rng.randrange(size))
            r = self.emit(f"graph.relu {c} : {t}")
            return self.emit(f"graph.maximum {x}, {r} : ({t}, {t}) -> {t}")
        if kind == "relu":
            return self.emit(f"graph.relu {x} : {t}")
        if kind in ("maximum", "minimum"):
            c = self.const(SHAPE, nan_at=rng.choice([None, rng.randrange(size)]))
            return self.emit(f"graph.{kind} {x}, {c} : ({t}, {t}) -> {t}")
        if kind == "clip":
            return self.emit(f"graph.clip {x} {{min = -0.5 : f64, max = 0.5 : f64}} : {t}")
        if kind == "max_pool":
            return self.emit(
                f"graph.max_pool2d {x} {{kernel_size = array<i64: 3, 3>, strides = array<i64: 1, 1>, "
                f"padding = array<i64: 1, 1, 1, 1>}} : ({t}) -> {t}")
        if kind == "reduce_max":
            r = self.emit(f"graph.reduce_max {x} {{axes = array<i64: 3>, keepdims = true}} : "
                          f"({t}) -> {ty([n, c_, h, 1])}")
            return self.emit(f"graph.add {x}, {r} : ({t}, {ty([n, c_, h, 1])}) -> {t}")
        if kind == "softmax":
            return self.emit(f"graph.softmax {x} {{axis = 1 : i64}} : {t}")
        if kind == "gather":  # channels, some indices out of range
            idx = [rng.choice([-9, -1, 0, 2, 3, 7, 40]) for _ in range(c_)]
            i = self.emit(f"graph.constant dense<{idx}> : tensor<{c_}xi64>")
            return self.emit(f"graph.gather {x}, {i} {{axis = 1 : i64}} : "
                             f"({t}, tensor<{c_}xi64>) -> {t}")
        if kind == "conv_low":
            et = rng.choice(["f16", "bf16"])
            self.low = True
            lt = ty(SHAPE, et)
            xl = self.emit(f"graph.cast {x} : ({t}) -> {lt}")
            w = self.const([c_, c_, 3, 3], et=et)
            y = self.emit(f"graph.conv2d {xl}, {w} {{strides = array<i64: 1, 1>, "
                          f"padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64}}"
                          f" : ({lt}, {ty([c_, c_, 3, 3], et)}) -> {lt}")
            return self.emit(f"graph.cast {y} : ({lt}) -> {t}")
        if kind == "dense_low":
            et = rng.choice(["f16", "bf16"])
            self.low = True
            lt = ty(SHAPE, et)
            xl = self.emit(f"graph.cast {x} : ({t}) -> {lt}")
            wt = self.const([w, w], et=et)
            y = self.emit(f"graph.dense {xl}, {wt} : ({lt}, {ty([SHAPE[3], SHAPE[3]], et)}) -> {lt}")
            return self.emit(f"graph.cast {y} : ({lt}) -> {t}")
        # residual: x + relu(x * c)
        c = self.const([c_, 1, 1])
        m = self.emit(f"graph.mul {x}, {c} : ({t}, {ty([c_, 1, 1])}) -> {t}")
        r = self.emit(f"graph.relu {m} : {t}")
        return self.emit(f"graph.add {x}, {r} : ({t}, {t}) -> {t}")

    def text(self, steps):
        x = "%x"
        for _ in range(steps):
            x = self.step(x)
        body = "\n".join(self.lines)
        return (f"func.func @main(%x: {ty()}) -> {ty()} {{\n{body}\n"
                f"  return {x} : {ty()}\n}}\n")


def run(*args):
    return subprocess.run(args, capture_output=True, text=True)


passed = failed = 0
start = time.time()
g = 0
while (g < GRAPHS) if not MINUTES else (time.time() - start < 60 * MINUTES):
    g += 1
    SHAPE[1:] = [rng.randint(1, 5), rng.randint(2, 9), rng.randint(2, 9)]
    graph = Graph()
    text = graph.text(rng.randint(3, 6))
    path = os.path.join(work, f"graph{g}.mlir")
    open(path, "w").write(text)
    ref = os.path.join(work, f"graph{g}.ref.npy")
    r = run(f"{bin_dir}/dlc-run", path, "--input=random:seed=5", f"--output={ref}")
    if r.returncode != 0:
        failed += 1
        print(f"FAIL graph{g} reference: {(r.stdout + r.stderr).strip()[-300:]}")
        continue
    atol, rtol = ("2e-2", "2e-2") if graph.low else ("1e-5", "1e-4")
    for pipeline in PIPELINES:
        r = run(f"{bin_dir}/dlc-run", path, "--target=cpu", f"--pipeline={pipeline}",
                "--input=random:seed=5", f"--expect={ref}", f"--atol={atol}", f"--rtol={rtol}")
        ok = r.returncode == 0
        passed += ok
        failed += not ok
        if not ok:
            print(f"FAIL graph{g} --pipeline={pipeline}: {(r.stdout + r.stderr).strip()[-300:]}")
print(f"{passed} passed, {failed} failed")
