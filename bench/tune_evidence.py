#!/usr/bin/env python3
"""O3 (the study's BL) vs auto vs the best of four random sequences (PO) vs dlc-tune.

The CF'22 study's tables, redone on dlc's CPU backend. For each model (the
zoo's four study models and torchvision exports imported from ONNX):

1. PO: `dlc-tune --strategy=random --budget=4 --no-seeds --confirm=0`, four
   random sequences of the class-pruned space (the study's PO-x); the one
   with the lowest latency ratio to O3 is PO.
2. tuned: `dlc-tune --strategy=greedy --budget=N` (with auto's sequence as a
   seed), replayed with `--pipeline=tuned:DB`.
3. auto, PO and tuned each timed against O3 by `dlc-run --target=cpu
   --threads=2 --no-cache --bench --against=O3 --rounds=N`: both compiled
   cold in one process, then run alternately in N rounds (ABBA, each at
   least 100 ms); the latency ratio to O3 is the median of the per-round
   ratios with its distribution-free 95% interval, and a pipeline is called
   faster (slower) than O3 only when that interval lies below (above) 1.
   p50 is each pipeline's over its rounds (O3's: the median of its three),
   throughput = 1000 / p50 (batch 1). Compile times (graph passes, total)
   are medians of --compiles cold compiles of each pipeline, each in a
   process of its own (`dlc-run --no-cache`, one run), in rounds of one
   compile of each pipeline, the order rotating (the second compile in one
   process finds MLIR's dialects loaded). A pipeline's compile time against
   O3's is the median of its per-round ratios with a distribution-free 95%
   interval: "below" or "above" O3 only when the interval lies below or
   above 1. `--recompile JSON` measures only these again, for an earlier
   run's pipelines; `--remeasure JSON` the latencies (step 3) too, without
   searching again.

It writes the figures (JSON), a Markdown table with the study's published
gains alongside, and one plot of every candidate's compile time against its
latency ratio to O3, per model (matplotlib, PNG).

    /usr/bin/python3 bench/tune_evidence.py BIN_DIR --out bench/tune_evidence.json \
        --table docs/TuningEvidence.md --plot docs/tuning-tradeoff.png

The plot needs Debian's python3-matplotlib (the exports python3-torchvision).
"""
import argparse
import json
import math
import os
import re
import statistics
import subprocess
import tempfile
import textwrap

ZOO = ["resnet50", "mobilenet_v2", "ssd_resnet50", "bert_base"]
ONNX = ["resnet50", "mobilenet_v2"]

# The CF'22 study's gains of architecture-aware selection over OPT_LEVEL=3
# (TVM, NVIDIA GPUs): ../shared/reference/cf22-pass-classes.md.
STUDY = {
    "resnet50": "throughput +24% (TF) / +32% (PT), RTX 2080; compile -15% (PT), A100",
    "mobilenet_v2": "throughput about +5%, RTX 2080; compile about -45%, A100",
    "ssd_resnet50": "throughput about +5%, RTX 2080; compile -54%, A100",
    "bert_base": "compile -92%, A100",
}
PIPELINES = ["O3", "auto", "PO", "tuned"]


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError(" ".join(cmd) + ": " + (r.stderr.strip().splitlines() or ["?"])[-1])
    return r


def export_onnx(name, path):
    import torch
    import torchvision
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(weights=None).eval()
    torch.onnx.export(model, torch.randn(1, 3, 224, 224), path, opset_version=13)


def records(db):
    with open(db) as f:
        return [json.loads(line) for line in f if line.strip()]


def tune(bin_dir, model, db, args, extra):
    r = run([f"{bin_dir}/dlc-tune", model, f"--db={db}", "--threads=2", *extra])
    report = r.stdout
    space = {}
    m = re.search(r"catalogue (\d+) passes, (\S+) sequences of up to (\d+); pruned by class "
                  r"(\d+) passes, (\S+) sequences", report)
    if m:
        space = {"catalogue_passes": int(m[1]), "catalogue_sequences": float(m[2]),
                 "max_length": int(m[3]), "class_passes": int(m[4]),
                 "class_sequences": float(m[5])}
    m = re.search(r"searched: .*\((\d+) passes, (\S+) sequences\)", report)
    if m:
        space.update({"model_passes": int(m[1]), "model_sequences": float(m[2])})
    elif "searched: nothing" in report:  # every pass dormant: FuseOps alone
        space.update({"model_passes": 0, "model_sequences": 1.0})
    m = re.search(r"candidates: (\d+) proposed, (\d+) measured, (\d+) deduplicated", report)
    counts = {"proposed": int(m[1]), "measured": int(m[2]), "deduplicated": int(m[3])} if m else {}
    return report, space, counts


def compile_times(bin_dir, model, pipeline, work):
    report = os.path.join(work, "compile.json")
    run([f"{bin_dir}/dlc-run", model, "--target=cpu", "--threads=2", "--no-cache",
         f"--pipeline={pipeline}", "--input=random:seed=1", f"--json={report}"])
    j = json.load(open(report))
    return {"graph_passes_ms": j["compile_ms"]["graph_passes"],
            "compile_ms": j["compile_ms"]["total"]}


def median_with_interval(values):
    """The median and a distribution-free 95% interval for it (the k-th
    smallest and largest values; dlc's medianWithInterval, Bench.cpp)."""
    v, n = sorted(values), len(values)
    k, cdf = 1, 0.0
    for j in range(n):
        cdf += math.comb(n, j) / 2 ** n
        if cdf > 0.025:
            break
        k = j + 1
    k = min(k, (n + 1) // 2)
    return {"median": statistics.median(v), "low": v[k - 1], "high": v[n - k], "rounds": n}


def measure_compiles(args, path, specs, pipelines, work):
    """Cold compiles in rounds of one of each pipeline, the order rotating:
    each pipeline's median graph-pass and total compile times, and the
    median of its per-round ratios to O3's total with a 95% interval
    ("below" or "above" O3 only when the interval is)."""
    compiles = {p: [] for p in PIPELINES}
    for r in range(args.compiles):
        for p in PIPELINES[r % 4:] + PIPELINES[:r % 4]:
            compiles[p].append(compile_times(args.bin_dir, path, specs[p], work))
    for p in PIPELINES:
        q = pipelines.setdefault(p, {})
        for k in compiles[p][0]:
            q[k] = statistics.median(c[k] for c in compiles[p])
        if p != "O3":
            ratio = median_with_interval([c["compile_ms"] / o["compile_ms"]
                                          for c, o in zip(compiles[p], compiles["O3"])])
            ratio["verdict"] = ("too few rounds to tell" if ratio["rounds"] < 6 else
                                "below" if ratio["high"] < 1 else
                                "above" if ratio["low"] > 1 else "within noise")
            q["compile_ratio"] = ratio


def against_o3(bin_dir, model, pipeline, rounds, work):
    """`pipeline` and O3 side by side (dlc-run --against)."""
    report = os.path.join(work, "report.json")
    run([f"{bin_dir}/dlc-run", model, "--target=cpu", "--threads=2", "--no-cache",
         f"--pipeline={pipeline}", "--bench", "--warmup=3", "--against=O3",
         f"--rounds={rounds}", "--input=random:seed=1", f"--json={report}"])
    j = json.load(open(report))
    a = j["against"]
    return ({"p50_ms": j["latency_ms"]["p50"], "ratio": a["ratio"],
             "p50_ratio_to_o3": a["ratio"]["median"], "latency_vs_o3": a["verdict"],
             "max_abs_difference": a["max_abs_difference"]},
            a["latency_ms"]["p50"], j["dlc_version"])


def measure_latencies(args, path, specs, pipelines, work):
    """auto, PO and tuned each against O3 (--rounds rounds); O3's p50 is
    the median of its three. Returns the dlc version that measured."""
    o3_p50 = []
    for p in PIPELINES[1:]:
        mine, theirs, version = against_o3(args.bin_dir, path, specs[p], args.rounds, work)
        o3_p50.append(theirs)
        pipelines.setdefault(p, {}).update(mine)
    pipelines.setdefault("O3", {}).update({"p50_ms": statistics.median(o3_p50),
                                           "p50_ratio_to_o3": 1.0, "latency_vs_o3": "-"})
    for q in pipelines.values():
        q["throughput_per_s"] = 1000 / q["p50_ms"]
    return version


def measure(args, name, path, work):
    po_db, tuned_db = os.path.join(work, f"{name}.po.jsonl"), os.path.join(work, f"{name}.tuned.jsonl")
    for db in (po_db, tuned_db):
        if os.path.exists(db):
            os.remove(db)
    _, space, _ = tune(args.bin_dir, path, po_db, args,
                       ["--strategy=random", "--budget=4", "--no-seeds", "--confirm=0",
                        f"--seed={args.seed}"])
    po = [r for r in records(po_db)
          if r["kind"] == "candidate" and r["strategy"] == "random" and r["status"] == "ok"]
    # Every random sequence may reach O3's graph (nothing in the space
    # changes the model): then PO is O3's graph.
    po_best = min(po, key=lambda r: r["latency"]["vs_o3"]["median"]) if po else None
    tuned_report, _, counts = tune(args.bin_dir, path, tuned_db, args,
                                   ["--strategy=greedy", f"--budget={args.budget}"])
    specs = {"O3": "O3", "auto": "auto",
             "PO": "list:" + ",".join(po_best["sequence"]) if po_best else "O3",
             "tuned": f"tuned:{tuned_db}"}
    result = {"space": space, "candidates": counts, "rounds": args.rounds,
              "po_sequence": specs["PO"], "tuned_sequence": None, "pipelines": {}}
    best = [r for r in records(tuned_db) if r["kind"] == "best"]
    if best:
        result["tuned_sequence"] = "list:" + ",".join(best[-1]["sequence"])
        result["tuned_strategy"] = best[-1]["strategy"]
    result["dlc"] = measure_latencies(args, path, specs, result["pipelines"], work)
    measure_compiles(args, path, specs, result["pipelines"], work)
    result["pipelines"] = {p: result["pipelines"][p] for p in PIPELINES}
    result["candidates_plot"] = [
        {"source": "PO" if db == po_db else "tune", "strategy": r["strategy"],
         "compile_s": r["compile_ms"]["total"] / 1000,
         "latency_ratio": r["latency"]["vs_o3"]["median"]}
        for db in (po_db, tuned_db) for r in records(db)
        if r["kind"] == "candidate" and r["status"] == "ok"]
    o3 = [r for r in records(tuned_db) if r["kind"] == "baseline"]
    if o3:
        result["o3_compile_s"] = o3[0]["compile_ms"]["total"] / 1000
    return result


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    n = len(results)
    cols = min(3, n)
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(5 * cols, 4 * rows), squeeze=False)
    for ax, (name, r) in zip(axes.flat, results.items()):
        for source, color in (("tune", "tab:blue"), ("PO", "tab:orange")):
            pts = [c for c in r["candidates_plot"] if c["source"] == source]
            ax.scatter([c["compile_s"] for c in pts], [c["latency_ratio"] for c in pts],
                       s=14, alpha=0.6, color=color,
                       label="dlc-tune candidates" if source == "tune" else "random (PO)")
        pipes = r["pipelines"]
        for p, marker in (("O3", "s"), ("auto", "^"), ("PO", "D"), ("tuned", "*")):
            ax.scatter([pipes[p]["compile_ms"] / 1000], [pipes[p]["p50_ratio_to_o3"]],
                       marker=marker, s=90, edgecolor="black", label=p, zorder=3)
        ax.axhline(1.0, color="gray", linewidth=0.8)
        ax.set_title(name)
        ax.set_xlabel("compile time (s, cache off)")
        ax.set_ylabel("latency / O3's (side by side)")
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=7)
    fig.suptitle("dlc: compile time vs latency, every candidate (CPU, 2 threads)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def table(results, args):
    lines = [
        "| model | classes | space: catalogue / class / searched (sequences of up to 8) "
        "| candidates measured / deduplicated | graph passes O3 / auto / PO / tuned (ms) "
        "| compile O3 / auto / PO / tuned (s) | compile / O3's [95%]: auto, PO, tuned "
        "| p50 O3 (ms) "
        "| throughput O3 / tuned (/s) | latency / O3's [95%]: auto, PO, tuned "
        "| study's gains (TVM, GPU) |",
        "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        if "error" in r:
            lines.append(f"| {name} | {r['error']} |" + " |" * 9)
            continue
        p, s, c = r["pipelines"], r["space"], r["candidates"]

        def row(key, scale=1.0, fmt="{:.0f}"):
            return " / ".join(fmt.format(p[q][key] * scale) for q in PIPELINES)

        def verdict(q):
            r = p[q].get("ratio")
            interval = f" [{r['low']:.3f}, {r['high']:.3f}]" if r else ""
            return f"{p[q]['p50_ratio_to_o3']:.3f}{interval} ({p[q]['latency_vs_o3']})"

        def compile_verdict(q):
            r = p[q].get("compile_ratio")
            return (f"{r['median']:.3f} [{r['low']:.3f}, {r['high']:.3f}] ({r['verdict']})"
                    if r else "-")
        lines.append(
            f"| {name} | {r.get('classes', '')} | {s.get('catalogue_sequences', 0):.1e} / "
            f"{s.get('class_sequences', 0):.1e} / {s.get('model_sequences', 0):.1e} "
            f"({s.get('catalogue_passes')} / {s.get('class_passes')} / {s.get('model_passes')} passes) "
            f"| {c.get('measured')} / {c.get('deduplicated')} "
            f"| {row('graph_passes_ms')} | {row('compile_ms', 1e-3, '{:.2f}')} "
            f"| {compile_verdict('auto')}, {compile_verdict('PO')}, {compile_verdict('tuned')} "
            f"| {p['O3']['p50_ms']:.1f} "
            f"| {p['O3']['throughput_per_s']:.1f} / "
            f"{p['O3']['throughput_per_s'] / p['tuned']['p50_ratio_to_o3']:.1f} "
            f"| {verdict('auto')}, {verdict('PO')}, {verdict('tuned')} "
            f"| {STUDY.get(name.split(' ')[0], '-')} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bin_dir")
    ap.add_argument("--models", default=",".join(ZOO))
    ap.add_argument("--onnx", default=",".join(ONNX), help="torchvision models, via ONNX")
    ap.add_argument("--budget", type=int, default=16, help="dlc-tune candidates per model")
    ap.add_argument("--rounds", type=int, default=15,
                    help="rounds of each pipeline against O3 (dlc-run --against)")
    ap.add_argument("--compiles", type=int, default=6,
                    help="cold compiles of each pipeline for its compile times")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="the figures (JSON)")
    ap.add_argument("--table", help="the Markdown table")
    ap.add_argument("--plot", help="the compile time / latency plot (PNG)")
    ap.add_argument("--replot", metavar="JSON",
                    help="write the table and plot from an earlier run's figures, measuring nothing")
    ap.add_argument("--recompile", metavar="JSON",
                    help="measure only the compile times again (--compiles rounds) of an earlier "
                         "run's pipelines, tuned and PO replayed as the sequences it found, "
                         "and write the figures to --out")
    ap.add_argument("--remeasure", metavar="JSON",
                    help="as --recompile, and the latencies against O3 (--rounds rounds) too; "
                         "the search's candidates (the plot's points) stay the earlier run's")
    args = ap.parse_args()
    if args.rounds < 1 or args.compiles < 1 or args.budget < 1:
        ap.error("--rounds, --compiles and --budget must be at least 1")
    if args.replot:
        results = json.load(open(args.replot))
        report(results, args)
        return
    scratch = tempfile.TemporaryDirectory(prefix="dlc-tune-evidence-")  # models: 100s of MB
    work = scratch.name
    models = prepare_models(args, work)
    if args.recompile or args.remeasure:
        results = json.load(open(args.recompile or args.remeasure))
        for name, path in models:
            r = results.get(name)
            if not r or "error" in r:
                continue
            specs = {"O3": "O3", "auto": "auto", "PO": r["po_sequence"],
                     "tuned": r["tuned_sequence"] or "O3"}
            if args.remeasure:
                r["dlc"] = measure_latencies(args, path, specs, r["pipelines"], work)
                r["rounds"] = args.rounds
            measure_compiles(args, path, specs, r["pipelines"], work)
            r["compile_rounds"] = args.compiles
            print(name, json.dumps({p: [r["pipelines"][p].get("ratio"),
                                        r["pipelines"][p].get("compile_ratio")]
                                    for p in PIPELINES[1:]}), flush=True)
            if args.out:
                with open(args.out, "w") as f:
                    json.dump(results, f, indent=1)
        report(results, args)
        return
    results = {}
    for name, path in models:
        cls = json.loads(run([f"{args.bin_dir}/dlc-opt", "--dlc-classify", "--json",
                              path]).stdout)["class"]
        try:
            results[name] = measure(args, re.sub(r"\W+", "_", name), path, work)
        except RuntimeError as e:
            results[name] = {"error": str(e)}
        results[name]["classes"] = cls
        print(name, json.dumps({k: v for k, v in results[name].items()
                                if k != "candidates_plot"}), flush=True)
        if args.out:
            with open(args.out, "w") as f:
                json.dump(results, f, indent=1)
    report(results, args)


def prepare_models(args, work):
    """(name, path) of the zoo models and the torchvision exports asked for."""
    models = []
    for name in filter(None, args.models.split(",")):
        path = os.path.join(work, f"{name}.mlirbc")
        run([f"{args.bin_dir}/dlc-zoo", name, "-o", path])
        models.append((name, path))
    for name in filter(None, args.onnx.split(",")):
        onnx_path = os.path.join(work, f"{name}.onnx")
        export_onnx(name, onnx_path)
        path = os.path.join(work, f"{name}.onnx.mlirbc")
        run([f"{args.bin_dir}/dlc-import", onnx_path, "-o", path])
        models.append((f"{name} (torchvision ONNX)", path))
    return models


def report(results, args):
    text = table(results, args) + "\n\n" + textwrap.fill(
        "The machine's speed drifts between the three side-by-side runs, so "
        "only O3's p50 (the median of its three) is shown; a pipeline's latency "
        "is its ratio to O3 in its own run, and tuned's throughput is O3's over "
        "that ratio.", 100)
    measured = {n: r["dlc"] for n, r in results.items() if r.get("dlc")}
    if measured:
        text += "\n\nLatencies measured with dlc " + "; ".join(
            f"{v} ({', '.join(n for n in measured if measured[n] == v)})"
            for v in dict.fromkeys(measured.values())) + "."
    print(text)
    if args.table:
        with open(args.table, "w") as f:
            f.write("# Pass selection on dlc's CPU backend: O3, auto, PO and tuned\n\n"
                    "Written by `bench/tune_evidence.py` (its docstring says how it "
                    "measures).\n\n" + text + "\n")
    if args.plot:
        plot({k: v for k, v in results.items() if "error" not in v}, args.plot)


if __name__ == "__main__":
    main()
