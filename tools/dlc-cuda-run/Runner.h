//===- Runner.h - dlc-cuda-run's pieces -------------------------*- C++ -*-===//
//
// dlc-cuda-run runs a library from `dlc-run --target=cuda --emit=shared` on
// a GPU machine without LLVM or MLIR, so it has its own small versions of
// what dlc's runtime library does with LLVM there: tensors in .npy files
// (Tensors.cpp), the model library and its weights (ModelLibrary.cpp), and
// the GPU's state through NVML (GPUMonitor.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TOOLS_DLC_CUDA_RUN_RUNNER_H
#define DLC_TOOLS_DLC_CUDA_RUN_RUNNER_H

#include "dlc/Runtime/Agreement.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace dlc::runner {

/// Prints "dlc-cuda-run: error: MESSAGE" and exits 1 (without exit
/// handlers: a loaded model's module unload would run after the runtime's
/// state is gone).
[[noreturn]] void fail(const std::string &message);

/// `text` as a decimal integer, or a diagnostic naming `what`.
int64_t parseInt(const std::string &text, const std::string &what);

//===----------------------------------------------------------------------===//
// Tensors (Tensors.cpp)
//===----------------------------------------------------------------------===//

struct DType {
  std::string name;  ///< dlc's name: f32, bf16, i64, ...
  std::string descr; ///< the .npy descr dlc writes for it
  size_t bytes;      ///< on the device
  bool isFloat;
};

/// The element type dlc names `name`, or a diagnostic.
const DType &dtypeNamed(const std::string &name);

/// A buffer of the model's signature.
struct Buffer {
  const DType *dtype;
  std::vector<int64_t> shape;
  /// Valid values of an integer input, [lo, hi), where the model says.
  int64_t lo = 0, hi = 10;
  int64_t count() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
};

/// "[1,3,224,224]".
std::string formatShape(const std::vector<int64_t> &shape);

/// Element `i` of device-format `data` as a double.
double element(const DType &t, const char *data, int64_t i);
/// Sets it to `v`, rounded to the type (f16 and bf16 to nearest even;
/// booleans nonzero as 1).
void setElement(const DType &t, char *data, int64_t i, double v);

/// A .npy file's data in `buffer`'s device format, checked against its type
/// and shape.
std::vector<char> readNpy(const std::string &path, const Buffer &buffer);

/// Writes device-format `data` of `buffer` as a .npy file (bf16 as f32, as
/// dlc writes it).
void writeNpy(const std::string &path, const Buffer &buffer, const std::vector<char> &data);

/// `b`'s elements in device format, as dlc-run's random:seed=N: floats
/// uniform in [-1, 1), integers in the input's range, booleans 0 or 1.
std::vector<char> randomInput(const Buffer &b, uint64_t seed);

//===----------------------------------------------------------------------===//
// The model library (ModelLibrary.cpp)
//===----------------------------------------------------------------------===//

/// An entry of the library's table of external weights.
struct WeightEntry {
  const char *name;
  void *data;
  int64_t bytes;
};

struct Model {
  void *handle = nullptr;
  std::vector<Buffer> inputs, outputs;
  /// The outputs that are one graph.nms's boxes, scores and classes.
  std::vector<DetectionOutputs> detections;
  void (*packed)(void **) = nullptr;
  void *(*memAlloc)(uint64_t, void *, bool) = nullptr;
  void (*memcpy)(void *, void *, size_t, void *) = nullptr;
  void (*synchronize)(void *) = nullptr;
  const WeightEntry *weights = nullptr;
  int64_t numWeights = 0;
};

/// The library's symbol `name`, or a diagnostic.
void *symbol(void *handle, const std::string &name, const std::string &library);

/// Loads `path` (which loads the kernels: a driver or device problem ends
/// the process with the runtime's diagnostic) and reads the signature of
/// its entry `entry`.
Model loadModel(const std::string &path, const std::string &entry);

/// Fills the model's external weights from `path` (dlc-run's
/// --external-weights file): read, or regenerated from zoo recipes.
/// Returns the bytes regenerated.
uint64_t loadWeights(const Model &m, const std::string &path);

/// For timing only: floating-point weights pseudo-random and small, integer
/// ones (indices, shapes) left zero, so that no gather leaves its table.
void fillRandomWeights(const Model &m, uint64_t seed);

/// Writes the model's external weights as they are now to `path`, every
/// one as bytes (a weights file that needs no regeneration).
void saveWeights(const Model &m, const std::string &path);

//===----------------------------------------------------------------------===//
// The GPU's state (GPUMonitor.cpp)
//===----------------------------------------------------------------------===//

/// Samples NVML's power, memory used, temperature and SM clock of the GPU
/// every 20 ms between start() and stop(). NVML's device 0 (PCI order) is
/// CUDA's device 0, which the runtime uses, unless CUDA_VISIBLE_DEVICES or
/// CUDA_DEVICE_ORDER reorder them.
class GPUMonitor {
public:
  struct Sample {
    double watts, memoryMiB, celsius, smMHz;
  };

  GPUMonitor();
  ~GPUMonitor() { stop(); }
  void start();
  void stop();

  std::vector<Sample> samples;
  std::string gpuName, driverVersion;
  std::string why; ///< why there are no samples, if NVML is missing

private:
  using Device = void *;
  int (*power)(Device, unsigned *) = nullptr;
  int (*temperature)(Device, int, unsigned *) = nullptr;
  int (*clock)(Device, int, unsigned *) = nullptr;
  int (*memory)(Device, unsigned long long *) = nullptr;
  Device device = nullptr;
  std::atomic<bool> sampling{false};
  std::thread sampler;
};

} // namespace dlc::runner

#endif // DLC_TOOLS_DLC_CUDA_RUN_RUNNER_H
