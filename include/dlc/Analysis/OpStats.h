//===- OpStats.h - op counts, parameters and MACs of a model ----*- C++ -*-===//
#ifndef DLC_ANALYSIS_OPSTATS_H
#define DLC_ANALYSIS_OPSTATS_H

#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>

namespace dlc {

struct OpStats {
  std::map<std::string, int64_t> opCounts; ///< by op name, e.g. graph.conv2d
  int64_t ops = 0;        ///< graph ops other than constants
  int64_t parameters = 0; ///< elements of non-scalar constants (weights)
  int64_t parameterBytes = 0;
  int64_t macs = 0; ///< multiply-accumulates of conv2d, dense and matmuls

  void print(llvm::raw_ostream &os) const;
};

/// Statistics of every graph op nested in `root` (a module or function).
OpStats collectOpStats(mlir::Operation *root);

} // namespace dlc

#endif // DLC_ANALYSIS_OPSTATS_H
