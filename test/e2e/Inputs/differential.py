"""Differential test: random small graphs, the reference interpreter against
the CPU at every pipeline (none, O0..O4).

Each graph is a random chain of shape-preserving ops on a 1x4x6x6 input,
drawn so that the semantics every target must share are exercised:
- NaN, injected by adding a constant that holds one (and folded at compile
  time where the pipeline folds constants): relu, maximum, minimum, clip,
  max pooling, reduce_max and softmax propagate it;
- gather indices out of range (clamped, graph.gather);
- f16 and bf16 convolutions and products (accumulated in f32 on the CPU,
  in f64 by the reference: one final rounding apart).

Tolerances: 1e-5 + 1e-4 |ref| for f32 graphs; 2e-2 + 2e-2 |ref| once a
graph computes in f16/bf16 (an output one rounding apart in bf16 is 2^-8
relative, and later ops carry it). Prints one line per failure and
'N passed, N failed'.
"""
import os
import random
import subprocess
import sys

bin_dir, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
GRAPHS = int(sys.argv[3]) if len(sys.argv) > 3 else 30
PIPELINES = ["none", "O0", "O1", "O2", "O3", "O4"]
SHAPE = [1, 4, 6, 6]
NAN = "0x7FC00000"
rng = random.Random(17)


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
        kind = rng.choice(["nan", "nan_folded", "relu", "maximum", "minimum", "clip",
                           "max_pool", "reduce_max", "softmax", "gather", "conv_low",
                           "dense_low", "residual"])
        if kind == "nan":
            c = self.const(SHAPE, nan_at=rng.randrange(144))
            return self.emit(f"graph.add {x}, {c} : ({t}, {t}) -> {t}")
        if kind == "nan_folded":  # relu/max of a constant NaN: folded at O1+
            c = self.const(SHAPE, nan_at=rng.randrange(144))
            r = self.emit(f"graph.relu {c} : {t}")
            return self.emit(f"graph.maximum {x}, {r} : ({t}, {t}) -> {t}")
        if kind == "relu":
            return self.emit(f"graph.relu {x} : {t}")
        if kind in ("maximum", "minimum"):
            c = self.const(SHAPE, nan_at=rng.choice([None, rng.randrange(144)]))
            return self.emit(f"graph.{kind} {x}, {c} : ({t}, {t}) -> {t}")
        if kind == "clip":
            return self.emit(f"graph.clip {x} {{min = -0.5 : f64, max = 0.5 : f64}} : {t}")
        if kind == "max_pool":
            return self.emit(
                f"graph.max_pool2d {x} {{kernel_size = array<i64: 3, 3>, strides = array<i64: 1, 1>, "
                f"padding = array<i64: 1, 1, 1, 1>}} : ({t}) -> {t}")
        if kind == "reduce_max":
            r = self.emit(f"graph.reduce_max {x} {{axes = array<i64: 3>, keepdims = true}} : "
                          f"({t}) -> {ty([1, 4, 6, 1])}")
            return self.emit(f"graph.add {x}, {r} : ({t}, {ty([1, 4, 6, 1])}) -> {t}")
        if kind == "softmax":
            return self.emit(f"graph.softmax {x} {{axis = 1 : i64}} : {t}")
        if kind == "gather":  # channels, two of four indices out of range
            idx = [rng.choice([-9, -1, 0, 2, 3, 7, 40]) for _ in range(4)]
            i = self.emit(f"graph.constant dense<{idx}> : tensor<4xi64>")
            return self.emit(f"graph.gather {x}, {i} {{axis = 1 : i64}} : "
                             f"({t}, tensor<4xi64>) -> {t}")
        if kind == "conv_low":
            et = rng.choice(["f16", "bf16"])
            self.low = True
            lt = ty(SHAPE, et)
            xl = self.emit(f"graph.cast {x} : ({t}) -> {lt}")
            w = self.const([4, 4, 3, 3], et=et)
            y = self.emit(f"graph.conv2d {xl}, {w} {{strides = array<i64: 1, 1>, "
                          f"padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64}}"
                          f" : ({lt}, {ty([4, 4, 3, 3], et)}) -> {lt}")
            return self.emit(f"graph.cast {y} : ({lt}) -> {t}")
        if kind == "dense_low":
            et = rng.choice(["f16", "bf16"])
            self.low = True
            lt = ty(SHAPE, et)
            xl = self.emit(f"graph.cast {x} : ({t}) -> {lt}")
            w = self.const([6, 6], et=et)
            y = self.emit(f"graph.dense {xl}, {w} : ({lt}, {ty([6, 6], et)}) -> {lt}")
            return self.emit(f"graph.cast {y} : ({lt}) -> {t}")
        # residual: x + relu(x * c)
        c = self.const([4, 1, 1])
        m = self.emit(f"graph.mul {x}, {c} : ({t}, {ty([4, 1, 1])}) -> {t}")
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
for g in range(GRAPHS):
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
