//===- CUDADriverAPI.h - libcuda.so.1's entry points, loaded ----*- C++ -*-===//
//
// The part of the CUDA driver API dlc calls, resolved with dlopen/dlsym so
// that no dlc binary links libcuda (private to lib/Runtime). Free of LLVM:
// compiled GPU models carry it (with CUDARuntime.cpp) to machines that have
// no LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_RUNTIME_CUDADRIVERAPI_H
#define DLC_RUNTIME_CUDADRIVERAPI_H

#include <cstddef>
#include <string>

namespace dlc::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;
using CUevent = void *;
using CUgraph = void *;
using CUgraphExec = void *;

constexpr int kComputeCapabilityMajor = 75, kComputeCapabilityMinor = 76;
constexpr int kJitOptimizationLevel = 7;          // CU_JIT_OPTIMIZATION_LEVEL
constexpr int kMaxDynamicSharedBytes = 8;         // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
constexpr unsigned kStreamNonBlocking = 1;        // CU_STREAM_NON_BLOCKING
constexpr unsigned kEventDisableTiming = 2;       // CU_EVENT_DISABLE_TIMING
constexpr unsigned kMemAttachGlobal = 1;          // CU_MEM_ATTACH_GLOBAL
constexpr int kStreamCaptureModeRelaxed = 2;      // CU_STREAM_CAPTURE_MODE_RELAXED

struct DriverAPI {
  CUresult (*init)(unsigned);
  CUresult (*driverGetVersion)(int *);
  CUresult (*deviceGetCount)(int *);
  CUresult (*deviceGet)(CUdevice *, int);
  CUresult (*deviceGetName)(char *, int, CUdevice);
  CUresult (*deviceGetAttribute)(int *, int, CUdevice);
  CUresult (*getErrorName)(CUresult, const char **);
  CUresult (*primaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*ctxSetCurrent)(CUcontext);
  CUresult (*moduleLoadData)(CUmodule *, const void *);
  CUresult (*moduleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
  CUresult (*moduleUnload)(CUmodule);
  CUresult (*moduleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*funcSetAttribute)(CUfunction, int, int);
  CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, CUstream, void **, void **);
  CUresult (*streamCreate)(CUstream *, unsigned);
  CUresult (*streamSynchronize)(CUstream);
  CUresult (*streamDestroy)(CUstream);
  CUresult (*streamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*eventCreate)(CUevent *, unsigned);
  CUresult (*eventRecord)(CUevent, CUstream);
  CUresult (*eventSynchronize)(CUevent);
  CUresult (*eventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*eventDestroy)(CUevent);
  CUresult (*memAlloc)(CUdeviceptr *, size_t);
  CUresult (*memAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*memFree)(CUdeviceptr);
  CUresult (*memcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*memsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*memsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
  CUresult (*streamBeginCapture)(CUstream, int);
  CUresult (*streamEndCapture)(CUstream, CUgraph *);
  CUresult (*graphInstantiate)(CUgraphExec *, CUgraph, unsigned long long);
  CUresult (*graphLaunch)(CUgraphExec, CUstream);
  CUresult (*graphDestroy)(CUgraph);
  CUresult (*graphExecDestroy)(CUgraphExec);
};

/// libcuda.so.1's entry points, loaded once; null with `error` saying what
/// is missing otherwise.
const DriverAPI *driver(std::string &error);

/// "<what> failed: CUDA_ERROR_NAME (code)".
std::string describeError(const DriverAPI &d, CUresult r, const std::string &what);

} // namespace dlc::cuda

#endif // DLC_RUNTIME_CUDADRIVERAPI_H
