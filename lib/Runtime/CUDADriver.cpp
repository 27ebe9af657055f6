//===- CUDADriver.cpp - the NVIDIA driver, loaded at run time --------------===//
#include "dlc/Runtime/CUDADriver.h"
#include "CUDADriverAPI.h"

using namespace dlc;
using namespace dlc::cuda;

/// An error for a failed driver call `what`, naming the CUDA error.
static llvm::Error cudaError(const DriverAPI &d, CUresult r, const std::string &what) {
  return llvm::createStringError(describeError(d, r, what));
}

std::string CUDADevice::arch() const {
  std::string arch = "sm_" + std::to_string(major) + std::to_string(minor);
  return major == 9 && minor == 0 ? arch + "a" : arch;
}

llvm::Expected<CUDADevice> dlc::probeCUDADevice() {
  std::string error;
  const DriverAPI *loaded = driver(error);
  if (!loaded)
    return llvm::createStringError(error);
  const DriverAPI &d = *loaded;
  if (CUresult r = d.init(0))
    return cudaError(d, r, "initializing the CUDA driver (cuInit)");
  int count = 0;
  if (CUresult r = d.deviceGetCount(&count))
    return cudaError(d, r, "counting CUDA devices");
  if (count == 0)
    return llvm::createStringError("no CUDA device: the driver reports none");
  CUdevice device;
  if (CUresult r = d.deviceGet(&device, 0))
    return cudaError(d, r, "opening CUDA device 0");
  CUDADevice info;
  char name[256] = {};
  int version = 0;
  if (CUresult r = d.deviceGetName(name, sizeof(name), device))
    return cudaError(d, r, "naming CUDA device 0");
  if (CUresult r = d.deviceGetAttribute(&info.major, kComputeCapabilityMajor, device))
    return cudaError(d, r, "querying CUDA device 0");
  if (CUresult r = d.deviceGetAttribute(&info.minor, kComputeCapabilityMinor, device))
    return cudaError(d, r, "querying CUDA device 0");
  if (CUresult r = d.driverGetVersion(&version))
    return cudaError(d, r, "querying the CUDA driver's version");
  info.name = name;
  info.driverVersion = std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
  return info;
}
