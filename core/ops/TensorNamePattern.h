// TensorNamePattern: the tensor names of `load("m.safetensors", tensor="...")`.
//
// A checkpoint keeps one tensor per layer (`model.layers.0.mlp.up_proj.weight`,
// `model.layers.1...`), where a Tempo program declares one param over a layer
// dimension. The name given to load() may therefore hold placeholders `{l}` naming
// dimensions of the declared domain: the tensor at domain point (l = 3, ...) is the
// one whose name has `3` in place of `{l}`, and it holds the rest of the domain
// (the dimensions not named) followed by the element shape. The named dimensions
// must lead the domain, in its order, so each tensor fills one contiguous block of
// the array. `{{` and `}}` stand for literal braces. The front end checks a pattern
// against its domain (parseTensorNamePattern's error), the loaders expand it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tempo {

struct TensorNamePattern {
  /// The literal pieces around the placeholders: pieces.size() == dims.size() + 1.
  std::vector<std::string> pieces;
  std::vector<std::string> dims;  ///< the placeholders, in the order they appear

  /// The name at the given values of `dims` (one per placeholder, in their order).
  std::string at(const std::vector<int64_t>& values) const;
};

/// Parses `text`; nullopt with `error` set for an unclosed or empty brace, or a lone `}`.
std::optional<TensorNamePattern> parseTensorNamePattern(const std::string& text, std::string& error);

}  // namespace tempo
