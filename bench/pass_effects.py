#!/usr/bin/env python3
"""What every graph pass does to every study model: the raw material of the
architecture-aware pipeline.

For each model (dlc-zoo) and each pass of the catalogue (dlc-opt
--dlc-list-passes), the pass runs alone on the model as imported and on the
model after SimplifyInference + FoldConstant (so that passes that need
folded batch norms have work). Recorded per run: the pass's ledger counters
(--dlc-pass-stats), the graph ops before and after (constants excluded, ops
inside regions included) and whether the IR changed at all (bytecode
compared). A pass whose IR is unchanged is dormant on that model. Also
records the ops and kernels (graph.fused regions) of O0..O4.

    python3 bench/pass_effects.py build/bin --out docs/PassEffects.md --json bench/pass_effects.json
    python3 bench/pass_effects.py build/bin --small      # resnet18/mobilenet_v2 at 32x32, bert_tiny

The study models are resnet50, mobilenet_v2, ssd_resnet50 and bert_base
(--small: their small variants, as the test suite uses).
"""
import argparse
import collections
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

STUDY = [("resnet50", []), ("mobilenet_v2", []), ("ssd_resnet50", []), ("bert_base", [])]
SMALL = [("resnet18", ["--image=32"]), ("mobilenet_v2", ["--image=32"]),
         ("ssd_resnet50", ["--image=257"]), ("bert_tiny", ["--seq=8"])]
LEVELS = ["O0", "O1", "O2", "O3", "O4"]
# Counters that report something other than a rewrite (on-bytes: a share of
# FoldConstant's folded).
NOT_REWRITES = ("skipped-large", "on-bytes", "skipped", "no-entry", "no effect in SSA form", "runs")


def run(*args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{r.stderr}")
    return r


def op_counts(bin_dir, path):
    """Graph ops by name (constants excluded), nested regions included;
    `fused` counts the kernels."""
    text = run(f"{bin_dir}/dlc-opt", path, "--mlir-elide-resource-strings-if-larger=16",
               "--mlir-elide-elementsattrs-if-larger=16").stdout
    counts = collections.Counter(re.findall(r"= graph\.(\w+)", text))
    counts.pop("constant", None)
    return counts


def ops(counts):
    return sum(counts.values()) - counts.get("fused", 0)


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def optimize(bin_dir, src, dst, spec):
    """Runs `spec` and returns the ledger: {pass flag: {counter: value}}."""
    r = run(f"{bin_dir}/dlc-opt", src, f"--dlc-pipeline={spec}", "--dlc-pass-stats",
            "--emit-bytecode", "-o", dst)
    ledger = {}
    for line in r.stderr.splitlines():
        m = re.match(r"^([\w-]+): (.*)$", line)
        if not m:
            continue
        counters = {}
        for item in m.group(2).split(", "):
            name, _, value = item.rpartition(" ")
            if value.lstrip("-").isdigit():
                counters[name] = int(value)
        ledger[m.group(1)] = counters
    return ledger


def rewrites(counters):
    return sum(v for k, v in counters.items() if not any(n in k for n in NOT_REWRITES))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bin_dir")
    ap.add_argument("--small", action="store_true", help="the small variants (fast)")
    ap.add_argument("--out", help="write the Markdown report here")
    ap.add_argument("--json", help="write the raw results here")
    args = ap.parse_args()
    bin_dir = args.bin_dir
    passes = [(p["tvm_name"], p["flag"], f"O{p['opt_level']}") for p in
              json.loads(run(f"{bin_dir}/dlc-opt", "--dlc-list-passes", "--json").stdout)]
    models = SMALL if args.small else STUDY
    # Every output is a copy of the model (440 MB for bert_base): deleted as
    # soon as it is measured, and the directory at the end.
    with tempfile.TemporaryDirectory(prefix="dlc-pass-effects-") as work:
        results = measure(bin_dir, passes, models, work)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    report = render(results, args.small)
    if args.out:
        with open(args.out, "w") as f:
            f.write(report)
    else:
        sys.stdout.write(report)


def pass_options(name, work):
    """Options a pass needs here: AnnotateSpans's snapshot goes with the
    outputs, not to /tmp; AnnotateTarget partitions for the example target
    (a second description of the CPU, examples/targets/cpu-ext.txt)."""
    if name == "AnnotateSpans":
        return f"{{file={work}/snapshot.mlir}}"
    if name == "AnnotateTarget":
        here = os.path.dirname(os.path.abspath(__file__))
        return f"{{targets={here}/../examples/targets/cpu-ext.txt}}"
    return ""


def measure(bin_dir, passes, models, work):
    results = {"models": {}, "passes": [p[0] for p in passes]}
    for model, opts in models:
        src = os.path.join(work, f"{model}.mlirbc")
        run(f"{bin_dir}/dlc-zoo", model, *opts, "-o", src)
        prepared = os.path.join(work, f"{model}.prepared.mlirbc")
        optimize(bin_dir, src, prepared, "list:SimplifyInference,FoldConstant")
        entry = {"options": opts, "bases": {}, "levels": {}}
        for base_name, base in (("imported", src), ("prepared", prepared)):
            # The base as dlc-opt writes it, so that "changed" means the pass.
            same = os.path.join(work, f"{model}.{base_name}.none.mlirbc")
            optimize(bin_dir, base, same, "none")
            before, before_digest = op_counts(bin_dir, same), digest(same)
            os.remove(same)
            rows = {}
            for name, flag, level in passes:
                out = os.path.join(work, f"{model}.{base_name}.{name}.mlirbc")
                options = pass_options(name, work)
                ledger = optimize(bin_dir, base, out, f"list:{name}{options}")
                after = op_counts(bin_dir, out)
                # A sequence's own counters and those of the passes it ran.
                counters = {f"{f}: {k}" if f != flag else k: v
                            for f, c in ledger.items() for k, v in c.items()}
                rows[name] = {"flag": flag, "opt_level": level, "counters": counters,
                              "rewrites": rewrites(counters),
                              "ops_before": ops(before), "ops_after": ops(after),
                              "kernels_after": after.get("fused", 0),
                              "changed": digest(out) != before_digest}
                print(f"{model} {base_name} {name}: {rewrites(counters)} rewrites, "
                      f"ops {ops(before)} -> {ops(after)}"
                      f"{'' if rows[name]['changed'] else ' (dormant)'}", flush=True)
                os.remove(out)
            entry["bases"][base_name] = rows
        for level in LEVELS:
            out = os.path.join(work, f"{model}.{level}.mlirbc")
            ledger = optimize(bin_dir, src, out, level)
            counts = op_counts(bin_dir, out)
            os.remove(out)
            entry["levels"][level] = {
                "kernels": counts.get("fused", 0),
                "ops": ops(counts),
                "passes": {flag: c for flag, c in ledger.items()}}
        results["models"][model] = entry
        for path in (src, prepared):
            os.remove(path)
    return results


def render(results, small):
    models = list(results["models"])
    lines = ["# What each graph pass does to each architecture", "",
             "Generated by `bench/pass_effects.py` " + ("--small " if small else "") +
             "(do not edit by hand). Each pass ran alone on each model, as imported and "
             "after SimplifyInference + FoldConstant. A cell is the pass's rewrites (its "
             "ledger counters summed) and the graph ops before -> after (constants and "
             "regions not counted; the kernels FuseOps made in parentheses); **dormant** "
             "means the IR, locations included, did not change at all.", ""]
    for base_name, title in (("imported", "On the model as imported"),
                             ("prepared", "After SimplifyInference + FoldConstant")):
        lines += [f"## {title}", "", "| pass | TVM opt level | " + " | ".join(models) + " |",
                  "|---|---|" + "---|" * len(models)]
        for name in results["passes"]:
            cells = []
            level = None
            for model in models:
                row = results["models"][model]["bases"][base_name][name]
                level = row["opt_level"]
                if not row["changed"]:
                    cell = "**dormant**"
                else:
                    cell = f"{row['rewrites']}, {row['ops_before']} -> {row['ops_after']}"
                    if row["kernels_after"]:
                        cell += f" ({row['kernels_after']} kernels)"
                cells.append(cell)
            lines.append(f"| {name} | {level} | " + " | ".join(cells) + " |")
        lines.append("")
    lines += ["## Optimization levels", "",
              "Graph ops (regions excluded) and kernels (`graph.fused` regions) after each level.",
              "", "| model | " + " | ".join(LEVELS) + " |", "|---|" + "---|" * len(LEVELS)]
    for model in models:
        cells = [f"{v['ops']} ops, {v['kernels']} kernels"
                 for v in results["models"][model]["levels"].values()]
        lines.append(f"| {model} | " + " | ".join(cells) + " |")
    lines.append("")
    dormant = collections.defaultdict(list)
    for model in models:
        for name in results["passes"]:
            if all(not results["models"][model]["bases"][b][name]["changed"]
                   for b in ("imported", "prepared")):
                dormant[model].append(name)
    lines += ["## Dormant on both inputs", ""]
    for model in models:
        lines.append(f"- {model}: " + (", ".join(dormant[model]) or "none"))
    lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
