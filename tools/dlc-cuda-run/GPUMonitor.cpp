//===- GPUMonitor.cpp - the GPU's power, memory and clock through NVML ----===//
#include "Runner.h"

#include <chrono>
#include <dlfcn.h>
#include <type_traits>

using namespace dlc::runner;

GPUMonitor::GPUMonitor() {
  void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    why = "no NVML (libnvidia-ml.so.1)";
    return;
  }
  int (*init)() = nullptr;
  int (*handle)(unsigned, Device *) = nullptr;
  int (*name)(Device, char *, unsigned) = nullptr;
  int (*driver)(char *, unsigned) = nullptr;
  auto bind = [&](auto &fn, const char *s) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, s));
    return fn != nullptr;
  };
  if (!bind(init, "nvmlInit_v2") || !bind(handle, "nvmlDeviceGetHandleByIndex_v2") ||
      !bind(power, "nvmlDeviceGetPowerUsage") || !bind(temperature, "nvmlDeviceGetTemperature") ||
      !bind(clock, "nvmlDeviceGetClockInfo") || !bind(memory, "nvmlDeviceGetMemoryInfo") ||
      !bind(name, "nvmlDeviceGetName") || !bind(driver, "nvmlSystemGetDriverVersion")) {
    why = "NVML lacks an entry point";
    return;
  }
  if (init() != 0 || handle(0, &device) != 0) {
    why = "NVML did not start";
    device = nullptr;
    return;
  }
  char text[96] = {0};
  if (name(device, text, sizeof text) == 0)
    gpuName = text;
  char version[96] = {0};
  if (driver(version, sizeof version) == 0)
    driverVersion = version;
}

void GPUMonitor::start() {
  if (!device || sampling)
    return;
  sampling = true;
  sampler = std::thread([this] {
    while (sampling) {
      unsigned mw = 0, c = 0, mhz = 0;
      unsigned long long mem[3] = {0, 0, 0}; // total, free, used
      bool read = power(device, &mw) == 0 && temperature(device, 0, &c) == 0 &&
                  clock(device, 1, &mhz) == 0 && memory(device, mem) == 0;
      if (read)
        samples.push_back({mw / 1000.0, mem[2] / 1048576.0, double(c), double(mhz)});
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
}

void GPUMonitor::stop() {
  sampling = false;
  if (sampler.joinable())
    sampler.join();
}
