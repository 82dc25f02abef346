#include "ops/TensorNamePattern.h"

namespace tempo {

std::string TensorNamePattern::at(const std::vector<int64_t>& values) const {
  std::string name = pieces.front();
  for (size_t i = 0; i < dims.size(); ++i) name += std::to_string(i < values.size() ? values[i] : 0) + pieces[i + 1];
  return name;
}

std::optional<TensorNamePattern> parseTensorNamePattern(const std::string& text, std::string& error) {
  TensorNamePattern p;
  p.pieces.emplace_back();
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if ((c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {
      p.pieces.back() += c;
      ++i;
    } else if (c == '{') {
      const size_t close = text.find('}', i);
      if (close == std::string::npos) {
        error = "an unclosed '{' at offset " + std::to_string(i) + " (write '{{' for a literal brace)";
        return std::nullopt;
      }
      std::string dim = text.substr(i + 1, close - i - 1);
      if (dim.empty()) {
        error = "an empty '{}' at offset " + std::to_string(i) + ": name a dimension, as in {l}";
        return std::nullopt;
      }
      p.dims.push_back(dim);
      p.pieces.emplace_back();
      i = close;
    } else if (c == '}') {
      error = "a lone '}' at offset " + std::to_string(i) + " (write '}}' for a literal brace)";
      return std::nullopt;
    } else {
      p.pieces.back() += c;
    }
  }
  return p;
}

}  // namespace tempo
