//===- ModelExports.h - what a compiled model tells a program ---*- C++ -*-===//
//
// Symbols an ahead-of-time model exports so that a program that did not
// compile it (dlc-cuda-run) can feed it: its signature, and the table of
// the weights it keeps outside the library.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DRIVER_MODELEXPORTS_H
#define DLC_DRIVER_MODELEXPORTS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

namespace dlc {

/// Adds to `module` (lowered to the LLVM dialect) the exported C string
/// `<symbol>_signature`: one line per buffer of `signature`, inputs then
/// results, `in|out DTYPE [D0,D1,...]` (for example `in f32 [1,3,224,224]`),
/// an input with a declared range of valid values (`dlc.input_range`: token
/// ids) followed by ` range LO HI` (LO included, HI not).
void addSignatureExport(mlir::ModuleOp module, llvm::StringRef symbol,
                        mlir::FunctionType signature,
                        llvm::ArrayRef<std::optional<std::pair<int64_t, int64_t>>> inputRanges);

/// Moves the weights of `module` (lowered to the LLVM dialect: constant
/// globals with dense data) of at least `minBytes` out of the code. Their
/// data goes to `weightsPath`; the globals become zero-filled and writable,
/// and the exported table `dlc_weights` (`{const char *name; void *data;
/// int64_t bytes;}` each) with `dlc_weights_count` (int64_t) lets a program
/// fill them before the first call. The file: "DLCWGT01", a little-endian
/// u64 count, then per weight a u64 name length, the name, a u64 byte count
/// and the bytes, in the table's order. Returns the bytes moved.
llvm::Expected<uint64_t> externalizeWeights(mlir::ModuleOp module, llvm::StringRef weightsPath,
                                            uint64_t minBytes);

} // namespace dlc

#endif // DLC_DRIVER_MODELEXPORTS_H
