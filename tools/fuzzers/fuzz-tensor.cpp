//===- fuzz-tensor.cpp - libFuzzer target: the .npy and .pb readers -------===//
//
// Arbitrary bytes as a NumPy .npy file and as a serialized TensorProto: each
// reader returns a tensor or an error, never a crash or a sanitizer report.
//
//===----------------------------------------------------------------------===//
#include "dlc/Runtime/TensorIO.h"

#include "llvm/Support/Error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  if (auto t = dlc::parseNpy(bytes); !t)
    llvm::consumeError(t.takeError());
  if (auto t = dlc::parseTensorProto(bytes); !t)
    llvm::consumeError(t.takeError());
  return 0;
}
