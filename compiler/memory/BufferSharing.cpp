#include "memory/BufferSharing.h"

#include <algorithm>
#include <optional>
#include <set>

namespace tempo {

namespace {

/// Over `n`'s domain box at `bounds`: the share of points where `e` is live,
/// and how many such points read each producer point they read (a broadcast
/// constant read by every point: all of them). Nullopt when the box is too
/// large to count.
std::optional<std::pair<double, double>> countReads(const Graph& g, const Node& n, const Edge& e,
                                                    const SymbolEnv& bounds) {
  std::vector<int64_t> extents;
  int64_t total = 1;
  for (const std::string& d : n.domain) {
    auto b = bounds.find(g.boundOf(d));
    if (b == bounds.end()) return std::nullopt;
    extents.push_back(std::max<int64_t>(b->second, 0));
    total *= extents.back();
    if (total > (1 << 18)) return std::nullopt;
  }
  if (total == 0) return std::make_pair(0.0, 1.0);
  SymbolEnv env = bounds;
  int64_t live = 0;
  std::set<std::vector<int64_t>> read;
  std::vector<int64_t> p(extents.size(), 0);
  for (int64_t k = 0; k < total; ++k) {
    for (size_t i = 0; i < p.size(); ++i) env[n.domain[i]] = p[i];
    try {
      if (e.condition.holds(env)) {
        ++live;
        std::vector<int64_t> q;
        for (const IndexAtom& a : e.index) q.push_back(a.start.evaluate(env));
        read.insert(std::move(q));
      }
    } catch (const std::exception&) {
      return std::nullopt;
    }
    for (size_t i = p.size(); i-- > 0;) {
      if (++p[i] < extents[i]) break;
      p[i] = 0;
    }
  }
  if (live == 0) return std::make_pair(0.0, 1.0);
  return std::make_pair(static_cast<double>(live) / static_cast<double>(total),
                        static_cast<double>(live) / static_cast<double>(read.size()));
}

/// A window of a whole-array source whose points lie one after the other in the source's
/// array (points, then one slice, then whole extents): the values of those points are
/// consecutive windows of the array, so their stack is a window of it (Tensor::stack), not
/// a fresh buffer.
bool contiguousSourceWindow(const Graph& g, const Edge& e, const SymbolEnv& bounds) {
  const Node& p = g.node(e.producer);
  if (!isWholeArraySource(p.op) || e.index.size() != p.domain.size()) return false;
  bool sliced = false;
  for (size_t i = 0; i < e.index.size(); ++i) {
    const IndexAtom& a = e.index[i];
    if (a.isBlock()) return false;
    if (!sliced) {
      sliced = a.isSlice();
      continue;
    }
    auto bound = bounds.find(g.boundOf(p.domain[i]));
    if (!a.isSlice() || bound == bounds.end()) return false;
    try {
      if (a.start.evaluate(bounds) != 0 || a.stop->evaluate(bounds) != bound->second) return false;
    } catch (const std::exception&) {
      return false;  // it moves with a dimension of the reader: not the whole extent
    }
  }
  return true;
}

}  // namespace

bool isStridedView(const Node& n) { return (n.op == OpKind::Permute || n.op == OpKind::Expand) && n.attrs.view; }

bool sharesInputBuffer(const Node& n) {
  return n.op == OpKind::Identity || n.op == OpKind::Reshape || n.op == OpKind::Merge || isStridedView(n);
}

bool makesFreshValue(const Node& n) {
  if (n.op == OpKind::MatMul) return true;
  if (n.op == OpKind::Permute) return !isStridedView(n);
  return readsStridedViews(n.op);
}

const TensorType& heldType(const Graph& g, const Node& n) {
  if (n.op != OpKind::Expand || !isStridedView(n)) return n.type;
  std::vector<const Edge*> in = g.inputs(n.id);
  return in.size() == 1 ? g.node(in.front()->producer).type : n.type;
}

namespace {

/// The bytes of one value of `n` at `bounds`; 0 when its shape does not evaluate.
int64_t valueBytes(const Node& n, const SymbolEnv& bounds) {
  try {
    int64_t numel = 1;
    for (int64_t d : n.type.evaluateShape(bounds)) numel *= d;
    return numel * static_cast<int64_t>(dtypeSize(n.type.dtype));
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace

bool keepsItsOwnValues(const Graph& g, const Node& n) {
  if (!sharesInputBuffer(n) || isStridedView(n)) return false;
  return std::any_of(g.outputs.begin(), g.outputs.end(), [&](const GraphOutput& o) { return o.node == n.id; });
}

std::vector<SharedBuffer> sharedBuffers(const Graph& g, const SymbolEnv& bounds,
                                        const std::vector<WindowRead>& windows, const StoragePlan* stores) {
  std::vector<SharedBuffer> out;
  for (const WindowRead& w : windows) out.push_back({w.holder, w.producer, 1.0, 1.0});  // each window lies in the buffer
  for (const auto& [id, n] : g.nodes()) {
    if (!sharesInputBuffer(n)) continue;
    for (const Edge* e : g.inputs(id)) {
      bool pointRead = std::none_of(e->index.begin(), e->index.end(), [](const IndexAtom& a) { return a.isSlice(); });
      if (!pointRead && !contiguousSourceWindow(g, *e, bounds)) continue;
      if (keepsItsOwnValues(g, n) && isWholeArraySource(g.node(e->producer).op)) continue;
      if (stores)  // a store in one buffer copies each value into its lanes
        if (auto it = stores->find(id); it != stores->end() && it->second.oneBuffer) continue;
      auto counted = countReads(g, n, *e, bounds);
      auto [share, repeats] = counted.value_or(std::make_pair(1.0, 1.0));
      if (share <= 0) continue;
      int64_t fresh = 0;
      if (stores && pointRead)
        if (auto it = stores->find(id); it != stores->end() && it->second.kind == StoreKind::Circular)
          fresh = valueBytes(g.node(e->producer), bounds);
      out.push_back({id, e->producer, share, repeats, fresh});
    }
  }
  return out;
}

}  // namespace tempo
