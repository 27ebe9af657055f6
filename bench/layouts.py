#!/usr/bin/env python3
"""NCHW against NHWC on the CPU backend, per op class and per model.

Each op class (1x1, 3x3 and strided 7x7 convolutions, depthwise 3x3, max
pooling) is one function whose input and weight are arguments already in
the layout measured, so only the kernel is timed; the two layouts alternate
round by round (the machine drifts). The models are compiled as they come
(NCHW) and after ConvertLayout to NHWC. Everything runs at O3 without
AlterOpLayout, which would undo NHWC on the CPU. Prints a Markdown table of
median p50 latencies and the NHWC/NCHW ratio; this is the measurement
behind the CPU target description (lib/Transforms/TargetDescription.cpp).

    python3 bench/layouts.py build/bin --rounds 3 --json bench/layouts.json
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile

# name: (N, C, H, W, O, K, stride, pad, groups)
CONVS = {
    "conv 1x1 64->256 56x56": (1, 64, 56, 56, 256, 1, 1, 0, 1),
    "conv 1x1 96->24 56x56": (1, 96, 56, 56, 24, 1, 1, 0, 1),
    "conv 3x3 128->128 28x28": (1, 128, 28, 28, 128, 3, 1, 1, 1),
    "conv 3x3 256->256 14x14": (1, 256, 14, 14, 256, 3, 1, 1, 1),
    "conv 7x7/2 3->64 224x224": (1, 3, 224, 224, 64, 7, 2, 3, 1),
    "depthwise 3x3 96 56x56": (1, 96, 56, 56, 96, 3, 1, 1, 96),
    "depthwise 3x3/2 144 56x56": (1, 144, 56, 56, 144, 3, 2, 1, 144),
}
POOLS = {"max_pool 3x3/2 64 112x112": (1, 64, 112, 112, 3, 2, 1)}
MODELS = ["resnet50", "mobilenet_v2"]
# AlterOpLayout would turn NHWC back into what the CPU description wants.
PIPELINE = "O3;disable=AlterOpLayout"


def ty(shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def conv_module(spec, layout):
    n, c, h, w, o, k, s, p, g = spec
    oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
    if layout == "NCHW":
        x, wt, y, attrs = (n, c, h, w), (o, c // g, k, k), (n, o, oh, ow), ""
    else:
        x, wt, y = (n, h, w, c), (k, k, c // g, o), (n, oh, ow, o)
        attrs = 'data_layout = "NHWC", kernel_layout = "HWIO", '
    return (f"func.func @main(%x: {ty(x)}, %w: {ty(wt)}) -> {ty(y)} {{\n"
            f"  %y = graph.conv2d %x, %w {{{attrs}strides = array<i64: {s}, {s}>, "
            f"padding = array<i64: {p}, {p}, {p}, {p}>, groups = {g} : i64}} : "
            f"({ty(x)}, {ty(wt)}) -> {ty(y)}\n  return %y : {ty(y)}\n}}\n")


def pool_module(spec, layout):
    n, c, h, w, k, s, p = spec
    oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
    x, y = ((n, c, h, w), (n, c, oh, ow)) if layout == "NCHW" else ((n, h, w, c), (n, oh, ow, c))
    return (f"func.func @main(%x: {ty(x)}) -> {ty(y)} {{\n"
            f"  %y = graph.max_pool2d %x {{layout = \"{layout}\", kernel_size = array<i64: {k}, {k}>, "
            f"strides = array<i64: {s}, {s}>, padding = array<i64: {p}, {p}, {p}, {p}>}} : "
            f"({ty(x)}) -> {ty(y)}\n  return %y : {ty(y)}\n}}\n")


def bench(args, path, pipeline, report):
    """One dlc-run --bench of `path`."""
    r = subprocess.run([f"{args.bin_dir}/dlc-run", path, "--target=cpu",
                        f"--threads={args.threads}", f"--pipeline={pipeline}", "--bench",
                        "--input=random:seed=1", f"--runs={args.runs}", f"--json={report}"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"dlc-run {path} {pipeline} failed:\n{r.stderr}")
    with open(report) as f:
        j = json.load(f)
    return {"p50_ms": j["latency_ms"]["p50"], "compile_s": j["compile_ms"]["total"] / 1e3,
            "host_cpu": j["host_cpu"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bin_dir")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--models", default=",".join(MODELS), help="comma-separated; empty: none")
    ap.add_argument("--json", help="write every measurement here")
    args = ap.parse_args()
    cases = {}  # name -> {layout: file}
    results = {}
    with tempfile.TemporaryDirectory(prefix="dlc-layouts-") as work:
        for i, (name, spec) in enumerate(list(CONVS.items()) + list(POOLS.items())):
            make = conv_module if name in CONVS else pool_module
            cases[name] = {}
            for layout in ("NCHW", "NHWC"):
                path = os.path.join(work, f"op{i}.{layout}.mlir")
                with open(path, "w") as f:
                    f.write(make(spec, layout))
                cases[name][layout] = path
        for model in filter(None, args.models.split(",")):
            path = os.path.join(work, f"{model}.mlirbc")
            nhwc = os.path.join(work, f"{model}.nhwc.mlirbc")
            subprocess.run([f"{args.bin_dir}/dlc-zoo", model, "-o", path], check=True)
            subprocess.run([f"{args.bin_dir}/dlc-opt", path, "--dlc-pipeline=list:ConvertLayout",
                            "-o", nhwc], check=True)
            cases[model] = {"NCHW": path, "NHWC": nhwc}
        for name, layouts in cases.items():
            results[name] = {layout: [] for layout in layouts}
            for _ in range(args.rounds):
                for layout, path in layouts.items():
                    m = bench(args, path, PIPELINE, os.path.join(work, "report.json"))
                    results[name][layout].append(m)
                    print(f"{name} {layout}: p50 {m['p50_ms']:.3f} ms", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print("\n| op class or model | NCHW p50 | NHWC p50 | NHWC / NCHW |")
    print("|---|---|---|---|")
    for name, layouts in results.items():
        p = {l: statistics.median(m["p50_ms"] for m in ms) for l, ms in layouts.items()}
        print(f"| {name} | {p['NCHW']:.3f} ms | {p['NHWC']:.3f} ms | "
              f"{p['NHWC'] / p['NCHW']:.2f} |")


if __name__ == "__main__":
    main()
