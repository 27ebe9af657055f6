#!/usr/bin/env bash
# Builds the libFuzzer targets (build-fuzz/, clang-22, ASan + UBSan) and runs
# each for SECONDS (default 60) on a seed corpus: the ONNX node test models,
# their .pb tensors and the repository's .npy and .mlir test inputs.
#   utils/fuzz.sh [SECONDS] [onnx|tensor|mlir ...]
# FUZZ_SEED=N fixes libFuzzer's seed (CI's short runs, so that they repeat).
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

# LLVM's allocators poison memory from inline code compiled into dlc (which
# is instrumented) that the installed LLVM/MLIR libraries (which are not)
# then write: user poisoning off avoids those false reports.
export ASAN_OPTIONS="allow_user_poisoning=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
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
  # The whole log in build-fuzz/fuzz-$t.log; the report's start and the
  # statistics here.
  status=0
  build-fuzz/bin/dlc-fuzz-"$t" "$corpus" -max_total_time="$seconds" -timeout=20 ${FUZZ_SEED:+-seed=$FUZZ_SEED} \
    -rss_limit_mb=4096 -artifact_prefix=build-fuzz/artifacts/"$t"- -print_final_stats=1 \
    > build-fuzz/fuzz-"$t".log 2>&1 || status=$?
  grep -m1 -A12 -E '^==[0-9]+==ERROR|runtime error|deadly signal|ALARM|out-of-memory' \
    build-fuzz/fuzz-"$t".log || true
  tail -6 build-fuzz/fuzz-"$t".log
  [ $status -eq 0 ] || exit $status
done
