//===- fuzz-onnx.cpp - libFuzzer target: the ONNX importer ----------------===//
//
// Arbitrary bytes as a serialized ONNX model: the import must end in a
// module that verifies or in an OnnxImportError, never a crash, a hang or a
// sanitizer report. Bytes that parse as a ModelProto are also mutated by
// structure (LLVMFuzzerCustomMutator): a dimension made huge, zero or
// negative, an attribute's integers changed, a node input dropped or renamed
// to a later output (a cycle), nodes swapped, so that the search reaches the
// converters instead of stopping in protobuf's parser.
//
//===----------------------------------------------------------------------===//
#include "dlc/Frontend/ONNX.h"
#include "dlc/Runtime/Model.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"

#include "onnx/onnx_pb.h"

#include <cstring>
#include <random>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry();
    dlc::registerModelDialects(*r);
    return r;
  }();
  mlir::MLIRContext context(*registry, mlir::MLIRContext::Threading::DISABLED);
  mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic &) { return mlir::success(); });
  auto module = dlc::importOnnxBuffer(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "fuzz.onnx", context);
  if (!module)
    llvm::consumeError(module.takeError());
  return 0;
}

/// One structural change to a model that parses.
static void mutateModel(onnx::ModelProto &model, std::mt19937 &rng) {
  onnx::GraphProto *g = model.mutable_graph();
  auto pick = [&](int n) { return n > 0 ? static_cast<int>(rng() % n) : -1; };
  static const int64_t values[] = {0, -1, 1, 2, 3, 7, 1 << 20, int64_t(1) << 40,
                                   std::numeric_limits<int64_t>::max()};
  auto value = [&] { return values[rng() % std::size(values)]; };
  switch (rng() % 6) {
  case 0: { // a graph input or output dimension
    auto *infos = rng() % 2 ? g->mutable_input() : g->mutable_output();
    int i = pick(infos->size());
    if (i < 0 || !(*infos)[i].type().has_tensor_type())
      return;
    auto *shape = (*infos)[i].mutable_type()->mutable_tensor_type()->mutable_shape();
    int d = pick(shape->dim_size());
    if (d >= 0)
      shape->mutable_dim(d)->set_dim_value(value());
    return;
  }
  case 1: { // an initializer's dimension
    int i = pick(g->initializer_size());
    if (i >= 0 && g->initializer(i).dims_size())
      g->mutable_initializer(i)->set_dims(pick(g->initializer(i).dims_size()), value());
    return;
  }
  case 2: { // an attribute's integer(s)
    int n = pick(g->node_size());
    if (n < 0 || !g->node(n).attribute_size())
      return;
    auto *a = g->mutable_node(n)->mutable_attribute(pick(g->node(n).attribute_size()));
    if (a->ints_size())
      a->set_ints(pick(a->ints_size()), value());
    else
      a->set_i(value());
    return;
  }
  case 3: { // a node input dropped
    int n = pick(g->node_size());
    if (n >= 0 && g->node(n).input_size())
      g->mutable_node(n)->mutable_input()->RemoveLast();
    return;
  }
  case 4: { // a node input taken from a later node's output: a cycle
    int n = pick(g->node_size()), m = pick(g->node_size());
    if (n >= 0 && m >= 0 && g->node(n).input_size() && g->node(m).output_size())
      g->mutable_node(n)->set_input(pick(g->node(n).input_size()), g->node(m).output(0));
    return;
  }
  default: { // two nodes swapped
    int n = pick(g->node_size()), m = pick(g->node_size());
    if (n >= 0 && m >= 0)
      g->mutable_node()->SwapElements(n, m);
    return;
  }
  }
}

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t maxSize,
                                          unsigned seed) {
  std::mt19937 rng(seed);
  onnx::ModelProto model;
  if (rng() % 4 == 0 || !model.ParseFromArray(data, static_cast<int>(size)))
    return LLVMFuzzerMutate(data, size, maxSize); // bytes
  mutateModel(model, rng);
  std::string bytes;
  if (!model.SerializeToString(&bytes) || bytes.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, bytes.data(), bytes.size());
  return bytes.size();
}
