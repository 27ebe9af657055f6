#!/usr/bin/env python3
"""The architecture-aware pipeline against O3, side by side in one run.

For each model (the zoo's study models by default), compiles and runs it with
`--pipeline=O3` and `--pipeline=auto` on the CPU (`--threads=2`, compile cache
off), alternating the two over --rounds rounds, and reports the medians of
graph-pass time, total compile time and p50 latency (`--bench`, --runs timed
runs after the warm-up METHODOLOGY.md asks for), the classes auto detected,
and the largest difference between the two pipelines' outputs (dlc-run's
`--expect` at 1e-3, as `--against` checks: detections as sets). A latency
difference is called a difference only when the two sets of p50s do not
overlap across rounds; otherwise it is within noise.

    /usr/bin/python3 bench/auto_vs_o3.py build/bin --out bench/auto_vs_o3.json
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile

ZOO = ["resnet50", "mobilenet_v2", "ssd_resnet50", "bert_base"]


def dlc_run(bin_dir, model, pipeline, *flags, check=True):
    r = subprocess.run([f"{bin_dir}/dlc-run", model, "--target=cpu", "--threads=2",
                        "--no-cache", f"--pipeline={pipeline}", "--input=random:seed=1",
                        *flags], capture_output=True, text=True)
    if check and r.returncode != 0:
        raise RuntimeError(r.stderr.strip().splitlines()[-1])
    return r


def compile_and_run(bin_dir, model, pipeline, runs, work):
    """Graph-pass and total compile times, p50 latency, number of outputs."""
    report = os.path.join(work, "report.json")
    dlc_run(bin_dir, model, pipeline, "--bench", f"--runs={runs}", f"--json={report}")
    j = json.load(open(report))
    return (j["compile_ms"]["graph_passes"], j["compile_ms"]["total"],
            j["latency_ms"]["p50"], len(j["outputs"]))


def max_diff(bin_dir, model, outputs, work):
    """auto's largest difference from O3's outputs, as dlc-run --expect
    reports it, or the first mismatch dlc-run reports (a string)."""
    files = [os.path.join(work, f"O3_{i}.npy") for i in range(outputs)]
    dlc_run(bin_dir, model, "O3", *(f"--output={f}" for f in files))
    r = dlc_run(bin_dir, model, "auto", "--atol=1e-3", "--rtol=1e-3",
                *(f"--expect={f}" for f in files), check=False)
    mismatch = [line for line in r.stdout.splitlines() if "MISMATCH" in line]
    if r.returncode != 0:
        return mismatch[0] if mismatch else r.stderr.strip().splitlines()[-1]
    return max((float(m) for m in re.findall(r"max abs error ([^,]+),", r.stdout)), default=0.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bin_dir")
    ap.add_argument("--models", default=",".join(ZOO))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--out", help="write the results here (JSON)")
    args = ap.parse_args()
    scratch = tempfile.TemporaryDirectory(prefix="dlc-auto-vs-o3-")  # models: 100s of MB
    work = scratch.name
    results = {}
    for name in args.models.split(","):
        path = os.path.join(work, f"{name}.mlirbc")
        subprocess.run([f"{args.bin_dir}/dlc-zoo", name, "-o", path], check=True)
        cls = json.loads(subprocess.run([f"{args.bin_dir}/dlc-opt", "--dlc-classify", "--json",
                                         path], capture_output=True, text=True,
                                        check=True).stdout)["class"]
        samples = {"O3": [], "auto": []}
        for _ in range(args.rounds):
            for pipeline in ("O3", "auto"):
                *figures, outputs = compile_and_run(args.bin_dir, path, pipeline, args.runs,
                                                    work)
                samples[pipeline].append(figures)
        med = {p: [statistics.median(f[i] for f in s) for i in range(3)]
               for p, s in samples.items()}
        p50s = {p: [f[2] for f in s] for p, s in samples.items()}
        if max(p50s["auto"]) < min(p50s["O3"]):
            verdict = "auto faster"
        elif max(p50s["O3"]) < min(p50s["auto"]):
            verdict = "auto slower"
        else:
            verdict = "within noise"
        results[name] = {"class": cls, "O3": med["O3"], "auto": med["auto"],
                         "p50_samples": p50s, "latency": verdict,
                         "max_abs_output_diff": max_diff(args.bin_dir, path, outputs, work)}
        print(name, results[name], flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1)
    print()
    print("| model | auto's classes | graph passes O3 / auto (ms) | compile O3 / auto (s) "
          "| p50 O3 / auto (ms) | latency | max output difference |")
    print("|---|---|---|---|---|---|---|")
    for name, r in results.items():
        o, a, d = r["O3"], r["auto"], r["max_abs_output_diff"]
        diff = f"{d:.1e}" if isinstance(d, float) else d
        print(f"| {name} | {r['class']} | {o[0]:.0f} / {a[0]:.0f} | {o[1] / 1e3:.2f} / "
              f"{a[1] / 1e3:.2f} | {o[2]:.1f} / {a[2]:.1f} | {r['latency']} | {diff} |")


if __name__ == "__main__":
    main()
