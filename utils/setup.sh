#!/usr/bin/env bash
# Installs every Debian 12 package that dlc's build and tests need. Idempotent:
# installs only what is missing, and does nothing when all is present.
set -euo pipefail

packages=(
  cmake ninja-build g++ ccache git python3
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libomp-22-dev
  libzstd-dev zlib1g-dev
  libgtest-dev nlohmann-json3-dev
  libonnx-dev libonnx-testdata libprotobuf-dev protobuf-compiler
  python3-numpy python3-onnx python3-torch python3-torchvision
  clang-22 libclang-rt-22-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "dlc setup: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
