"""Maximum error of the compiled exp, erf and tanh (accurate, without
FastMath) and of FastMath's fast_exp, fast_erf and fast_tanh, on the CPU,
against float64 references, over each function's whole f32 input range
(dense uniform sweeps plus magnitudes from 1e-30 up, both signs): for exp,
the inputs whose result is a normal f32 (fast_exp saturates above 88.376,
near FLT_MAX, where exp reaches it at 88.72).

Prints one line per function with the maximum absolute error, relative
error and error in ulps of the f32 result, and FAIL when a bound is
exceeded. Bounds: accurate forms within 5 ulp; fast forms as the op
reference states (fast_exp relative 5e-6, fast_erf and fast_tanh absolute
1e-6).
"""
import math
import os
import subprocess
import sys

import numpy as np

bin_dir, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)


def sweep(lo, hi, n=1 << 20):
    tiny = np.logspace(-30, 0, 1 << 14)
    return np.concatenate([np.linspace(lo, hi, n), tiny, -tiny]).astype(np.float32)


def erf64(x):
    return np.array([math.erf(v) for v in x.astype(np.float64)])


CASES = [  # op, input range, reference, bound kind, bound
    ("exp", (-87.3, 88.7), np.exp, "ulp", 5.0),
    ("fast_exp", (-87.3, 88.37), np.exp, "rel", 5e-6),
    ("erf", (-6.0, 6.0), erf64, "ulp", 5.0),
    ("fast_erf", (-6.0, 6.0), erf64, "abs", 1e-6),
    ("tanh", (-10.0, 10.0), np.tanh, "ulp", 5.0),
    ("fast_tanh", (-10.0, 10.0), np.tanh, "abs", 1e-6),
]
failed = 0
for op, (lo, hi), ref_fn, kind, bound in CASES:
    x = sweep(lo, hi)
    n = x.size
    src = os.path.join(work, f"{op}.mlir")
    with open(src, "w") as f:
        f.write(f"func.func @main(%x: tensor<{n}xf32>) -> tensor<{n}xf32> {{\n"
                f"  %y = graph.{op} %x : tensor<{n}xf32>\n"
                f"  return %y : tensor<{n}xf32>\n}}\n")
    xin, yout = os.path.join(work, f"{op}.x.npy"), os.path.join(work, f"{op}.y.npy")
    np.save(xin, x)
    # No graph passes: the op is compiled as written.
    r = subprocess.run([f"{bin_dir}/dlc-run", src, "--target=cpu", "--pipeline=none",
                        f"--input={xin}", f"--output={yout}"], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"FAIL {op}: {r.stderr.strip()}")
        failed += 1
        continue
    y = np.load(yout).astype(np.float64)
    ref = ref_fn(x.astype(np.float64))
    err = np.abs(y - ref)
    ulp = err / np.spacing(np.abs(ref).astype(np.float32)).astype(np.float64)
    rel = err / np.maximum(np.abs(ref), np.finfo(np.float32).tiny)
    measured = {"abs": err.max(), "rel": rel.max(), "ulp": ulp.max()}[kind]
    ok = measured <= bound
    failed += not ok
    print(f"{'PASS' if ok else 'FAIL'} {op} on [{lo}, {hi}]: max abs {err.max():.3g}, "
          f"max rel {rel.max():.3g}, max {ulp.max():.3g} ulp ({kind} bound {bound:g})")
print(f"{len(CASES) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
