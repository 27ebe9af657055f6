#!/usr/bin/env bash
# Builds the libFuzzer targets (build-fuzz/, clang-22, ASan + UBSan) and runs
# each for SECONDS (default 60) on a seed corpus: the ONNX node test models,
# their .pb tensors and the repository's .npy and .mlir test inputs.
#   utils/fuzz.sh [SECONDS] [onnx|tensor|mlir ...]
# A crash, hang or sanitizer report stops the target with an input under
# build-fuzz/artifacts/; keep it as a regression test (test/Frontend/ONNX/
# Inputs/fuzz/ for the importer, with a line in fuzz-regressions.test).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(onnx tensor mlir)

utils/setup.sh
if [ ! -f build-fuzz/build.ninja ]; then
  CC=clang-22 CXX=clang++-22 cmake -G Ninja -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Release \
    -DDLC_FUZZ=ON >/dev/null
fi
cmake --build build-fuzz --target "${targets[@]/#/dlc-fuzz-}"

nodes=/usr/share/libonnx-testdata/data/node
mkdir -p build-fuzz/artifacts
for t in "${targets[@]}"; do
  corpus=build-fuzz/corpus-$t
  if [ ! -d "$corpus" ]; then
    mkdir -p "$corpus"
    case $t in
      onnx) for d in "$nodes"/*/; do cp "$d/model.onnx" "$corpus/$(basename "$d").onnx"; done ;;
      tensor)
        for d in "$nodes"/test_[a-c]*/; do
          cp "$d/test_data_set_0/input_0.pb" "$corpus/$(basename "$d").pb" 2>/dev/null || true
        done
        find test -name '*.npy' -exec cp {} "$corpus/" \; ;;
      mlir) find test/Interpreter test/Transforms test/Dialect -name '*.mlir' -size -16k \
              -exec cp {} "$corpus/" \; ;;
    esac
  fi
  echo "== dlc-fuzz-$t for ${seconds}s"
  build-fuzz/bin/dlc-fuzz-"$t" "$corpus" -max_total_time="$seconds" -timeout=20 \
    -rss_limit_mb=4096 -artifact_prefix=build-fuzz/artifacts/"$t"- -print_final_stats=1 \
    2>&1 | tail -15
done
