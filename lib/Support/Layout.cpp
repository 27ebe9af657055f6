//===- Layout.cpp - data layout strings ------------------------------------===//
#include "dlc/Support/Layout.h"

#include "llvm/ADT/STLExtras.h"

#include <cctype>

using namespace dlc;

std::optional<Layout> Layout::parse(llvm::StringRef text, std::string &error) {
  Layout layout;
  size_t i = 0;
  while (i < text.size()) {
    int64_t factor = 0;
    size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
      ++i;
    if (i > start && text.slice(start, i).getAsInteger(10, factor)) {
      error = "layout '" + text.str() + "' has a block factor beyond 2^63 - 1";
      return std::nullopt;
    }
    if (i == text.size()) {
      error = "layout '" + text.str() + "' ends in a number";
      return std::nullopt;
    }
    char c = text[i++];
    bool hasNumber = i - 1 > start;
    if (std::isupper(static_cast<unsigned char>(c)) && !hasNumber) {
      if (layout.indexOf(c) >= 0) {
        error = "layout '" + text.str() + "' repeats axis '" + c + "'";
        return std::nullopt;
      }
      layout.axesList.push_back({c, 0});
    } else if (std::islower(static_cast<unsigned char>(c)) && hasNumber &&
               factor > 0) {
      char primal = static_cast<char>(std::toupper(c));
      if (layout.blockIndexOf(primal) >= 0) {
        error = "layout '" + text.str() + "' blocks axis '" + primal + "' twice";
        return std::nullopt;
      }
      layout.axesList.push_back({primal, factor});
    } else {
      error = "layout '" + text.str() +
              "' is not a sequence of upper-case axes and <number><lower-case> "
              "blocks";
      return std::nullopt;
    }
  }
  for (const Axis &axis : layout.axesList)
    if (axis.factor && layout.indexOf(axis.primal) < 0) {
      error = "layout '" + text.str() + "' blocks axis '" + axis.primal +
              "' that it does not contain";
      return std::nullopt;
    }
  if (layout.axesList.empty()) {
    error = "empty layout";
    return std::nullopt;
  }
  return layout;
}

int64_t Layout::indexOf(char c) const {
  for (size_t i = 0; i < axesList.size(); ++i)
    if (axesList[i].primal == c && axesList[i].factor == 0)
      return i;
  return -1;
}

int64_t Layout::blockIndexOf(char c) const {
  for (size_t i = 0; i < axesList.size(); ++i)
    if (axesList[i].primal == c && axesList[i].factor != 0)
      return i;
  return -1;
}

int64_t Layout::blockFactor(char c) const {
  int64_t i = blockIndexOf(c);
  return i < 0 ? 1 : axesList[i].factor;
}

bool Layout::samePrimalAxes(const Layout &other) const {
  auto count = [](const Layout &l) {
    return llvm::count_if(l.axesList, [](const Axis &a) { return !a.factor; });
  };
  if (count(*this) != count(other))
    return false;
  return llvm::all_of(axesList, [&](const Axis &a) {
    return a.factor || other.indexOf(a.primal) >= 0;
  });
}

std::optional<Shape> Layout::convertShape(const Layout &src,
                                          llvm::ArrayRef<int64_t> shape,
                                          std::string &error) const {
  if (static_cast<int64_t>(shape.size()) != src.rank()) {
    error = "tensor of rank " + std::to_string(shape.size()) +
            " does not match layout of rank " + std::to_string(src.rank());
    return std::nullopt;
  }
  if (!samePrimalAxes(src)) {
    error = "layouts do not have the same primal axes";
    return std::nullopt;
  }
  Shape result;
  for (const Axis &axis : axesList) {
    // Full extent of the primal axis in the source layout.
    int64_t full = shape[src.indexOf(axis.primal)] * src.blockFactor(axis.primal);
    int64_t dstBlock = blockFactor(axis.primal);
    if (full % dstBlock != 0) {
      error = std::string("axis '") + axis.primal + "' of size " +
              std::to_string(full) + " is not divisible by block " +
              std::to_string(dstBlock);
      return std::nullopt;
    }
    result.push_back(axis.factor ? axis.factor : full / dstBlock);
  }
  return result;
}

void Layout::mapIndex(const Layout &src, llvm::ArrayRef<int64_t> dstIndex,
                      llvm::SmallVectorImpl<int64_t> &srcIndex) const {
  srcIndex.assign(src.rank(), 0);
  for (int64_t i = 0, e = src.rank(); i < e; ++i) {
    const Axis &axis = src.axesList[i];
    // Full coordinate of the primal axis, from this layout's index.
    int64_t outer = dstIndex[indexOf(axis.primal)];
    int64_t bi = blockIndexOf(axis.primal);
    int64_t full = bi < 0 ? outer : outer * axesList[bi].factor + dstIndex[bi];
    int64_t srcBlock = src.blockFactor(axis.primal);
    srcIndex[i] = axis.factor ? full % srcBlock : full / srcBlock;
  }
}
