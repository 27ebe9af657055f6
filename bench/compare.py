#!/usr/bin/env python3
"""dlc vs ONNX Runtime vs PyTorch eager on the CPU, batch 1, 2 threads.

Exports torchvision ResNet-50 and MobileNetV2 and a BERT-base-sized encoder
(torch.nn.TransformerEncoder: 12 layers, d 768, 12 heads, FFN 3072, GELU,
sequence 128) to ONNX with random weights (seed 0), then, alternating the
systems round by round in one run, measures each system's latency on the same
input: dlc (dlc-import, then dlc-run --target=cpu --threads=2 --bench, once per
pipeline: O3, the default, and auto, the architecture-aware one), ONNX Runtime
(npm onnxruntime-node, all graph optimizations, 2 intra-op threads) and
PyTorch eager (torch.set_num_threads(2)). Prints per model each system's p50
and the ratios dlc / ONNX Runtime, and writes bench/results.json.

Usage: python3 bench/compare.py [--runs N] [--rounds R] [--models resnet50,...]
                                [--pipeline P ...] (dlc's pipelines; default O3 and auto)
(Debian's /usr/bin/python3 with python3-torch; `npm install` in bench/ first.)
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch
import torchvision

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.join(HERE, "..", "build", "bin")


class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        layer = torch.nn.TransformerEncoderLayer(768, 12, 3072, dropout=0.0,
                                                 activation="gelu", batch_first=True)
        self.encoder = torch.nn.TransformerEncoder(layer, 12)

    def forward(self, x):
        return self.encoder(x)


def make_models(which):
    torch.manual_seed(0)
    for name in which:
        if name == "resnet50":
            yield name, torchvision.models.resnet50(weights=None).eval(), (1, 3, 224, 224)
        elif name == "mobilenet_v2":
            yield name, torchvision.models.mobilenet_v2(weights=None).eval(), (1, 3, 224, 224)
        elif name == "bert_encoder":
            yield name, Encoder().eval(), (1, 128, 768)


def ort_latency(onnx_path, npy_path, runs):
    script = f"""
const ort = require('onnxruntime-node');
const fs = require('fs');
function readNpy(p) {{
  const b = fs.readFileSync(p); const hl = b.readUInt16LE(8);
  const header = b.slice(10, 10 + hl).toString();
  const shape = header.match(/'shape': \\(([^)]*)\\)/)[1].split(',').filter(s => s.trim()).map(Number);
  const data = new Float32Array(b.buffer.slice(b.byteOffset + 10 + hl, b.byteOffset + b.length));
  return new ort.Tensor('float32', data, shape);
}}
(async () => {{
  const s = await ort.InferenceSession.create('{onnx_path}', {{
    intraOpNumThreads: 2, interOpNumThreads: 1, graphOptimizationLevel: 'all',
    executionMode: 'sequential'}});
  const feeds = {{}}; feeds[s.inputNames[0]] = readNpy('{npy_path}');
  for (let i = 0; i < 5; i++) await s.run(feeds);
  const t = [];
  for (let i = 0; i < {runs}; i++) {{
    const a = process.hrtime.bigint(); await s.run(feeds);
    t.push(Number(process.hrtime.bigint() - a) / 1e6);
  }}
  console.log(JSON.stringify(t));
}})();
"""
    r = subprocess.run(["node", "-e", script], cwd=HERE, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("onnxruntime-node failed (npm install in bench/?): " + r.stderr[-500:])
    return json.loads(r.stdout.strip().splitlines()[-1])


def dlc_latency(mlir_path, npy_path, runs, report, pipeline):
    r = subprocess.run([os.path.join(BIN, "dlc-run"), mlir_path, "--target=cpu",
                        f"--input={npy_path}", "--threads=2", "--bench", "--warmup=2",
                        f"--runs={runs}", f"--pipeline={pipeline}",
                        f"--json={report}"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("dlc-run failed: " + r.stderr[-1000:])
    return json.load(open(report))["latency_ms"]["samples"], json.load(open(report))


def torch_latency(model, x, runs):
    torch.set_num_threads(2)
    with torch.no_grad():
        for _ in range(3):
            model(x)
        t = []
        for _ in range(runs):
            a = time.perf_counter()
            model(x)
            t.append((time.perf_counter() - a) * 1e3)
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10, help="timed runs per system per round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--models", default="resnet50,mobilenet_v2,bert_encoder")
    ap.add_argument("--pipeline", action="append", dest="pipelines",
                    help="a dlc pipeline to time (repeat for several; default O3 and auto)")
    args = ap.parse_args()
    pipelines = args.pipelines or ["O3", "auto"]
    dlc = [f"dlc {p}" for p in pipelines]
    scratch = tempfile.TemporaryDirectory(prefix="dlc-bench-")  # models: 100s of MB
    work = scratch.name
    results = {}
    for name, model, shape in make_models(args.models.split(",")):
        x = torch.randn(*shape)
        onnx_path = os.path.join(work, f"{name}.onnx")
        torch.onnx.export(model, x, onnx_path, opset_version=13)
        npy = os.path.join(work, f"{name}_input.npy")
        np.save(npy, x.numpy())
        mlir = os.path.join(work, f"{name}.mlirbc")
        subprocess.run([os.path.join(BIN, "dlc-import"), onnx_path, "-o", mlir], check=True)
        samples = {k: [] for k in dlc + ["onnxruntime", "pytorch"]}
        reports = {}
        for _ in range(args.rounds):  # alternate the systems
            for p, key in zip(pipelines, dlc):
                d, reports[key] = dlc_latency(mlir, npy, args.runs,
                                              os.path.join(work, f"{name}.json"), p)
                samples[key] += d
            samples["onnxruntime"] += ort_latency(onnx_path, npy, args.runs)
            samples["pytorch"] += torch_latency(model, x, args.runs)
        p50 = {k: statistics.median(v) for k, v in samples.items()}
        results[name] = {"p50_ms": p50, "runs": {k: len(v) for k, v in samples.items()},
                         "dlc_over_onnxruntime": {k: p50[k] / p50["onnxruntime"] for k in dlc},
                         "dlc_compile_ms": {k: r.get("compile_ms") for k, r in reports.items()},
                         "provenance": {k: reports[dlc[0]][k] for k in (
                             "dlc_version", "llvm_version", "host_cpu", "date")}}
        print(f"{name:14s} " + "  ".join(f"{k} {v:8.2f} ms" for k, v in p50.items()) + "  " +
              "  ".join(f"{k}/ort {p50[k] / p50['onnxruntime']:5.2f}x" for k in dlc), flush=True)
    with open(os.path.join(HERE, "results.json"), "w") as f:
        json.dump(results, f, indent=2)


if __name__ == "__main__":
    sys.exit(main())
