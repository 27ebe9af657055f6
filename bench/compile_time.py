#!/usr/bin/env python3
"""How long a user waits before the first inference: dlc's compile time, cold
and warm, against ONNX Runtime's session creation.

For each zoo model (dlc-zoo) and each torchvision/PyTorch export (ONNX, as
bench/compare.py makes them), measures the total compile time that
`dlc-run --target=cpu --threads=2 --json` reports, for
- `before`: another dlc build (--before-bin, e.g. one from before kernel
  deduplication and the cache), without a cache;
- `cold`: this build with an empty compile cache;
- `warm`: this build again, the cache filled by the cold compile;
and, for the ONNX files, ONNX Runtime's InferenceSession.create (npm
onnxruntime-node, all graph optimizations, 2 threads). Each measurement is
repeated --rounds times, alternating the systems, and the median reported,
with the kernels outlined and distinct.

    /usr/bin/python3 bench/compile_time.py build/bin --before-bin /tmp/old/bin --json bench/compile_time.json
(`npm install --ignore-scripts` in bench/ first for ONNX Runtime: its install
script fetches optional GPU providers from nuget.org, which this machine cannot
reach; the CPU binaries come with the npm package.)
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ZOO = ["resnet50", "mobilenet_v2", "bert_base", "ssd_resnet50"]
ONNX = ["resnet50", "mobilenet_v2", "bert_encoder"]


def dlc_compile(bin_dir, model, cache_dir):
    """Total compile ms and the report's kernel counts."""
    with tempfile.NamedTemporaryFile(suffix=".json") as report:
        args = [f"{bin_dir}/dlc-run", model, "--target=cpu", "--threads=2",
                f"--json={report.name}"]
        args += [f"--cache-dir={cache_dir}"] if cache_dir else []
        r = subprocess.run(args, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(r.stderr.strip().splitlines()[-1])
        j = json.load(open(report.name))
    return j["compile_ms"]["total"], j.get("kernels", {}), j.get("compile_cache")


def ort_session_ms(onnx_path):
    script = f"""
const ort = require('onnxruntime-node');
(async () => {{
  const a = process.hrtime.bigint();
  await ort.InferenceSession.create('{onnx_path}', {{
    intraOpNumThreads: 2, interOpNumThreads: 1, graphOptimizationLevel: 'all'}});
  console.log(Number(process.hrtime.bigint() - a) / 1e6);
}})();
"""
    r = subprocess.run(["node", "-e", script], cwd=HERE, capture_output=True, text=True)
    if r.returncode != 0:
        return None  # onnxruntime-node not installed
    return float(r.stdout.strip().splitlines()[-1])


def export_onnx(name, path):
    import torch
    import torchvision
    torch.manual_seed(0)
    if name == "bert_encoder":
        layer = torch.nn.TransformerEncoderLayer(768, 12, 3072, dropout=0.0,
                                                 activation="gelu", batch_first=True)
        model, shape = torch.nn.TransformerEncoder(layer, 12).eval(), (1, 128, 768)
    else:
        model = getattr(torchvision.models, name)(weights=None).eval()
        shape = (1, 3, 224, 224)
    torch.onnx.export(model, torch.randn(*shape), path, opset_version=13)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bin_dir")
    ap.add_argument("--before-bin", help="another dlc build's bin directory")
    ap.add_argument("--zoo", default=",".join(ZOO))
    ap.add_argument("--onnx", default=",".join(ONNX))
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--json", help="write the results here")
    args = ap.parse_args()
    scratch = tempfile.TemporaryDirectory(prefix="dlc-compile-time-")  # models: 100s of MB
    work = scratch.name
    models = []
    for name in filter(None, args.zoo.split(",")):
        path = os.path.join(work, f"{name}.mlirbc")
        subprocess.run([f"{args.bin_dir}/dlc-zoo", name, "-o", path], check=True)
        models.append((name, path, None))
    for name in filter(None, args.onnx.split(",")):
        onnx_path = os.path.join(work, f"{name}.onnx")
        export_onnx(name, onnx_path)
        path = os.path.join(work, f"{name}.onnx.mlirbc")
        subprocess.run([f"{args.bin_dir}/dlc-import", onnx_path, "-o", path], check=True)
        models.append((f"{name} (ONNX)", path, onnx_path))

    results = {}
    for label, path, onnx_path in models:
        try:
            results[label] = measure(args, work, path, onnx_path)
        except RuntimeError as e:  # e.g. an op the CPU cannot compile yet
            results[label] = {"error": str(e)}
        print(label, results[label], flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print()
    print("| model | before (s) | cold (s) | warm (s) | kernels / distinct | ONNX Runtime session (s) |")
    print("|---|---|---|---|---|---|")
    for label, r in results.items():
        if "error" in r:
            print(f"| {label} | {r['error']} |")
            continue
        k = r["kernels"]
        fmt = lambda key: f"{r[key]:.2f}" if key in r else "-"
        print(f"| {label} | {fmt('before')} | {fmt('cold')} | {fmt('warm')} | "
              f"{k.get('outlined', '-')} / {k.get('distinct', '-')} | {fmt('onnxruntime')} |")


def measure(args, work, path, onnx_path):
    """Median seconds per system and the kernel counts of one model."""
    samples = {"before": [], "cold": [], "warm": [], "onnxruntime": []}
    kernels = {}
    for _ in range(args.rounds):  # alternate the systems
        if args.before_bin:
            samples["before"].append(dlc_compile(args.before_bin, path, None)[0])
        cache = os.path.join(work, "cache")
        shutil.rmtree(cache, ignore_errors=True)
        ms, kernels, state = dlc_compile(args.bin_dir, path, cache)
        assert state == "miss", state
        samples["cold"].append(ms)
        ms, _, state = dlc_compile(args.bin_dir, path, cache)
        assert state == "hit", state
        samples["warm"].append(ms)
        if onnx_path:
            t = ort_session_ms(onnx_path)
            if t is not None:
                samples["onnxruntime"].append(t)
    row = {k: statistics.median(v) / 1e3 for k, v in samples.items() if v}
    row["kernels"] = kernels
    return row


if __name__ == "__main__":
    main()
