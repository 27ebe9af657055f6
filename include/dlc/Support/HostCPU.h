//===- HostCPU.h - what the host CPU's vector units offer -------*- C++ -*-===//
//
// dlc compiles CPU code for the machine it runs on: the CPU compiler's
// kernels, and the auto pipeline's few host-dependent choices, ask here.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_SUPPORT_HOSTCPU_H
#define DLC_SUPPORT_HOSTCPU_H

#include <cstdint>

namespace dlc {

/// The width of the host's vector registers in bits: 512 with AVX-512F,
/// else 256 (AVX2, the least dlc's x86-64 kernels assume).
int64_t hostVectorBits();

/// Whether the host has AVX512-BF16 dot products (`vdpbf16ps`).
bool hostHasBF16Dots();

} // namespace dlc

#endif // DLC_SUPPORT_HOSTCPU_H
