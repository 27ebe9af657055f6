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
#include <string>

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
  /// dlc's additions to the CF'22 classes: classes (space-separated) on
  /// whose models dlc measured the pass faster on the CPU with the options
  /// in braces after the class ("SSD{min-num-branches=2}"). The auto
  /// pipeline and the search run it there, with those options; a model of
  /// several of the classes takes the options listed first.
  llvm::StringRef measuredOn = "";

  bool inClass(llvm::StringRef tag) const;
  /// The classes of `measuredOn`, in its order.
  llvm::SmallVector<llvm::StringRef> measuredClasses() const;
  /// The options dlc measured on class `tag` ("" for none, or not measured).
  llvm::StringRef optionsFor(llvm::StringRef tag) const;
  /// The pipeline element for models of classes `tags`: the TVM name, with
  /// the options of the first word of `measuredOn` whose class is one of
  /// them (an SSD with a ResNet backbone takes SSD's, listed first).
  std::string specFor(llvm::ArrayRef<std::string> tags) const;
  bool dormantFor(llvm::StringRef tag) const;
  bool noGainFor(llvm::StringRef tag) const;
  llvm::SmallVector<llvm::StringRef> anchorOps() const;
  llvm::SmallVector<llvm::StringRef> createdOps() const;
  /// Never changes dlc's IR (anchors "-").
  bool neverChanges() const { return anchors == "-"; }
};

/// Every pass of the catalogue.
llvm::ArrayRef<CatalogueEntry> passCatalogue();

/// The catalogue entry named `name` (TVM name or flag, options in braces
/// after it ignored), if any.
const CatalogueEntry *lookupPass(llvm::StringRef name);

/// The options of a pass item `Name{a=1 b=2}`: {"a=1", "b=2"} (none
/// without braces).
llvm::SmallVector<llvm::StringRef> passItemOptions(llvm::StringRef item);

/// `dlc-opt --dlc-list-passes`: one line per pass, or JSON.
void printPassCatalogue(llvm::raw_ostream &os);
llvm::json::Value passCatalogueToJSON();

} // namespace dlc

#endif // DLC_TRANSFORMS_PASSREGISTRY_H
