"""bf16 products on AVX512-BF16 dot products against the reference.

Dense layers and NHWC convolutions of bf16 values with constant bf16
weights, compiled for a CPU with AVX512-BF16: the weights become panels of
pairs (dlc-cpu-pack-weights; a convolution's A is its im2col rows in bf16)
and the products `vdpbf16ps` register tiles (dlc-cpu-vectorize-contractions)
where k is even (panels 32 wide, or 16 for n below 32; where n is no
multiple of the width the last panel is padded with zeros and the product
computes into an accumulator as wide, of which the result is the slice,
with the bias added to it); the others (odd k) stay on the widening path. Each case says which, and the
compiled code is checked for the instruction (`x86vector.avx512.dot`)
before its outputs are compared with the reference interpreter.

Tolerance: the products and sums are exact or rounded in f32, and the
result is rounded once to bf16, as the reference rounds its exact result;
the two can differ by one bf16 unit in the last place (2^-7 relative at
most) where the f32 sum lands near a rounding boundary, plus the f32 sum's
own error (k * 2^-24 of the terms, < 1e-4 here): |cpu - ref| <= 1e-4 +
8e-3 |ref|. A pair in the wrong lane or a panel read out of place is off
by O(1). BERT-tiny in bf16 (ToMixedPrecision, products in bf16 with their
sums in f32) against the reference on the same graph: within 2e-2 + 2e-2
|ref| (the rounding of every intermediate bf16 value compounds, as in
mixed_precision.py).

Prints one line per check and 'N passed, N failed'.
"""
import os
import random
import subprocess
import sys

bin_dir, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
rng = random.Random(2026)
passed = failed = 0


def run(*args):
    return subprocess.run(args, capture_output=True, text=True)


def t(shape, et="bf16"):
    return "tensor<" + "".join(f"{d}x" for d in shape) + et + ">"


def weight(n, k):
    return "dense<[" + ", ".join(
        "[" + ", ".join(f"{rng.uniform(-1, 1):.3f}" for _ in range(k)) + "]" for _ in range(n)) + "]>"


def check(label, path, dots, pipeline, threads, atol, rtol, outputs=1):
    global passed, failed
    loops = run(f"{bin_dir}/dlc-run", path, "--target=cpu", f"--pipeline={pipeline}",
                f"--threads={threads}", "--compile-to=loops")
    used = loops.stdout.count("x86vector.avx512.dot") > 0
    refs = [os.path.join(work, f"ref{i}.npy") for i in range(outputs)]
    outs = run(f"{bin_dir}/dlc-run", path, "--input=random:seed=5", *[f"--output={p}" for p in refs])
    r = run(f"{bin_dir}/dlc-run", path, "--target=cpu", f"--pipeline={pipeline}",
            f"--threads={threads}", "--input=random:seed=5", *[f"--expect={p}" for p in refs],
            f"--atol={atol}", f"--rtol={rtol}")
    ok = loops.returncode == 0 and outs.returncode == 0 and r.returncode == 0 and used == dots
    passed += ok
    failed += not ok
    detail = [l for l in r.stdout.splitlines() if "matches" in l] if ok else [(loops.stderr + outs.stderr + r.stdout + r.stderr).strip()[-300:]]
    print(f"{'PASS' if ok else 'FAIL'} {label} threads={threads}: dot products "
          f"{'used' if used else 'not used'} (expected {'used' if dots else 'not used'}); {' '.join(detail)}")


# (name, input shape, n, k, dot products expected)
cases = [("rows_partial", [10, 64], 96, 64, True),       # 8 + 2 rows, 3 panels
         ("batched", [2, 5, 128], 64, 128, True),
         ("row_wide", [1, 768], 256, 768, True),         # one row, n split across threads
         ("n16", [20, 32], 16, 32, True),               # panels of 16: 16 + 4 rows x 1 vector
         ("odd_k", [4, 33], 64, 33, False),
         ("n48", [6, 32], 48, 32, True),                # 1.5 panels: the last one padded
         ("n20", [3, 32], 20, 32, True),                # panels of 16, the second padded
         ("n1000", [1, 128], 1000, 128, True)]          # a classifier's 31.25 panels
for name, x, n, k, dots in cases:
    y = x[:-1] + [n]
    path = os.path.join(work, f"{name}.mlir")
    with open(path, "w") as f:
        f.write(f"""func.func @main(%x: {t(x)}, %b: {t([n])}) -> {t(y)} {{
  %w = graph.constant {weight(n, k)} : {t([n, k])}
  %0 = graph.dense %x, %w, %b : ({t(x)}, {t([n, k])}, {t([n])}) -> {t(y)}
  return %0 : {t(y)}
}}
""")
    for threads in (1, 2):
        check(name, path, dots, "O3", threads, "1e-4", "8e-3")


def nested(shape):
    if len(shape) == 1:
        return "[" + ", ".join(f"{rng.uniform(-1, 1):.3f}" for _ in range(shape[0])) + "]"
    return "[" + ", ".join(nested(shape[1:]) for _ in range(shape[0])) + "]"


# NHWC convolutions of bf16 (HWIO weights [kh, kw, c, o]): the im2col rows
# [oh * ow, kh * kw * c] are A, the weight read as [kh * kw * c, o] is B.
# (name, [h, w, c], [kh, kw, o], stride, padding, bias, dot products expected)
convs = [("conv3x3", [6, 6, 16], [3, 3, 32], 1, 1, False, True),
         ("conv3x3_s2_bias", [9, 9, 8], [3, 3, 64], 2, 1, True, True),   # k = 72, 25 rows
         ("conv1x1_bias", [5, 5, 32], [1, 1, 64], 1, 0, True, True),     # the rows are the pixels
         ("conv_c3", [8, 8, 3], [3, 3, 32], 1, 1, False, False),       # k = 27: odd
         ("conv3x3_o40_bias", [6, 6, 16], [3, 3, 40], 1, 1, True, True)]  # a padded panel
for name, (h, w, c), (kh, kw, o), stride, pad, bias, dots in convs:
    oh, ow = (h + 2 * pad - kh) // stride + 1, (w + 2 * pad - kw) // stride + 1
    x, y, wt = [1, h, w, c], [1, oh, ow, o], [kh, kw, c, o]
    args = f"%x: {t(x)}" + (f", %b: {t([o])}" if bias else "")
    operands = "%x, %w" + (", %b" if bias else "")
    types = f"{t(x)}, {t(wt)}" + (f", {t([o])}" if bias else "")
    path = os.path.join(work, f"{name}.mlir")
    with open(path, "w") as f:
        f.write(f"""func.func @main({args}) -> {t(y)} {{
  %w = graph.constant dense<{nested(wt)}> : {t(wt)}
  %0 = graph.conv2d {operands} {{data_layout = "NHWC", kernel_layout = "HWIO", strides = array<i64: {stride}, {stride}>, padding = array<i64: {pad}, {pad}, {pad}, {pad}>}} : ({types}) -> {t(y)}
  return %0 : {t(y)}
}}
""")
    for threads in (1, 2):
        # k products rounded in f32 (k <= 288 terms): within 1e-4 + 8e-3 |ref|
        # as above, plus f32 sums of up to 288 terms of O(1) (<< 1e-3).
        check(name, path, dots, "O3;layout=cpu-nhwc", threads, "1e-3", "8e-3")

src = os.path.join(work, "bert_tiny.mlirbc")
mixed = os.path.join(work, "bert_tiny.bf16.mlirbc")
run(f"{bin_dir}/dlc-zoo", "bert_tiny", "--seq=8", "-o", src)
run(f"{bin_dir}/dlc-opt", src, "--dlc-pipeline=list:SimplifyInference,FoldConstant,ToMixedPrecision{"
    "type=bf16 keep-orig-output-dtype=true},FoldConstant", "-o", mixed)
check("bert_tiny bf16", mixed, True, "O3", 2, "2e-2", "2e-2", outputs=2)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
