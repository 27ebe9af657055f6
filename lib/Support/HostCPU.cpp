//===- HostCPU.cpp - what the host CPU's vector units offer ----------------===//
#include "dlc/Support/HostCPU.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

int64_t dlc::hostVectorBits() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  return features.lookup("avx512f") ? 512 : 256;
}

bool dlc::hostHasBF16Dots() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  return features.lookup("avx512f") && features.lookup("avx512bf16");
}
