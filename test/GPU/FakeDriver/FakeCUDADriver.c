/*===- FakeCUDADriver.c - a libcuda.so.1 without a GPU, for tests ---------===*
 *
 * The driver API calls dlc's CUDA runtime loads, on host memory: device
 * memory is calloc'd (host and "device" pointers are the same, as with
 * unified addressing), copies are memcpy, and kernels launch without running
 * (their outputs keep what the buffers held). It lets CI run dlc-cuda-run and
 * a compiled model's host code end to end: signatures, weights, inputs,
 * output comparison, the constant uploads, the runtime's error paths.
 * DLC_FAKE_CUDA_FAIL=<function> makes that function fail with
 * CUDA_ERROR_OUT_OF_MEMORY (2), or CUDA_ERROR_LAUNCH_FAILED (719) for
 * cuLaunchKernel.
 *===----------------------------------------------------------------------===*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;

static CUresult failing(const char *name) {
  const char *f = getenv("DLC_FAKE_CUDA_FAIL");
  if (!f || strcmp(f, name) != 0)
    return 0;
  return strcmp(name, "cuLaunchKernel") == 0 ? 719 : 2;
}
#define FAKE(name) if (failing(#name)) return failing(#name)

static int token; /* what handles point at */

CUresult cuInit(unsigned flags) { (void)flags; FAKE(cuInit); return 0; }
CUresult cuDriverGetVersion(int *v) { *v = 13000; return 0; }
CUresult cuDeviceGetCount(int *n) { *n = 1; return 0; }
CUresult cuDeviceGet(int *d, int i) { *d = i; return 0; }
CUresult cuDeviceGetName(char *name, int len, int d) {
  (void)d;
  snprintf(name, (size_t)len, "dlc fake GPU");
  return 0;
}
CUresult cuDeviceGetAttribute(int *v, int attr, int d) {
  (void)d;
  *v = attr == 75 ? 9 : attr == 76 ? 0 : 1; /* compute capability 9.0 */
  return 0;
}
CUresult cuGetErrorName(CUresult r, const char **name) {
  *name = r == 2 ? "CUDA_ERROR_OUT_OF_MEMORY" : r == 719 ? "CUDA_ERROR_LAUNCH_FAILED"
                                                         : "CUDA_ERROR_UNKNOWN";
  return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **c, int d) { (void)d; *c = &token; return 0; }
CUresult cuCtxSetCurrent(void *c) { (void)c; return 0; }
CUresult cuModuleLoadData(void **m, const void *image) {
  (void)image;
  FAKE(cuModuleLoadData);
  *m = &token;
  return 0;
}
CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned n, int *o, void **v) {
  (void)n, (void)o, (void)v;
  return cuModuleLoadData(m, image);
}
CUresult cuModuleUnload(void *m) { (void)m; return 0; }
CUresult cuModuleGetFunction(void **f, void *m, const char *name) {
  (void)m, (void)name;
  *f = &token;
  return 0;
}
CUresult cuFuncSetAttribute(void *f, int attr, int v) { (void)f, (void)attr, (void)v; return 0; }
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                        unsigned bz, unsigned shared, void *stream, void **params, void **extra) {
  (void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)shared;
  (void)stream, (void)params, (void)extra;
  FAKE(cuLaunchKernel);
  return 0;
}
CUresult cuStreamCreate(void **s, unsigned flags) { (void)flags; *s = &token; return 0; }
CUresult cuStreamSynchronize(void *s) { (void)s; return 0; }
CUresult cuStreamDestroy_v2(void *s) { (void)s; return 0; }
CUresult cuStreamWaitEvent(void *s, void *e, unsigned f) { (void)s, (void)e, (void)f; return 0; }
CUresult cuEventCreate(void **e, unsigned f) { (void)f; *e = &token; return 0; }
CUresult cuEventRecord(void *e, void *s) { (void)e, (void)s; return 0; }
CUresult cuEventSynchronize(void *e) { (void)e; return 0; }
CUresult cuEventDestroy_v2(void *e) { (void)e; return 0; }
CUresult cuEventElapsedTime(float *ms, void *start, void *end) {
  (void)start, (void)end;
  *ms = 0.001f;
  return 0;
}
CUresult cuMemAlloc_v2(unsigned long long *p, size_t bytes) {
  FAKE(cuMemAlloc_v2);
  *p = (unsigned long long)(uintptr_t)calloc(1, bytes);
  return *p ? 0 : 2;
}
CUresult cuMemAllocManaged(unsigned long long *p, size_t bytes, unsigned flags) {
  (void)flags;
  return cuMemAlloc_v2(p, bytes);
}
CUresult cuMemFree_v2(unsigned long long p) { free((void *)(uintptr_t)p); return 0; }
CUresult cuMemcpyAsync(unsigned long long dst, unsigned long long src, size_t n, void *s) {
  (void)s;
  memcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
  return 0;
}
CUresult cuMemsetD32Async(unsigned long long dst, unsigned v, size_t n, void *s) {
  (void)s;
  for (size_t i = 0; i < n; ++i)
    ((unsigned *)(uintptr_t)dst)[i] = v;
  return 0;
}
CUresult cuMemsetD16Async(unsigned long long dst, unsigned short v, size_t n, void *s) {
  (void)s;
  for (size_t i = 0; i < n; ++i)
    ((unsigned short *)(uintptr_t)dst)[i] = v;
  return 0;
}

/* CUDA graphs: a capture records nothing, a replay does nothing (as the
 * fake launches do). */
CUresult cuStreamBeginCapture_v2(void *s, int mode) {
  (void)s, (void)mode;
  FAKE(cuStreamBeginCapture_v2);
  return 0;
}
CUresult cuStreamEndCapture(void *s, void **graph) { (void)s; *graph = &token; return 0; }
CUresult cuGraphInstantiateWithFlags(void **exec, void *graph, unsigned long long flags) {
  (void)graph, (void)flags;
  *exec = &token;
  return 0;
}
CUresult cuGraphLaunch(void *exec, void *s) {
  (void)exec, (void)s;
  FAKE(cuGraphLaunch);
  return 0;
}
CUresult cuGraphDestroy(void *graph) { (void)graph; return 0; }
CUresult cuGraphExecDestroy(void *exec) { (void)exec; return 0; }
