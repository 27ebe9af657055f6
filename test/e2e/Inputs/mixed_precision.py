"""ToMixedPrecision on the CPU: small zoo models in f16 and bf16.

For each model, type and accumulation mode, the graph after
SimplifyInference, FoldConstant, FoldScaleAxis and ToMixedPrecision
(keep-orig-output-dtype) is
1. compiled for the CPU (2 threads) and compared with the reference
   interpreter running the same mixed graph: the CPU must compute f16/bf16
   graphs as the reference does, up to where rounding happens (the reference
   rounds each op's exact result once; the CPU rounds each multiply-add when
   products accumulate in the mixed type, and rounds an elementwise chain
   once where the reference rounds after each op). The largest error,
   relative to the largest output magnitude, must stay under a few units in
   the last place of the type with f32 accumulation: 1e-2 (f16) / 4e-2
   (bf16). Accumulating in the type itself rounds every multiply-add of
   products of up to 960 terms, which compounds over a network's depth
   (MobileNetV2 in bf16: 0.16 here), so those limits are 1e-1 / 4e-1: loose,
   but a wrong conversion (a value read in the wrong type, a cast in the
   wrong place) is off by O(1). Where the two roundings part further (the
   reference's per-op roundings compound over MobileNetV2's 17 blocks in
   bf16), the CPU passes if it is no further from the f32 model than the
   reference is: rounding less, it may not lose more;
2. compared with the f32 model on the reference: the error mixed precision
   costs, printed (and top-1 agreement for the classifiers), not asserted.

Prints one line per check and 'N passed, N failed'.
"""
import os
import subprocess
import sys

import numpy as np

bin_dir, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
MODELS = {"resnet18": ["--image=32"], "mobilenet_v2": ["--image=32"], "bert_tiny": ["--seq=8"]}
LIMIT = {("f16", True): 1e-2, ("bf16", True): 4e-2, ("f16", False): 1e-1, ("bf16", False): 4e-1}
passed = failed = 0


def run(*args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{r.stderr}")
    return r


def outputs(model, target, tag, *flags):
    path = os.path.join(work, f"{tag}.npy")
    run(f"{bin_dir}/dlc-run", model, f"--target={target}", "--threads=2",
        "--input=random:seed=3", f"--output={path}", *flags)
    return np.load(path).astype(np.float64)


for name, opts in MODELS.items():
    src = os.path.join(work, f"{name}.mlirbc")
    run(f"{bin_dir}/dlc-zoo", name, *opts, "-o", src)
    exact = outputs(src, "reference", f"{name}.f32")
    for dtype in ("f16", "bf16"):
        for acc in (True, False):
            mixed = os.path.join(work, f"{name}.{dtype}.{acc}.mlirbc")
            spec = ("list:SimplifyInference,FoldConstant,FoldScaleAxis,ToMixedPrecision{"
                    f"type={dtype} accumulate-f32={'true' if acc else 'false'} "
                    "keep-orig-output-dtype=true},FoldConstant")
            run(f"{bin_dir}/dlc-opt", src, f"--dlc-pipeline={spec}", "-o", mixed)
            ref = outputs(mixed, "reference", f"{name}.{dtype}.ref")
            # The CPU's convolutions in NCHW (O3 for the CPU), and for
            # resnet18 without f32 accumulation (whose convolutions are
            # f16/bf16; with it ToMixedPrecision leaves them f32) in NHWC
            # too, where they lower in their own type (im2col in f16/bf16;
            # bf16 dot products on hosts with AVX512-BF16).
            layouts = [("", [])]
            if name == "resnet18" and not acc:
                layouts.append((" layout=cpu-nhwc", ["--pipeline=O3;layout=cpu-nhwc"]))
            all_ok = True
            for layout, flags in layouts:
                cpu = outputs(mixed, "cpu", f"{name}.{dtype}.cpu", *flags)
                scale = np.abs(ref).max()
                err = np.abs(cpu - ref).max() / scale
                vs_f32 = np.abs(ref - exact).max() / np.abs(exact).max()
                cpu_vs_f32 = np.abs(cpu - exact).max() / np.abs(exact).max()
                ok = err <= LIMIT[(dtype, acc)] or cpu_vs_f32 <= vs_f32
                passed += ok
                failed += not ok
                all_ok &= ok
                top1 = ""
                if name != "bert_tiny":
                    top1 = f", top-1 same as f32: {bool(ref.argmax() == exact.argmax())}"
                print(f"{'PASS' if ok else 'FAIL'} {name} {dtype} accumulate-f32={acc}{layout}: "
                      f"cpu vs reference {err:.2e} of max |output| (limit "
                      f"{LIMIT[(dtype, acc)]:.0e}); reference vs f32 {vs_f32:.2e}, cpu vs f32 {cpu_vs_f32:.2e}{top1}")
            if all_ok:
                os.remove(mixed)  # keep only what failed: the suite's disk stays small

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
