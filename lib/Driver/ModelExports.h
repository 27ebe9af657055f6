//===- ModelExports.h - what a compiled model tells a program ---*- C++ -*-===//
//
// Symbols an ahead-of-time model exports so that a program that did not
// compile it (dlc-cuda-run) can feed it: its signature, and the table of
// the weights it keeps outside the library.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DRIVER_MODELEXPORTS_H
#define DLC_DRIVER_MODELEXPORTS_H

#include "dlc/Runtime/Agreement.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

namespace dlc {

/// Adds to `module` (lowered to the LLVM dialect) the exported C string
/// `<symbol>_signature`: one line per buffer of `signature`, inputs then
/// results, `in|out DTYPE [D0,D1,...]` (for example `in f32 [1,3,224,224]`),
/// an input with a declared range of valid values (`dlc.input_range`: token
/// ids) followed by ` range LO HI` (LO included, HI not); then a line
/// `detections B S C` for each graph.nms whose boxes, scores and classes are
/// the results B, S and C (compared as sets of detections: Agreement.h).
void addSignatureExport(mlir::ModuleOp module, llvm::StringRef symbol,
                        mlir::FunctionType signature,
                        llvm::ArrayRef<std::optional<std::pair<int64_t, int64_t>>> inputRanges,
                        llvm::ArrayRef<DetectionOutputs> detections);

/// The weights `externalizeWeights` moved: their bytes, and how many of
/// them a reader regenerates from zoo recipes rather than reads.
struct WeightsWritten {
  uint64_t bytes = 0, regenerable = 0;
};

/// Moves the weights of `module` (lowered to the LLVM dialect: constant
/// globals with dense data) of at least `minBytes` out of the code. They go
/// to `weightsPath`; the globals become zero-filled and writable, and the
/// exported table `dlc_weights` (`{const char *name; void *data; int64_t
/// bytes;}` each) with `dlc_weights_count` (int64_t) lets a program fill
/// them before the first call. With `recipes`, a weight that is still the
/// zoo parameter `dlc.zoo.weights` describes (verified byte for byte) is
/// written as its recipe (Random.h), not its bytes.
///
/// The file: "DLCWGT02", a little-endian u64 count, then per weight, in the
/// table's order: a u64 name length, the name, a u64 byte count, a byte
/// saying how the data follows (0: the bytes; 1: a zoo recipe: a u64 length
/// and the parameter's name, the model's u64 seed, f64 lo, f64 hi).
llvm::Expected<WeightsWritten> externalizeWeights(mlir::ModuleOp module, llvm::StringRef symbol,
                                                  llvm::StringRef weightsPath, uint64_t minBytes,
                                                  bool recipes = true);

} // namespace dlc

#endif // DLC_DRIVER_MODELEXPORTS_H
