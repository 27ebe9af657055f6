#!/usr/bin/env python3
"""What ToMixedPrecision costs in accuracy, and does to latency, on the zoo
models compiled for the CPU.

Each model runs in f32 and after SimplifyInference, FoldConstant,
FoldScaleAxis and ToMixedPrecision (f16 and bf16, each with mixed and with
f32 accumulation, keep-orig-output-dtype), all compiled for the CPU on the
same random input. Reported per variant: the largest output error against
f32 relative to the largest |output|, top-1 agreement for classifiers, and
the p50 latency. The CPU f32 outputs are the baseline (they match the
reference interpreter within 1e-4, test/e2e/cpu-vs-reference.test).

    /usr/bin/python3 bench/mixed_precision.py build/bin --json bench/mixed_precision.json
"""
import argparse
import json
import os
import subprocess
import tempfile

import numpy as np

MODELS = ["resnet50", "mobilenet_v2", "bert_base"]
VARIANTS = [("f16", False), ("f16", True), ("bf16", False), ("bf16", True)]


def run(*args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{r.stderr}")
    return r


def measure(args, model, out, report):
    run(f"{args.bin_dir}/dlc-run", model, "--target=cpu", f"--threads={args.threads}",
        "--pipeline=O3", "--input=random:seed=3", f"--output={out}", "--bench",
        f"--runs={args.runs}", f"--json={report}")
    with open(report) as f:
        p50 = json.load(f)["latency_ms"]["p50"]
    return np.load(out).astype(np.float64), p50


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bin_dir")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--json", help="write the results here")
    args = ap.parse_args()
    results = {}
    with tempfile.TemporaryDirectory(prefix="dlc-mixed-") as work:
        out, report = os.path.join(work, "out.npy"), os.path.join(work, "report.json")
        for name in args.models.split(","):
            src = os.path.join(work, f"{name}.mlirbc")
            run(f"{args.bin_dir}/dlc-zoo", name, "-o", src)
            exact, p50 = measure(args, src, out, report)
            results[name] = {"f32": {"p50_ms": p50}}
            for dtype, acc in VARIANTS:
                mixed = os.path.join(work, f"{name}.mixed.mlirbc")
                spec = ("list:SimplifyInference,FoldConstant,FoldScaleAxis,ToMixedPrecision{"
                        f"type={dtype} accumulate-f32={'true' if acc else 'false'} "
                        "keep-orig-output-dtype=true},FoldConstant")
                run(f"{args.bin_dir}/dlc-opt", src, f"--dlc-pipeline={spec}", "-o", mixed)
                got, p50 = measure(args, mixed, out, report)
                os.remove(mixed)
                entry = {"p50_ms": p50,
                         "max_error": float(np.abs(got - exact).max() / np.abs(exact).max())}
                if not name.startswith("bert"):
                    entry["top1_same"] = bool(got.argmax() == exact.argmax())
                key = f"{dtype}{' acc-f32' if acc else ''}"
                results[name][key] = entry
                print(name, key, entry, flush=True)
            os.remove(src)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    keys = ["f32"] + [f"{d}{' acc-f32' if a else ''}" for d, a in VARIANTS]
    print("\n| model | " + " | ".join(keys) + " |")
    print("|---|" + "---|" * len(keys))
    for name, r in results.items():
        cells = [f"{r['f32']['p50_ms']:.1f} ms"]
        for k in keys[1:]:
            e = r[k]
            top1 = "" if "top1_same" not in e else (", top-1 same" if e["top1_same"] else
                                                    ", top-1 differs")
            cells.append(f"{e['max_error']:.1e}{top1}, {e['p50_ms']:.1f} ms")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
