// SourceArray: the whole array of a source node over its domain.
//
// Loaded inputs and randomly initialised params are produced once for their
// whole domain — an array of shape [domain bounds..., element shape] — and
// then indexed point by point. Both engines (the reference interpreter and
// the executor) build that array here, so a .npy file is checked the same way
// and an initialiser fills the same values everywhere; each engine wraps the
// error in its own error type with its own context.
#pragma once

#include "graph/Graph.h"
#include "tensor/Tensor.h"

#include <map>
#include <stdexcept>
#include <vector>

namespace tempo {

class SourceArrayError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The whole array of `n` with shape `wholeShape` (the domain's bounds then
/// the element shape). Throws SourceArrayError for a missing or malformed
/// file, a wrong shape or dtype, or an op that is not a whole-array source.
Tensor buildSourceArray(const Node& n, const std::vector<int64_t>& wholeShape);

/// The array of every whole-array source (load, hash, random) of `g` at
/// `bounds` (every bound, derived ones included), by node: what a caller
/// builds ahead of a run (CompiledRunOptions::sourceArrays).
std::map<NodeId, Tensor> buildSourceArrays(const Graph& g, const SymbolEnv& bounds);

}  // namespace tempo
