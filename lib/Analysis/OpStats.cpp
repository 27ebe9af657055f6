//===- OpStats.cpp - op counts, parameters and MACs of a model -------------===//
#include "dlc/Analysis/OpStats.h"
#include "dlc/Dialect/Graph/GraphOps.h"
#include "dlc/Support/Shape.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::graph;

static int64_t elementsOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getNumElements();
}

/// Multiply-accumulates of one op (0 for ops that are not contractions).
static int64_t macsOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, int64_t>(op)
      .Case([](Conv2DOp c) {
        // Every output element sums (input channels per group) x KH x KW.
        auto w = c.getWeight().getType();
        int64_t perOutput = c.getKernelLayout() == "OIHW"
                                ? w.getDimSize(1) * w.getDimSize(2) * w.getDimSize(3)
                                : w.getDimSize(0) * w.getDimSize(1) * w.getDimSize(2);
        return elementsOf(c.getOutput()) * perOutput;
      })
      .Case([](Conv2DWinogradOp c) {
        // The convolution's: C x 3 x 3 per output (its products do fewer).
        int64_t inputChannels = c.getWeight().getType().getDimSize(
            c.getDataLayout() == "NHWC" ? 1 : 2);
        return elementsOf(c.getOutput()) * inputChannels * 9;
      })
      .Case([](DenseOp d) {
        return elementsOf(d.getOutput()) * d.getWeight().getType().getDimSize(1);
      })
      .Case([](MatmulOp m) {
        return elementsOf(m.getOutput()) * m.getLhs().getType().getShape().back();
      })
      .Case([](BatchMatmulOp m) {
        auto a = m.getLhs().getType();
        return elementsOf(m.getOutput()) *
               (m.getTransposeA() ? a.getDimSize(1) : a.getDimSize(2));
      })
      .Default([](Operation *) { return int64_t(0); });
}

OpStats dlc::collectOpStats(Operation *root) {
  OpStats s;
  root->walk([&](Operation *op) {
    if (!isa<GraphDialect>(op->getDialect()) || isa<YieldOp>(op))
      return;
    if (auto c = dyn_cast<ConstantOp>(op)) {
      auto type = c.getOutput().getType();
      if (type.getRank() > 0) {
        s.parameters += type.getNumElements();
        s.parameterBytes +=
            type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
      }
      return;
    }
    ++s.ops;
    ++s.opCounts[op->getName().getStringRef().str()];
    s.macs += macsOf(op);
  });
  return s;
}

void OpStats::print(llvm::raw_ostream &os) const {
  os << "ops: " << ops << " (";
  bool first = true;
  for (const auto &[name, count] : opCounts) {
    os << (first ? "" : ", ") << StringRef(name).drop_front(6) << " " << count;
    first = false;
  }
  os << ")\nparameters: " << parameters << " ("
     << llvm::format("%.1f", parameterBytes / 1048576.0) << " MiB)\n"
     << "MACs: " << macs << " ("
     << llvm::format("%.2f", macs / 1e9) << " G)\n";
}
