// KernelCache: the generated kernels' object code on disk, so a second compile skips LLVM.
//
// A cache entry is one file per key, named by the key's 64-bit FNV-1a hash
// and holding the whole key before the object bytes, so a hash collision or a
// truncated file reads as a miss, never as wrong code. The key is everything
// the code depends on: each distinct kernel's code key and function name (the
// program), the CPU name and features, the LLVM version and the emitter's
// build id (LlvmKernels.h), so a rebuilt code generator never reuses old
// objects. Writes go to a temporary file renamed into place (atomic on one
// file system); a failing write or an unreadable directory only costs the
// cache, never the compile. The directory is $TEMPO_KERNEL_CACHE ("off"
// disables it), else $XDG_CACHE_HOME/tempo/kernels, else ~/.cache/tempo/kernels.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace tempo {

class KernelCache {
public:
  /// The directory from the environment (see above); nullopt when the cache is off or there is no home.
  static std::optional<std::filesystem::path> defaultDirectory();

  explicit KernelCache(std::filesystem::path directory) : directory_(std::move(directory)) {}

  /// The object stored under `key`, or nullopt (absent, unreadable, another key, truncated).
  std::optional<std::string> load(const std::string& key) const;
  /// Stores `object` under `key`; false when it could not be written (the cache is then just colder).
  bool store(const std::string& key, const std::string& object) const;
  /// The file that holds `key`'s entry.
  std::filesystem::path pathFor(const std::string& key) const;

private:
  std::filesystem::path directory_;
};

}  // namespace tempo
