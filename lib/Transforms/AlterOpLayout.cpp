//===- AlterOpLayout.cpp - convolutions into the target's layouts ---------===//
#include "LayoutRewriter.h"
#include "WinogradConv.h"
#include "dlc/Transforms/Passes.h"

namespace dlc {
#define GEN_PASS_DEF_ALTEROPLAYOUTPASS
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {
struct AlterOpLayoutPass : dlc::impl::AlterOpLayoutPassBase<AlterOpLayoutPass> {
  using AlterOpLayoutPassBase::AlterOpLayoutPassBase;

  LogicalResult initialize(MLIRContext *ctx) override {
    llvm::Expected<TargetDescription> loaded = TargetDescription::load(target);
    if (!loaded)
      return emitError(UnknownLoc::get(ctx))
             << "graph-alter-op-layout: " << llvm::toString(loaded.takeError());
    description = std::move(*loaded);
    return success();
  }

  void runOnOperation() override {
    if (failed(rewriteLayouts(getOperation(), description, getArgument())))
      return signalPassFailure();
    if (winograd)
      rewriteWinogradConvs(getOperation(), winogradMinTiles, getArgument());
  }

  TargetDescription description;
};
} // namespace
