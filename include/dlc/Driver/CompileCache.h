//===- CompileCache.h - compiled code kept across processes -----*- C++ -*-===//
//
// A directory of compiled objects keyed by what determines their code (the
// IR's structural fingerprint, the target CPU and its features, dlc's and
// LLVM's versions, the options that change code). Entries are written to a
// temporary file and renamed, so processes may fill one cache at once; each
// carries its key, versions, size and SHA-256, and an entry that does not
// verify is removed with a warning and recompiled, never loaded. The least
// recently used entries go when the cache outgrows its cap.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DRIVER_COMPILECACHE_H
#define DLC_DRIVER_COMPILECACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace dlc {

struct CacheOptions {
  bool enabled = true;
  /// Empty: defaultCacheDir().
  std::string dir;
  /// Least recently used entries are evicted beyond this many bytes.
  uint64_t maxBytes = uint64_t(2) << 30;
};

/// $DLC_CACHE_DIR, else $XDG_CACHE_HOME/dlc, else $HOME/.cache/dlc.
std::string defaultCacheDir();

/// What identifies this build of the compiler in cache keys: dlc's version,
/// LLVM's, and the running executable's size and modification time (so that
/// a rebuilt compiler never loads code an older build made).
std::string compilerIdentity();

/// SHA-256 (hex) of `parts` joined with separators: a cache key.
std::string cacheKey(llvm::ArrayRef<std::string> parts);

struct CacheStats {
  int64_t entries = 0;
  uint64_t bytes = 0;
};

class CompileCache {
public:
  explicit CompileCache(CacheOptions options);

  const std::string &directory() const { return dir; }

  /// The entry for `key` if present and intact. An entry that is truncated,
  /// corrupted or written by another compiler is removed, with a warning on
  /// stderr, and reads as absent.
  std::optional<std::string> load(llvm::StringRef key);

  /// Stores `bytes` under `key` atomically, then evicts least recently used
  /// entries beyond the cap.
  llvm::Error store(llvm::StringRef key, llvm::StringRef bytes);

  /// Entries and bytes in the directory now.
  CacheStats stats() const;

private:
  std::string pathOf(llvm::StringRef key) const;
  void evict();

  std::string dir;
  uint64_t maxBytes;
};

} // namespace dlc

#endif // DLC_DRIVER_COMPILECACHE_H
