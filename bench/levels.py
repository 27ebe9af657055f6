#!/usr/bin/env python3
"""Latency and compile time of every zoo model at every optimization level.

Runs `dlc-run MODEL --target=cpu --threads=N --pipeline=O<k> --bench --json`
for O0..O4, alternating the levels round by round (the machine drifts), and
prints a Markdown table of the median p50 latency and total compile time,
with the raw reports in --json.

    python3 bench/levels.py build/bin --rounds 2 --runs 20 --json bench/levels.json
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile

MODELS = ["resnet18", "resnet50", "mobilenet_v2", "ssd_resnet50", "bert_tiny", "bert_base"]
LEVELS = ["O0", "O1", "O2", "O3", "O4"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bin_dir")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--runs", type=int, default=20, help="timed runs per round")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--json", help="write every report here")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="dlc-levels-") as work:
        results = measure(args, work)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print()
    print("| model | " + " | ".join(LEVELS) + " |")
    print("|---|" + "---|" * len(LEVELS))
    for model, levels in results.items():
        cells = []
        for level in LEVELS:
            runs = levels[level]
            ok = [r for r in runs if "error" not in r]
            if not ok:
                cells.append("not compiled: " + runs[0]["error"] if runs else "-")
                continue
            p50 = statistics.median(r["p50_ms"] for r in ok)
            compile_s = statistics.median(r["compile_ms"]["total"] for r in ok) / 1e3
            cells.append(f"{p50:.2f} ms, {compile_s:.1f} s")
        print(f"| {model} | " + " | ".join(cells) + " |")


def measure(args, work):
    results = {}
    for model in args.models.split(","):
        path = os.path.join(work, f"{model}.mlirbc")
        subprocess.run([f"{args.bin_dir}/dlc-zoo", model, "-o", path], check=True)
        results[model] = {level: [] for level in LEVELS}
        for _ in range(args.rounds):
            for level in LEVELS:
                report = os.path.join(work, f"{model}.{level}.json")
                r = subprocess.run(
                    [f"{args.bin_dir}/dlc-run", path, "--target=cpu", f"--threads={args.threads}",
                     f"--pipeline={level}", "--bench", f"--warmup={args.warmup}",
                     f"--runs={args.runs}", f"--json={report}"],
                    capture_output=True, text=True)
                if r.returncode != 0:
                    errors = [l for l in r.stderr.splitlines() if "error:" in l]
                    results[model][level].append({"error": errors[0] if errors else r.stderr})
                    continue
                with open(report) as f:
                    j = json.load(f)
                results[model][level].append(
                    {"p50_ms": j["latency_ms"]["p50"], "compile_ms": j["compile_ms"],
                     "cv": j["latency_ms"]["cv"], "host_cpu": j["host_cpu"],
                     "dlc_version": j["dlc_version"]})
                print(f"{model} {level}: p50 {j['latency_ms']['p50']:.2f} ms, compile "
                      f"{j['compile_ms']['total'] / 1e3:.1f} s", flush=True)
        os.remove(path)
    return results


if __name__ == "__main__":
    main()
