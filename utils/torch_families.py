#!/usr/bin/env python3
"""Exports one model of every torchvision classification and segmentation
family, and torch.nn.TransformerEncoder / TransformerDecoder with attention
masks, with torch.onnx.export at opsets 13 and 17 (random weights, seed 0),
imports each with dlc-import, compiles it for the CPU with dlc-run and
compares its outputs with PyTorch's on the same input.

    /usr/bin/python3 utils/torch_families.py build/bin [--out=docs/TorchModels.md]
        [--work=/tmp/dlc-torch] [--only=resnet,vit] [--opsets=13,17]

Tolerance, relative to the output's scale: every element within
1e-5 + 1e-4 max|torch| of PyTorch's. PyTorch and dlc sum in f32 in different
orders over up to ~10^4 terms per output through up to ~100 layers, and
random weights can make outputs large (inception_v3's reach 1e14), so an
element-wise relative bound fails on elements near zero for rounding alone.
The largest absolute error and its ratio to max|torch| are reported. Writes a Markdown table (family, model, opset,
status, max abs error, dlc compile time) and exits 1 when a model that
exported does not match.
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np
import torch
import torchvision
from torchvision import models as tvm

ATOL, SCALE_RTOL = 1e-5, 1e-4


class Encoder(torch.nn.Module):
    """Two encoder layers with a causal mask and a key padding mask."""

    def __init__(self):
        super().__init__()
        layer = torch.nn.TransformerEncoderLayer(64, 4, 128, dropout=0.1, activation="gelu",
                                                 batch_first=True)
        self.encoder = torch.nn.TransformerEncoder(layer, num_layers=2)
        self.register_buffer("mask", torch.nn.Transformer.generate_square_subsequent_mask(16))
        padding = torch.zeros(1, 16, dtype=torch.bool)
        padding[0, 12:] = True
        self.register_buffer("padding", padding)

    def forward(self, x):
        return self.encoder(x, mask=self.mask, src_key_padding_mask=self.padding)


class Decoder(torch.nn.Module):
    """Two decoder layers with a causal target mask over an encoder memory."""

    def __init__(self):
        super().__init__()
        layer = torch.nn.TransformerDecoderLayer(64, 4, 128, dropout=0.1, batch_first=True)
        self.decoder = torch.nn.TransformerDecoder(layer, num_layers=2)
        self.register_buffer("mask", torch.nn.Transformer.generate_square_subsequent_mask(10))
        self.register_buffer("memory", torch.randn(1, 16, 64))

    def forward(self, x):
        return self.decoder(x, self.memory, tgt_mask=self.mask)


def seg(fn):
    """Segmentation models return a dict; keep the main output."""

    class Wrapped(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = fn(weights=None, weights_backbone=None, aux_loss=False)

        def forward(self, x):
            return self.model(x)["out"]

    return Wrapped()


def randomize(model):
    """Random inference statistics, so that batch norms do real work, and
    random weights where torchvision initializes them to zero (the heads of
    vit and swin), so that every output depends on the input."""
    for m in model.modules():
        if isinstance(m, (torch.nn.BatchNorm2d, torch.nn.BatchNorm1d)):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 1.5)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.2, 0.2)
        elif isinstance(m, (torch.nn.Linear, torch.nn.Conv2d)) and not m.weight.data.any():
            torch.nn.init.normal_(m.weight, 0, 0.02)
    return model


# family, model name, constructor, input shape
MODELS = [
    ("resnet", "resnet18", lambda: tvm.resnet18(weights=None), (1, 3, 224, 224)),
    ("resnext", "resnext50_32x4d", lambda: tvm.resnext50_32x4d(weights=None), (1, 3, 224, 224)),
    ("wide_resnet", "wide_resnet50_2", lambda: tvm.wide_resnet50_2(weights=None), (1, 3, 224, 224)),
    ("vgg", "vgg11_bn", lambda: tvm.vgg11_bn(weights=None), (1, 3, 224, 224)),
    ("densenet", "densenet121", lambda: tvm.densenet121(weights=None), (1, 3, 224, 224)),
    ("squeezenet", "squeezenet1_1", lambda: tvm.squeezenet1_1(weights=None), (1, 3, 224, 224)),
    ("mobilenet_v2", "mobilenet_v2", lambda: tvm.mobilenet_v2(weights=None), (1, 3, 224, 224)),
    ("mobilenet_v3", "mobilenet_v3_large", lambda: tvm.mobilenet_v3_large(weights=None),
     (1, 3, 224, 224)),
    ("mnasnet", "mnasnet0_5", lambda: tvm.mnasnet0_5(weights=None), (1, 3, 224, 224)),
    ("shufflenet", "shufflenet_v2_x0_5", lambda: tvm.shufflenet_v2_x0_5(weights=None),
     (1, 3, 224, 224)),
    ("efficientnet", "efficientnet_b0", lambda: tvm.efficientnet_b0(weights=None),
     (1, 3, 224, 224)),
    ("regnet", "regnet_y_400mf", lambda: tvm.regnet_y_400mf(weights=None), (1, 3, 224, 224)),
    ("convnext", "convnext_tiny", lambda: tvm.convnext_tiny(weights=None), (1, 3, 224, 224)),
    ("googlenet", "googlenet", lambda: tvm.googlenet(weights=None, aux_logits=False,
                                                     init_weights=True), (1, 3, 224, 224)),
    ("inception_v3", "inception_v3", lambda: tvm.inception_v3(weights=None, aux_logits=False,
                                                              init_weights=True), (1, 3, 299, 299)),
    ("vit", "vit_b_16", lambda: tvm.vit_b_16(weights=None), (1, 3, 224, 224)),
    ("swin", "swin_t", lambda: tvm.swin_t(weights=None), (1, 3, 224, 224)),
    ("maxvit", "maxvit_t", lambda: tvm.maxvit_t(weights=None), (1, 3, 224, 224)),
    ("fcn", "fcn_resnet50", lambda: seg(tvm.segmentation.fcn_resnet50), (1, 3, 224, 224)),
    ("deeplabv3", "deeplabv3_mobilenet_v3_large",
     lambda: seg(tvm.segmentation.deeplabv3_mobilenet_v3_large), (1, 3, 224, 224)),
    ("lraspp", "lraspp_mobilenet_v3_large",
     lambda: seg(tvm.segmentation.lraspp_mobilenet_v3_large), (1, 3, 224, 224)),
    ("transformer", "TransformerEncoder (masks)", Encoder, (1, 16, 64)),
    ("transformer", "TransformerDecoder (causal mask)", Decoder, (1, 10, 64)),
]


def run(cmd, timeout=900):
    start = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr, time.time() - start


def first_error(text):
    for line in text.splitlines():
        if "error" in line:
            return line.split("error: ", 1)[-1].strip()
    return text.strip().splitlines()[-1] if text.strip() else "failed"


def check(bindir, work, family, name, make, shape, opset):
    tag = f"{name.split()[0]}_{opset}"
    row = {"family": family, "model": name, "opset": opset}
    torch.manual_seed(0)
    try:
        if not hasattr(tvm, name.split()[0]) and family not in (
                "transformer", "fcn", "deeplabv3", "lraspp"):
            raise RuntimeError(f"torchvision {torchvision.__version__} has no {name}")
        model = randomize(make()).eval()
        x = torch.randn(*shape)
        with torch.no_grad():
            y = model(x)
        path = f"{work}/{tag}.onnx"
        torch.onnx.export(model, x, path, opset_version=opset, input_names=["input"],
                          output_names=["output"])
    except Exception as e:  # the export itself failed: not dlc's
        row.update(status="export failed", detail=str(e).splitlines()[0][:160])
        return row
    np.save(f"{work}/{tag}_input.npy", x.numpy())
    np.save(f"{work}/{tag}_expected.npy", y.numpy())
    rc, out, _ = run([f"{bindir}/dlc-import", path, "-o", f"{work}/{tag}.mlirbc"])
    if rc:
        row.update(status="import error", detail=first_error(out))
        return row
    rc, out, secs = run([f"{bindir}/dlc-run", f"{work}/{tag}.mlirbc", "--target=cpu",
                         "--threads=2", "--no-cache", f"--input={work}/{tag}_input.npy",
                         f"--output={work}/{tag}_dlc.npy", f"--json={work}/{tag}.json"])
    if rc:
        row.update(status="compile or run error", detail=first_error(out))
        return row
    got = np.load(f"{work}/{tag}_dlc.npy").astype(np.float64)
    want = y.numpy().astype(np.float64)
    if got.shape != want.shape:
        row.update(status="mismatch", detail=f"shape {got.shape} vs {want.shape}")
        return row
    err = np.abs(got - want)
    scale = float(np.abs(want).max()) if want.size else 0.0
    ok = bool(np.all(err <= ATOL + SCALE_RTOL * scale))
    with open(f"{work}/{tag}.json") as f:
        report = json.load(f)
    compile_s = report.get("compile_ms", {}).get("total", float("nan")) / 1000
    row.update(status="matches" if ok else "mismatch", max_abs_error=float(err.max()),
               relative_error=float(err.max()) / scale if scale else 0.0, compile_s=compile_s)
    return row


def table(rows):
    lines = ["| family | model | opset | status | max abs error | / max abs output "
             "| dlc compile (s) | note |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        err = f"{r['max_abs_error']:.1e}" if "max_abs_error" in r else ""
        rel = f"{r['relative_error']:.1e}" if "relative_error" in r else ""
        comp = f"{r['compile_s']:.2f}" if "compile_s" in r else ""
        note = r.get("detail", "").replace("|", "/")
        lines.append(f"| {r['family']} | {r['model']} | {r['opset']} | {r['status']} | {err} "
                     f"| {rel} | {comp} | {note} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bindir")
    ap.add_argument("--out", default="docs/TorchModels.md")
    ap.add_argument("--work", default="/tmp/dlc-torch")
    ap.add_argument("--only", default="")
    ap.add_argument("--opsets", default="13,17")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    only = [s for s in args.only.split(",") if s]
    rows = []
    for family, name, make, shape in MODELS:
        if only and family not in only:
            continue
        for opset in [int(o) for o in args.opsets.split(",")]:
            row = check(args.bindir, args.work, family, name, make, shape, opset)
            print(f"{family:13} {name:32} opset {opset}: {row['status']}"
                  f" {row.get('max_abs_error', '')} {row.get('detail', '')}", flush=True)
            rows.append(row)
    header = f"""# PyTorch models through dlc

Generated by `utils/torch_families.py` ({time.strftime('%Y-%m-%d')}; torch
{torch.__version__}, torchvision {torchvision.__version__}): one model of every
torchvision classification and segmentation family, and
`torch.nn.TransformerEncoder` / `TransformerDecoder` with attention masks, with
random weights (seed 0; batch norms with random statistics, zero-initialized
layers such as vit's head randomized), exported by
`torch.onnx.export` at opsets 13 and 17, imported by `dlc-import`, compiled for
the CPU by `dlc-run --target=cpu` and compared with PyTorch's outputs on the same
input. A model matches when every output element is within {ATOL:g} +
{SCALE_RTOL:g} max|torch| of PyTorch's (a bound relative to the output's scale:
random weights make some outputs large, and both sides round in f32). dlc compile
time is `dlc-run --no-cache` on 2 threads, measured while the exports ran.
"export failed" is PyTorch's own exporter failing (or this torchvision lacking
the model), not dlc.

"""
    with open(args.out, "w") as f:
        f.write(header + table(rows) + "\n")
    bad = [r for r in rows if r["status"] not in ("matches", "export failed")]
    print(f"{sum(r['status'] == 'matches' for r in rows)} match, {len(bad)} fail, "
          f"{sum(r['status'] == 'export failed' for r in rows)} export failures")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
