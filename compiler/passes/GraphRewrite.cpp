#include "passes/GraphRewrite.h"

#include <algorithm>
#include <functional>
#include <map>

namespace tempo {

std::vector<std::vector<NodeId>> componentsProducersFirst(const Graph& g) {
  // Tarjan's algorithm over consumer -> producer edges emits a component only
  // after every component it reads, i.e. producers first.
  std::map<NodeId, int> index, low;
  std::set<NodeId> onStack;
  std::vector<NodeId> stack;
  std::vector<std::vector<NodeId>> out;
  int counter = 0;
  std::function<void(NodeId)> visit = [&](NodeId v) {
    index[v] = low[v] = counter++;
    stack.push_back(v);
    onStack.insert(v);
    for (const Edge* e : g.inputs(v)) {
      NodeId w = e->producer;
      if (!index.count(w)) {
        visit(w);
        low[v] = std::min(low[v], low[w]);
      } else if (onStack.count(w)) {
        low[v] = std::min(low[v], index[w]);
      }
    }
    if (low[v] != index[v]) return;
    std::vector<NodeId> component;
    NodeId w;
    do {
      w = stack.back();
      stack.pop_back();
      onStack.erase(w);
      component.push_back(w);
    } while (w != v);
    std::sort(component.begin(), component.end());
    out.push_back(std::move(component));
  };
  for (const auto& [id, n] : g.nodes())
    if (!index.count(id)) visit(id);
  return out;
}

std::set<NodeId> nodesInCycles(const Graph& g) {
  std::set<NodeId> out;
  for (const auto& component : componentsProducersFirst(g)) {
    bool selfRead = false;
    for (const Edge* e : g.inputs(component.front())) selfRead |= e->producer == component.front();
    if (component.size() > 1 || selfRead) out.insert(component.begin(), component.end());
  }
  return out;
}

std::set<NodeId> reachableFromOutputs(const Graph& g) {
  std::set<NodeId> seen;
  std::vector<NodeId> work;
  for (const GraphOutput& o : g.outputs) work.push_back(o.node);
  while (!work.empty()) {
    NodeId id = work.back();
    work.pop_back();
    if (!g.hasNode(id) || !seen.insert(id).second) continue;
    for (const Edge* e : g.inputs(id)) work.push_back(e->producer);
  }
  return seen;
}

bool isOutput(const Graph& g, NodeId id) {
  return std::any_of(g.outputs.begin(), g.outputs.end(), [&](const GraphOutput& o) { return o.node == id; });
}

void redirectUsers(Graph& g, NodeId from, NodeId to) {
  for (const Edge* e : g.users(from)) g.edge(e->id).producer = to;
  for (GraphOutput& o : g.outputs)
    if (o.node == from) o.node = to;
}

void compactInputSlots(Graph& g, NodeId consumer) {
  int slot = 0;
  for (const Edge* e : g.inputs(consumer)) g.edge(e->id).inputIndex = slot++;
}

namespace {

IndexAtom substituteAtom(const IndexAtom& a, const std::map<std::string, IndexExpr>& values) {
  IndexAtom out{a.start.substitute(values), std::nullopt, std::nullopt};
  if (a.stop) out.stop = a.stop->substitute(values);
  if (a.block) out.block = BlockLanes{a.block->first.substitute(values), a.block->size};
  return out;
}

}  // namespace

bool atomUses(const IndexAtom& a, const std::string& dim) {
  return a.start.dependsOn(dim) || (a.stop && a.stop->dependsOn(dim)) || (a.block && a.block->first.dependsOn(dim));
}

std::optional<std::vector<IndexAtom>> composeReads(const std::vector<std::string>& middleDomain,
                                                   const Edge& forwarded, const Edge& user) {
  if (!forwarded.condition.isAlways() || user.index.size() != middleDomain.size()) return std::nullopt;
  std::map<std::string, IndexExpr> pointValues;
  std::map<size_t, IndexAtom> slicedPositions;  // forwarded position -> the user's slice
  bool forwardedSlices = std::any_of(forwarded.index.begin(), forwarded.index.end(),
                                     [](const IndexAtom& a) { return a.isSlice(); });
  size_t lastSliced = 0;
  bool anySliced = false;
  for (size_t i = 0; i < middleDomain.size(); ++i) {
    const std::string& dim = middleDomain[i];
    if (!user.index[i].isSlice()) {
      pointValues[dim] = user.index[i].start;
      continue;
    }
    // A user slice over `dim` carries over only when the forwarded read keeps
    // `dim` as a bare point in exactly one position, in the same order, and
    // adds no slice of its own (so the stacked axes stay in place).
    if (forwardedSlices) return std::nullopt;
    std::optional<size_t> position;
    for (size_t j = 0; j < forwarded.index.size(); ++j) {
      if (!atomUses(forwarded.index[j], dim)) continue;
      if (position || forwarded.index[j].start != IndexExpr::dim(dim)) return std::nullopt;
      position = j;
    }
    if (!position || (anySliced && *position <= lastSliced)) return std::nullopt;
    slicedPositions[*position] = user.index[i];
    lastSliced = *position;
    anySliced = true;
  }
  std::vector<IndexAtom> out;
  for (size_t j = 0; j < forwarded.index.size(); ++j) {
    auto sliced = slicedPositions.find(j);
    out.push_back(sliced != slicedPositions.end() ? sliced->second : substituteAtom(forwarded.index[j], pointValues));
  }
  return out;
}

bool forwardReaders(Graph& g, NodeId n, const Edge& forwarded, GraphChange& change) {
  const std::vector<std::string> domain = g.node(n).domain;
  bool moved = false;
  for (const Edge* user : g.users(n)) {
    if (user->consumer == n) continue;
    auto atoms = composeReads(domain, forwarded, *user);
    if (!atoms) continue;
    Edge& e = g.edge(user->id);
    Edge original = e;
    TensorType before = g.readType(e);
    e.producer = forwarded.producer;
    e.index = *atoms;
    if (!(g.readType(e) == before)) {
      e = original;
      continue;
    }
    change.rewritten.insert(e.consumer);
    moved = true;
  }
  if (moved && g.users(n).empty() && !isOutput(g, n)) {
    g.removeNode(n);
    change.removed.insert(n);
    change.rewritten.erase(n);
  }
  return moved;
}

}  // namespace tempo
