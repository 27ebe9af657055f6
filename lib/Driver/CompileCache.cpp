//===- CompileCache.cpp - compiled code kept across processes --------------===//
#include "dlc/Driver/CompileCache.h"
#include "dlc/Support/Version.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <utime.h>
#include <vector>

using namespace dlc;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

/// An entry: this line, then key, compiler identity, payload size and
/// payload SHA-256 on one line each, then the payload.
static constexpr llvm::StringLiteral kMagic = "dlc-compile-cache 1\n";

static std::string sha256Hex(llvm::StringRef bytes) {
  llvm::SHA256 hash;
  hash.update(bytes);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

std::string dlc::defaultCacheDir() {
  if (std::optional<std::string> d = llvm::sys::Process::GetEnv("DLC_CACHE_DIR"))
    return *d;
  llvm::SmallString<128> dir;
  if (std::optional<std::string> x = llvm::sys::Process::GetEnv("XDG_CACHE_HOME")) {
    dir = *x;
  } else if (std::optional<std::string> home = llvm::sys::Process::GetEnv("HOME")) {
    dir = *home;
    path::append(dir, ".cache");
  } else {
    fs::getPotentiallyUniqueTempFileName("dlc-cache", "", dir);
    return dir.str().str();
  }
  path::append(dir, "dlc");
  return dir.str().str();
}

std::string dlc::compilerIdentity() {
  std::string id = std::string("dlc ") + gitVersion() + " llvm " LLVM_VERSION_STRING;
  std::string exe = fs::getMainExecutable(nullptr, nullptr);
  fs::file_status status;
  if (!exe.empty() && !fs::status(exe, status))
    id += " exe " + std::to_string(status.getSize()) + " " +
          std::to_string(status.getLastModificationTime().time_since_epoch().count());
  return id;
}

std::string dlc::cacheKey(llvm::ArrayRef<std::string> parts) {
  std::string all;
  for (const std::string &p : parts)
    all += p + '\0';
  return sha256Hex(all);
}

CompileCache::CompileCache(CacheOptions options)
    : dir(options.dir.empty() ? defaultCacheDir() : options.dir),
      maxBytes(options.maxBytes) {}

std::string CompileCache::pathOf(llvm::StringRef key) const {
  llvm::SmallString<128> p(dir);
  path::append(p, key + ".dlcobj");
  return p.str().str();
}

std::optional<std::string> CompileCache::load(llvm::StringRef key) {
  std::string p = pathOf(key);
  auto buffer = llvm::MemoryBuffer::getFile(p, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return std::nullopt;
  llvm::StringRef rest = (*buffer)->getBuffer();
  auto reject = [&](llvm::StringRef why) -> std::optional<std::string> {
    llvm::WithColor::warning(llvm::errs(), "dlc")
        << "compile cache entry " << p << " " << why << "; removed, compiling again\n";
    fs::remove(p);
    return std::nullopt;
  };
  auto line = [&]() {
    auto [first, tail] = rest.split('\n');
    rest = tail;
    return first;
  };
  if (!rest.consume_front(kMagic))
    return reject("is not a cache entry");
  llvm::StringRef storedKey = line(), identity = line(), size = line(), sum = line();
  if (storedKey != key || identity != compilerIdentity())
    return reject("was written by another compiler build");
  uint64_t n;
  if (size.getAsInteger(10, n) || rest.size() != n)
    return reject("is truncated");
  if (sha256Hex(rest) != sum)
    return reject("is corrupted (checksum mismatch)");
  // Recently used: eviction goes by modification time.
  ::utime(p.c_str(), nullptr);
  return rest.str();
}

llvm::Error CompileCache::store(llvm::StringRef key, llvm::StringRef bytes) {
  if (std::error_code ec = fs::create_directories(dir))
    return llvm::createStringError("compile cache " + dir + ": " + ec.message());
  llvm::SmallString<128> temp;
  int fd;
  if (std::error_code ec =
          fs::createUniqueFile(pathOf(key) + ".tmp-%%%%%%%%", fd, temp))
    return llvm::createStringError("compile cache " + dir + ": " + ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << kMagic << key << '\n' << compilerIdentity() << '\n' << bytes.size() << '\n'
       << sha256Hex(bytes) << '\n' << bytes;
    if (os.has_error()) {
      os.clear_error();
      fs::remove(temp);
      return llvm::createStringError("compile cache " + dir + ": cannot write " + temp);
    }
  }
  // Atomic: a reader sees the old entry, the new one, or none.
  if (std::error_code ec = fs::rename(temp, pathOf(key))) {
    fs::remove(temp);
    return llvm::createStringError("compile cache " + dir + ": " + ec.message());
  }
  evict();
  return llvm::Error::success();
}

/// Entries of the cache directory with their sizes and times.
struct Entry {
  std::string path;
  uint64_t bytes;
  llvm::sys::TimePoint<> used;
};

static std::vector<Entry> entries(const std::string &dir) {
  std::vector<Entry> all;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    if (path::extension(it->path()) != ".dlcobj")
      continue;
    fs::file_status status;
    if (!fs::status(it->path(), status))
      all.push_back({it->path(), status.getSize(), status.getLastModificationTime()});
  }
  return all;
}

void CompileCache::evict() {
  std::vector<Entry> all = entries(dir);
  uint64_t total = 0;
  for (const Entry &e : all)
    total += e.bytes;
  std::sort(all.begin(), all.end(),
            [](const Entry &a, const Entry &b) { return a.used < b.used; });
  for (const Entry &e : all) {
    if (total <= maxBytes)
      break;
    if (!fs::remove(e.path))
      total -= e.bytes;
  }
}

CacheStats CompileCache::stats() const {
  CacheStats s;
  for (const Entry &e : entries(dir)) {
    ++s.entries;
    s.bytes += e.bytes;
  }
  return s;
}
