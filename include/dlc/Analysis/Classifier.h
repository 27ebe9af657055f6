//===- Classifier.h - which neural architecture a graph is -----*- C++ -*-===//
//
// Features computed from a graph (convolution kinds, residual adds,
// inverted-residual blocks, squeeze-excitation, detection heads and NMS,
// attention blocks, layer norms, GELU, parallel dense triplets, pads,
// dynamic ops, parameters, MACs), each with the ops that showed it, and
// classes scored by rules over them. The rules are data
// (ArchitectureClasses.json, found as defaultClassRulesPath() says), so a
// user adds a class or changes a rule without recompiling. A class is
// detected when its score (the weight of its rules that hold, over all its
// rules' weight) reaches the file's threshold; a graph no class reaches is
// `general`.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_ANALYSIS_CLASSIFIER_H
#define DLC_ANALYSIS_CLASSIFIER_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace dlc {

/// One feature's value and where it was seen (op names and locations, the
/// first few).
struct Feature {
  double value = 0;
  std::string description;
  std::vector<std::string> where;
};

using GraphFeatures = std::map<std::string, Feature>;

/// The features of every function in `module`.
GraphFeatures computeFeatures(mlir::ModuleOp module);

/// `feature op value`, worth `weight` when it holds.
struct ClassRule {
  std::string feature, op; ///< op: >=, >, <=, <, ==
  double value = 0, weight = 1;
};

struct ArchClass {
  std::string name;        ///< e.g. "resnet"
  std::string tag;         ///< the CF'22 class it selects passes by: RN, MN, SSD, BR
  std::string description;
  std::vector<ClassRule> rules;
};

struct ClassRules {
  double threshold = 0.75;
  std::vector<ArchClass> classes;
  std::string source; ///< the file they came from
};

/// $DLC_ARCH_CLASSES, else ArchitectureClasses.json in share/dlc beside the
/// running executable's bin/, else in the install prefix, else in the build
/// tree.
std::string defaultClassRulesPath();

/// Reads and checks a rules file (errors name the file and the entry).
llvm::Expected<ClassRules> loadClassRules(llvm::StringRef path);

struct ClassScore {
  std::string name, tag;
  double score = 0;
  bool detected = false;
  /// Per rule: "residual_adds = 16 >= 3: holds (weight 2)".
  std::vector<std::string> evidence;
};

struct Classification {
  std::vector<ClassScore> scores;   ///< every class, best first
  std::vector<std::string> detected; ///< names; empty: general
  /// The best score of a detected class, or 1 - the best score when none
  /// is (how sure `general` is).
  double confidence = 0;
  bool general() const { return detected.empty(); }
  /// The CF'22 tags of the detected classes.
  std::vector<std::string> tags() const;
};

Classification classify(const GraphFeatures &features, const ClassRules &rules);

/// Text: the classes, their scores and evidence, then the features.
void printClassification(const Classification &c, const GraphFeatures &features,
                         llvm::raw_ostream &os);
llvm::json::Value classificationToJSON(const Classification &c, const GraphFeatures &features);

} // namespace dlc

#endif // DLC_ANALYSIS_CLASSIFIER_H
