//===- CPUPackWeights.cpp - constant B of products packed into panels ------===//
//
// A register tile of the product kernel reads, at every reduction step, one
// row of B nr columns wide; in a [k, n] weight those rows lie n floats
// apart, each in another page when n is large (BERT's feed-forward weight:
// 12 KB). Stored as panels [n / nr][k][nr], the rows a tile reads are
// consecutive. Constant weights are packed here, at compile time, on
// tensors before the product is tiled: the kernel's argument becomes the
// panels and its product reads B through (n floordiv nr, k, n mod nr),
// which CPUSchedules' productDims recognizes.
//
//===----------------------------------------------------------------------===//
#include "../../Transforms/PassUtils.h"
#include "CPUSchedules.h"
#include "dlc/Conversion/Passes.h"
#include "dlc/Transforms/PassLedger.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/MapVector.h"

#include <cstring>

namespace dlc {
#define GEN_PASS_DEF_CPUPACKWEIGHTSPASS
#include "dlc/Conversion/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc::cpu;

namespace {
/// `bytes`, f32 [k, n], as panels [n / nr][k][nr] in a new blob.
AsmResourceBlob packedBlob(ArrayRef<char> bytes, int64_t k, int64_t n, int64_t nr) {
  AsmResourceBlob blob = dlc::allocateBlob(bytes.size());
  char *out = blob.getMutableData().data();
  const char *in = bytes.data();
  for (int64_t p = 0; p < n / nr; ++p)
    for (int64_t i = 0; i < k; ++i)
      std::memcpy(out + ((p * k + i) * nr) * 4, in + (i * n + p * nr) * 4, nr * 4);
  return blob;
}

/// The products that read the kernel argument `arg` as their B, [k, n]
/// indexed (k, n) with n a multiple of `nr`; nothing when the argument has
/// any other use.
using Product = std::pair<linalg::GenericOp, ProductDims>;
std::optional<SmallVector<Product>> productsReading(BlockArgument arg, int64_t nr) {
  auto type = dyn_cast<RankedTensorType>(arg.getType());
  if (!type || type.getRank() != 2 || !type.hasStaticShape() || !type.getElementType().isF32() ||
      type.getDimSize(1) % nr != 0 || arg.use_empty())
    return std::nullopt;
  SmallVector<Product> products;
  for (OpOperand &use : arg.getUses()) {
    auto op = dyn_cast<linalg::GenericOp>(use.getOwner());
    std::optional<ProductDims> d = op ? matchProduct(op) : std::nullopt;
    if (!d || use.getOperandNumber() != 1)
      return std::nullopt;
    AffineMap b = op.getMatchingIndexingMap(&use);
    if (b.getNumResults() != 2 || b.getResult(0) != getAffineDimExpr(d->k, op.getContext()) ||
        b.getResult(1) != getAffineDimExpr(d->n, op.getContext()))
      return std::nullopt;
    products.push_back({op, *d});
  }
  return products;
}

/// The f32 payload of the constant passed as `v`, if it is one.
std::optional<ArrayRef<char>> constantPayload(Value v) {
  auto c = v.getDefiningOp<arith::ConstantOp>();
  auto value = c ? dyn_cast<ElementsAttr>(c.getValue()) : nullptr;
  return value ? dlc::payloadBytes(value) : std::nullopt;
}

struct CPUPackWeightsPass : dlc::impl::CPUPackWeightsPassBase<CPUPackWeightsPass> {
  using CPUPackWeightsPassBase::CPUPackWeightsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (vectorBits != 256 && vectorBits != 512) {
      module.emitError() << getArgument() << ": vector-bits must be 256 or 512, got "
                         << static_cast<int64_t>(vectorBits);
      return signalPassFailure();
    }
    int64_t nr = registerTile(vectorBits).nr;
    // Kernels and the arguments to pack: every call passes a constant.
    struct Candidate {
      func::FuncOp kernel;
      unsigned index;
      SmallVector<Product> products;
      SmallVector<func::CallOp> calls;
    };
    SmallVector<Candidate> candidates;
    SymbolTableCollection symbols;
    SymbolUserMap users(symbols, module);
    for (auto kernel : module.getOps<func::FuncOp>()) {
      if (kernel.isPublic() || kernel.isExternal())
        continue;
      SmallVector<func::CallOp> calls;
      bool onlyCalls = true;
      for (Operation *user : users.getUsers(kernel)) {
        auto call = dyn_cast<func::CallOp>(user);
        onlyCalls &= call && call.getCallee() == kernel.getSymName();
        if (call)
          calls.push_back(call);
      }
      if (!onlyCalls || calls.empty())
        continue;
      for (BlockArgument arg : kernel.getArguments()) {
        std::optional<SmallVector<Product>> products = productsReading(arg, nr);
        if (products && llvm::all_of(calls, [&](func::CallOp call) {
              return constantPayload(call.getOperand(arg.getArgNumber())).has_value();
            }))
          candidates.push_back({kernel, arg.getArgNumber(), std::move(*products), calls});
      }
    }
    // The weights to pack, each once, packed on the context's threads
    // (memory-bound: BERT-base has 340 MB of them).
    llvm::MapVector<Value, std::optional<AsmResourceBlob>> weights;
    for (Candidate &c : candidates)
      for (func::CallOp call : c.calls)
        weights.insert({call.getOperand(c.index), std::nullopt});
    auto entries = weights.takeVector();
    mlir::parallelFor(&getContext(), 0, entries.size(), [&](size_t i) {
      auto type = cast<RankedTensorType>(entries[i].first.getType());
      entries[i].second = packedBlob(*constantPayload(entries[i].first), type.getDimSize(0),
                                     type.getDimSize(1), nr);
    });
    OpBuilder b(&getContext());
    DenseMap<Value, Value> packed;
    for (auto &[weight, blob] : entries) {
      auto type = cast<RankedTensorType>(weight.getType());
      auto packedType = RankedTensorType::get(
          {type.getDimSize(1) / nr, type.getDimSize(0), nr}, type.getElementType());
      b.setInsertionPoint(weight.getDefiningOp());
      auto attr = DenseResourceElementsAttr::get(packedType, "packed_weight", std::move(*blob));
      packed[weight] = arith::ConstantOp::create(b, weight.getLoc(), attr);
    }
    for (Candidate &c : candidates) {
      BlockArgument arg = c.kernel.getArgument(c.index);
      Type packedType = packed[c.calls.front().getOperand(c.index)].getType();
      arg.setType(packedType);
      SmallVector<Type> inputs = llvm::to_vector(c.kernel.getBody().getArgumentTypes());
      c.kernel.setFunctionType(
          FunctionType::get(&getContext(), inputs, c.kernel.getResultTypes()));
      for (func::CallOp call : c.calls)
        call->setOperand(c.index, packed[call.getOperand(c.index)]);
      for (auto [op, d] : c.products) {
        SmallVector<AffineMap> maps = op.getIndexingMapsArray();
        maps[1] = panelMap(op.getNumLoops(), d, nr, op.getContext());
        op.setIndexingMapsAttr(b.getAffineMapArrayAttr(maps));
      }
    }
    for (auto &[weight, blob] : entries)
      if (weight.use_empty())
        weight.getDefiningOp()->erase();
    dlc::recordPassStat(getArgument(), "packed", candidates.size());
    dlc::recordPassStat(getArgument(), "weights", entries.size());
  }
};
} // namespace
