#!/usr/bin/env python3
"""The peers of dlc's GPU backend on the same architectures, on a GPU machine.

    gpu_peers.py --out=peers.jsonl [--models=resnet50,mobilenet_v2,bert_base] [--eager-only]
    gpu_peers.py --table bench.jsonl peers.jsonl

Runs PyTorch eager, torch.compile (default) and torch.compile
(mode="reduce-overhead") on ResNet-50, MobileNetV2 (torchvision) and
BERT-base with a question-answering head (transformers, sequence 128), at
batch 1 and 32, f32 with PyTorch's default math (TF32 convolutions through
cuDNN, f32 matrix products), random weights: the latency is the host wall
time of one call followed by torch.cuda.synchronize(), as dlc-cuda-run
measures dlc's. SSD-ResNet50 has no peer here: torchvision's SSDs have other
backbones, and NVIDIA's model needs a download. Each result is one JSON line,
written as soon as it is measured, cheapest first (eager, then compiled at
batch 1, then compiled at batch 32), so a time limit keeps what was done.
--table prints dlc's results (utils/gpu-check.sh's bench.jsonl) beside them.
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


def build(name, batch):
    import torch
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
        types = torch.zeros(batch, 128, dtype=torch.long, device="cuda")
        mask = torch.ones(batch, 128, dtype=torch.long, device="cuda")
        return model, (ids, types, mask)
    raise SystemExit(f"unknown model {name}")


def run_peers(args):
    import torch
    out = open(args.out, "a")
    models = args.models.split(",")
    plan = [(m, 1, "torch eager") for m in models] + [(m, 32, "torch eager") for m in models]
    if not args.eager_only:
        plan += [(m, 1, mode) for mode in ("torch.compile reduce-overhead", "torch.compile default")
                 for m in models]
        plan += [(m, 32, mode) for mode in ("torch.compile reduce-overhead", "torch.compile default")
                 for m in models]
    gpu = torch.cuda.get_device_name(0)
    for name, batch, system in plan:
        torch._dynamo.reset()
        try:
            model, inputs = build(name, batch)
        except Exception as e:  # a missing package or no memory: the next ones still run
            r = {"model": name, "batch": batch, "system": system, "gpu": gpu,
                 "error": f"{type(e).__name__}: {e}"[:300]}
            out.write(json.dumps(r) + "\n")
            out.flush()
            print(json.dumps(r), flush=True)
            continue
        with torch.inference_mode():
            fn = model
            t0 = time.perf_counter()
            if system != "torch eager":
                mode = "reduce-overhead" if "reduce" in system else "default"
                fn = torch.compile(model, mode=mode)
            call = lambda: fn(*inputs)
            warmup, runs = (10, 100) if batch == 1 else (3, 20)
            if system != "torch eager":
                warmup += 3  # compilation and CUDA graph capture
            try:
                r = measure(call, warmup, runs)
            except Exception as e:  # a peer failing is a result too
                r = {"error": f"{type(e).__name__}: {e}"[:300]}
            r.update(model=name, batch=batch, system=system, gpu=gpu,
                     torch=torch.__version__)
            if "p50_ms" in r:
                r["throughput_per_s"] = 1e3 * batch / r["mean_ms"]
        out.write(json.dumps(r) + "\n")
        out.flush()
        print(json.dumps(r), flush=True)
        del model, inputs, fn, call
        torch.cuda.empty_cache()


def table(bench_path, peers_path):
    rows = {}
    for line in open(bench_path):
        j = json.loads(line)
        name, graph = j["model"], j["model"].endswith("_graph")
        model, _, batch = name.removesuffix("_graph").rpartition("_b")
        system = "dlc (CUDA graph)" if graph else "dlc"
        rows.setdefault((model, int(batch)), {})[system] = j["latency_ms"]["p50"]
    try:
        for line in open(peers_path):
            j = json.loads(line)
            if "p50_ms" in j:
                rows.setdefault((j["model"], j["batch"]), {})[j["system"]] = j["p50_ms"]
    except FileNotFoundError:
        pass
    systems = ["dlc", "dlc (CUDA graph)", "torch eager", "torch.compile default",
               "torch.compile reduce-overhead"]
    print("| model | batch | " + " | ".join(f"{s} p50 ms" for s in systems) +
          " | dlc / eager |")
    print("|---|---|" + "---|" * (len(systems) + 1))
    for (model, batch), r in sorted(rows.items()):
        cells = [f"{r[s]:.3f}" if s in r else "-" for s in systems]
        ratio = f"{r['dlc'] / r['torch eager']:.2f}" if "dlc" in r and "torch eager" in r else "-"
        print(f"| {model} | {batch} | " + " | ".join(cells) + f" | {ratio} |")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out")
    p.add_argument("--models", default="resnet50,mobilenet_v2,bert_base")
    p.add_argument("--eager-only", action="store_true", help="PyTorch eager alone (no compiling)")
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
