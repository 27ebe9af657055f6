//===- CodeGen.h - machine code for a module lowered to LLVM ----*- C++ -*-===//
//
// The driver's last phase: the LLVM dialect translated to LLVM IR, split
// into one module per kernel and one for the rest, each optimized and
// compiled to a relocatable object on a thread of its own. A part's IR is
// all that determines its machine code for a given host and compiler, so
// it keys the part's cache entry: a kernel two models share is compiled
// once.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DRIVER_CODEGEN_H
#define DLC_DRIVER_CODEGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace dlc {

/// A piece of a model's LLVM module, compiled to one object.
struct ObjectPart {
  std::string irDigest; ///< SHA-256 of the part's IR (its cache key's core)
  std::string bitcode;  ///< the part, to be compiled in an LLVM context of its own
  std::string object;   ///< its machine code, once compiled or loaded
  bool kernel = true;   ///< kernels are compiled at O3, the glue around them at O1
};

/// LLVM IR for `module` (lowered to the LLVM dialect) with packed entry
/// points `_mlir__mlir_ciface_NAME(void **args)`. With `perKernel`, one part
/// per kernel (an `llvm.func` marked `dlc.kernel`, named after its digest,
/// with private copies of the constants and helpers it uses) and one for the
/// rest; otherwise one part.
llvm::Expected<std::vector<ObjectPart>> splitForCodegen(mlir::ModuleOp module, bool perKernel);

/// Compiles the parts that have no object yet for the host CPU, on up to
/// `threads` threads.
llvm::Error compileParts(llvm::MutableArrayRef<ObjectPart> parts, unsigned threads);

/// The host CPU's name and enabled features: what, besides the IR and the
/// compiler, determines the machine code.
std::string hostTargetIdentity();

/// Compiles `module` (lowered to the LLVM dialect) for the host CPU into one
/// relocatable object at `objectPath`.
llvm::Error writeObject(mlir::ModuleOp module, llvm::StringRef objectPath);

/// Links `objectPath` and `libraries` (linker arguments) into the shared
/// library `sharedPath` with the system C compiler.
llvm::Error linkShared(llvm::StringRef sharedPath, llvm::StringRef objectPath,
                       llvm::ArrayRef<llvm::StringRef> libraries);

/// Writes the C header of an ahead-of-time model: `int ENTRY_run(void *const
/// inputs[], void *const outputs[])` calling `_mlir_ciface_SYMBOL` over
/// contiguous row-major buffers of `signature`'s types; `bufferNote` says
/// what the buffers are.
llvm::Error writeCHeader(llvm::StringRef headerPath, llvm::StringRef entry,
                         llvm::StringRef symbol, mlir::FunctionType signature,
                         llvm::StringRef bufferNote);

/// An error naming the first partition function (PartitionGraph's
/// graph.backend) of `module` whose backend is none of `backends`, which
/// the `compiler` ("CPU", "GPU") compiles.
llvm::Error checkPartitionBackends(mlir::ModuleOp module, llvm::ArrayRef<llvm::StringRef> backends,
                                   llvm::StringRef compiler);

} // namespace dlc

#endif // DLC_DRIVER_CODEGEN_H
