#!/usr/bin/env python3
"""What mixed precision costs in accuracy, and does to latency, on the zoo
models compiled for the CPU.

Each variant is a pipeline a user would give `dlc-run --pipeline` on the f32
model: O3 and auto with `mixed=f16|bf16` (ToMixedPrecision before FuseOps,
keep-orig-output-dtype; on a CPU with AVX512-BF16, `O3;mixed=bf16` makes
the convolutions NHWC, whose im2col products of bf16 are dot products, and
`layout=cpu` keeps them NCHW), and f32 with `layout=cpu-nhwc`. Each is timed side by side with O3 in f32 (`dlc-run
--against=O3`: alternating rounds, the median of the per-round latency
ratios and its 95% interval), so the machine's drift cancels. Reported per
variant: that ratio, the variant's p50 in those rounds, the largest output
error against O3's f32 outputs relative to the largest |output|, and top-1
agreement for classifiers (bf16 keeps 8 significant bits: two logits closer
than that can tie, and a tie takes the lower class index).

    /usr/bin/python3 bench/mixed_precision.py build/bin --json bench/mixed_precision.json
"""
import argparse
import json
import os
import subprocess
import tempfile

import numpy as np

MODELS = ["resnet50", "mobilenet_v2", "bert_base"]
VARIANTS = ["O3;mixed=f16", "O3;mixed=bf16", "O3;mixed=bf16;layout=cpu", "O3;layout=cpu-nhwc",
            "auto", "auto;mixed=bf16"]


def run(*args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{r.stderr}")
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bin_dir")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--json", help="write the results here")
    args = ap.parse_args()
    results = {}
    with tempfile.TemporaryDirectory(prefix="dlc-mixed-") as work:
        out, report = os.path.join(work, "out.npy"), os.path.join(work, "report.json")
        for name in args.models.split(","):
            src = os.path.join(work, f"{name}.mlirbc")
            run(f"{args.bin_dir}/dlc-zoo", name, "-o", src)
            base = os.path.join(work, "o3.npy")
            run(f"{args.bin_dir}/dlc-run", src, "--target=cpu", f"--threads={args.threads}",
                "--pipeline=O3", "--input=random:seed=3", f"--output={base}")
            exact = np.load(base).astype(np.float64)
            results[name] = {}
            for pipeline in VARIANTS:
                if "layout" in pipeline and name.startswith("bert"):
                    continue  # no convolutions
                run(f"{args.bin_dir}/dlc-run", src, "--target=cpu", f"--threads={args.threads}",
                    f"--pipeline={pipeline}", "--input=random:seed=3", f"--output={out}",
                    "--bench", "--against=O3", f"--rounds={args.rounds}", "--atol=1e9",
                    f"--json={report}")
                with open(report) as f:
                    j = json.load(f)
                got = np.load(out).astype(np.float64)
                ratio = j["against"]["ratio"]
                entry = {"p50_ms": j["latency_ms"]["p50"],
                         "o3_p50_ms": j["against"]["latency_ms"]["p50"],
                         "ratio": [ratio["median"], ratio["low"], ratio["high"]],
                         "rounds": ratio["rounds"],
                         "max_error": float(np.abs(got - exact).max() / np.abs(exact).max())}
                if not name.startswith("bert"):
                    entry["top1_same"] = bool(got.argmax() == exact.argmax())
                results[name][pipeline] = entry
                print(name, pipeline, entry, flush=True)
            os.remove(src)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print("\n| model | " + " | ".join(f"`{v}`" for v in VARIANTS) + " |")
    print("|---|" + "---|" * len(VARIANTS))
    for name, r in results.items():
        cells = []
        for v in VARIANTS:
            if v not in r:
                cells.append("")
                continue
            e = r[v]
            top1 = "" if "top1_same" not in e else ("" if e["top1_same"] else ", top-1 differs")
            lo, hi = e["ratio"][1], e["ratio"][2]
            cells.append(f"{e['ratio'][0]:.3f} [{lo:.3f}, {hi:.3f}] ({e['p50_ms']:.1f} ms), "
                         f"error {e['max_error']:.1e}{top1}")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
