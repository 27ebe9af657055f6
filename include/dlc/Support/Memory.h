//===- Memory.h - what a tensor needs and what the host has -----*- C++ -*-===//
//
// The one check that refuses, with a message, tensors that cannot fit in
// this machine's memory, before anything tries to allocate them.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_SUPPORT_MEMORY_H
#define DLC_SUPPORT_MEMORY_H

#include <cstdint>
#include <string>

namespace dlc {

/// Physical memory of this machine in bytes (0 if unknown).
uint64_t hostMemoryBytes();

/// "1.5 GiB", "512 MiB", "3 KiB", "12 B".
std::string formatBytes(uint64_t bytes);

/// Empty when `bytes` fit in the host's memory; else the reason, e.g.
/// "needs 8.0 TiB, more than this machine's 23.4 GiB of memory".
std::string checkFitsInMemory(uint64_t bytes);

} // namespace dlc

#endif // DLC_SUPPORT_MEMORY_H
