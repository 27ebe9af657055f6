//===- CUDADriver.h - the NVIDIA driver, loaded at run time -----*- C++ -*-===//
//
// dlc reaches NVIDIA GPUs through the CUDA driver API, loaded with dlopen:
// every dlc binary starts on machines without a GPU or driver and says
// what is missing when a GPU is asked for.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_RUNTIME_CUDADRIVER_H
#define DLC_RUNTIME_CUDADRIVER_H

#include "llvm/Support/Error.h"

#include <string>

namespace dlc {

/// The GPU dlc runs on: device 0.
struct CUDADevice {
  std::string name;
  int major = 0, minor = 0;
  /// The driver's CUDA version, "13.0".
  std::string driverVersion;
  /// The compute capability as a --gpu-arch: sm_80, sm_90a (Hopper's
  /// architecture-specific features), ...
  std::string arch() const;
};

/// Loads libcuda.so.1, initializes the driver and describes device 0; the
/// error says what is missing (no driver library, a driver that fails to
/// initialize, no device), naming the CUDA error.
llvm::Expected<CUDADevice> probeCUDADevice();

} // namespace dlc

#endif // DLC_RUNTIME_CUDADRIVER_H
