//===- Layout.h - data layout strings (NCHW, NHWC, NCHW8c) ------*- C++ -*-===//
//
// The one layout helper. A layout names each dimension: upper-case letters
// are primal axes, a number followed by a lower-case letter is a block (inner
// split) of the primal axis with that letter, as in TVM ("NCHW16c").
//
//===----------------------------------------------------------------------===//
#ifndef DLC_SUPPORT_LAYOUT_H
#define DLC_SUPPORT_LAYOUT_H

#include "dlc/Support/Shape.h"
#include "llvm/ADT/StringRef.h"

namespace dlc {

class Layout {
public:
  struct Axis {
    char primal;    ///< upper-case name of the primal axis
    int64_t factor; ///< 0 for the primal axis itself, else the block size
  };

  /// Parses a layout; on failure returns nullopt and sets `error`.
  static std::optional<Layout> parse(llvm::StringRef text, std::string &error);

  llvm::ArrayRef<Axis> axes() const { return axesList; }
  int64_t rank() const { return axesList.size(); }
  /// Position of primal axis `c` (upper case), or -1.
  int64_t indexOf(char c) const;
  /// Position of the block of primal axis `c`, or -1.
  int64_t blockIndexOf(char c) const;
  /// Block size of primal axis `c` (1 when it has no block).
  int64_t blockFactor(char c) const;
  /// Both layouts have the same set of primal axes.
  bool samePrimalAxes(const Layout &other) const;

  /// Shape in this layout of a tensor with `shape` in layout `src`; nullopt
  /// and `error` when ranks disagree or a block does not divide its axis.
  std::optional<Shape> convertShape(const Layout &src,
                                    llvm::ArrayRef<int64_t> shape,
                                    std::string &error) const;

  /// For an index `dstIndex` in this layout, the index of the same element in
  /// layout `src` (with `srcShape` in that layout).
  void mapIndex(const Layout &src, llvm::ArrayRef<int64_t> dstIndex,
                llvm::SmallVectorImpl<int64_t> &srcIndex) const;

private:
  llvm::SmallVector<Axis, 6> axesList;
};

} // namespace dlc

#endif // DLC_SUPPORT_LAYOUT_H
