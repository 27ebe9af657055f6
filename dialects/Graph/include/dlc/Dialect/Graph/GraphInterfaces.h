//===- GraphInterfaces.h - graph op interfaces ------------------*- C++ -*-===//
#ifndef DLC_DIALECT_GRAPH_GRAPHINTERFACES_H
#define DLC_DIALECT_GRAPH_GRAPHINTERFACES_H

#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/StringRef.h"

namespace dlc::graph {

/// TVM's op pattern kinds (include/tvm/relay/op_attr_types.h), in the same
/// order and with the same values: a larger kind fuses less.
enum class OpPatternKind {
  ElemWise = 0,        ///< every output element from the same input element
  Broadcast = 1,       ///< elementwise with numpy broadcasting
  Injective = 2,       ///< each output element reads one input element
  CommReduce = 3,      ///< commutative reduction
  OutEWiseFusable = 4, ///< complex op whose output elementwise ops can fuse
  Tuple = 7,           ///< makes a tuple (no graph op is one today)
  Opaque = 8,          ///< never fused
};

/// "elemwise", "broadcast", "injective", "comm_reduce",
/// "out_elemwise_fusable", "tuple", "opaque".
llvm::StringRef stringifyOpPatternKind(OpPatternKind kind);

/// The trait behind `Graph_Pattern<"Kind">` in ODS.
template <OpPatternKind Kind> struct OpPattern {
  template <typename ConcreteOp> class Impl : public mlir::OpTrait::TraitBase<ConcreteOp, Impl> {
  public:
    static OpPatternKind getOpPatternKind() { return Kind; }
  };
};

/// The pattern kind of any op: what it declares; a scalar graph.constant is
/// ElemWise and any other constant Opaque (TVM: non-scalar constants are not
/// fused); ops that declare nothing (region ops, other dialects) are Opaque.
OpPatternKind getOpPatternKind(mlir::Operation *op);

} // namespace dlc::graph

#include "dlc/Dialect/Graph/GraphInterfaces.h.inc"

#endif // DLC_DIALECT_GRAPH_GRAPHINTERFACES_H
