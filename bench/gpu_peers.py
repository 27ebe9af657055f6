#!/usr/bin/env python3
"""The peers of dlc's GPU backend on the same architectures, on a GPU machine.

    gpu_peers.py --out=peers.jsonl [--models=resnet50,mobilenet_v2,bert_base,ssd_resnet50]
                 [--eager-only] [--systems=S1,S2,...] [--batches=1,32]
    gpu_peers.py --table bench.jsonl peers.jsonl

Runs PyTorch eager, ONNX Runtime (the model exported by torch.onnx, CUDA
execution provider, inputs and outputs bound in device memory),
torch.compile (default) and torch.compile (mode="reduce-overhead") on
ResNet-50, MobileNetV2 (torchvision) and
BERT-base with a question-answering head (transformers, sequence 128), and
SSD-ResNet50 (below), at batch 1 and 32, f32 with PyTorch's default math (TF32 convolutions through
cuDNN, f32 matrix products), random weights: the latency is the host wall
time of one call followed by torch.cuda.synchronize(), as dlc-cuda-run
measures dlc's. SSD-ResNet50 is dlc's zoo model (lib/Zoo/SSD.cpp, NVIDIA's
SSD300 v1.1) written here in PyTorch: torchvision's ResNet-50 up to layer3,
layer3 not striding, the same extra blocks and heads, box decoding, softmax,
and per-class NMS (torchvision.ops.batched_nms, score threshold 0.05, IoU
0.5, the best 200): the usual eager post-processing, which synchronizes
with the host to select the boxes above the threshold. In f16 (systems
"... f16"), the model and its float inputs are converted with .half(), as
dlc's `O3;mixed=f16` computes it (products on tensor cores, f32 accumulation
in cuBLAS and cuDNN). Each result is one JSON line, written as soon as it is
measured, cheapest first (eager in f32 and f16, then ONNX Runtime, then
compiled at batch 1, then compiled at batch 32), so a time limit keeps what
was done. --eager-only runs PyTorch eager alone; --systems and --batches
run only those peers and batches (the remainder of a run a time limit
stopped, on the same machine).
--table prints dlc's results (utils/gpu-check.sh's bench.jsonl: O3, --pipeline=auto,
--gpu-tf32, f16, CUDA graphs) beside them.
"""
import argparse
import json
import statistics
import sys
import time


def measure(fn, warmup, runs):
    import torch
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        samples.append((time.perf_counter() - t0) * 1e3)
    samples.sort()
    q = lambda p: samples[min(len(samples) - 1, int(round(p / 100 * (len(samples) - 1))))]
    return {"p50_ms": q(50), "p99_ms": q(99), "mean_ms": statistics.fmean(samples),
            "runs": runs}


def ssd_resnet50():
    """dlc's zoo SSD-ResNet50 (lib/Zoo/SSD.cpp) as a torch module."""
    import torch
    import torchvision
    from torch import nn

    class SSD(nn.Module):
        def __init__(self):
            super().__init__()
            r = torchvision.models.resnet50(weights=None)
            b = r.layer3[0]  # layer3 does not stride: 38x38 features at 300x300
            b.conv2.stride, b.downsample[0].stride = (1, 1), (1, 1)
            self.backbone = nn.Sequential(r.conv1, r.bn1, r.relu, r.maxpool, r.layer1, r.layer2,
                                          r.layer3)
            channels = [1024, 512, 512, 256, 256, 256]
            extras = [(256, 512, 2, 1), (256, 512, 2, 1), (128, 256, 2, 1), (128, 256, 1, 0),
                      (128, 256, 1, 0)]
            self.extras = nn.ModuleList(
                nn.Sequential(nn.Conv2d(cin, mid, 1, bias=False), nn.BatchNorm2d(mid), nn.ReLU(),
                              nn.Conv2d(mid, out, 3, stride, pad, bias=False),
                              nn.BatchNorm2d(out), nn.ReLU())
                for cin, (mid, out, stride, pad) in zip(channels, extras))
            per_position = [4, 6, 6, 6, 4, 4]
            self.loc = nn.ModuleList(nn.Conv2d(c, n * 4, 3, padding=1)
                                     for c, n in zip(channels, per_position))
            self.conf = nn.ModuleList(nn.Conv2d(c, n * 81, 3, padding=1)
                                      for c, n in zip(channels, per_position))
            self.register_buffer("dboxes", torch.rand(8732, 4) * 0.5 + 0.25)

        def forward(self, x):
            features = [self.backbone(x)]
            for block in self.extras:
                features.append(block(features[-1]))
            n = x.shape[0]
            loc = torch.cat([l(f).reshape(n, 4, -1) for l, f in zip(self.loc, features)], 2)
            conf = torch.cat([c(f).reshape(n, 81, -1) for c, f in zip(self.conf, features)], 2)
            loc = loc.permute(0, 2, 1)
            xy = loc[..., :2] * 0.1 * self.dboxes[:, 2:] + self.dboxes[:, :2]
            wh = torch.exp(loc[..., 2:] * 0.2) * self.dboxes[:, 2:]
            boxes = torch.cat([xy - wh / 2, xy + wh / 2], 2)
            scores = torch.softmax(conf, 1)[:, 1:]  # class 0 is the background
            detections = []
            for i in range(n):
                s = scores[i].T  # [8732, 80]
                keep = s > 0.05
                box_index, cls = keep.nonzero(as_tuple=True)
                picked = torchvision.ops.batched_nms(boxes[i][box_index], s[keep], cls, 0.5)[:200]
                detections.append((boxes[i][box_index[picked]], s[keep][picked], cls[picked] + 1))
            return detections

    return SSD()


def build(name, batch, half=False):
    """`name`'s torch module on the GPU and its inputs, in f16 with `half`."""
    model, inputs = build_f32(name, batch)
    if half:
        model = model.half()
        inputs = tuple(x.half() if x.is_floating_point() else x for x in inputs)
    return model, inputs


def build_f32(name, batch):
    import torch
    if name == "ssd_resnet50":
        x = torch.rand(batch, 3, 300, 300, device="cuda") * 2 - 1
        return ssd_resnet50().eval().cuda(), (x,)
    if name in ("resnet50", "mobilenet_v2"):
        import torchvision
        model = getattr(torchvision.models, name)(weights=None)
        x = torch.rand(batch, 3, 224, 224, device="cuda") * 2 - 1
        model = model.eval().cuda()
        return model, (x,)
    if name == "bert_base":
        from transformers import BertConfig, BertForQuestionAnswering
        model = BertForQuestionAnswering(BertConfig()).eval().cuda()
        ids = torch.randint(0, 30522, (batch, 128), device="cuda")
        mask = torch.ones(batch, 128, dtype=torch.long, device="cuda")
        types = torch.zeros(batch, 128, dtype=torch.long, device="cuda")
        return model, (ids, mask, types)  # forward's order
    raise SystemExit(f"unknown model {name}")


def onnxruntime_call(model, inputs, name, batch):
    """A call of `model` exported to ONNX and run by ONNX Runtime's CUDA
    execution provider, the inputs and outputs bound in device memory."""
    import os
    import tempfile
    import numpy
    import onnxruntime
    import torch
    with tempfile.TemporaryDirectory() as work, torch.no_grad():  # loaded, the file goes
        path = os.path.join(work, f"{name}_b{batch}.onnx")
        try:  # the TorchScript exporter, which needs no onnxscript
            torch.onnx.export(model, inputs, path, opset_version=17, dynamo=False)
        except TypeError:  # a PyTorch without the dynamo switch
            torch.onnx.export(model, inputs, path, opset_version=17)
        session = onnxruntime.InferenceSession(path, providers=["CUDAExecutionProvider"])
    if session.get_providers()[0] != "CUDAExecutionProvider":
        raise RuntimeError(f"no CUDA execution provider (has {session.get_providers()})")
    graph_inputs = session.get_inputs()
    if len(graph_inputs) != len(inputs):
        raise RuntimeError(f"the export has {len(graph_inputs)} inputs, the model {len(inputs)}")
    binding = session.io_binding()
    types = {torch.float32: numpy.float32, torch.int64: numpy.int64}
    for graph_input, x in zip(graph_inputs, inputs):
        x = x.contiguous()
        binding.bind_input(graph_input.name, "cuda", 0, types[x.dtype], list(x.shape), x.data_ptr())
    for output in session.get_outputs():
        binding.bind_output(output.name, "cuda")
    return lambda: session.run_with_iobinding(binding)


def onnxruntime_missing():
    """Why ONNX Runtime cannot run on the GPU here, or None."""
    try:
        import onnxruntime
    except ImportError as e:
        return f"ImportError: {e}"
    available = onnxruntime.get_available_providers()
    if "CUDAExecutionProvider" in available:
        return None
    return (f"no CUDA execution provider in onnxruntime {onnxruntime.__version__} (has "
            f"{available}; the GPU build is the onnxruntime-gpu package)")


def run_peers(args):
    import torch
    out = open(args.out, "a")
    models = args.models.split(",")
    eager = ("torch eager", "torch eager f16")
    plan = [(m, b, s) for s in eager for b in (1, 32) for m in models]
    if not args.eager_only:
        plan += [(m, b, "onnxruntime") for b in (1, 32) for m in models]
        # (default last: the targets name reduce-overhead)
        compiled = ("torch.compile reduce-overhead", "torch.compile reduce-overhead f16")
        plan += [(m, b, mode) for b in (1, 32) for mode in compiled for m in models]
        plan += [(m, b, "torch.compile default") for b in (1, 32) for m in models]
    if args.systems:  # a run's remainder: the peers another run did not reach
        plan = [p for p in plan if p[2] in args.systems.split(",")]
    if args.batches:
        plan = [p for p in plan if str(p[1]) in args.batches.split(",")]
    gpu = torch.cuda.get_device_name(0)
    no_onnxruntime = onnxruntime_missing() if not args.eager_only else None
    for name, batch, system in plan:
        torch._dynamo.reset()
        try:
            if system == "onnxruntime" and no_onnxruntime:  # known before building
                raise RuntimeError(no_onnxruntime)
            model, inputs = build(name, batch, half=system.endswith(" f16"))
        except Exception as e:  # a missing package or no memory: the next ones still run
            r = {"model": name, "batch": batch, "system": system, "gpu": gpu,
                 "error": f"{type(e).__name__}: {e}"[:300]}
            out.write(json.dumps(r) + "\n")
            out.flush()
            print(json.dumps(r), flush=True)
            continue
        r = {}
        fn = call = model
        try:
            if system == "onnxruntime":  # exported outside inference mode
                call = onnxruntime_call(model, inputs, name, batch)
        except Exception as e:  # a peer failing is a result too
            r = {"error": f"{type(e).__name__}: {e}"[:300]}
        with torch.inference_mode():
            if system.startswith("torch"):
                if not system.startswith("torch eager"):
                    mode = "reduce-overhead" if "reduce" in system else "default"
                    fn = torch.compile(model, mode=mode)
                call = lambda: fn(*inputs)
            warmup, runs = (10, 100) if batch == 1 else (3, 20)
            if not system.startswith("torch eager"):
                warmup += 3  # compilation, CUDA graph capture, ONNX Runtime's first runs
            try:
                if not r:
                    r = measure(call, warmup, runs)
            except Exception as e:  # a peer failing is a result too
                r = {"error": f"{type(e).__name__}: {e}"[:300]}
            r.update(model=name, batch=batch, system=system, gpu=gpu,
                     torch=torch.__version__)
            if system == "onnxruntime" and "onnxruntime" in sys.modules:
                r["onnxruntime"] = sys.modules["onnxruntime"].__version__
            if "p50_ms" in r:
                r["throughput_per_s"] = 1e3 * batch / r["mean_ms"]
        out.write(json.dumps(r) + "\n")
        out.flush()
        print(json.dumps(r), flush=True)
        del model, inputs, fn, call
        torch.cuda.empty_cache()


# Libraries compiled as others with one thing changed, by suffix (before a
# CUDA graph's _graph): the A/B's other side, timed in the same run.
AB_SIDES = {"_t64": "tiles up to 64 x 64", "_k32": "32-element steps",
            "_k16": "16-element steps", "_s512": "split towards 512 blocks",
            "_c3": "inputs copied in 3 stages (cp.async)",
            "_cublas": "the matrix products by cuBLAS (`;external=cublas`)",
            "_ldm": "fragments loaded with ldmatrix",
            "_c3l": "copied in 3 stages (along the rows or columns too), ldmatrix",
            "_vec": "staged through registers 16 bytes a load",
            "_nhwc": "convolutions in NHWC",
            "_nhwcc3": "convolutions in NHWC, copied in 3 stages",
            "_nhwcv": "convolutions in NHWC, staged 16 bytes a load",
            "_fused": "reductions' kernels fused with their fills and epilogues",
            "_rows": "layer norms and softmaxes a kernel each, a warp per row",
            "_epi": "products' kernels computing the transposes after them",
            "_lbs": "split products' slices added by their last blocks",
            "_all": "all of _fused, _rows, _epi, _lbs (and _c3 in f16)",
            "_attn": "attention as one block kernel (MergeComposite required)",
            "_before": "the compiler before"}


def ab_side(name, suffix=None):
    """The library `name` is the other side of (the same name without the
    A/B's suffix), if it is one of an A/B (of `suffix`, if given)."""
    graph = name.endswith("_graph")
    core = name.removesuffix("_graph")
    for s in [suffix] if suffix else AB_SIDES:
        if core.endswith(s):
            return core.removesuffix(s) + ("_graph" if graph else "")
    return None


def table(bench_path, peers_path):
    rows, p50 = {}, {}
    for line in open(bench_path):
        j = json.loads(line)
        name = j["model"]
        p50[name] = j["latency_ms"]["p50"]
        if ab_side(name):  # the other side of an A/B: tables of their own
            continue
        graph = name.endswith("_graph")
        name = name.removesuffix("_graph")
        variant = next((v for v in ("tf32", "f16", "auto") if name.endswith("_" + v)), None)
        model, _, batch = name.removesuffix(f"_{variant}").rpartition("_b")
        system = "dlc" + (f" {variant}" if variant else "") + (" (CUDA graph)" if graph else "")
        rows.setdefault((model, int(batch)), {})[system] = j["latency_ms"]["p50"]
    try:
        for line in open(peers_path):
            j = json.loads(line)
            if "p50_ms" in j:
                rows.setdefault((j["model"], j["batch"]), {})[j["system"]] = j["p50_ms"]
    except FileNotFoundError:
        pass
    systems = ["dlc", "dlc (CUDA graph)", "dlc auto", "dlc auto (CUDA graph)", "dlc tf32",
               "dlc tf32 (CUDA graph)", "dlc f16", "dlc f16 (CUDA graph)", "torch eager",
               "torch eager f16", "onnxruntime", "torch.compile default",
               "torch.compile reduce-overhead", "torch.compile reduce-overhead f16"]
    systems = [s for s in systems if any(s in r for r in rows.values())]
    # auto over dlc: issue 14's auto pipeline against O3 (dlc's default)
    ratios = [("dlc auto", "dlc"), ("dlc", "torch eager"), ("dlc tf32", "torch eager"),
              ("dlc", "onnxruntime"), ("dlc tf32 (CUDA graph)", "torch.compile reduce-overhead"),
              ("dlc f16", "torch eager f16"),
              ("dlc f16 (CUDA graph)", "torch.compile reduce-overhead f16")]
    ratios = [(a, b) for a, b in ratios if a in systems and b in systems]
    print("| model | batch | " + " | ".join(f"{s} p50 ms" for s in systems) + "".join(
        f" | {a} / {b}" for a, b in ratios) + " |")
    print("|---|---|" + "---|" * (len(systems) + len(ratios)))
    for (model, batch), r in sorted(rows.items()):
        cells = [f"{r[s]:.3f}" if s in r else "-" for s in systems]
        cells += [f"{r[a] / r[b]:.2f}" if a in r and b in r else "-" for a, b in ratios]
        print(f"| {model} | {batch} | " + " | ".join(cells) + " |")
    for suffix, other in AB_SIDES.items():
        pairs = sorted((ab_side(n, suffix), n) for n in p50 if ab_side(n, suffix))
        if not pairs:
            continue
        print(f"\n| library | p50 ms | p50 ms, {other} | ratio |")
        print("|---|---|---|---|")
        for base, name in pairs:
            a, b = p50.get(base), p50[name]
            cells = [f"{a:.3f}" if a else "-", f"{b:.3f}", f"{a / b:.2f}" if a else "-"]
            print(f"| {base} | " + " | ".join(cells) + " |")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out")
    p.add_argument("--models", default="resnet50,mobilenet_v2,bert_base,ssd_resnet50")
    p.add_argument("--eager-only", action="store_true", help="PyTorch eager alone (no compiling)")
    p.add_argument("--systems", help="only these peers (comma-separated, as the results name them)")
    p.add_argument("--batches", help="only these batches (comma-separated)")
    p.add_argument("--table", nargs=2, metavar=("BENCH", "PEERS"))
    args = p.parse_args()
    if args.table:
        table(*args.table)
    elif args.out:
        run_peers(args)
    else:
        p.error("give --out or --table")


if __name__ == "__main__":
    main()
