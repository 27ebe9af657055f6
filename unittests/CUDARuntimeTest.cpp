//===- CUDARuntimeTest.cpp - the GPU runtime without a GPU ----------------===//
//
// On machines without a GPU (CI), every runtime entry point ends the process
// with one diagnostic naming what is missing, never a crash. With a GPU the
// tests are skipped and say so (running the runtime there is still to come).
//
//===----------------------------------------------------------------------===//
#include "dlc/Runtime/CUDADriver.h"

#include <gtest/gtest.h>

extern "C" {
void *mgpuStreamCreate();
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool isHostShared);
void *mgpuModuleLoad(void *data, size_t size);
}

namespace {

bool gpuPresent() {
  llvm::Expected<dlc::CUDADevice> device = dlc::probeCUDADevice();
  if (device)
    return true;
  llvm::consumeError(device.takeError());
  return false;
}

TEST(CUDARuntime, ProbeNamesWhatIsMissing) {
  llvm::Expected<dlc::CUDADevice> device = dlc::probeCUDADevice();
  if (device)
    GTEST_SKIP() << "a GPU is present: " << device->name;
  std::string message = llvm::toString(device.takeError());
  EXPECT_TRUE(message.find("no CUDA driver") != std::string::npos ||
              message.find("failed: CUDA_ERROR_") != std::string::npos ||
              message.find("no CUDA device") != std::string::npos)
      << message;
}

TEST(CUDARuntimeDeathTest, EntryPointsExitWithOneDiagnostic) {
  if (gpuPresent())
    GTEST_SKIP() << "a GPU is present: the GPU suite runs the runtime";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const char *missing = "dlc: CUDA runtime: (no CUDA driver|.*failed: CUDA_ERROR_)";
  EXPECT_EXIT(mgpuStreamCreate(), testing::ExitedWithCode(1), missing);
  EXPECT_EXIT(mgpuMemAlloc(1024, nullptr, false), testing::ExitedWithCode(1), missing);
  EXPECT_EXIT(mgpuModuleLoad(nullptr, 0), testing::ExitedWithCode(1), missing);
}

} // namespace
