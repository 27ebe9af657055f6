#!/usr/bin/env bash
# utils/gpu-prepare.sh BUILD_DIR PAYLOAD_DIR [GPU_ARCH]
#
# Compiles, on a machine with dlc's compiler and the CUDA toolkit, what
# utils/gpu-check.sh runs on a GPU machine (which has no LLVM or MLIR):
#   bin/dlc-cuda-run                the runner (no LLVM, no MLIR)
#   node.tar.xz                     every ONNX node test dlc passes on the
#                                   reference, as a GPU library with its
#                                   inputs and ONNX's expected outputs
#   models.tar.xz                   models/M.so, M.weights, M.in*.npy,
#                                   M.expected*.npy:
#                                   MobileNetV2, BERT-tiny and BERT-base with
#                                   their weights (BERT's as zoo recipes: 0.4
#                                   MB for BERT-base), ResNet-18 at batch 4
#                                   and SSD-ResNet50 compiled at O0 (weights
#                                   as recipes) and BERT-tiny at batch 32,
#                                   and large_product (test/GPU/Inputs: 128
#                                   x 128 tiles), and the CPU backend's
#                                   outputs on seeded inputs; M.tf32.so the
#                                   same compiled with --gpu-tf32; M.f16.so
#                                   / M.bf16.so (with M.f16.weights,
#                                   M.f16.expected*.npy) MobileNetV2 in f16,
#                                   BERT-tiny in bf16 and large_product in
#                                   both (`--pipeline='O3;mixed=T'`, against
#                                   the CPU compiling the same)
#   bench.tar.xz                    bench/M_bB.so, M_bB_tf32.so and
#                                   M_bB_f16.so: the four study models at
#                                   batch 1 and 32, in f32, with --gpu-tf32
#                                   and in f16 (`O3;mixed=f16`), and
#                                   M_b1_auto.so with --pipeline=auto,
#                                   and the A/B of a flag (AB below):
#                                   M_bB[_VARIANT]_X.so (lastblock and
#                                   attention at batch 1 only; and
#                                   models/M[.VARIANT].X.so: large_product,
#                                   BERT-base, BERT-tiny and MobileNetV2
#                                   checked so, where AB has the variant;
#                                   attention's BERT-tiny under auto);
#                                   weights left out (the runner fills them
#                                   pseudo-randomly: timing only, see README)
#   bench-unchanged.txt             the A/B sides left out: identical to
#                                   the library they would be timed or
#                                   checked against (models/ too)
# GPU_ARCH defaults to sm_90 (H100, H200). The payload (35 MB with
# AB=copy,ldmatrix, 2026-12-01) travels with the checkout to a lent GPU
# machine, 64 MiB in all.
# AB, a comma-separated list (default copy,ldmatrix): split: X = s512, in f32 with
# --gpu-split-blocks=512 (the products on the threads' own FMAs; those on
# tensor cores split towards 512 blocks by default since
# bench/gpu/h200-split-blocks); copy: X = c3, in TF32, f16 and bf16 with
# --gpu-copy-stages=3 (inputs copied into shared memory with cp.async);
# lastblock: X = lbs, in TF32 and in f16 and bf16 with
# --gpu-last-block-sums (a split product's slices added by the last block
# of its kernel, not by a second kernel); depth: X = k32 in f32 and TF32
# and k16 in f16 and bf16, with that --gpu-tile-depth (the other step depth
# than the default); cublas: X = cublas, in f32, TF32, f16 and bf16 with
# `;external=cublas` (the products partitioned for cuBLAS: dlc's kernels
# against NVIDIA's library); ldmatrix: X = ldm, in TF32, f16 and bf16 with
# --gpu-ldmatrix (tensor-core fragments loaded with ldmatrix), and X = c3l
# in f16 and bf16 with it and --gpu-copy-stages=3 (then the inputs
# contiguous along the rows or columns are copied too); vector: X = vec, in
# TF32, f16 and bf16 with --gpu-vector-loads (the inputs the copies would
# take staged through registers 16 bytes a load instead); nhwc: X = nhwc
# in TF32 and f16 with `;layout=cpu-nhwc` (O3's AlterOpLayout giving the
# convolutions NHWC and HWIO), and in f16 X = nhwcc3 with it and
# --gpu-copy-stages=3, X = nhwcv with it and --gpu-vector-loads (their
# im2col matrices copied or loaded in chunks of a pixel's channels, the
# padding's chunks zeros); attention: X = attn, at batch 1 with
# `--pipeline=auto;require=MergeComposite` against M_b1_auto (BERT-base's
# attention as one block kernel a layer, dlc-tile-attention; the other
# models unchanged, so not timed); none: no such
# libraries. (The fused reductions, row
# kernels and merged epilogues, A/Bs until bench/gpu/h200-flags, are the
# default since.)
# BEFORE=DLC_RUN: the f32 and f16 benchmark libraries also compiled by that
# dlc-run, an earlier build of dlc (in a build tree's bin/, whose lib/ has
# the CUDA runtime), as M_bB_before.so and M_bB_f16_before.so: the A/B of a
# compiler change, timed in the same run (gpu_peers.py --table).
set -euo pipefail
build=$(cd "$1" && pwd)/bin
repo=$(cd "$(dirname "$0")/.." && pwd)
out=$2
arch=${3:-sm_90}
# the A/Bs of a flag: "VARIANT SUFFIX FLAGS" each (variants f32, tf32, auto,
# f16; bf16 takes f16's)
abs_=()
IFS=, read -r -a names <<< "${AB:-copy,ldmatrix}"
for a in "${names[@]}"; do
  case $a in
    split) abs_+=("f32 s512 --gpu-split-blocks=512") ;;
    copy) abs_+=("tf32 c3 --gpu-copy-stages=3" "f16 c3 --gpu-copy-stages=3") ;;
    lastblock) abs_+=("tf32 lbs --gpu-last-block-sums" "f16 lbs --gpu-last-block-sums") ;;
    depth) abs_+=("f32 k32 --gpu-tile-depth=32" "tf32 k32 --gpu-tile-depth=32"
                  "f16 k16 --gpu-tile-depth=16") ;;
    cublas) abs_+=("f32 cublas ;external=cublas" "tf32 cublas ;external=cublas"
                   "f16 cublas ;external=cublas") ;;
    ldmatrix) abs_+=("tf32 ldm --gpu-ldmatrix" "f16 ldm --gpu-ldmatrix"
                     "f16 c3l --gpu-copy-stages=3 --gpu-ldmatrix") ;;
    vector) abs_+=("tf32 vec --gpu-vector-loads" "f16 vec --gpu-vector-loads") ;;
    nhwc) abs_+=("tf32 nhwc ;layout=cpu-nhwc" "f16 nhwc ;layout=cpu-nhwc"
                 "f16 nhwcc3 ;layout=cpu-nhwc --gpu-copy-stages=3"
                 "f16 nhwcv ;layout=cpu-nhwc --gpu-vector-loads") ;;
    attention) abs_+=("auto attn ;require=MergeComposite") ;;
    none) ;;
    *) echo "gpu-prepare: AB=$AB: expected split, copy, lastblock, depth, cublas, ldmatrix, vector, nhwc, attention or none" >&2
       exit 2 ;;
  esac
done
# with_ab ARRAY FLAGS: the A/B's FLAGS added to the dlc-run flags in ARRAY;
# those starting with ';' are pipeline fields, added to ARRAY's --pipeline
# (O3's if it has none)
with_ab() {
  local -n with_ab_to=$1 # (names of its own: the caller's array may be any)
  local with_ab_word with_ab_i with_ab_added
  for with_ab_word in $2; do
    if [[ $with_ab_word != ";"* ]]; then
      with_ab_to+=("$with_ab_word")
      continue
    fi
    with_ab_added=
    for with_ab_i in "${!with_ab_to[@]}"; do
      if [[ ${with_ab_to[$with_ab_i]} == --pipeline=* ]]; then
        with_ab_to[$with_ab_i]+=$with_ab_word
        with_ab_added=1
        break
      fi
    done
    [ -n "$with_ab_added" ] || with_ab_to+=("--pipeline=O3$with_ab_word")
  done
}
# the A/Bs of kernels launched fewer (batch 1's concern), timed at batch 1
batch1_only="lbs attn"
node_data=${DLC_ONNX_NODE_TESTS:-/usr/share/libonnx-testdata/data/node}
rm -rf "$out"
mkdir -p "$out/bin"
out=$(cd "$out" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
models=$scratch/models # shipped as models.tar.xz
mkdir "$models"
cp "$build/dlc-cuda-run" "$out/bin/"

echo "== ONNX node tests for $arch"
"$build/dlc-onnx-conformance" "$node_data" --target=cuda --emit-dir="$scratch/node" \
  --gpu-arch="$arch" > "$out/node-prepare.txt" || [ $? = 1 ] # 1: some failed, listed
tail -1 "$out/node-prepare.txt"
tar -C "$scratch" -cJf "$out/node.tar.xz" node

echo "== zoo models with weights"
# MODEL[:BATCH[:PIPELINE]]; ResNet-18 and SSD-ResNet50 at O0 keep the
# zoo's parameters (no batch norm folded), so their weights travel as
# recipes; at batch 4 and BERT-tiny at batch 32, the large products' tiles
# are checked too; large_product (test/GPU/Inputs, no weights) takes 128 x
# 128 tiles; SSD's detections are compared as sets (dlc-cuda-run)
for spec in mobilenet_v2 bert_tiny bert_base resnet18:4:O0 ssd_resnet50:1:O0 bert_tiny:32 \
  large_product; do
  IFS=: read -r zoo batch pipeline <<< "$spec"
  batch=${batch:-1} pipeline=${pipeline:-default}
  m=$zoo
  [ "$batch" != 1 ] && m=${zoo}_b$batch
  [ "$pipeline" != default ] && m=${m}_$pipeline
  weights=(--external-weights="$models/$m.weights")
  tf32_weights=(--external-weights="$scratch/$m.tf32.weights")
  if [ "$zoo" = large_product ]; then # weights: none
    "$build/dlc-opt" "$repo/test/GPU/Inputs/$zoo.mlir" --emit-bytecode -o "$scratch/$m.mlirbc"
    weights=() tf32_weights=()
  else
    "$build/dlc-zoo" "$zoo" --batch="$batch" -o "$scratch/$m.mlirbc"
  fi
  "$build/dlc-run" "$scratch/$m.mlirbc" --target=cuda --gpu-arch="$arch" --pipeline="$pipeline" \
    --emit=shared -o "$models/$m.so" "${weights[@]}"
  # the same weights: the tf32 library uses M.weights
  "$build/dlc-run" "$scratch/$m.mlirbc" --target=cuda --gpu-arch="$arch" --pipeline="$pipeline" \
    --gpu-tf32 --emit=shared -o "$models/$m.tf32.so" "${tf32_weights[@]}"
  if [ ${#weights[@]} != 0 ] && ! cmp -s "$models/$m.weights" "$scratch/$m.tf32.weights"; then
    echo "gpu-prepare: $m's weights differ between its f32 and tf32 libraries" >&2
    exit 1
  fi
  rm -f "$models/$m.tf32.o" "$models/$m.tf32.h" "$scratch/$m.tf32.weights"
  n_in=$(grep -c '^ \*   input' "$models/$m.h" || true)
  n_out=$(grep -c '^ \*   output' "$models/$m.h" || true)
  save=() expect=()
  for ((i = 0; i < n_in; i++)); do save+=(--save-input="$models/$m.in$i.npy"); done
  for ((i = 0; i < n_out; i++)); do expect+=(--output="$models/$m.expected$i.npy"); done
  "$build/dlc-run" "$scratch/$m.mlirbc" --target=cpu --no-cache --input=random:seed=1 \
    "${save[@]}" "${expect[@]}" > /dev/null
  rm -f "$models/$m.o"
done
# Mixed precision, MODEL:TYPE: weights of their own (converted, so no zoo
# recipes), the inputs above, the CPU's outputs for the same pipeline
for spec in mobilenet_v2:f16 bert_tiny:bf16 large_product:f16 large_product:bf16; do
  IFS=: read -r m type <<< "$spec"
  weights=() # as many as the f32 library keeps outside
  [ -e "$models/$m.weights" ] && weights=(--external-weights="$models/$m.$type.weights")
  "$build/dlc-run" "$scratch/$m.mlirbc" --target=cuda --gpu-arch="$arch" \
    --pipeline="O3;mixed=$type" --emit=shared -o "$models/$m.$type.so" "${weights[@]}"
  rm -f "$models/$m.$type.o" "$models/$m.$type.h"
  inputs=() expect=()
  for f in $(ls -v "$models/$m".in*.npy); do inputs+=(--input="$f"); done
  for ((i = 0; i < $(ls "$models/$m".expected*.npy | wc -l); i++)); do
    expect+=(--output="$models/$m.$type.expected$i.npy")
  done
  "$build/dlc-run" "$scratch/$m.mlirbc" --target=cpu --no-cache --pipeline="O3;mixed=$type" \
    "${inputs[@]}" "${expect[@]}" > /dev/null
done

# The A/B's flag (AB; the benchmark's _X libraries), checked as the
# default's are: M[.VARIANT].X.so against the same outputs, with the same
# weights (in a file of its own, M[.VARIANT].X.weights, where its graph
# writes them in another order), for the variants AB has
for spec in large_product: large_product:tf32 large_product:f16 large_product:bf16 \
    bert_base: bert_tiny:tf32 bert_tiny:bf16 mobilenet_v2:f16 bert_tiny:auto; do
  IFS=: read -r m variant <<< "$spec"
  lib=$m${variant:+.$variant} flags=() kind=${variant:-f32}
  case $variant in
    tf32) flags=(--gpu-tf32) ;;
    auto) flags=(--pipeline=auto) ;; # against M's outputs (O3's, within f32's tolerance)
    f16 | bf16) flags=("--pipeline=O3;mixed=$variant") kind=f16 ;;
  esac
  own=$models/$lib.weights # the variant's own weights, else the model's
  [ -e "$own" ] || own=$models/$m.weights
  for entry in ${abs_[@]+"${abs_[@]}"}; do
    read -r ab_kind suffix ab_flags <<< "$entry"
    [ "$ab_kind" = "$kind" ] || continue
    weights=() ab_args=(${flags[@]+"${flags[@]}"})
    with_ab ab_args "$ab_flags"
    [ -e "$own" ] && weights=(--external-weights="$scratch/ab.weights")
    "$build/dlc-run" "$scratch/$m.mlirbc" --target=cuda --gpu-arch="$arch" ${ab_args[@]+"${ab_args[@]}"} \
      --emit=shared -o "$models/$lib.$suffix.so" "${weights[@]}"
    # weights written otherwise (partitions outline the weights they read,
    # in another order): the library's own file, which gpu-check prefers
    if [ ${#weights[@]} != 0 ] && ! cmp -s "$own" "$scratch/ab.weights"; then
      mv "$scratch/ab.weights" "$models/$lib.$suffix.weights"
    fi
    rm -f "$models/$lib.$suffix.o" "$models/$lib.$suffix.h" "$scratch/ab.weights"
    # identical to the library checked already: not checked again
    if cmp -s "$models/$lib.$suffix.so" "$models/$lib.so"; then
      rm -f "$models/$lib.$suffix.so" "$models/$lib.$suffix.weights"
      echo "models/$lib.$suffix" >> "$out/bench-unchanged.txt"
    fi
  done
done

echo "== benchmark models (weights left out)"
mkdir -p "$scratch/bench"
for m in resnet50 mobilenet_v2 ssd_resnet50 bert_base; do
  for b in 1 32; do
    "$build/dlc-zoo" "$m" --batch="$b" -o "$scratch/$m.mlirbc"
    variants=(f32 tf32 f16)
    [ $b = 1 ] && variants+=(auto) # issue 14's auto pipeline against O3 on the GPU
    # the A/Bs of a flag (AB) and of a change of compiler (_before)
    # (at batch 32 only the A/Bs of what batch 32 is about: those of
    # launches saved are timed at batch 1, for the GPU run's time)
    for ((i = 0; i < ${#abs_[@]}; i++)); do
      read -r _ suffix _ <<< "${abs_[$i]}"
      [ $b = 32 ] && [[ " $batch1_only " = *" $suffix "* ]] && continue
      variants+=("ab:$i")
    done
    [ -n "${BEFORE:-}" ] && variants+=(f32:before f16:before)
    for variant in "${variants[@]}"; do
      name=${m}_b$b flags=() compiler=$build/dlc-run
      suffix='' ab_flags=''
      case $variant in
        ab:*) read -r variant suffix ab_flags <<< "${abs_[${variant#ab:}]}" ;;
        *:before) variant=${variant%:before} suffix=before compiler=$BEFORE ;;
      esac
      case $variant in
        tf32) name=${name}_tf32 flags=(--gpu-tf32) ;;
        f16) name=${name}_f16 flags=("--pipeline=O3;mixed=f16") ;;
        auto) name=${name}_auto flags=(--pipeline=auto) ;;
      esac
      name=$name${suffix:+_$suffix}
      with_ab flags "$ab_flags"
      "$compiler" "$scratch/$m.mlirbc" --target=cuda --gpu-arch="$arch" "${flags[@]}" \
        --emit=shared -o "$scratch/bench/$name.so" --external-weights="$scratch/$m.weights"
      rm -f "$scratch/bench/$name.o" "$scratch/bench/$name.h" "$scratch/$m.weights"
      # An A/B side identical to the library it is timed against (the flag
      # changed nothing in this model) is not timed.
      if [ -n "$suffix" ] && cmp -s "$scratch/bench/$name.so" "$scratch/bench/${name%_$suffix}.so"; then
        rm "$scratch/bench/$name.so"
        echo "$name" >> "$out/bench-unchanged.txt"
      fi
    done
  done
done
tar -C "$scratch" -cJf "$out/bench.tar.xz" bench
# compressed, as node/ and bench/ are: 58 MB of libraries, weights, inputs
# and outputs in 28 (the payload travels with the checkout, 64 MiB in all)
tar -C "$scratch" -cJf "$out/models.tar.xz" models
du -sh "$out"
