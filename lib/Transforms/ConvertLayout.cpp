//===- ConvertLayout.cpp - convolutions into user-desired layouts ---------===//
#include "LayoutRewriter.h"
#include "dlc/Transforms/Passes.h"

namespace dlc {
#define GEN_PASS_DEF_CONVERTLAYOUTPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {
struct ConvertLayoutPass : dlc::impl::ConvertLayoutPassBase<ConvertLayoutPass> {
  using ConvertLayoutPassBase::ConvertLayoutPassBase;

  /// The entries `class=DATA[:KERNEL]` as a target description.
  LogicalResult initialize(MLIRContext *ctx) override {
    std::vector<std::string> entries = desiredLayouts;
    if (entries.empty())
      entries.push_back("conv2d=NHWC");
    description = TargetDescription{"desired-layouts", {}};
    for (const std::string &entry : entries) {
      auto [cls, layouts] = llvm::StringRef(entry).split('=');
      auto [data, kernel] = layouts.split(':');
      llvm::Expected<OpLayout> layout =
          TargetDescription::parseLayoutEntry(cls.trim(), (data + " " + kernel).str());
      if (!layout)
        return emitError(UnknownLoc::get(ctx))
               << "graph-convert-layout: desired-layouts entry '" << entry
               << "': " << llvm::toString(layout.takeError())
               << " (entries are class=DATA[:KERNEL], e.g. conv2d=NHWC)";
      description.layouts[cls.trim()] = *layout;
    }
    return success();
  }

  void runOnOperation() override {
    if (failed(rewriteLayouts(getOperation(), description, getArgument())))
      signalPassFailure();
  }

  TargetDescription description;
};
} // namespace
