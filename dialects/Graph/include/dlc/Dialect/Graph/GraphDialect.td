//===- GraphDialect.td - the dlc graph dialect -------------*- tablegen -*-===//
#ifndef DLC_DIALECT_GRAPH_DIALECT_TD
#define DLC_DIALECT_GRAPH_DIALECT_TD

include "mlir/IR/OpBase.td"

def Graph_Dialect : Dialect {
  let name = "graph";
  let cppNamespace = "::dlc::graph";
  let summary = "Deep-learning graph operations on ranked static-shape tensors";
  let description = [{
    The `graph` dialect holds the operations of a neural network at the level of
    a framework graph: convolutions, normalizations, dense layers, pooling,
    elementwise math with numpy broadcasting, shape manipulation and
    quantization. Values are ranked, statically shaped tensors of f32, f16,
    bf16, i8, i32, i64 or i1. Activations are NCHW unless an op says otherwise.
    Every op has reference semantics in dlc's interpreter (lib/Runtime).
  }];
  let useDefaultAttributePrinterParser = 0;
  let useDefaultTypePrinterParser = 0;
  let hasConstantMaterializer = 1;
}

class Graph_Op<string mnemonic, list<Trait> traits = []>
    : Op<Graph_Dialect, mnemonic, traits>;

def Graph_ElemType : AnyTypeOf<[F32, F16, BF16, F64, I8, I32, I64, I1]>;
// Every graph tensor has a size dlc can count and address (Support/Shape.h:
// no negative dimension, at most 2^48 elements), so that no shape
// arithmetic downstream overflows.
class Graph_TensorOf<list<Type> types> : ConfinedType<StaticShapeTensorOf<types>,
    [CPred<"::dlc::checkedNumElements(::llvm::cast<::mlir::ShapedType>($_self)"
           ".getShape()).has_value()">],
    StaticShapeTensorOf<types>.summary # " with at most 2^48 elements">;

def Graph_Tensor : Graph_TensorOf<[F32, F16, BF16, F64, I8, I32, I64, I1]>;
def Graph_FloatTensor : Graph_TensorOf<[F32, F16, BF16, F64]>;
def Graph_NumericTensor : Graph_TensorOf<[F32, F16, BF16, F64, I8, I32, I64]>;
def Graph_IndexTensor : Graph_TensorOf<[I32, I64]>;
def Graph_QuantTensor : Graph_TensorOf<[I8, I32]>;

#endif // DLC_DIALECT_GRAPH_DIALECT_TD
