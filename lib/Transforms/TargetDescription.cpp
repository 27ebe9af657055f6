//===- TargetDescription.cpp - what a target's kernels want ---------------===//
#include "dlc/Transforms/TargetDescription.h"
#include "PassUtils.h"
#include "dlc/Support/HostCPU.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace dlc;

/// The CPU backend's kernels: measured NCHW against NHWC per op class with
/// bench/layouts.py (README, "Layouts"): NCHW, O3's layout, and the one of
/// the Winograd convolutions auto takes on SSDs.
static constexpr llvm::StringLiteral kCPU = R"(
target = cpu
layout.conv2d = NCHW OIHW
layout.conv2d.depthwise = NCHW OIHW
layout.conv2d.grouped = NCHW OIHW
)";

/// On CPUs with AVX512-BF16, the CPU backend computes NHWC im2col products
/// of bf16 as dot products, and NCHW ones widened to f32: a ResNet-50 whose
/// convolutions are bf16 took 0.45x the time NHWC (README, "Mixed
/// precision"). `O3;mixed=bf16` chooses cpu-nhwc itself; this is for
/// models that are bf16 already.
static constexpr llvm::StringLiteral kCPUBF16Dots = R"(
layout.conv2d.bf16 = NHWC HWIO
)";

/// The CPU backend with every convolution but grouped ones channels-last:
/// NHWC convolutions are products of im2col rows and the HWIO weight as a
/// matrix, which dlc-cpu-pack-weights packs, and depthwise ones vectorize
/// along the channels. Measured faster than NCHW on MobileNetV2, whose
/// small planes (14 x 14, 7 x 7) leave NCHW rows short of a vector, and on
/// ResNets with NHWC Winograd convolutions (README, "Layouts"); the auto
/// pipeline takes it for both.
static constexpr llvm::StringLiteral kCPUNHWC = R"(
target = cpu-nhwc
backend = cpu
layout.conv2d = NHWC HWIO
layout.conv2d.depthwise = NHWC HWIO
layout.conv2d.grouped = NCHW OIHW
)";

/// dlc's GPU kernels (`--target=cuda`): NCHW, the layout they were timed
/// in on H100 and H200 GPUs (bench/gpu); NHWC ones compile too
/// (`layout=cpu-nhwc`), not yet timed. Fixed, unlike `cpu`, whatever CPU
/// compiles them.
static constexpr llvm::StringLiteral kCuda = R"(
target = cuda
layout.conv2d = NCHW OIHW
layout.conv2d.depthwise = NCHW OIHW
layout.conv2d.grouped = NCHW OIHW
)";

/// NVIDIA's cuBLAS, for `--target=cuda`: the matrix products of its
/// partitions become calls of the library (dlc-gpu-external-products), the
/// rest of the model dlc's own kernels. For comparison with dlc's products.
static constexpr llvm::StringLiteral kCublas = R"(
target = cublas
backend = cublas
ops = dense matmul batch_matmul
)";

llvm::StringRef dlc::defaultKernelLayout(llvm::StringRef dataLayout) {
  if (dataLayout == "NCHW")
    return "OIHW";
  if (dataLayout == "NHWC")
    return "HWIO";
  return "";
}

std::optional<OpLayout> TargetDescription::layoutFor(llvm::StringRef opClass) const {
  auto it = layouts.find(opClass);
  if (it == layouts.end())
    it = layouts.find(opClass.split('.').first);
  if (it == layouts.end())
    return std::nullopt;
  return it->second;
}

llvm::Expected<OpLayout> TargetDescription::parseLayoutEntry(llvm::StringRef opClass,
                                                             llvm::StringRef layouts) {
  if (!llvm::is_contained({"conv2d", "conv2d.bf16", "conv2d.depthwise", "conv2d.grouped"},
                          opClass))
    return llvm::createStringError(
        "unknown op class '" + opClass +
        "' (expected conv2d, conv2d.bf16, conv2d.depthwise or conv2d.grouped)");
  llvm::SmallVector<llvm::StringRef> parts;
  layouts.split(parts, ' ', -1, /*KeepEmpty=*/false);
  if (parts.empty() || parts.size() > 2)
    return llvm::createStringError("expected 'DATA [KERNEL]' layouts, got '" + layouts + "'");
  OpLayout layout{parts[0].str(),
                  parts.size() == 2 ? parts[1].str() : defaultKernelLayout(parts[0]).str()};
  if (defaultKernelLayout(layout.data).empty())
    return llvm::createStringError("data layout '" + layout.data + "' is not NCHW or NHWC");
  if (layout.kernel != "OIHW" && layout.kernel != "HWIO")
    return llvm::createStringError("kernel layout '" + layout.kernel + "' is not OIHW or HWIO");
  return layout;
}

llvm::Expected<TargetDescription> TargetDescription::parse(llvm::StringRef text,
                                                           llvm::StringRef source) {
  TargetDescription target;
  llvm::Error error = forEachSettingLine(
      text, source, "key = value",
      [&](llvm::StringRef key, llvm::StringRef value, llvm::StringRef) -> llvm::Error {
        if (key == "target") {
          target.name = value.str();
          return llvm::Error::success();
        }
        if (key == "backend") {
          target.backend = value.str();
          return llvm::Error::success();
        }
        if (key == "ops" || key == "composites") {
          llvm::SmallVector<llvm::StringRef> names;
          value.split(names, ' ', -1, /*KeepEmpty=*/false);
          if (names.empty())
            return llvm::createStringError("'" + key + "' lists nothing");
          for (llvm::StringRef n : names)
            (key == "ops" ? target.ops : target.composites).insert(n);
          return llvm::Error::success();
        }
        if (key.consume_front("layout.")) {
          llvm::Expected<OpLayout> layout = parseLayoutEntry(key, value);
          if (!layout)
            return layout.takeError();
          target.layouts[key] = *layout;
          return llvm::Error::success();
        }
        return llvm::createStringError(
            "unknown key '" + key +
            "' (expected target, backend, ops, composites or layout.<op class>)");
      });
  if (error)
    return std::move(error);
  if (target.name.empty())
    return llvm::createStringError(source + ": no 'target = NAME' line");
  if (target.backend.empty())
    target.backend = target.name;
  return target;
}

llvm::Expected<TargetDescription> TargetDescription::load(llvm::StringRef nameOrPath) {
  if (nameOrPath == "cpu")
    return parse(hostHasBF16Dots() ? (kCPU + kCPUBF16Dots).str() : kCPU.str(), "<builtin cpu>");
  if (nameOrPath == "cpu-nhwc")
    return parse(kCPUNHWC, "<builtin cpu-nhwc>");
  if (nameOrPath == "cuda")
    return parse(kCuda, "<builtin cuda>");
  if (nameOrPath == "cublas")
    return parse(kCublas, "<builtin cublas>");
  auto file = llvm::MemoryBuffer::getFile(nameOrPath);
  if (!file)
    return llvm::createStringError(
        "cannot read target description '" + nameOrPath +
        "' (builtin targets: cpu, cpu-nhwc, cuda, cublas): " + file.getError().message());
  return parse((*file)->getBuffer(), nameOrPath);
}
