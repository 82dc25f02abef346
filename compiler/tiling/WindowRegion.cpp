#include "tiling/WindowRegion.h"

#include "ops/TypeInference.h"

#include <algorithm>
#include <deque>

namespace tempo {

namespace {

std::string ref(const Node& n) { return "%" + std::to_string(n.id) + (n.name.empty() ? "" : " (" + n.name + ")"); }

bool sameWindow(const WindowRead& a, const WindowRead& b) {
  return a.lo == b.lo && a.hi == b.hi && a.newestAtEnd == b.newestAtEnd;
}

/// Where the dynamic axis goes through one node: carried to an output axis,
/// eliminated, or not tileable (with the reason).
struct AxisRule {
  enum class Kind { Carry, Eliminate, Fail } kind = Kind::Fail;
  int axis = -1;
  std::string why;
  static AxisRule carry(int a) { return {Kind::Carry, a, ""}; }
  static AxisRule eliminate() { return {Kind::Eliminate, -1, ""}; }
  static AxisRule fail(std::string why) { return {Kind::Fail, -1, std::move(why)}; }
};

/// The axis of `out` that holds `size` when a reshape keeps input axis `a` of
/// `in` whole (same size, same constant number of elements before it).
std::optional<int> reshapedAxis(const std::vector<IndexExpr>& in, int a, const std::vector<IndexExpr>& out) {
  auto before = shapeNumel(std::vector<IndexExpr>(in.begin(), in.begin() + a));
  if (!before || !before->isConstant()) return std::nullopt;
  for (size_t i = 0; i < out.size(); ++i) {
    if (!(out[i] == in[a])) continue;
    auto outBefore = shapeNumel(std::vector<IndexExpr>(out.begin(), out.begin() + static_cast<long>(i)));
    if (outBefore && *outBefore == *before) return static_cast<int>(i);
  }
  return std::nullopt;
}

AxisRule matmulRule(const std::vector<TensorType>& in, const std::map<int, int>& axes, int outRank) {
  int r1 = in[0].rank(), r2 = in[1].rank();
  const int a1 = axes.count(0) ? axes.at(0) : -1;  // -1: the input has no window axis
  const int a2 = axes.count(1) ? axes.at(1) : -1;
  bool lhsInner = a1 >= 0 && a1 == r1 - 1;
  bool rhsInner = a2 >= 0 && a2 == (r2 == 1 ? 0 : r2 - 2);
  if (lhsInner && rhsInner) return AxisRule::eliminate();
  if (a1 >= 0 && a2 >= 0) return AxisRule::fail("a matmul with the window on both sides that does not contract it");
  if (a1 >= 0 && r1 >= 2 && a1 == r1 - 2) return AxisRule::carry(r2 == 1 ? outRank - 1 : outRank - 2);
  if (a2 >= 0 && r2 >= 2 && a2 == r2 - 1) return AxisRule::carry(outRank - 1);
  return AxisRule::fail("a matmul with the window on a batch axis");
}

AxisRule axisRule(const Node& n, const std::vector<TensorType>& in, const std::map<int, int>& axes,
                  const IndexExpr& size) {
  const int outRank = n.type.rank();
  switch (opClass(n.op)) {
    case OpClass::Unary:
    case OpClass::Cast:
    case OpClass::Identity:
      return AxisRule::carry(axes.at(0));
    case OpClass::Binary:
    case OpClass::Ternary: {
      std::optional<int> out;
      for (const auto& [slot, a] : axes) {
        int o = a + outRank - in[slot].rank();
        if (out && *out != o) return AxisRule::fail("an elementwise op whose inputs hold the window on different axes");
        out = o;
      }
      return AxisRule::carry(*out);
    }
    case OpClass::Reduce: {
      int a = axes.at(0);
      const auto& red = n.attrs.axes;
      if (std::find(red.begin(), red.end(), a) != red.end()) return AxisRule::eliminate();
      int dropped = 0;
      for (int64_t r : red) dropped += r < a ? 1 : 0;
      return AxisRule::carry(n.attrs.keepDims ? a : a - dropped);
    }
    case OpClass::MatMul:
      return matmulRule(in, axes, outRank);
    case OpClass::Movement: {
      int a = axes.at(0);
      switch (n.op) {
        case OpKind::Permute:
          for (size_t i = 0; i < n.attrs.perm.size(); ++i)
            if (n.attrs.perm[i] == a) return AxisRule::carry(static_cast<int>(i));
          return AxisRule::fail("a permute that drops the window axis");
        case OpKind::Reshape:
          if (auto o = reshapedAxis(in[0].shape, a, n.attrs.shape)) return AxisRule::carry(*o);
          return AxisRule::fail("a reshape that merges or splits the window axis");
        case OpKind::Expand: {
          int o = a + outRank - in[0].rank();
          if (n.attrs.shape.at(o) == size) return AxisRule::carry(o);
          return AxisRule::fail("an expand of the window axis");
        }
        case OpKind::Slice:
          if (n.attrs.axis != a) return AxisRule::carry(a);
          return AxisRule::fail("a slice of the window axis");
        default:
          return AxisRule::fail("a " + std::string(opName(n.op)) + " of a window");
      }
    }
    default:
      return AxisRule::fail("a " + std::string(opName(n.op)) + " of a window");
  }
}

/// The nodes a dynamic value flows into from `seeds`: consumers of every node
/// whose value is not static over the dimensions, in producers-first order.
std::optional<std::vector<NodeId>> flowOrder(const Graph& g, const std::set<NodeId>& seeds, std::string& why) {
  std::set<NodeId> in = seeds;
  std::deque<NodeId> work(seeds.begin(), seeds.end());
  while (!work.empty()) {
    NodeId n = work.front();
    work.pop_front();
    if (g.node(n).type.isStaticOverDims()) continue;  // an elimination: the window ends here
    for (const Edge* e : g.users(n))
      if (in.insert(e->consumer).second) work.push_back(e->consumer);
  }
  std::map<NodeId, int> pending;
  for (NodeId n : in) {
    pending[n] = 0;
    for (const Edge* e : g.inputs(n)) pending[n] += in.count(e->producer) && e->producer != n ? 1 : 0;
  }
  std::vector<NodeId> order;
  std::deque<NodeId> ready;
  for (const auto& [n, k] : pending)
    if (k == 0) ready.push_back(n);
  while (!ready.empty()) {
    NodeId n = ready.front();
    ready.pop_front();
    order.push_back(n);
    for (const Edge* e : g.users(n))
      if (in.count(e->consumer) && e->consumer != n && --pending[e->consumer] == 0) ready.push_back(e->consumer);
  }
  if (order.size() != in.size()) {
    why = "the values of the window feed back into themselves";
    return std::nullopt;
  }
  return order;
}

}  // namespace

std::optional<WindowRead> windowReadOf(const Graph& g, const Edge& e, std::string& why) {
  int slices = 0, dynamic = -1;
  for (size_t i = 0; i < e.index.size(); ++i) {
    if (!e.index[i].isSlice()) continue;
    ++slices;
    if (e.index[i].size().dependsOnKind(SymbolKind::Dim)) dynamic = static_cast<int>(i);
  }
  if (dynamic < 0) return std::nullopt;
  const Node& consumer = g.node(e.consumer);
  if (slices > 1) {
    why = ref(consumer) + " reads a window together with another slice";
    return std::nullopt;
  }
  if (!e.condition.isAlways()) {
    why = ref(consumer) + " reads a window under a condition";
    return std::nullopt;
  }
  if (!g.node(e.producer).type.isStaticOverDims()) {
    why = ref(consumer) + " reads a window of a value whose own shape is dynamic";
    return std::nullopt;
  }
  WindowRead w;
  w.edge = e.id;
  w.consumer = e.consumer;
  w.producer = e.producer;
  w.atom = dynamic;
  w.lo = e.index[dynamic].start;
  w.hi = *e.index[dynamic].stop;
  w.newestAtEnd = w.hi.dependsOnKind(SymbolKind::Dim);
  return w;
}

std::optional<WindowRegion> findWindowRegion(const Graph& g, const WindowRead& seed, std::string& why) {
  // Every reader of the same window over the same domain joins: `att @ V` meets
  // the window of v inside the region of the window of k.
  WindowRegion r;
  r.domain = g.node(seed.consumer).domain;
  std::set<NodeId> seeds;
  for (const auto& [id, e] : g.edges()) {
    std::string ignored;
    auto w = windowReadOf(g, e, ignored);
    if (w && sameWindow(*w, seed) && g.node(e.consumer).domain == r.domain) seeds.insert(e.consumer);
  }
  auto order = flowOrder(g, seeds, why);
  if (!order) return std::nullopt;
  std::set<NodeId> outputs;
  for (const GraphOutput& o : g.outputs) outputs.insert(o.node);
  for (NodeId id : *order) {
    const Node& n = g.node(id);
    std::map<int, int> axes;
    std::vector<TensorType> inTypes;
    for (const Edge* e : g.inputs(id)) {
      inTypes.push_back(g.readType(*e));
      std::string bad;
      if (auto w = windowReadOf(g, *e, bad)) {
        if (!sameWindow(*w, seed)) {
          why = ref(n) + " combines windows of different ranges";
          return std::nullopt;
        }
        r.windows.push_back(*w);
        axes[e->inputIndex] = 0;
      } else if (!bad.empty()) {
        why = bad;
        return std::nullopt;
      } else if (r.axisOf.count(e->producer)) {
        const Node& p = g.node(e->producer);
        if (!e->condition.isAlways() || p.domain != n.domain || !e->isIdentityRead(p.domain)) {
          why = ref(n) + " reads the windowed value " + ref(p) + " at another point";
          return std::nullopt;
        }
        axes[e->inputIndex] = r.axisOf.at(e->producer);
      } else if (!g.readType(*e).isStaticOverDims()) {
        why = ref(n) + " reads " + ref(g.node(e->producer)) + ", a dynamically sized value outside the window";
        return std::nullopt;
      }
    }
    if (axes.empty()) {
      why = ref(n) + " depends on the window only through a dynamic shape";
      return std::nullopt;
    }
    if (n.domain != r.domain) {
      why = ref(n) + " is over another domain than the window's reader";
      return std::nullopt;
    }
    AxisRule rule = axisRule(n, inTypes, axes, seed.size());
    if (rule.kind == AxisRule::Kind::Fail) {
      why = ref(n) + " is " + rule.why;
      return std::nullopt;
    }
    r.inputAxes[id] = axes;
    if (rule.kind == AxisRule::Kind::Eliminate) {
      if (!n.type.isStaticOverDims()) {
        why = ref(n) + " eliminates the window but keeps another dynamic size";
        return std::nullopt;
      }
      r.eliminations.push_back(id);
      continue;
    }
    if (rule.axis < 0 || rule.axis >= n.type.rank() || !(n.type.shape[rule.axis] == seed.size())) {
      why = ref(n) + " does not keep the window's size on one axis";
      return std::nullopt;
    }
    if (outputs.count(id)) {
      why = ref(n) + " is an output of dynamic shape";
      return std::nullopt;
    }
    r.axisOf[id] = rule.axis;
    r.carriers.push_back(id);
  }
  if (r.eliminations.empty()) {
    why = "nothing eliminates the window of " + ref(g.node(seed.consumer));
    return std::nullopt;
  }
  return r;
}

}  // namespace tempo
