#include "types/ByteSize.h"

#include <cstdlib>

namespace tempo {

std::optional<int64_t> parseByteSize(const std::string& text) {
  std::string s = text;
  if (!s.empty() && (s.back() == 'B' || s.back() == 'b')) s.pop_back();
  double scale = 1;
  if (!s.empty()) {
    switch (s.back()) {
      case 'k': case 'K': scale = 1024.0; break;
      case 'm': case 'M': scale = 1024.0 * 1024; break;
      case 'g': case 'G': scale = 1024.0 * 1024 * 1024; break;
      default: break;
    }
    if (scale != 1) s.pop_back();
  }
  if (s.empty() || s.find_first_not_of("0123456789.") != std::string::npos) return std::nullopt;
  char* end = nullptr;
  double value = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || value * scale > 9.0e18) return std::nullopt;
  return static_cast<int64_t>(value * scale);
}

}  // namespace tempo
