// KernelCache: the generated kernels on disk as shared libraries, so a second compile skips LLVM.
//
// A cache entry is one shared library per key, named by the key's 64-bit
// FNV-1a hash (`<hash>.so`), defining the constant `kKeySymbol` (the whole
// key, which the native module puts in the object it stores) and ending with a
// trailer past the ELF contents: the hash of the bytes before it. Loading an
// entry checks the trailer before the loader sees the file (dlopen of a
// truncated file can crash) and the key constant after, so a hash collision, a
// truncated or damaged file, or anything the loader rejects reads as a miss,
// never as wrong code. The key is everything the code depends on: each distinct
// kernel's code key and function name (the program), the CPU name and
// features, the LLVM version and the emitter's build id (LlvmKernels.h), so a
// rebuilt code generator never reuses old code. A store links into a temporary
// file renamed into place (atomic on one file system; a loaded library's file
// is never rewritten in place); a failing link or write, or an unreadable
// directory, only costs the cache, never the compile. The directory is
// $TEMPO_KERNEL_CACHE ("off" disables it), else $XDG_CACHE_HOME/tempo/kernels,
// else ~/.cache/tempo/kernels.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace tempo {

class SharedLibrary;

class KernelCache {
public:
  /// The symbol of a stored library that holds its key (a NUL-terminated string).
  static constexpr const char* kKeySymbol = "tempo_kernel_cache_key";

  /// The directory from the environment (see above); nullopt when the cache is off or there is no home.
  static std::optional<std::filesystem::path> defaultDirectory();

  explicit KernelCache(std::filesystem::path directory) : directory_(std::move(directory)) {}

  /// The library stored under `key`, loaded; nullptr on a miss (absent, not loadable, holding another key).
  std::shared_ptr<const SharedLibrary> load(const std::string& key) const;
  /// Links the relocatable `object`, which defines kKeySymbol as `key`, into the entry for `key`;
  /// false when it could not be linked or written (the cache is then just colder).
  bool store(const std::string& key, const std::string& object) const;
  /// The file that holds `key`'s entry.
  std::filesystem::path pathFor(const std::string& key) const;

private:
  std::filesystem::path directory_;
};

}  // namespace tempo
