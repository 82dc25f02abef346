#include "memory/RecomputeCost.h"


#include <algorithm>

namespace tempo {

namespace {

int64_t numel(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= std::max<int64_t>(s, 0);
  return n;
}

}  // namespace

int64_t recomputeFlops(const Graph& g, const Node& n, const SymbolEnv& bounds) {
  const int64_t out = numel(n.type.evaluateShape(bounds));
  auto inputs = g.inputs(n.id);
  switch (opClass(n.op)) {
    case OpClass::MatMul: {
      if (inputs.empty()) return out;
      std::vector<int64_t> a = g.readType(*inputs[0]).evaluateShape(bounds);
      int64_t k = a.empty() ? 1 : n.attrs.permA.empty() ? a.back() : a.at(static_cast<size_t>(n.attrs.permA.back()));
      return 2 * out * std::max<int64_t>(k, 1);
    }
    case OpClass::Reduce: {
      int64_t in = 0;
      for (const Edge* e : inputs) in += numel(g.readType(*e).evaluateShape(bounds));
      return std::max(in, out);
    }
    case OpClass::Fused:
      return out * std::max<int64_t>(static_cast<int64_t>(n.attrs.program.size()), 1);
    default:
      return out;
  }
}

bool cheaperToRecompute(const Graph& g, const Node& n, const SymbolEnv& bounds, int64_t bytes) {
  if (isWholeArraySource(n.op) || opClass(n.op) == OpClass::Source) return false;
  return recomputeFlops(g, n, bounds) <= kFlopsPerByteMoved * 2 * bytes;
}

}  // namespace tempo
