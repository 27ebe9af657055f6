#!/usr/bin/env python3
"""What dlc's architecture classifier says about models it was not written for.

Exports torchvision models and PyTorch transformer stacks with
torch.onnx.export (random weights, opset 13), imports them with dlc-import
and runs `dlc-opt --dlc-classify --json`, plus the zoo models; prints a
Markdown table (model, expected family, classes detected, confidence,
scores) and writes it with --out. A model the importer cannot read yet is
listed with the importer's message.

    /usr/bin/python3 bench/classify_models.py build/bin --out docs/Classification.md
"""
import argparse
import json
import os
import subprocess
import tempfile

# (name, what a person would call it, the classes a right answer contains;
# None: no study class fits, so `general` is right)
TORCHVISION = [
    ("resnet18", "ResNet", {"resnet"}), ("resnet50", "ResNet", {"resnet"}),
    ("resnext50_32x4d", "ResNeXt (ResNet with grouped convolutions)", {"resnet"}),
    ("wide_resnet50_2", "ResNet", {"resnet"}), ("vgg16", "plain CNN", None),
    ("densenet121", "DenseNet (concatenation, no adds)", None),
    ("squeezenet1_0", "SqueezeNet", None), ("googlenet", "Inception", None),
    ("mobilenet_v2", "MobileNet", {"mobilenet"}), ("mobilenet_v3_small", "MobileNet", {"mobilenet"}),
    ("mnasnet1_0", "MobileNet-like (NAS)", {"mobilenet"}),
    ("efficientnet_b0", "MobileNet-like (inverted residuals, SE)", {"mobilenet"}),
    ("shufflenet_v2_x1_0", "ShuffleNet (depthwise, channel shuffle)", None),
    ("regnet_y_400mf", "RegNet-Y (ResNet-style residual blocks, grouped, SE)", {"resnet"}),
    ("convnext_tiny", "ConvNeXt (depthwise 7x7, layer norm)", None),
    ("vit_b_16", "vision transformer", {"bert"}),
]
ZOO = [("resnet50", {"resnet"}), ("mobilenet_v2", {"mobilenet"}),
       ("ssd_resnet50", {"resnet", "ssd"}), ("bert_base", {"bert"}), ("bert_tiny", {"bert"})]


def export(name, path):
    import torch
    import torchvision
    torch.manual_seed(0)
    if name == "transformer_encoder":
        layer = torch.nn.TransformerEncoderLayer(256, 4, 1024, dropout=0.0,
                                                 activation="gelu", batch_first=True)
        model, args = torch.nn.TransformerEncoder(layer, 4).eval(), (torch.randn(1, 64, 256),)
    else:
        model = getattr(torchvision.models, name)(weights=None).eval()
        args = (torch.randn(1, 3, 224, 224),)
    torch.onnx.export(model, args, path, opset_version=13)


def classify(bin_dir, path):
    r = subprocess.run([f"{bin_dir}/dlc-opt", "--dlc-classify", "--json", path],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "failed"
    return json.loads(r.stdout), None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bin_dir")
    ap.add_argument("--out")
    ap.add_argument("--models", help="comma-separated subset of the torchvision names")
    args = ap.parse_args()
    scratch = tempfile.TemporaryDirectory(prefix="dlc-classify-")  # models: 100s of MB
    work = scratch.name
    rows = []

    def row(label, family, expected, path, error=None):
        result, err = (None, error) if error else classify(args.bin_dir, path)
        if result is None:
            rows.append((label, family, f"not imported: {err}", "", "", ""))
            return
        detected = set(result["detected"])
        right = detected == expected if expected is not None else not detected
        scores = ", ".join(f"{c['name']} {c['score']:.2f}" for c in result["classes"])
        rows.append((label, family, result["class"], f"{result['confidence']:.2f}", scores,
                     "yes" if right else "no"))
        print(rows[-1], flush=True)

    for name, expected in ZOO:
        path = os.path.join(work, f"{name}.mlirbc")
        subprocess.run([f"{args.bin_dir}/dlc-zoo", name, "-o", path], check=True)
        row(f"{name} (zoo)", "", expected, path)
    wanted = set(args.models.split(",")) if args.models else None
    models = TORCHVISION + [("transformer_encoder", "transformer encoder (PyTorch)", {"bert"})]
    for name, family, expected in models:
        if wanted and name not in wanted:
            continue
        onnx_path = os.path.join(work, f"{name}.onnx")
        path = onnx_path + ".mlirbc"
        try:
            export(name, onnx_path)
        except Exception as e:  # an export PyTorch itself refuses
            row(name, family, expected, None, f"export failed: {str(e).splitlines()[0][:80]}")
            continue
        r = subprocess.run([f"{args.bin_dir}/dlc-import", onnx_path, "-o", path],
                           capture_output=True, text=True)
        if r.returncode != 0:
            message = r.stderr.strip().splitlines()[-1].replace(work + "/", "")
            row(name, family, expected, None, message[:120])
            continue
        row(name, family, expected, path)

    lines = ["| model | family | dlc-classify | confidence | scores | right |",
             "|---|---|---|---|---|---|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    table = "\n".join(lines)
    print(table)
    if args.out:
        with open(args.out, "w") as f:
            f.write("# What the architecture classifier says\n\n"
                    "Made by `bench/classify_models.py` (torchvision models exported with "
                    "`torch.onnx.export`, opset 13, random weights, imported with dlc-import). "
                    "`right`: the classes detected are the expected ones, or `general` where no "
                    "study class fits the architecture.\n\n" + table + "\n")


if __name__ == "__main__":
    main()
