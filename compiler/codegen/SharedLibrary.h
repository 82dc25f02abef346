// SharedLibrary: generated object code linked into a shared library and loaded by the system's loader.
//
// `linkSharedLibrary` runs LLVM's ELF linker (lld 16's `ld.lld`, as a child
// process: as a library, lld 16 writes through pointers a finished link left
// behind, corrupting the heap of a process that links twice) on one
// relocatable object — position-independent code, as the native module emits
// it — and writes a shared library; its undefined symbols
// (libm's `expf`, `tanh`, ...) are left for the loader to bind from the
// process. `SharedLibrary::open` loads one with dlopen (every symbol bound at
// once) and closes it when the last holder lets go. Loading a cached kernel
// library this way touches no LLVM code at all: no JIT session, no JIT linker,
// and the code pages are the file's, shared by every process that runs the same
// kernels. The header needs no LLVM headers.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

namespace tempo {

class SharedLibrary {
public:
  /// Loads `path` (dlopen, RTLD_NOW | RTLD_LOCAL); nullptr when it cannot be loaded (absent, truncated,
  /// not a library, a symbol it needs is not in the process). `error`, when given, gets dlerror()'s text.
  static std::shared_ptr<const SharedLibrary> open(const std::filesystem::path& path, std::string* error = nullptr);
  ~SharedLibrary();
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;

  /// The address of `name` in this library, or nullptr.
  void* symbol(const std::string& name) const;

private:
  explicit SharedLibrary(void* handle) : handle_(handle) {}
  void* handle_;
};

/// Links the relocatable ELF `object` into the shared library `output` with ld.lld (a child process, one
/// thread; calls may run at once). Throws std::runtime_error with lld's message when it fails.
void linkSharedLibrary(const std::string& object, const std::filesystem::path& output);

}  // namespace tempo
