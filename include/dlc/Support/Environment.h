//===- Environment.h - dlc's switches in the environment --------*- C++ -*-===//
//
// Debugging and profiling aids a user turns on in the environment
// (DLC_VERIFY_EACH, DLC_PERF_MAP) read the same way.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_SUPPORT_ENVIRONMENT_H
#define DLC_SUPPORT_ENVIRONMENT_H

#include "llvm/ADT/StringRef.h"

#include <cstdlib>

namespace dlc {

/// Whether the switch `name` is on: set, and neither empty nor 0.
inline bool envSwitch(const char *name) {
  const char *value = std::getenv(name);
  return value && llvm::StringRef(value) != "" && llvm::StringRef(value) != "0";
}

} // namespace dlc

#endif // DLC_SUPPORT_ENVIRONMENT_H
