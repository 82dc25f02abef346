#include "codegen/KernelCache.h"

#include "codegen/SharedLibrary.h"

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace tempo {
namespace {

uint64_t fnv1a(const std::string& text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

constexpr char kTrailerMagic[8] = {'T', 'E', 'M', 'P', 'O', 'K', 'C', '1'};

/// The trailer a stored library ends with: the FNV-1a hash of the bytes before it, then kTrailerMagic.
/// The loader ignores bytes past what the ELF headers describe; dlopen of a truncated or damaged file
/// can crash the process, so a load reads the file and checks this first.
std::string trailer(const std::string& bytes) {
  const uint64_t hash = fnv1a(bytes);
  std::string out(reinterpret_cast<const char*>(&hash), sizeof hash);
  return out.append(kTrailerMagic, sizeof kTrailerMagic);
}

/// The whole file, or nullopt when it cannot be read.
std::optional<std::string> contentsOf(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  if (!in) return std::nullopt;
  return content.str();
}

bool endsWithItsTrailer(const std::filesystem::path& path) {
  const std::optional<std::string> read = contentsOf(path);
  if (!read) return false;
  const std::string& data = *read;
  const size_t size = 8 + sizeof kTrailerMagic;
  return data.size() > size && data.compare(data.size() - size, size, trailer(data.substr(0, data.size() - size))) == 0;
}

}  // namespace

std::optional<std::filesystem::path> KernelCache::defaultDirectory() {
  if (const char* dir = std::getenv("TEMPO_KERNEL_CACHE")) {
    if (std::string(dir) == "off" || std::string(dir).empty()) return std::nullopt;
    return std::filesystem::path(dir);
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "tempo/kernels";
  if (const char* home = std::getenv("HOME"); home && *home) return std::filesystem::path(home) / ".cache/tempo/kernels";
  return std::nullopt;
}

std::filesystem::path KernelCache::pathFor(const std::string& key) const {
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.so", static_cast<unsigned long long>(fnv1a(key)));
  return directory_ / name;
}

std::shared_ptr<const SharedLibrary> KernelCache::load(const std::string& key) const {
  const std::filesystem::path path = pathFor(key);
  if (!endsWithItsTrailer(path)) return nullptr;
  std::shared_ptr<const SharedLibrary> library = SharedLibrary::open(path);
  if (!library) return nullptr;
  const auto* stored = static_cast<const char*>(library->symbol(kKeySymbol));
  if (!stored || key != stored) return nullptr;
  return library;
}

bool KernelCache::store(const std::string& key, const std::string& object) const {
  std::error_code ec;
  std::filesystem::create_directories(directory_, ec);
  if (ec) return false;
  const std::filesystem::path target = pathFor(key);
  std::filesystem::path temporary = target;
  static std::atomic<int> stores{0};  // two compiles of one process may store at once
  temporary += ".tmp" + std::to_string(::getpid()) + "-" + std::to_string(stores++);
  try {
    linkSharedLibrary(object, temporary);
    const std::optional<std::string> linked = contentsOf(temporary);
    std::ofstream out(temporary, std::ios::binary | std::ios::app);
    if (linked) out << trailer(*linked);
    if (!linked || !out.flush()) throw std::runtime_error("cannot append the trailer");
  } catch (const std::exception&) {
    std::filesystem::remove(temporary, ec);
    return false;
  }
  std::filesystem::rename(temporary, target, ec);
  if (!ec) return true;
  std::filesystem::remove(temporary, ec);
  return false;
}

}  // namespace tempo
