#include "interp/UntilExtents.h"

#include "interp/ReferenceInterpreter.h"

#include <algorithm>

namespace tempo {


std::string ReachedExtent::str(const std::string& condition) const {
  if (stopped)
    return dim + ": stopped at step " + std::to_string(reached - 1) + " (" + std::to_string(reached) + " of " +
           std::to_string(maximum) + " steps)";
  return dim + ": ran all " + std::to_string(maximum) + " steps (" + condition + " never held everywhere)";
}

SymbolEnv boundsAsRun(const Graph& g, const SymbolEnv& bounds, const std::vector<ReachedExtent>& reached) {
  SymbolEnv given;
  for (const auto& [name, value] : bounds)
    if (!g.isDerivedBound(name)) given[name] = value;
  for (const ReachedExtent& e : reached) given[e.bound] = e.reached;
  return g.withDerivedBounds(std::move(given));
}

std::vector<std::string> reachedLines(const Graph& g, const std::vector<ReachedExtent>& reached) {
  std::vector<std::string> lines;
  for (const ReachedExtent& e : reached)
    for (const GraphOutput* o : untilOutputs(g))
      if (o->untilDim == e.dim) lines.push_back(e.str(o->name));
  return lines;
}

std::vector<const GraphOutput*> untilOutputs(const Graph& g) {
  std::vector<const GraphOutput*> out;
  for (const GraphOutput& o : g.outputs)
    if (!o.untilDim.empty()) out.push_back(&o);
  return out;
}

bool holdsEverywhere(const Tensor& condition) {
  for (int64_t i = 0; i < condition.numel(); ++i)
    if (condition.at(i) == 0) return false;
  return true;
}

int64_t firstStepHolding(const Tensor& condition, int axis) {
  const std::vector<int64_t>& shape = condition.shape();
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= shape[i];
  for (size_t i = axis + 1; i < shape.size(); ++i) inner *= shape[i];
  for (int64_t step = 0; step < shape.at(axis); ++step) {
    bool all = true;
    for (int64_t o = 0; o < outer && all; ++o)
      for (int64_t i = 0; i < inner && all; ++i) all = condition.at((o * shape[axis] + step) * inner + i) != 0;
    if (all) return step;
  }
  return -1;
}

std::vector<ReachedExtent> resolveUntilExtents(const Graph& g, const SymbolEnv& bounds,
                                               const std::atomic<bool>* cancel) {
  SymbolEnv env = bounds;
  for (const auto& [name, value] : g.boundDefaults) env.emplace(name, value);
  std::vector<ReachedExtent> out;
  for (const GraphOutput* o : untilOutputs(g)) {
    const Node& n = g.node(o->node);
    ReachedExtent r{o->untilDim, g.boundOf(o->untilDim)};
    auto most = env.find(r.bound);
    if (most == env.end()) throw EvalError("no value for the bound " + r.bound + " of '" + r.dim + "'");
    r.maximum = r.reached = most->second;
    InterpreterOptions options{env};
    options.resolveUntil = false;  // this is the resolution
    ReferenceInterpreter interp(g, options);
    interp.setCancelFlag(cancel);
    std::vector<int64_t> hi;
    int axis = -1;
    for (size_t i = 0; i < n.domain.size(); ++i) {
      if (n.domain[i] == r.dim) axis = static_cast<int>(i);
      auto b = env.find(g.boundOf(n.domain[i]));
      if (b == env.end()) throw EvalError("no value for the bound of '" + n.domain[i] + "'");
      hi.push_back(b->second);
    }
    if (axis < 0) throw EvalError("the until condition '" + o->name + "' is not over " + r.dim);
    int64_t others = 1;  // the points of the other dims
    for (size_t i = 0; i < hi.size(); ++i) others *= static_cast<int>(i) == axis ? 1 : hi[i];
    std::vector<int64_t> p(hi.size());
    for (int64_t step = 0; step < r.maximum && !r.stopped; ++step) {
      bool all = true;
      for (int64_t k = 0; k < others && all; ++k) {
        int64_t rest = k;  // the k-th point in C order, t at step
        for (size_t i = hi.size(); i-- > 0;) {
          if (static_cast<int>(i) == axis) {
            p[i] = step;
            continue;
          }
          p[i] = rest % hi[i];
          rest /= hi[i];
        }
        all = holdsEverywhere(interp.valueAt(n.id, p));
      }
      if (all) r.reached = step + 1, r.stopped = true;
    }
    env[r.bound] = r.reached;
    out.push_back(r);
  }
  return out;
}

}  // namespace tempo
