//===- CUDARuntime.h - what the runtime's files share ------------*- C++ -*-===//
//
// Private to dlc's CUDA runtime (CUDARuntime.cpp, CUBLASRuntime.cpp): its
// one stream, its profile and its way of failing. Free of LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_RUNTIME_CUDARUNTIME_H
#define DLC_RUNTIME_CUDARUNTIME_H

#include "CUDADriverAPI.h"

#include <functional>
#include <string>

namespace dlc::cuda {

/// The stream every launch and copy of the process goes to (the runtime
/// starts on first use, with device 0's primary context current).
CUstream runtimeStream();

/// Runs `enqueue`, which puts work on the runtime's stream; with
/// DLC_CUDA_PROFILE set, times it as a kernel's launch is, under `name` (a
/// string that lives as long as the process) in dlc_cuda_profile_write's
/// table.
void profiled(const char *name, const std::function<void()> &enqueue);

/// Prints `dlc: CUDA runtime: <message>` and exits with status 1 (the ABI
/// of lowered code has no way to return an error).
[[noreturn]] void die(const std::string &message);

} // namespace dlc::cuda

#endif // DLC_RUNTIME_CUDARUNTIME_H
