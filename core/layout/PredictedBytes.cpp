#include "layout/PredictedBytes.h"

#include <stdexcept>

namespace tempo {

namespace {

constexpr int64_t kMaxPointsVisited = 100000;

double bytesAt(const TensorType& t, const SymbolEnv& env) {
  double elems = 1;
  for (int64_t s : t.evaluateShape(env)) elems *= static_cast<double>(s);
  return elems * static_cast<double>(dtypeSize(t.dtype));
}

/// Sum of bytesAt over the domain (row-major), visiting at most
/// kMaxPointsVisited points and scaling the partial sum up beyond that.
double bytesOverDomain(const Graph& g, const Node& n, SymbolEnv env) {
  std::vector<int64_t> extent;
  double points = 1;
  for (const std::string& d : n.domain) {
    extent.push_back(env.at(g.boundOf(d)));
    points *= static_cast<double>(extent.back());
    env[d] = 0;
  }
  if (points == 0) return 0;
  if (n.type.isStaticOverDims()) return points * bytesAt(n.type, env);
  double sum = 0;
  int64_t visited = 0;
  while (visited < kMaxPointsVisited) {
    sum += bytesAt(n.type, env);
    ++visited;
    int k = static_cast<int>(n.domain.size()) - 1;
    for (; k >= 0; --k) {
      if (++env[n.domain[k]] < extent[k]) break;
      env[n.domain[k]] = 0;
    }
    if (k < 0) return sum;
  }
  return sum * points / static_cast<double>(visited);
}

}  // namespace

std::map<int, double> predictedBytesAtDefaults(const Graph& g) {
  SymbolEnv bounds(g.boundDefaults.begin(), g.boundDefaults.end());
  try {
    bounds = g.withDerivedBounds(std::move(bounds));
  } catch (const std::exception&) {
    // A bound without a default: the nodes over it get no estimate.
  }
  std::map<int, double> out;
  for (const auto& [id, n] : g.nodes()) {
    try {
      out[id] = bytesOverDomain(g, n, bounds);
    } catch (const std::exception&) {
      // An unknown bound or dimension: no estimate for this node.
    }
  }
  return out;
}

}  // namespace tempo
