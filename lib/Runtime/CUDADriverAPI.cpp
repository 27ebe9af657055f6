//===- CUDADriverAPI.cpp - libcuda.so.1's entry points, loaded -------------===//
#include "CUDADriverAPI.h"

#include <cstdlib>
#include <dlfcn.h>
#include <type_traits>

using namespace dlc::cuda;

const DriverAPI *dlc::cuda::driver(std::string &errorOut) {
  static std::string error;
  static const DriverAPI *api = []() -> const DriverAPI * {
    // $DLC_CUDA_DRIVER names another driver library (tests, compat drivers).
    const char *path = std::getenv("DLC_CUDA_DRIVER");
    if (!path || !*path)
      path = "libcuda.so.1";
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      error = std::string("no CUDA driver: cannot load ") + path + " (" + dlerror() + ")";
      return nullptr;
    }
    static DriverAPI d;
    bool ok = true;
    auto bind = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      if (!fn && ok) {
        ok = false;
        error = std::string("the CUDA driver libcuda.so.1 lacks ") + name;
      }
    };
    bind(d.init, "cuInit");
    bind(d.driverGetVersion, "cuDriverGetVersion");
    bind(d.deviceGetCount, "cuDeviceGetCount");
    bind(d.deviceGet, "cuDeviceGet");
    bind(d.deviceGetName, "cuDeviceGetName");
    bind(d.deviceGetAttribute, "cuDeviceGetAttribute");
    bind(d.getErrorName, "cuGetErrorName");
    bind(d.primaryCtxRetain, "cuDevicePrimaryCtxRetain");
    bind(d.ctxSetCurrent, "cuCtxSetCurrent");
    bind(d.moduleLoadData, "cuModuleLoadData");
    bind(d.moduleLoadDataEx, "cuModuleLoadDataEx");
    bind(d.moduleUnload, "cuModuleUnload");
    bind(d.moduleGetFunction, "cuModuleGetFunction");
    bind(d.funcSetAttribute, "cuFuncSetAttribute");
    bind(d.launchKernel, "cuLaunchKernel");
    bind(d.streamCreate, "cuStreamCreate");
    bind(d.streamSynchronize, "cuStreamSynchronize");
    bind(d.streamDestroy, "cuStreamDestroy_v2");
    bind(d.streamWaitEvent, "cuStreamWaitEvent");
    bind(d.eventCreate, "cuEventCreate");
    bind(d.eventRecord, "cuEventRecord");
    bind(d.eventSynchronize, "cuEventSynchronize");
    bind(d.eventElapsedTime, "cuEventElapsedTime");
    bind(d.eventDestroy, "cuEventDestroy_v2");
    bind(d.memAlloc, "cuMemAlloc_v2");
    bind(d.memAllocManaged, "cuMemAllocManaged");
    bind(d.memFree, "cuMemFree_v2");
    bind(d.memcpyAsync, "cuMemcpyAsync");
    bind(d.memsetD32Async, "cuMemsetD32Async");
    bind(d.memsetD16Async, "cuMemsetD16Async");
    bind(d.streamBeginCapture, "cuStreamBeginCapture_v2");
    bind(d.streamEndCapture, "cuStreamEndCapture");
    bind(d.graphInstantiate, "cuGraphInstantiateWithFlags");
    bind(d.graphLaunch, "cuGraphLaunch");
    bind(d.graphDestroy, "cuGraphDestroy");
    bind(d.graphExecDestroy, "cuGraphExecDestroy");
    return ok ? &d : nullptr;
  }();
  if (!api)
    errorOut = error;
  return api;
}

/// The name of CUDA error `r` where the driver cannot say (its stub).
static const char *knownErrorName(CUresult r) {
  switch (r) {
  case 1: return "CUDA_ERROR_INVALID_VALUE";
  case 2: return "CUDA_ERROR_OUT_OF_MEMORY";
  case 3: return "CUDA_ERROR_NOT_INITIALIZED";
  case 34: return "CUDA_ERROR_STUB_LIBRARY";
  case 35: return "CUDA_ERROR_INSUFFICIENT_DRIVER";
  case 100: return "CUDA_ERROR_NO_DEVICE";
  case 101: return "CUDA_ERROR_INVALID_DEVICE";
  case 200: return "CUDA_ERROR_INVALID_IMAGE";
  case 209: return "CUDA_ERROR_NO_BINARY_FOR_GPU";
  case 218: return "CUDA_ERROR_INVALID_PTX";
  case 222: return "CUDA_ERROR_UNSUPPORTED_PTX_VERSION";
  case 700: return "CUDA_ERROR_ILLEGAL_ADDRESS";
  case 701: return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
  default: return "unknown CUDA error";
  }
}

std::string dlc::cuda::describeError(const DriverAPI &d, CUresult r, const std::string &what) {
  const char *name = nullptr;
  if (d.getErrorName(r, &name) != 0 || !name)
    name = knownErrorName(r);
  return what + " failed: " + name + " (" + std::to_string(r) + ")";
}

