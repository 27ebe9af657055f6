//===- CUDARuntime.cpp - the runtime calls of lowered GPU code --------------===//
//
// gpu-to-llvm lowers host-side GPU ops to calls of `mgpu*` functions (the ABI
// of MLIR 22's CudaRuntimeWrappers). dlc implements them on the driver API it
// loads at run time (CUDADriverAPI.h), for latency rather than generality:
// - one context (device 0's primary one) and one stream for the process:
//   mgpuStreamCreate returns it and destroying it does nothing, so lowered
//   code that creates a stream per launch costs no driver call;
// - functions cached per module and name;
// - device memory kept for reuse when freed, by size (a pool), which the
//   single stream makes safe: a later allocation's users run after the
//   earlier ones;
// - a kernel's dynamic shared memory limit raised only when a launch needs
//   more than it was raised to;
// - constants (weights) uploaded once, on their first use, and kept on the
//   device for the process (dlc_cuda_constant_*); so are the zeroed
//   buffers in which split products count their finished slices, which
//   their kernels leave zeroed (dlc-gpu-host-buffers);
// - with DLC_CUDA_PROFILE set, each kernel's GPU time measured with CUDA
//   events around its launch and summed per kernel (dlc_cuda_profile_write),
//   and so is other work on the stream (profiled(): cuBLAS's products);
// - a call of a model captured as a CUDA graph and replayed
//   (dlc_cuda_graph_*): one launch instead of one per kernel.
// A failing call prints one diagnostic naming the call and the CUDA error
// and exits with status 1: the ABI has no way to return an error, and going
// on would compute garbage.
//
//===----------------------------------------------------------------------===//
#include "CUDARuntime.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

using namespace dlc::cuda;

namespace {
struct Runtime {
  const DriverAPI *d = nullptr;
  CUcontext context = nullptr;
  CUstream stream = nullptr;
  std::mutex mutex;
  std::map<std::pair<CUmodule, std::string>, CUfunction> functions;
  /// The dynamic shared memory limit each function was raised to.
  std::unordered_map<CUfunction, int32_t> sharedMemoryRaised;
  /// Free device blocks by (size, managed); every block's size and kind,
  /// and whether it is free.
  std::multimap<std::pair<size_t, bool>, CUdeviceptr> freeBlocks;
  struct Block {
    std::pair<size_t, bool> kind;
    bool free = false;
  };
  std::unordered_map<CUdeviceptr, Block> blocks;
  /// Device copies of host constants, by host address.
  std::unordered_map<const void *, CUdeviceptr> constants;
  /// DLC_CUDA_PROFILE: launches whose events are not read yet, the kernels'
  /// totals, spare events.
  bool profile = false;
  struct Launch {
    const void *key; ///< the CUfunction, or the name of other work (profiled())
    CUevent start, end;
  };
  std::vector<Launch> pending;
  struct KernelTime {
    int64_t calls = 0;
    double ms = 0;
  };
  std::unordered_map<const void *, KernelTime> kernelTimes;
  /// The names of work other than kernels timed (profiled()), by key.
  std::unordered_map<const void *, std::string> workNames;
  std::vector<CUevent> spareEvents;
  /// dlc_cuda_graph_*: whether the stream is being captured, and the
  /// replayable graph.
  bool capturing = false;
  CUgraphExec graph = nullptr;
};

/// A rank-1 memref descriptor (MLIR's C interface).
struct Descriptor1D {
  void *allocated, *aligned;
  int64_t offset, size, stride;
};
} // namespace

[[noreturn]] void dlc::cuda::die(const std::string &message) {
  std::fprintf(stderr, "dlc: CUDA runtime: %s\n", message.c_str());
  // Without running exit handlers: the model's module unloading is one, and
  // would come back here.
  std::fflush(nullptr);
  std::_Exit(1);
}

static void check(const DriverAPI &d, CUresult r, const char *what) {
  if (r != 0)
    die(describeError(d, r, what));
}

/// The process's runtime, started on first use; the calling thread gets
/// the context.
static Runtime &runtime() {
  static Runtime *rt = [] {
    std::string error;
    const DriverAPI *d = driver(error);
    if (!d)
      die(error);
    auto *r = new Runtime;
    r->d = d;
    check(*r->d, r->d->init(0), "cuInit");
    CUdevice device;
    check(*r->d, r->d->deviceGet(&device, 0), "cuDeviceGet (device 0)");
    check(*r->d, r->d->primaryCtxRetain(&r->context, device), "cuDevicePrimaryCtxRetain");
    check(*r->d, r->d->ctxSetCurrent(r->context), "cuCtxSetCurrent");
    check(*r->d, r->d->streamCreate(&r->stream, kStreamNonBlocking), "cuStreamCreate");
    r->profile = std::getenv("DLC_CUDA_PROFILE") != nullptr;
    return r;
  }();
  thread_local bool current = false;
  if (!current) {
    check(*rt->d, rt->d->ctxSetCurrent(rt->context), "cuCtxSetCurrent");
    current = true;
  }
  return *rt;
}

CUstream dlc::cuda::runtimeStream() { return runtime().stream; }

static CUstream streamOr(Runtime &rt, void *stream) {
  return stream ? static_cast<CUstream>(stream) : rt.stream;
}

/// With the profile on: `enqueue`'s work on `stream` between two events,
/// under the lock so that no other thread's work falls between them, its
/// GPU time added to `key`'s when the stream is next synchronized.
template <typename Enqueue>
static void enqueueProfiled(Runtime &rt, const void *key, CUstream stream, Enqueue &&enqueue) {
  std::lock_guard<std::mutex> lock(rt.mutex);
  Runtime::Launch timed{key, nullptr, nullptr};
  for (CUevent *e : {&timed.start, &timed.end}) {
    if (rt.spareEvents.empty()) {
      check(*rt.d, rt.d->eventCreate(e, 0), "cuEventCreate (profile)");
    } else {
      *e = rt.spareEvents.back();
      rt.spareEvents.pop_back();
    }
  }
  check(*rt.d, rt.d->eventRecord(timed.start, stream), "cuEventRecord (profile)");
  enqueue();
  check(*rt.d, rt.d->eventRecord(timed.end, stream), "cuEventRecord (profile)");
  rt.pending.push_back(timed);
}

extern "C" {

void *mgpuModuleLoad(void *data, size_t /*size*/) {
  Runtime &rt = runtime();
  CUmodule module;
  check(*rt.d, rt.d->moduleLoadData(&module, data), "cuModuleLoadData (the model's kernels)");
  return module;
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  Runtime &rt = runtime();
  CUmodule module;
  int options[] = {kJitOptimizationLevel};
  void *values[] = {reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  check(*rt.d, rt.d->moduleLoadDataEx(&module, data, 1, options, values),
        "cuModuleLoadDataEx (JIT of the model's PTX)");
  return module;
}

void mgpuModuleUnload(void *module) {
  Runtime &rt = runtime();
  {
    std::lock_guard<std::mutex> lock(rt.mutex);
    for (auto it = rt.functions.begin(); it != rt.functions.end();) {
      if (it->first.first != module) {
        ++it;
        continue;
      }
      rt.sharedMemoryRaised.erase(it->second);
      it = rt.functions.erase(it);
    }
  }
  check(*rt.d, rt.d->moduleUnload(module), "cuModuleUnload");
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mutex);
  CUfunction &function = rt.functions[{module, name}];
  if (!function)
    check(*rt.d, rt.d->moduleGetFunction(&function, module, name),
          ("cuModuleGetFunction (kernel " + std::string(name) + ")").c_str());
  return function;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                      intptr_t blockX, intptr_t blockY, intptr_t blockZ, int32_t sharedBytes,
                      void *stream, void **params, void **extra, size_t /*paramsCount*/) {
  Runtime &rt = runtime();
  constexpr int32_t kDefaultSharedLimit = 48 * 1024;
  if (sharedBytes > kDefaultSharedLimit) {
    std::lock_guard<std::mutex> lock(rt.mutex);
    int32_t &raised = rt.sharedMemoryRaised[function];
    if (sharedBytes > raised) {
      check(*rt.d, rt.d->funcSetAttribute(function, kMaxDynamicSharedBytes, sharedBytes),
            "cuFuncSetAttribute (dynamic shared memory)");
      raised = sharedBytes;
    }
  }
  if (!rt.profile) {
    check(*rt.d,
          rt.d->launchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedBytes,
                             streamOr(rt, stream), params, extra),
          "cuLaunchKernel");
    return;
  }
  enqueueProfiled(rt, function, streamOr(rt, stream), [&] {
    check(*rt.d,
          rt.d->launchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedBytes,
                             streamOr(rt, stream), params, extra),
          "cuLaunchKernel");
  });
}

/// Adds the GPU time of the first `done` pending launches (queued before a
/// synchronization of the stream that has returned) to their kernels'
/// totals.
static void collectProfile(Runtime &rt, size_t done) {
  std::lock_guard<std::mutex> lock(rt.mutex);
  done = std::min(done, rt.pending.size());
  for (size_t i = 0; i < done; ++i) {
    const Runtime::Launch &l = rt.pending[i];
    float ms = 0;
    check(*rt.d, rt.d->eventElapsedTime(&ms, l.start, l.end), "cuEventElapsedTime (profile)");
    Runtime::KernelTime &t = rt.kernelTimes[l.key];
    ++t.calls;
    t.ms += ms;
    rt.spareEvents.push_back(l.start);
    rt.spareEvents.push_back(l.end);
  }
  rt.pending.erase(rt.pending.begin(), rt.pending.begin() + done);
}

/// The number of pending profiled launches.
static size_t pendingLaunches(Runtime &rt) {
  std::lock_guard<std::mutex> lock(rt.mutex);
  return rt.pending.size();
}

void *mgpuStreamCreate() { return runtime().stream; }

void mgpuStreamDestroy(void *stream) {
  Runtime &rt = runtime();
  if (stream && stream != rt.stream)
    check(*rt.d, rt.d->streamDestroy(stream), "cuStreamDestroy");
}

void mgpuStreamSynchronize(void *stream) {
  Runtime &rt = runtime();
  if (rt.capturing) // recorded, not run: nothing to wait for
    return;
  size_t queued = rt.profile ? pendingLaunches(rt) : 0;
  check(*rt.d, rt.d->streamSynchronize(streamOr(rt, stream)), "cuStreamSynchronize");
  if (rt.profile)
    collectProfile(rt, queued);
}

/// With DLC_CUDA_PROFILE set: writes to `path` each kernel's calls and GPU
/// time, most first, as tab-separated `kernel calls total_ms mean_us share`;
/// returns 0, or -1 if the file cannot be written or nothing was profiled.
int dlc_cuda_profile_write(const char *path) {
  Runtime &rt = runtime();
  if (!rt.profile)
    return -1;
  size_t queued = pendingLaunches(rt);
  check(*rt.d, rt.d->streamSynchronize(rt.stream), "cuStreamSynchronize");
  collectProfile(rt, queued);
  std::lock_guard<std::mutex> lock(rt.mutex);
  std::unordered_map<const void *, std::string> names(rt.workNames.begin(), rt.workNames.end());
  for (const auto &[key, function] : rt.functions)
    names[function] = key.second;
  std::vector<std::pair<const void *, Runtime::KernelTime>> rows(rt.kernelTimes.begin(),
                                                                 rt.kernelTimes.end());
  std::sort(rows.begin(), rows.end(),
            [](const auto &a, const auto &b) { return a.second.ms > b.second.ms; });
  double total = 0;
  for (const auto &row : rows)
    total += row.second.ms;
  FILE *f = std::fopen(path, "w");
  if (!f)
    return -1;
  std::fprintf(f, "kernel\tcalls\ttotal_ms\tmean_us\tshare\n");
  for (const auto &[key, t] : rows)
    std::fprintf(f, "%s\t%lld\t%.3f\t%.2f\t%.3f\n", names[key].c_str(),
                 static_cast<long long>(t.calls), t.ms, 1000.0 * t.ms / t.calls,
                 total > 0 ? t.ms / total : 0.0);
  return std::fclose(f) == 0 && !rows.empty() ? 0 : -1;
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  Runtime &rt = runtime();
  check(*rt.d, rt.d->streamWaitEvent(streamOr(rt, stream), event, 0), "cuStreamWaitEvent");
}

void *mgpuEventCreate() {
  Runtime &rt = runtime();
  CUevent event;
  check(*rt.d, rt.d->eventCreate(&event, kEventDisableTiming), "cuEventCreate");
  return event;
}

void mgpuEventDestroy(void *event) {
  Runtime &rt = runtime();
  check(*rt.d, rt.d->eventDestroy(event), "cuEventDestroy");
}

void mgpuEventSynchronize(void *event) {
  Runtime &rt = runtime();
  if (rt.capturing)
    return;
  check(*rt.d, rt.d->eventSynchronize(event), "cuEventSynchronize");
}

void mgpuEventRecord(void *event, void *stream) {
  Runtime &rt = runtime();
  check(*rt.d, rt.d->eventRecord(event, streamOr(rt, stream)), "cuEventRecord");
}

void *mgpuMemAlloc(uint64_t bytes, void * /*stream*/, bool isHostShared) {
  Runtime &rt = runtime();
  if (bytes == 0)
    return nullptr;
  std::pair<size_t, bool> kind{bytes, isHostShared};
  std::lock_guard<std::mutex> lock(rt.mutex);
  auto it = rt.freeBlocks.find(kind);
  if (it != rt.freeBlocks.end()) {
    CUdeviceptr ptr = it->second;
    rt.freeBlocks.erase(it);
    rt.blocks[ptr].free = false;
    return reinterpret_cast<void *>(ptr);
  }
  auto allocate = [&](CUdeviceptr &ptr) {
    return isHostShared ? rt.d->memAllocManaged(&ptr, bytes, kMemAttachGlobal)
                        : rt.d->memAlloc(&ptr, bytes);
  };
  CUdeviceptr ptr = 0;
  CUresult r = allocate(ptr);
  if (r != 0 && !rt.freeBlocks.empty()) {
    // The pool's blocks may be what is missing: once the work queued on the
    // stream (which may still use them) is done, free them and retry.
    check(*rt.d, rt.d->streamSynchronize(rt.stream), "cuStreamSynchronize");
    for (auto &[k, block] : rt.freeBlocks) {
      check(*rt.d, rt.d->memFree(block), "cuMemFree");
      rt.blocks.erase(block);
    }
    rt.freeBlocks.clear();
    r = allocate(ptr);
  }
  check(*rt.d, r, ("allocating " + std::to_string(bytes) + " bytes of device memory").c_str());
  rt.blocks[ptr] = {kind, false};
  return reinterpret_cast<void *>(ptr);
}

void mgpuMemFree(void *ptr, void * /*stream*/) {
  if (!ptr)
    return;
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mutex);
  auto block = rt.blocks.find(reinterpret_cast<CUdeviceptr>(ptr));
  if (block == rt.blocks.end())
    die("freeing device memory dlc did not allocate");
  if (block->second.free)
    die("freeing device memory twice");
  block->second.free = true;
  rt.freeBlocks.emplace(block->second.kind, block->first);
}

void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream) {
  Runtime &rt = runtime();
  check(*rt.d,
        rt.d->memcpyAsync(reinterpret_cast<CUdeviceptr>(dst), reinterpret_cast<CUdeviceptr>(src),
                          bytes, streamOr(rt, stream)),
        "cuMemcpyAsync");
}

void mgpuMemset32(void *dst, unsigned value, size_t count, void *stream) {
  Runtime &rt = runtime();
  check(*rt.d,
        rt.d->memsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                             streamOr(rt, stream)),
        "cuMemsetD32Async");
}

void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream) {
  Runtime &rt = runtime();
  check(*rt.d,
        rt.d->memsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                             streamOr(rt, stream)),
        "cuMemsetD16Async");
}

/// A host constant's device copy, made on first use: `host` is a contiguous
/// constant of `elementBytes`-byte elements (or a zeroed buffer that the
/// kernels leave zeroed: its copy is theirs for the process). The copy is
/// keyed by the host address: a program that fills external weights does so
/// before the first call. Called through the C interface
/// of `dlc_cuda_constant_<type>` (dlc-gpu-host-buffers).
static void deviceConstant(Descriptor1D *result, const Descriptor1D *host, int64_t elementBytes) {
  if (host->stride != 1 && host->size > 1)
    die("a constant with a non-unit stride cannot be uploaded");
  const char *data = static_cast<const char *>(host->aligned) + host->offset * elementBytes;
  size_t bytes = static_cast<size_t>(host->size * elementBytes);
  Runtime &rt = runtime();
  CUdeviceptr device;
  {
    std::lock_guard<std::mutex> lock(rt.mutex);
    auto it = rt.constants.find(data);
    device = it == rt.constants.end() ? 0 : it->second;
  }
  if (!device && bytes) {
    CUdeviceptr upload = reinterpret_cast<CUdeviceptr>(mgpuMemAlloc(bytes, nullptr, false));
    // On the one stream: the kernels that read it run after the copy.
    check(*rt.d, rt.d->memcpyAsync(upload, reinterpret_cast<CUdeviceptr>(data), bytes, rt.stream),
          "cuMemcpyAsync (uploading a constant)");
    bool first;
    {
      std::lock_guard<std::mutex> lock(rt.mutex);
      auto [it, inserted] = rt.constants.try_emplace(data, upload);
      device = it->second;
      first = inserted;
    }
    if (!first) // another thread uploaded it meanwhile
      mgpuMemFree(reinterpret_cast<void *>(upload), nullptr);
  }
  void *ptr = reinterpret_cast<void *>(device);
  *result = {ptr, ptr, 0, host->size, 1};
}

#define DLC_CUDA_CONSTANT(TYPE, BYTES)                                                        \
  void _mlir_ciface_dlc_cuda_constant_##TYPE(Descriptor1D *result, Descriptor1D *host) {    \
    deviceConstant(result, host, BYTES);                                                      \
  }
DLC_CUDA_CONSTANT(f16, 2)
DLC_CUDA_CONSTANT(bf16, 2)
DLC_CUDA_CONSTANT(f32, 4)
DLC_CUDA_CONSTANT(f64, 8)
DLC_CUDA_CONSTANT(i1, 1)
DLC_CUDA_CONSTANT(i8, 1)
DLC_CUDA_CONSTANT(i16, 2)
DLC_CUDA_CONSTANT(i32, 4)
DLC_CUDA_CONSTANT(i64, 8)
DLC_CUDA_CONSTANT(index, 8)
#undef DLC_CUDA_CONSTANT

/// Starts capturing the process's stream: the model calls made until
/// dlc_cuda_graph_end are recorded into a CUDA graph, not run. The calls
/// must be replayable: the same kernels on the same buffers (the memory
/// pool gives a model's call the same blocks from its second call on).
void dlc_cuda_graph_begin() {
  Runtime &rt = runtime();
  if (rt.profile)
    die("kernel profiles and CUDA graphs exclude each other");
  if (rt.capturing)
    die("a CUDA graph is being captured already");
  check(*rt.d, rt.d->streamSynchronize(rt.stream), "cuStreamSynchronize");
  check(*rt.d, rt.d->streamBeginCapture(rt.stream, kStreamCaptureModeRelaxed),
        "cuStreamBeginCapture");
  rt.capturing = true;
}

/// Ends the capture and makes the graph replayable (replacing an earlier
/// one).
void dlc_cuda_graph_end() {
  Runtime &rt = runtime();
  if (!rt.capturing)
    die("no CUDA graph is being captured");
  rt.capturing = false;
  CUgraph graph = nullptr;
  check(*rt.d, rt.d->streamEndCapture(rt.stream, &graph), "cuStreamEndCapture");
  if (rt.graph)
    check(*rt.d, rt.d->graphExecDestroy(rt.graph), "cuGraphExecDestroy");
  check(*rt.d, rt.d->graphInstantiate(&rt.graph, graph, 0), "cuGraphInstantiate");
  check(*rt.d, rt.d->graphDestroy(graph), "cuGraphDestroy");
}

/// Replays the captured graph and waits for it.
void dlc_cuda_graph_launch() {
  Runtime &rt = runtime();
  if (!rt.graph)
    die("no CUDA graph was captured");
  check(*rt.d, rt.d->graphLaunch(rt.graph, rt.stream), "cuGraphLaunch");
  check(*rt.d, rt.d->streamSynchronize(rt.stream), "cuStreamSynchronize");
}

void mgpuSetDefaultDevice(int32_t device) {
  if (device != 0)
    die("device " + std::to_string(device) + " asked for; dlc runs on device 0");
}

} // extern "C"

void dlc::cuda::profiled(const char *name, const std::function<void()> &enqueue) {
  Runtime &rt = runtime();
  if (!rt.profile)
    return enqueue();
  {
    std::lock_guard<std::mutex> lock(rt.mutex);
    rt.workNames.try_emplace(name, name);
  }
  enqueueProfiled(rt, name, rt.stream, enqueue);
}
