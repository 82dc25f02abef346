#include "passes/GraphRewrite.h"

#include "ops/TypeInference.h"

#include <algorithm>
#include <functional>
#include <map>

namespace tempo {

std::vector<std::vector<NodeId>> componentsProducersFirst(const Graph& g) {
  return componentsProducersFirst(g, [](const Edge&) { return true; });
}

std::vector<std::vector<NodeId>> componentsProducersFirst(const Graph& g, const std::function<bool(const Edge&)>& follow) {
  // Tarjan's algorithm over consumer -> producer edges emits a component only
  // after every component it reads, i.e. producers first. Per-node state lives in
  // vectors indexed by NodeId (the passes call this once per candidate rewrite).
  NodeId largest = g.nodes().empty() ? -1 : g.nodes().rbegin()->first;
  for (const auto& [id, e] : g.edges()) largest = std::max({largest, e.consumer, e.producer});
  const size_t slots = static_cast<size_t>(largest + 1);
  std::vector<int> index(slots, -1), low(slots, 0);
  std::vector<char> onStack(slots, 0);
  std::vector<NodeId> stack;
  std::vector<std::vector<NodeId>> out;
  int counter = 0;
  // Each node's followed producers in Graph::inputs order (input index, then edge id),
  // gathered in one pass over the edges (Graph::inputs scans and sorts on every call).
  std::vector<std::vector<std::pair<int, NodeId>>> inputsOf(slots);
  for (const auto& [id, e] : g.edges())
    if (follow(e)) inputsOf[static_cast<size_t>(e.consumer)].emplace_back(e.inputIndex, e.producer);
  for (auto& in : inputsOf)
    std::stable_sort(in.begin(), in.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::function<void(NodeId)> visit = [&](NodeId v) {
    const size_t sv = static_cast<size_t>(v);
    index[sv] = low[sv] = counter++;
    stack.push_back(v);
    onStack[sv] = 1;
    for (const auto& [slot, w] : inputsOf[sv]) {
      const size_t sw = static_cast<size_t>(w);
      if (index[sw] < 0) {
        visit(w);
        low[sv] = std::min(low[sv], low[sw]);
      } else if (onStack[sw]) {
        low[sv] = std::min(low[sv], index[sw]);
      }
    }
    if (low[sv] != index[sv]) return;
    std::vector<NodeId> component;
    NodeId w;
    do {
      w = stack.back();
      stack.pop_back();
      onStack[static_cast<size_t>(w)] = 0;
      component.push_back(w);
    } while (w != v);
    std::sort(component.begin(), component.end());
    out.push_back(std::move(component));
  };
  for (const auto& [id, n] : g.nodes())
    if (index[static_cast<size_t>(id)] < 0) visit(id);
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

namespace {

/// Training iterations close a cycle through every value of a step: an edge reads within one
/// iteration when it reads every iteration dim (a trained param's) at its own coordinate.
std::function<bool(const Edge&)> readsWithinAnIteration(const Graph& g) {
  std::set<std::string> iterations;
  for (const TrainedParam& p : g.trainedParams) iterations.insert(p.dim);
  return [&g, iterations](const Edge& e) {
    const std::vector<std::string>& domain = g.node(e.producer).domain;
    for (size_t k = 0; k < domain.size() && k < e.index.size(); ++k)
      if (iterations.count(domain[k]) && e.index[k].start != IndexExpr::dim(domain[k])) return false;
    return true;
  };
}

}  // namespace

std::vector<std::vector<NodeId>> componentsWithinAnIteration(const Graph& g) {
  return componentsProducersFirst(g, readsWithinAnIteration(g));
}

std::map<NodeId, int> sequentialDirections(const Graph& g, const std::string& dim) {
  // A step's value is sequential along t only through the steps of one iteration.
  const auto withinAnIteration = readsWithinAnIteration(g);
  const IndexExpr here = IndexExpr::dim(dim);
  std::map<NodeId, int> out;
  for (const auto& component : componentsProducersFirst(g, withinAnIteration)) {
    std::set<NodeId> members(component.begin(), component.end());
    std::optional<int> direction;
    for (NodeId m : component)
      for (const Edge* e : g.inputs(m)) {
        if (!members.count(e->producer) || !withinAnIteration(*e)) continue;
        const std::vector<std::string>& domain = g.node(e->producer).domain;
        auto at = std::find(domain.begin(), domain.end(), dim);
        if (at == domain.end()) continue;
        const IndexAtom& a = e->index[static_cast<size_t>(at - domain.begin())];
        if (!a.isSlice() && a.start == here) continue;
        std::optional<int64_t> shift = a.isSlice() ? std::nullopt : (a.start - here).constantValue();
        const int sign = !shift ? 0 : *shift < 0 ? 1 : -1;
        direction = !direction || *direction == sign ? sign : 0;
      }
    if (direction)
      for (NodeId m : component) out[m] = *direction;
  }
  return out;
}

namespace {

/// The recurrences along `dim` that feed `x` at its own coordinate of `dim`, followed back
/// through reads at that coordinate: node -> its direction (sequentialDirections). Those
/// whose whole window along `dim` a value without `dim` on that way reads (autodiff's
/// `-g[i, 0:T, 0:B] / B` for the returns g) go to `windows`: x's values wait for all of them.
void feedingRecurrences(const Graph& g, NodeId x, const std::string& dim, const std::map<NodeId, int>& sequential,
                        const std::function<bool(const Edge&)>& withinAnIteration, bool throughWindow,
                        std::set<std::pair<NodeId, bool>>& seen, std::map<NodeId, int>& out,
                        std::map<NodeId, int>& windows) {
  if (!seen.insert({x, throughWindow}).second) return;
  if (auto it = sequential.find(x); it != sequential.end()) {
    (throughWindow ? windows : out).emplace(x, it->second);
    return;
  }
  for (const Edge* e : g.inputs(x)) {
    const std::vector<std::string>& domain = g.node(e->producer).domain;
    auto at = std::find(domain.begin(), domain.end(), dim);
    if (at == domain.end()) {  // a value made once for every coordinate of dim: it may read whole windows
      if (withinAnIteration(*e))
        feedingRecurrences(g, e->producer, dim, sequential, withinAnIteration, true, seen, out, windows);
      continue;
    }
    const IndexAtom& a = e->index[static_cast<size_t>(at - domain.begin())];
    if (throughWindow) {
      if (auto it = sequential.find(e->producer); it != sequential.end() && withinAnIteration(*e))
        windows.emplace(e->producer, it->second);
      continue;
    }
    if (a.isSlice() || a.start != IndexExpr::dim(dim)) continue;
    feedingRecurrences(g, e->producer, dim, sequential, withinAnIteration, false, seen, out, windows);
  }
}

/// Whether some node of `from` reads (through any chain of reads within one training
/// iteration) some node of `of`.
bool dependsOnAny(const Graph& g, const std::set<NodeId>& from, const std::set<NodeId>& of,
                  const std::function<bool(const Edge&)>& withinAnIteration) {
  std::set<NodeId> seen(from.begin(), from.end());
  std::vector<NodeId> work(from.begin(), from.end());
  while (!work.empty()) {
    const NodeId n = work.back();
    work.pop_back();
    for (const Edge* e : g.inputs(n)) {
      if (!withinAnIteration(*e) || !seen.insert(e->producer).second) continue;
      if (of.count(e->producer)) return true;
      work.push_back(e->producer);
    }
  }
  return false;
}

}  // namespace

std::optional<int> stepwiseOrder(const Graph& g, NodeId x, const std::string& dim) {
  const auto withinAnIteration = readsWithinAnIteration(g);
  std::set<std::pair<NodeId, bool>> seen;
  std::map<NodeId, int> feeding, windows;
  feedingRecurrences(g, x, dim, sequentialDirections(g, dim), withinAnIteration, false, seen, feeding, windows);
  if (feeding.empty()) return std::nullopt;
  std::set<NodeId> forwards, backwards;
  for (const auto& [n, direction] : feeding) {
    if (direction == 0) return 0;  // a recurrence without one direction
    (direction > 0 ? forwards : backwards).insert(n);
  }
  // A backward recurrence read as a whole window that runs after the forward ones (it reads
  // their values): slice sinking makes the window's points reads at x's own coordinate, so
  // x's values come backwards with it (a policy gradient's product at step t: the forward
  // pass at t, and the returns at t, a backward recurrence over the forward pass's rewards).
  for (const auto& [n, direction] : windows)
    if (direction < 0) backwards.insert(n);
  if (backwards.empty()) return 1;
  if (forwards.empty()) return -1;
  // Both: the values come in the order of the recurrence that reads the other one's values.
  const bool backwardsLater = dependsOnAny(g, backwards, forwards, withinAnIteration);
  const bool forwardsLater = dependsOnAny(g, forwards, backwards, withinAnIteration);
  if (backwardsLater == forwardsLater) return 0;
  return backwardsLater ? -1 : 1;
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

void recordRemoval(GraphChange& change, NodeId n) {
  change.rewritten.erase(n);
  if (change.added.erase(n) == 0) change.removed.insert(n);
}

bool isOutput(const Graph& g, NodeId id) {
  return std::any_of(g.outputs.begin(), g.outputs.end(), [&](const GraphOutput& o) { return o.node == id; });
}

void redirectUsers(Graph& g, NodeId from, NodeId to) {
  for (const Edge* e : g.users(from)) g.edge(e->id).producer = to;
  for (GraphOutput& o : g.outputs)
    if (o.node == from) o.node = to;
}

void replaceNode(Graph& g, NodeId from, NodeId to, GraphChange& change) {
  Node& replacement = g.node(to);
  replacement.name = g.node(from).name;
  replacement.loc = g.node(from).loc;
  for (const Edge* user : g.users(from)) change.rewritten.insert(user->consumer);
  redirectUsers(g, from, to);
  g.removeNode(from);
  recordRemoval(change, from);
}

void removeIfUnread(Graph& g, NodeId n, GraphChange& change) {
  if (g.hasNode(n) && g.users(n).empty() && !isOutput(g, n)) {
    g.removeNode(n);
    recordRemoval(change, n);
  }
}

Edge readOf(NodeId producer, std::vector<IndexAtom> atoms, const SourceRange& loc) {
  Edge e;
  e.producer = producer;
  e.index = std::move(atoms);
  e.loc = loc;
  return e;
}

std::optional<NodeId> addBinaryLike(Graph& g, const Node& like, const Edge& a, const Edge& b, GraphChange& change) {
  TypeResult type = inferType(like.op, like.attrs, {g.readType(a), g.readType(b)});
  if (!std::holds_alternative<TensorType>(type)) return std::nullopt;
  Node made = like;
  made.id = -1;
  made.name.clear();
  made.type = std::get<TensorType>(type);
  const NodeId id = g.addNode(made);
  change.added.insert(id);
  const Edge* operands[2] = {&a, &b};
  for (int slot = 0; slot < 2; ++slot) {
    Edge read = *operands[slot];
    read.id = -1;
    read.consumer = id;
    read.inputIndex = slot;
    g.addEdge(read);
  }
  return id;
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

std::string shortLabel(const Node& n) { return "%" + std::to_string(n.id) + (n.name.empty() ? "" : " " + n.name); }

void rewriteToFixpoint(Graph& g, const std::function<bool(NodeId)>& rewrite) {
  for (bool progress = true; progress;) {
    progress = false;
    std::vector<NodeId> ids;
    for (const auto& [id, n] : g.nodes()) ids.push_back(id);
    for (NodeId id : ids)
      if (g.hasNode(id)) progress = rewrite(id) || progress;
  }
}

const Edge* soleUnconditionalInput(const Graph& g, const Node& n) {
  auto ins = g.inputs(n.id);
  return ins.size() == 1 && ins[0]->condition.isAlways() ? ins[0] : nullptr;
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
    recordRemoval(change, n);
  }
  return moved;
}

}  // namespace tempo
