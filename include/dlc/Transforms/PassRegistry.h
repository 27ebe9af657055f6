//===- PassRegistry.h - every graph pass and what is known of it -*- C++ -*-===//
//
// The one list of dlc's catalogue passes, with their metadata: TVM name,
// flag, TVM opt level, module or function pass, the CF'22 study's classes,
// the ops they can rewrite (anchors), the ops they create, what they
// require, the classes dlc measured them dormant on, and what they do.
// Optimization levels, the auto pipeline, `dlc-opt --dlc-list-passes` and
// the pass search all read it; nothing else lists passes.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TRANSFORMS_PASSREGISTRY_H
#define DLC_TRANSFORMS_PASSREGISTRY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace dlc {

struct CatalogueEntry {
  llvm::StringRef tvmName; ///< e.g. "FoldScaleAxis"
  llvm::StringRef flag;    ///< e.g. "graph-fold-scale-axis"
  int optLevel;            ///< TVM's opt level: on at O<optLevel> and above
  bool modulePass;         ///< runs on the module, not on each function
  /// CF'22 Table 4 classes, space-separated: BL (O3 baseline), RN, MN, SSD,
  /// BR, AD (depends on the user's intent).
  llvm::StringRef classes;
  /// Graph op mnemonics (space-separated) of which at least one must be
  /// present for the pass to change anything; "" means any graph, "-" that
  /// the pass never changes dlc's IR.
  llvm::StringRef anchors;
  /// Ops the pass may create (space-separated mnemonics), so that a later
  /// pass's anchors count them as present.
  llvm::StringRef creates;
  /// What it needs first, in words ("" for nothing).
  llvm::StringRef requires;
  /// CF'22 classes whose models dlc measured it dormant on
  /// (docs/PassEffects.md), for passes whose work no other pass creates.
  llvm::StringRef dormantOn;
  llvm::StringRef summary;
  /// CF'22 classes on whose models dlc measured the pass active but not
  /// faster on the CPU while it costs compile time (bench/auto_vs_o3.py):
  /// auto leaves it out on them, even where O3 runs it.
  llvm::StringRef noGainOn = "";
  /// TVM's build runs it after the graph passes whatever they are
  /// (relay.build fuses last): pass-order search ends every sequence with it.
  bool last = false;

  bool inClass(llvm::StringRef tag) const;
  bool dormantFor(llvm::StringRef tag) const;
  bool noGainFor(llvm::StringRef tag) const;
  llvm::SmallVector<llvm::StringRef> anchorOps() const;
  llvm::SmallVector<llvm::StringRef> createdOps() const;
  /// Never changes dlc's IR (anchors "-").
  bool neverChanges() const { return anchors == "-"; }
};

/// Every pass of the catalogue.
llvm::ArrayRef<CatalogueEntry> passCatalogue();

/// The catalogue entry named `name` (TVM name or flag), if any.
const CatalogueEntry *lookupPass(llvm::StringRef name);

/// `dlc-opt --dlc-list-passes`: one line per pass, or JSON.
void printPassCatalogue(llvm::raw_ostream &os);
llvm::json::Value passCatalogueToJSON();

} // namespace dlc

#endif // DLC_TRANSFORMS_PASSREGISTRY_H
