#!/usr/bin/env bash
# The README's two commands. Each installs what is missing, builds dlc with
# Ninja into build/, and then:
#   utils/dlc.sh demo [MODEL]        builds the zoo's resnet50 (or MODEL: a zoo
#                                    name, an .onnx, .mlir or .mlirbc file),
#                                    compiles it for the CPU, runs it, and prints
#                                    its op statistics, outputs, compile time and
#                                    latency
#   utils/dlc.sh test                runs every test (lit + GoogleTest)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

what=${1:-}
case "$what" in
  demo|test) ;;
  *) echo "usage: utils/dlc.sh demo [MODEL] | utils/dlc.sh test" >&2; exit 2 ;;
esac

utils/setup.sh
if [ ! -f build/build.ninja ]; then
  cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
# Two cores: the default parallelism is right; keep the log short.
cmake --build build

if [ "$what" = demo ]; then
  model=${2:-resnet50}
  mkdir -p build/models
  case "$model" in
    *.mlir|*.mlirbc) file=$model ;;
    *.onnx)
      file=build/models/$(basename "$model" .onnx).mlirbc
      echo "== dlc-import $model -o $file"
      build/bin/dlc-import "$model" -o "$file" ;;
    *)
      file=build/models/$model.mlirbc
      echo "== dlc-zoo $model -o $file"
      build/bin/dlc-zoo "$model" -o "$file" ;;
  esac
  echo "== dlc-run $file --target=cpu --threads=2 --input=random:seed=1 --op-stats --bench --warmup=2 --runs=10"
  exec build/bin/dlc-run "$file" --target=cpu --threads=2 --input=random:seed=1 --op-stats \
    --bench --warmup=2 --runs=10
fi

log=$(mktemp)
status=0
cmake --build build --target check-dlc 2>&1 | tee "$log" || status=$?
passed=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log" | tail -1)
failed=$(awk -F: '/^ *(Failed|Unresolved|Timed Out) *:/ {n += $2} END {print n + 0}' "$log")
rm -f "$log"
echo "${passed:-0} passed, ${failed:-0} failed"
exit $status
