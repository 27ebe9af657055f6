//===- TensorIO.h - .npy and ONNX TensorProto files ------------*- C++ -*-===//
//
// The one tensor I/O module: numpy .npy (read and write) and ONNX TensorProto
// .pb (read), with errors that name the file and what is wrong with it.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_RUNTIME_TENSORIO_H
#define DLC_RUNTIME_TENSORIO_H

#include "dlc/Runtime/Tensor.h"
#include "llvm/Support/Error.h"

namespace dlc {

/// Parses the bytes of a .npy file (format 1.0-3.0, little-endian, C order;
/// dtypes f2 f4 f8 i1 i4 i8 b1).
llvm::Expected<Tensor> parseNpy(llvm::StringRef bytes);
/// Serializes a tensor as .npy 1.0 (bf16 is written as f4: numpy has none).
std::string serializeNpy(const Tensor &tensor);

/// Parses a serialized ONNX TensorProto (dims, data_type and any of the
/// typed data fields or raw_data). `name` receives the tensor's name. UINT8
/// data is read as i32 holding the same values (dlc has no unsigned types).
/// ONNX's backend tests store bfloat16 data as UINT16 bit patterns: with
/// `uint16IsBF16`, UINT16 data is read as those (dlc holds no uint16).
llvm::Expected<Tensor> parseTensorProto(llvm::StringRef bytes,
                                        std::string *name = nullptr,
                                        bool uint16IsBF16 = false);

/// Reads a tensor from a .npy or .pb file (chosen by extension); errors
/// start with the path.
llvm::Expected<Tensor> readTensorFile(llvm::StringRef path);
/// Writes a .npy file.
llvm::Error writeNpyFile(llvm::StringRef path, const Tensor &tensor);

} // namespace dlc

#endif // DLC_RUNTIME_TENSORIO_H
