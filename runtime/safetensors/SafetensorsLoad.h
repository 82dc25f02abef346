// SafetensorsLoad: the whole array of `load("m.safetensors", tensor="...")`.
//
// A Load node whose attrs name a tensor (OpAttrs::tensor, a TensorNamePattern) takes
// its array from a .safetensors file: with no placeholder, one tensor holding the
// domain's bounds followed by the element shape (as a .npy file would); with
// placeholders `{l}`, one tensor per value of the named leading dimensions, each
// holding the rest (`model.layers.{l}.mlp.up_proj.weight` for W1 over (l)). The
// values convert exactly to the declared dtype (Safetensors.h). `tempo check` asks
// for the problems without reading any tensor's bytes.
#pragma once

#include "graph/Graph.h"
#include "tensor/Tensor.h"

#include <string>
#include <vector>

namespace tempo {

/// The array of shape `shape` (domain bounds, then element shape); SafetensorsError on any problem.
Tensor loadSafetensors(const Node& n, const std::vector<int64_t>& shape);

/// What loadSafetensors would fail on, each a sentence naming the file (empty when none):
/// an unreadable file, a missing tensor, a tensor of the wrong shape or dtype.
std::vector<std::string> safetensorsLoadProblems(const Node& n, const std::vector<int64_t>& shape);

}  // namespace tempo
