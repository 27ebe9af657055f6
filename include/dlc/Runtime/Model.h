//===- Model.h - loading models and their inputs ----------------*- C++ -*-===//
//
// What every tool that runs a model does first: parse and verify the .mlir
// file, pick the entry function, and build its input tensors.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_RUNTIME_MODEL_H
#define DLC_RUNTIME_MODEL_H

#include "dlc/Runtime/Tensor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace dlc {

/// Registers what a model file may contain (graph and func dialects).
void registerModelDialects(mlir::DialectRegistry &registry);

/// Parses and verifies a model file; diagnostics go to the context's handler
/// and a null module is returned on failure. The weights of a bytecode file
/// are not copied: they stay in the file's buffer (mapped), which
/// `sourceMgr` owns and they keep alive. So they are read-only (a pass
/// writes new blobs), and the file must not change while they are used.
mlir::OwningOpRef<mlir::ModuleOp> loadModel(llvm::StringRef path,
                                            mlir::MLIRContext &context,
                                            const std::shared_ptr<llvm::SourceMgr> &sourceMgr);

/// The entry function: `name` if not empty, else @main, else the module's only
/// function with a body. Emits an error naming the candidates otherwise.
mlir::FailureOr<mlir::func::FuncOp> findEntry(mlir::ModuleOp module,
                                              llvm::StringRef name);

/// Builds the inputs of `func` from specs: a .npy or .pb path, or
/// `random:seed=N` (one spec for every input, each input seeded N + its
/// index; integer inputs with a `dlc.input_range` argument attribute take
/// values in that range). With no specs, every input is random with seed 0.
llvm::Expected<std::vector<Tensor>>
loadInputs(llvm::ArrayRef<std::string> specs, mlir::func::FuncOp func);

} // namespace dlc

#endif // DLC_RUNTIME_MODEL_H
