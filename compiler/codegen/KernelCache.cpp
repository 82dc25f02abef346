#include "codegen/KernelCache.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

namespace tempo {
namespace {

constexpr const char* kMagic = "TEMPO-KERNELS-1\n";

uint64_t fnv1a(const std::string& text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
  return h;
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
  std::snprintf(name, sizeof name, "%016llx.o", static_cast<unsigned long long>(fnv1a(key)));
  return directory_ / name;
}

std::optional<std::string> KernelCache::load(const std::string& key) const {
  std::ifstream in(pathFor(key), std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream content;
  content << in.rdbuf();
  const std::string data = content.str();
  // magic, the key's length in decimal and a newline, the key, the object's length and a newline, the object
  const std::string magic(kMagic);
  if (data.compare(0, magic.size(), magic) != 0) return std::nullopt;
  size_t at = magic.size();
  auto number = [&](size_t& value) {
    size_t end = data.find('\n', at);
    if (end == std::string::npos || end == at || end - at > 19) return false;
    value = 0;
    for (size_t i = at; i < end; ++i) {
      if (data[i] < '0' || data[i] > '9') return false;
      value = value * 10 + static_cast<size_t>(data[i] - '0');
    }
    at = end + 1;
    return true;
  };
  size_t keySize = 0, objectSize = 0;
  if (!number(keySize) || data.size() - at < keySize || data.compare(at, keySize, key) != 0) return std::nullopt;
  at += keySize;
  if (!number(objectSize) || data.size() - at != objectSize) return std::nullopt;
  return data.substr(at);
}

bool KernelCache::store(const std::string& key, const std::string& object) const {
  std::error_code ec;
  std::filesystem::create_directories(directory_, ec);
  if (ec) return false;
  const std::filesystem::path target = pathFor(key);
  std::filesystem::path temporary = target;
  temporary += ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out << kMagic << key.size() << '\n' << key << object.size() << '\n' << object;
    out.flush();
    if (!out) {
      std::filesystem::remove(temporary, ec);
      return false;
    }
  }
  std::filesystem::rename(temporary, target, ec);
  if (!ec) return true;
  std::filesystem::remove(temporary, ec);
  return false;
}

}  // namespace tempo
