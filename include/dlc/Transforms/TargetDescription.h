//===- TargetDescription.h - what a target's kernels want -------*- C++ -*-===//
//
// A target description is a small text file of `key = value` lines (`#`
// starts a comment) that tells the graph passes what a compilation target's
// kernels want:
//
//     target = cpu
//     layout.conv2d = NCHW OIHW            # data layout, kernel layout
//     layout.conv2d.depthwise = NCHW OIHW
//     layout.conv2d.grouped = NCHW OIHW
//     ops = conv2d dense add relu          # for partitioning (AnnotateTarget)
//     composites = conv2d_bias_relu
//     backend = cpu                        # what compiles its partitions
//
// The op classes are `conv2d` (groups = 1), `conv2d.bf16` (groups = 1, bf16
// input), `conv2d.depthwise` (one group per channel) and `conv2d.grouped`
// (the others); a missing class falls back to `conv2d`. `ops` lists graph op mnemonics and `composites` the names of
// graph.composite regions (MergeComposite) that the target takes when a
// model is partitioned; `backend` (default: the target's name) is the dlc
// backend that compiles its partitions. dlc has builtin descriptions
// (`cpu`, whose bf16 convolutions are NHWC on CPUs with AVX512-BF16,
// `cpu-nhwc`, `cuda`: dlc's GPU kernels, NCHW, and `cublas`: the products
// of NVIDIA's library for `--target=cuda`); a path names a file.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TRANSFORMS_TARGETDESCRIPTION_H
#define DLC_TRANSFORMS_TARGETDESCRIPTION_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace dlc {

/// The layouts a kernel wants for one op class.
struct OpLayout {
  std::string data;   ///< e.g. NCHW, NHWC
  std::string kernel; ///< e.g. OIHW, HWIO
};

/// Attributes the partitioning passes write: an op's target and, on its
/// function, each target's backend (AnnotateTarget), its region
/// (MergeCompilerRegions), and a partition function's target and backend
/// (PartitionGraph).
inline constexpr llvm::StringLiteral kTargetAttr = "graph.target";
inline constexpr llvm::StringLiteral kTargetBackendsAttr = "graph.target_backends";
inline constexpr llvm::StringLiteral kRegionAttr = "graph.region";
inline constexpr llvm::StringLiteral kCompilerAttr = "graph.compiler";
inline constexpr llvm::StringLiteral kBackendAttr = "graph.backend";

struct TargetDescription {
  std::string name;
  std::string backend;               ///< compiles its partitions
  llvm::StringMap<OpLayout> layouts; ///< op class -> layouts
  llvm::StringSet<> ops;             ///< graph op mnemonics (conv2d, ...)
  llvm::StringSet<> composites;      ///< graph.composite names

  /// The layouts for `opClass`, falling back to its base class (the text
  /// before the first '.').
  std::optional<OpLayout> layoutFor(llvm::StringRef opClass) const;

  /// One `layout.<opClass> = DATA [KERNEL]` entry.
  static llvm::Expected<OpLayout> parseLayoutEntry(llvm::StringRef opClass,
                                                   llvm::StringRef layouts);
  /// Parses a description; errors name `source` and the line.
  static llvm::Expected<TargetDescription> parse(llvm::StringRef text, llvm::StringRef source);
  /// A builtin description by name, or else the file at `nameOrPath`.
  static llvm::Expected<TargetDescription> load(llvm::StringRef nameOrPath);
};

/// The kernel layout that goes with a data layout by default (NCHW: OIHW,
/// NHWC: HWIO), or empty.
llvm::StringRef defaultKernelLayout(llvm::StringRef dataLayout);

} // namespace dlc

#endif // DLC_TRANSFORMS_TARGETDESCRIPTION_H
