#!/usr/bin/env bash
# utils/gpu-check.sh PAYLOAD_DIR RESULTS_DIR [--no-peers | --eager-peers]
#
# On a machine with an NVIDIA GPU and no compiler (no LLVM, no MLIR): runs
# what utils/gpu-prepare.sh compiled and writes the results to RESULTS_DIR:
#   node.txt      every ONNX node test on the GPU against ONNX's expected
#                 outputs (rtol 1e-3, atol 1e-5), PASS/FAIL per test
#   models.txt    MobileNetV2, BERT-tiny, BERT-base, ResNet-18 (batch 4,
#                 O0), SSD-ResNet50 (O0; its detections compared as sets),
#                 BERT-tiny at batch 32 and large_product (128 x 128
#                 tiles; also in f16 and bf16) against the CPU backend's
#                 outputs (rtol 1e-3, atol 1e-4; compiled with --gpu-tf32:
#                 rtol 2e-2, atol 2e-2); MobileNetV2 in f16 and BERT-tiny in
#                 bf16 against the CPU's for the same pipeline (rtol 5e-2,
#                 atol 0.1: each op rounds to f16 or bf16, and a rounding
#                 that flips with the order of a product's sums compounds
#                 over the layers: MobileNetV2 in f16 on the CPU differs
#                 from the reference interpreter's f16 by 0.028 on logits
#                 up to 4.6)
#   bench.jsonl   dlc's latency, throughput, power and memory per model and
#                 batch (dlc-cuda-run --bench --json), in f32 and with
#                 --gpu-tf32 (model name _tf32) and in f16 (_f16), at
#                 batch 1 also with --pipeline=auto (_auto) and replaying
#                 a CUDA graph (--cuda-graph; model name _graph), also
#                 with the flags of gpu-prepare.sh's AB (_s512 in f32:
#                 --gpu-split-blocks=512; _c3 in TF32 and f16:
#                 --gpu-copy-stages=3; _lbs in TF32 and f16:
#                 --gpu-last-block-sums; _k32 in f32 and TF32 and _k16 in
#                 f16: the other --gpu-tile-depth; _cublas: the products
#                 by cuBLAS, `;external=cublas`; _ldm in TF32 and f16:
#                 --gpu-ldmatrix; _c3l in f16: --gpu-ldmatrix
#                 --gpu-copy-stages=3; _vec in TF32 and f16:
#                 --gpu-vector-loads), and the
#                 libraries an earlier compiler made (_before, when the
#                 payload has them: gpu-prepare.sh's BEFORE)
#   profiles.txt  the 15 kernels taking most GPU time per model and batch
#                 (dlc-cuda-run --profile, in runs of their own), of the
#                 libraries A/Bs are timed against and of the _c3,
#                 _c3l, _cublas, _ldm and _vec ones (which products the
#                 copies, ldmatrix or vector loads make faster or slower;
#                 cuBLAS's calls, rows
#                 cublas_gemm_*)
#   peers.jsonl   PyTorch eager, ONNX Runtime, torch.compile (default,
#                 reduce-overhead) on the same architectures
#                 (bench/gpu_peers.py; PyTorch eager alone with
#                 --eager-peers, none with --no-peers)
#   summary.txt   the counts and the latency table
# NODE_FILTER=REGEX runs only the node tests whose names match (a short
# device lease). Exit status 1 if a test fails.
set -uo pipefail
payload=$(cd "$1" && pwd)
results=$2
mkdir -p "$results"
results=$(cd "$results" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
run=$payload/bin/dlc-cuda-run
status=0
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv \
  > "$results/gpu.txt" 2>&1 || echo "nvidia-smi failed" >> "$results/gpu.txt"
cat "$results/gpu.txt"

echo "== ONNX node tests ($SECONDS s)"
work=$(mktemp -d)
if ! tar -C "$work" -xJf "$payload/node.tar.xz"; then
  echo "gpu-check: cannot unpack $payload/node.tar.xz" >&2
  exit 1
fi
one_test() { # DIR: PASS/FAIL line
  local d=$1 name ins=() exps=()
  name=$(basename "$d")
  # in numeric order: input_2 before input_10
  for f in $(ls -v "$d"/input_*.npy 2> /dev/null); do ins+=(--input="$f"); done
  for f in $(ls -v "$d"/expected_*.npy 2> /dev/null); do exps+=(--expect="$f"); done
  if out=$(timeout 120 "$run" "$d/model.so" "${ins[@]}" "${exps[@]}" --rtol=1e-3 --atol=1e-5 2>&1); then
    echo "PASS $name"
  else
    echo "FAIL $name: $(echo "$out" | grep -v '^output .*outside atol' | head -3 | tr '\n' ' ')"
  fi
}
export -f one_test
export run
# a process per test, most of its time starting up: as many as the cores (at
# most 16: each holds a CUDA context on the one GPU)
jobs=$(nproc 2> /dev/null || echo 8)
((jobs > 16)) && jobs=16
ls -d "$work"/node/test_* | grep -E "${NODE_FILTER:-.}" | sort |
  xargs -P "$jobs" -I{} bash -c 'one_test "$1"' _ {} > "$results/node.txt"
sort -o "$results/node.txt" "$results/node.txt"
node_pass=$(grep -c '^PASS' "$results/node.txt")
node_fail=$(grep -c '^FAIL' "$results/node.txt")
echo "node tests: $node_pass passed, $node_fail failed"
[ "$node_fail" = 0 ] && [ "$node_pass" -gt 0 ] || status=1
grep '^FAIL' "$results/node.txt" | head -20

echo "== zoo models against the CPU backend ($SECONDS s)"
: > "$results/models.txt"
if ! tar -C "$work" -xJf "$payload/models.tar.xz"; then
  echo "gpu-check: cannot unpack $payload/models.tar.xz" >&2
  exit 1
fi
models=$work/models
for so in "$models"/*.so; do
  m=$(basename "$so" .so)
  base=${m%%.*} # M.tf32, M.f16, M.bf16 (and those .k16, .s512, .c3, .c3l, .lbs, .ldm, .vec): M's inputs
  # the library without its A/B's suffix (gpu-prepare.sh's AB): a last
  # part after the model's that names no variant
  plain=$m
  case ${m##*.} in "$m" | tf32 | f16 | bf16) ;; *) plain=${m%.*} ;; esac
  case ${plain#"$base"} in
    "" | .auto) tolerance=(--rtol=1e-3 --atol=1e-4) ;;
    .tf32) tolerance=(--rtol=2e-2 --atol=2e-2) ;;
    *) tolerance=(--rtol=5e-2 --atol=0.1) ;; # f16, bf16
  esac
  # expected outputs (and weights) of the variant's own where it has them
  # (M.f16.k16: M.f16's); weights only for a library that keeps some outside
  own=$base
  for variant in "$m" "$plain"; do
    if [ -e "$models/$variant.expected0.npy" ]; then own=$variant; break; fi
  done
  args=()
  weights=$models/$own.weights
  # an A/B library's own weights, where its graph writes them otherwise
  [ -e "$models/$m.weights" ] && weights=$models/$m.weights
  [ -s "$weights" ] && args+=(--weights="$weights")
  for f in $(ls -v "$models/$base".in*.npy); do args+=(--input="$f"); done
  for f in $(ls -v "$models/$own".expected*.npy); do args+=(--expect="$f"); done
  echo "-- $m" >> "$results/models.txt"
  if timeout 300 "$run" "$so" "${args[@]}" "${tolerance[@]}" >> "$results/models.txt" 2>&1; then
    echo "PASS $m" | tee -a "$results/models.txt"
  else
    echo "FAIL $m" | tee -a "$results/models.txt"
    status=1
  fi
done

echo "== dlc benchmark ($SECONDS s)"
: > "$results/bench.jsonl"
if ! tar -C "$work" -xJf "$payload/bench.tar.xz"; then
  echo "gpu-check: cannot unpack $payload/bench.tar.xz" >&2
  exit 1
fi
for so in "$work"/bench/*.so; do
  base=$(basename "$so" .so)
  # batch 1, of any variant or A/B side
  if [[ $base =~ _b1(_|$) ]]; then w=10 r=100 graph=(--cuda-graph); else w=3 r=20 graph=(); fi
  # (--max-seconds bounds the warm-up and the timed runs of slow models;
  # batch 1 is timed a second time replaying a CUDA graph)
  for mode in plain graph; do
    [ $mode = graph ] && [ ${#graph[@]} = 0 ] && continue
    name=$base
    extra=()
    if [ $mode = graph ]; then name=${base}_graph; extra=("${graph[@]}"); fi
    if timeout 120 "$run" "$so" --random-weights=1 --bench --warmup=$w --runs=$r --max-seconds=5 \
        "${extra[@]}" --json="$work/$name.json" > "$work/$name.txt" 2>&1; then
      python3 -c "import json,sys; j=json.load(open(sys.argv[1])); j.pop('samples_ms'); j['model']=sys.argv[2]; print(json.dumps(j))" \
        "$work/$name.json" "$name" >> "$results/bench.jsonl"
      grep latency "$work/$name.txt" | sed "s/^/$name: /"
    else
      echo "$name: FAILED: $(tail -2 "$work/$name.txt")" | tee -a "$results/bench-errors.txt"
      status=1
    fi
  done
done

echo "== kernel profiles ($SECONDS s)"
: > "$results/profiles.txt"
for so in "$work"/bench/*.so; do
  name=$(basename "$so" .so)
  # (an A/B's other side, but for the copies into shared memory)
  [[ $name =~ _(t64|k[0-9]+|s512|lbs|before)$ ]] && continue
  if timeout 120 "$run" "$so" --random-weights=1 --bench --warmup=2 --runs=5 --max-seconds=3 \
      --profile="$work/$name.tsv" > /dev/null 2>&1; then
    { echo "-- $name"; head -16 "$work/$name.tsv"; } >> "$results/profiles.txt"
  else
    echo "-- $name: profile failed" >> "$results/profiles.txt"
  fi
done

if [ "${3:-}" != "--no-peers" ]; then
  echo "== peers ($SECONDS s)"
  peer_args=(--out="$results/peers.jsonl")
  [ "${3:-}" = "--eager-peers" ] && peer_args+=(--eager-only)
  : > "$results/peers.jsonl"
  timeout "${PEERS_SECONDS:-420}" python3 "$repo/bench/gpu_peers.py" "${peer_args[@]}" \
    || echo "peers: stopped ($?)"
fi

{
  echo "node tests: $node_pass passed, $node_fail failed"
  grep -E '^(PASS|FAIL)' "$results/models.txt"
  [ -s "$payload/bench-unchanged.txt" ] &&
    echo "A/B sides not timed (identical to the other side): $(tr '\n' ' ' < "$payload/bench-unchanged.txt")"
  python3 "$repo/bench/gpu_peers.py" --table "$results/bench.jsonl" "$results/peers.jsonl" 2>&1
} > "$results/summary.txt"
cat "$results/summary.txt"
rm -rf "$work"
exit $status
