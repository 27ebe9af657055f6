//===- GraphInterfaces.td - graph op interfaces ------------*- tablegen -*-===//
#ifndef DLC_DIALECT_GRAPH_INTERFACES_TD
#define DLC_DIALECT_GRAPH_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Graph_OpPatternInterface : OpInterface<"OpPatternInterface"> {
  let cppNamespace = "::dlc::graph";
  let description = [{
    The op's fusion pattern kind, as TVM's `TOpPattern` attribute: what
    FuseOps may fuse it with. Ops declare it with a `Graph_Pattern<"Kind">`
    trait; `dlc::graph::getOpPatternKind` is the one place that reads it.
  }];
  let methods = [
    StaticInterfaceMethod<"The op's fusion pattern kind.",
        "::dlc::graph::OpPatternKind", "getOpPatternKind">,
  ];
}

class Graph_PatternTrait<string kind>
    : ParamNativeOpTrait<"OpPattern", "::dlc::graph::OpPatternKind::" # kind> {
  let cppNamespace = "::dlc::graph";
}

/// Declares the op's pattern kind (a name of ::dlc::graph::OpPatternKind).
class Graph_Pattern<string kind>
    : TraitList<[Graph_PatternTrait<kind>, Graph_OpPatternInterface]>;

#endif // DLC_DIALECT_GRAPH_INTERFACES_TD
