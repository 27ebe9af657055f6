//===- Memory.cpp - what a tensor needs and what the host has --------------===//
#include "dlc/Support/Memory.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <unistd.h>

uint64_t dlc::hostMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  return pages > 0 && pageSize > 0
             ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize)
             : 0;
}

std::string dlc::formatBytes(uint64_t bytes) {
  static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 6) {
    v /= 1024;
    ++u;
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  if (u == 0)
    os << bytes << " B";
  else
    os << llvm::format("%.1f ", v) << units[u];
  return s;
}

std::string dlc::checkFitsInMemory(uint64_t bytes) {
  uint64_t host = hostMemoryBytes();
  if (host == 0 || bytes <= host)
    return {};
  return "needs " + formatBytes(bytes) + ", more than this machine's " +
         formatBytes(host) + " of memory";
}
