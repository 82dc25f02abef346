// FusionSchedule: per level, components in dependence order, fused into loops greedily.
#include "schedule/FusionSchedule.h"

#include "graph/ExtentDependence.h"
#include "graph/GraphAlgorithms.h"

#include <isl/local_space.h>

#include <algorithm>
#include <optional>
#include <map>
#include <set>
#include <tuple>

namespace tempo {

namespace {

using DimMask = uint64_t;

/// A loop: one dimension, one direction.
struct LoopKind {
  int dim = -1;
  bool backward = false;
  bool operator==(const LoopKind&) const = default;
};

/// An item of a sequence: a statement, or a loop and the statements it holds.
struct Item {
  NodeId statement = -1;        ///< a statement of the sequence (no loop)
  LoopKind loop;                ///< otherwise the loop
  std::vector<NodeId> members;  ///< the loop's statements
  std::vector<Item> body;       ///< filled when the loop's members are scheduled
};

/// One dependence with its relation parsed once.
struct Dependence {
  EdgeId edge = -1;
  NodeId producer = -1;
  NodeId consumer = -1;
  IslPtr<isl_map> relation;  ///< S_P[q] -> S_C[c]
};

class FusionScheduler {
public:
  /// `domain`'s statements with the dependences of `validity` between them (both parsed once, by the caller).
  FusionScheduler(isl_ctx* ctx, const Graph& g, isl_union_set* domain, isl_union_map* validity) : ctx_(ctx), g_(g) {
    for (const DimDecl& d : g.dims) dimIndex(d.name);
    isl_union_set_foreach_set(domain, &FusionScheduler::addStatement, this);
    for (const auto& [id, set] : domains_) {
      statements_.push_back(id);
      for (const std::string& dim : g.node(id).domain) dimIndex(dim);
    }
    if (dims_.size() > 64) throw IslError("fusion schedule: more than 64 dimensions");
    for (const auto& [id, e] : g.edges()) edgeOf_.emplace(std::make_pair(e.producer, e.consumer), id);
    isl_union_map_foreach_map(validity, &FusionScheduler::addDependence, this);
    for (const GraphOutput& o : g.outputs)
      if (!o.untilDim.empty()) {
        untilDims_ |= bit(dimIndex(o.untilDim));
        for (NodeId n : boundDependentNodes(g, g.boundOf(o.untilDim))) extentDependent_.insert(n);
      }
  }

  const std::vector<NodeId>& statements() const { return statements_; }

  /// The items of `members` with the loops of `fixed` around them.
  std::vector<Item> sequence(const std::vector<NodeId>& members, DimMask fixed) {
    std::set<NodeId> inGroup(members.begin(), members.end());
    std::vector<size_t> active;
    for (NodeId c : members)
      for (size_t k : byConsumer_[c])
        if (inGroup.count(deps_[k].producer) && isActive(k, fixed)) active.push_back(k);
    std::vector<EdgeId> edges;
    for (size_t k : active) edges.push_back(deps_[k].edge);
    std::vector<NodeId> sorted(members.begin(), members.end());
    std::sort(sorted.begin(), sorted.end());
    std::vector<int> preference = dimPreference(members, fixed);

    std::vector<Item> items;
    std::map<NodeId, size_t> itemOf;
    std::vector<std::vector<NodeId>> components = stronglyConnectedComponents(g_, sorted, edges);
    if (untilDims_) components = untilOrder(std::move(components), active, fixed);
    for (const std::vector<NodeId>& component : components) {
      std::set<NodeId> inComponent(component.begin(), component.end());
      std::vector<size_t> internal, incoming;
      for (size_t k : active) {
        if (!inComponent.count(deps_[k].consumer)) continue;
        (inComponent.count(deps_[k].producer) ? internal : incoming).push_back(k);
      }
      // The last item holding a producer: the component may join it (if a
      // loop) or a later loop; otherwise it goes last (after its producers,
      // near the statements placed just before it, depth first).
      size_t last = 0;
      for (size_t k : incoming) last = std::max(last, itemOf.at(deps_[k].producer));
      std::vector<LoopKind> kinds = loopKinds(component, internal, fixed, preference);
      // A component that can run in an until dimension's loop runs in one, not in a loop of another
      // dimension an earlier component made: that loop could not stop (UntilLoops).
      if (!kinds.empty() && (untilDims_ & bit(kinds.front().dim)))
        kinds.erase(std::remove_if(kinds.begin(), kinds.end(), [&](LoopKind k) { return !(untilDims_ & bit(k.dim)); }),
                    kinds.end());
      // With an until dimension, what depends on its bound joins only loops of such values: a loop
      // of values it does not change may run before the stop (untilOrder).
      if (untilDims_ && dependsOnExtent(component))
        for (size_t at = last; at < items.size(); ++at)
          if (items[at].statement == -1 && !std::any_of(items[at].members.begin(), items[at].members.end(),
                                                        [&](NodeId n) { return extentDependent_.count(n) != 0; }))
            last = at + 1;
      size_t at = place(items, incoming, kinds, last, fixed);
      if (at == items.size()) {
        if (kinds.empty() && (!internal.empty() || component.size() > 1))
          throw IslError("fusion schedule: no loop carries the cycle through" + names(component));
        Item item;
        if (kinds.empty()) item.statement = component.front();
        else item.loop = kinds.front();
        items.push_back(std::move(item));
      }
      Item& item = items[at];
      for (NodeId n : component) {
        if (item.statement == -1) item.members.push_back(n);
        itemOf[n] = at;
      }
    }
    sink(items, active, fixed);
    for (Item& item : items)
      if (item.statement == -1) item.body = sequence(item.members, fixed | bit(item.loop.dim));
    return items;
  }

  /// `components` (in dependence order) reordered for a program whose dimension ends `until` a
  /// condition: the loop that computes the condition stops, so the recurrences feeding it must
  /// share it and nothing that depends on T may run before it (UntilLoops). Of the components
  /// whose producers are placed, a statement with no dimension left goes first (a start value
  /// such as `xd[0] = s0[; 1]`, placed after an unrelated loop, would split the recurrences),
  /// then one whose values do not change with T, then the others (a backward pass's running
  /// sums), each kind in dependence order.
  std::vector<std::vector<NodeId>> untilOrder(std::vector<std::vector<NodeId>> components,
                                                   const std::vector<size_t>& active, DimMask fixed) {
    std::map<NodeId, size_t> componentOf;
    for (size_t c = 0; c < components.size(); ++c)
      for (NodeId n : components[c]) componentOf[n] = c;
    std::vector<std::set<size_t>> producers(components.size());
    for (size_t k : active) {
      size_t from = componentOf.at(deps_[k].producer), to = componentOf.at(deps_[k].consumer);
      if (from != to) producers[to].insert(from);
    }
    auto rank = [&](size_t c) {  // 0: a statement, 1: a component whose values T does not change, 2: the others
      if (dependsOnExtent(components[c])) return 2;
      return components[c].size() == 1 && (dimsOf(components[c][0]) & ~fixed) == 0 ? 0 : 1;
    };
    std::vector<bool> placed(components.size(), false);
    std::vector<std::vector<NodeId>> out;
    while (out.size() < components.size()) {
      std::optional<size_t> next;
      int best = 3;
      for (size_t c = 0; c < components.size() && best > 0; ++c) {
        if (placed[c]) continue;
        bool ready = std::all_of(producers[c].begin(), producers[c].end(), [&](size_t p) { return placed[p]; });
        if (ready && rank(c) < best) next = c, best = rank(c);
      }
      placed[*next] = true;
      out.push_back(std::move(components[*next]));
    }
    return out;
  }

  bool dependsOnExtent(const std::vector<NodeId>& component) const {
    return std::any_of(component.begin(), component.end(), [&](NodeId n) { return extentDependent_.count(n) != 0; });
  }

  /// The isl schedule tree of `items`.
  IslPtr<isl_schedule> tree(const std::vector<Item>& items) {
    IslPtr<isl_schedule> out;
    for (const Item& item : items) {
      IslPtr<isl_schedule> next = item.statement != -1 ? leaf(item.statement) : band(item);
      out = out ? islCheck(isl_schedule_sequence(out.release(), next.release()), ctx_, "sequencing loops")
                : std::move(next);
    }
    return out;
  }

private:
  static DimMask bit(int dim) { return DimMask{1} << dim; }

  int dimIndex(const std::string& name) {
    auto it = std::find(dims_.begin(), dims_.end(), name);
    if (it != dims_.end()) return static_cast<int>(it - dims_.begin());
    dims_.push_back(name);
    return static_cast<int>(dims_.size() - 1);
  }

  /// The position of global dimension `dim` in `node`'s domain (-1: absent).
  int position(NodeId node, int dim) const {
    const std::vector<std::string>& domain = g_.node(node).domain;
    auto it = std::find(domain.begin(), domain.end(), dims_[dim]);
    return it == domain.end() ? -1 : static_cast<int>(it - domain.begin());
  }

  DimMask dimsOf(NodeId node) {
    DimMask m = 0;
    for (const std::string& d : g_.node(node).domain) m |= bit(dimIndex(d));
    return m;
  }

  /// Dependence `k` restricted to pairs at the same iteration of every fixed loop.
  IslPtr<isl_map> atSameIteration(size_t k, DimMask fixed) {
    const Dependence& d = deps_[k];
    isl_map* m = isl_map_copy(d.relation.get());
    for (int dim = 0; dim < static_cast<int>(dims_.size()); ++dim)
      if (fixed & bit(dim)) m = isl_map_equate(m, isl_dim_in, position(d.producer, dim), isl_dim_out, position(d.consumer, dim));
    return islCheck(m, ctx_, "a dependence inside the loops");
  }

  bool isActive(size_t k, DimMask fixed) {
    auto key = std::make_pair(k, fixed);
    auto it = activeCache_.find(key);
    if (it != activeCache_.end()) return it->second;
    bool active = isl_map_is_empty(atSameIteration(k, fixed).get()) != isl_bool_true;
    return activeCache_[key] = active;
  }

  /// Whether dependence `k` (active under `fixed`) points along `loop`.
  bool pointsAlong(size_t k, DimMask fixed, LoopKind loop) {
    auto key = std::make_tuple(k, fixed, loop.dim, loop.backward);
    auto it = alongCache_.find(key);
    if (it != alongCache_.end()) return it->second;
    const Dependence& d = deps_[k];
    int p = position(d.producer, loop.dim), c = position(d.consumer, loop.dim);
    bool along = false;
    if (p >= 0 && c >= 0) {
      IslPtr<isl_map> m = atSameIteration(k, fixed);
      // The pairs that would run the reader first: c < p forwards, c > p backwards.
      m.reset(loop.backward ? isl_map_order_gt(m.release(), isl_dim_out, c, isl_dim_in, p)
                            : isl_map_order_lt(m.release(), isl_dim_out, c, isl_dim_in, p));
      along = isl_map_is_empty(islCheck(m.release(), ctx_, "a dependence's direction").get()) == isl_bool_true;
    }
    return alongCache_[key] = along;
  }

  /// Dimensions not yet fixed, those more statements of the group have first.
  std::vector<int> dimPreference(const std::vector<NodeId>& members, DimMask fixed) {
    std::vector<int> count(dims_.size(), 0);
    for (NodeId n : members)
      for (int dim = 0; dim < static_cast<int>(dims_.size()); ++dim)
        if ((dimsOf(n) & bit(dim)) && !(fixed & bit(dim))) ++count[dim];
    std::vector<int> order;
    for (int dim = 0; dim < static_cast<int>(dims_.size()); ++dim)
      if (count[dim]) order.push_back(dim);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return count[a] > count[b]; });
    // An until dimension first: its loop can then stop where the condition holds, around
    // everything it holds (a top-level loop over it is what UntilLoops needs).
    std::stable_partition(order.begin(), order.end(), [&](int dim) { return (untilDims_ & bit(dim)) != 0; });
    return order;
  }

  /// The loops `component` may run in, preferred first: a dimension every
  /// member has and `fixed` lacks, in a direction its own dependences accept.
  std::vector<LoopKind> loopKinds(const std::vector<NodeId>& component, const std::vector<size_t>& internal,
                                  DimMask fixed, const std::vector<int>& preference) {
    DimMask common = ~DimMask{0};
    for (NodeId n : component) common &= dimsOf(n);
    std::vector<LoopKind> kinds;
    for (int dim : preference) {
      if (!(common & bit(dim))) continue;
      for (bool backward : {false, true}) {
        LoopKind kind{dim, backward};
        bool ok = true;
        for (size_t k : internal) ok = ok && pointsAlong(k, fixed, kind);
        if (ok) kinds.push_back(kind);
      }
    }
    return kinds;
  }

  /// The index of the loop at or after `earliest` that `component` can join
  /// (items.size() when none); every dependence from the loop's members into
  /// the component must point along it.
  size_t place(const std::vector<Item>& items, const std::vector<size_t>& incoming, const std::vector<LoopKind>& kinds,
               size_t earliest, DimMask fixed) {
    std::set<NodeId> read;  // what the component reads
    for (size_t k : incoming) read.insert(deps_[k].producer);
    for (size_t at = earliest; at < items.size(); ++at) {
      const Item& item = items[at];
      if (item.statement != -1 || std::find(kinds.begin(), kinds.end(), item.loop) == kinds.end()) continue;
      std::set<NodeId> inLoop(item.members.begin(), item.members.end());
      bool ok = true, related = false;
      for (size_t k : incoming)
        if (inLoop.count(deps_[k].producer)) ok = ok && pointsAlong(k, fixed, item.loop), related = true;
      if (ok && (related || readsAnyOf(item.members, read))) return at;
    }
    return items.size();
  }

  /// True when a statement of `members` reads one of `producers`. A component joins only a
  /// loop it reads from or shares a read with: fusing unrelated statements gains no locality
  /// and keeps their stores live together (four layers' weights, each copied into panels,
  /// held at once).
  bool readsAnyOf(const std::vector<NodeId>& members, const std::set<NodeId>& producers) {
    for (NodeId m : members)
      for (size_t k : byConsumer_[m])
        if (producers.count(deps_[k].producer)) return true;
    return false;
  }

  /// Bytes of one element of `node` at the bound defaults (at its largest
  /// point when its shape grows with a dimension).
  double elementBytes(NodeId node) {
    auto it = elementBytes_.find(node);
    if (it != elementBytes_.end()) return it->second;
    const Node& n = g_.node(node);
    double bytes = static_cast<double>(dtypeSize(n.type.dtype));
    try {
      SymbolEnv env(g_.boundDefaults.begin(), g_.boundDefaults.end());
      for (const DimDecl& d : g_.dims) env.emplace(d.bound, kUnsetBound);
      env = g_.withDerivedBounds(env);
      for (const DimDecl& d : g_.dims) env[d.name] = env[d.bound] - 1;
      for (int64_t size : n.type.evaluateShape(env)) bytes *= static_cast<double>(std::max<int64_t>(size, 1));
    } catch (const std::exception&) {
      bytes = 0;  // a size this estimate cannot evaluate counts as nothing (on either side of a move)
    }
    return elementBytes_[node] = bytes;
  }

  /// Moves a statement that a loop computes only for one later loop into
  /// that loop, together with the statements of its loop that only it reads
  /// (a chain), when its element is at least as large as what the move keeps
  /// alive longer (elements its chain reads from its loop that nothing at or
  /// after the later loop reads): a permute, an expand, the copy of a growing
  /// window or a mask is then kept for one iteration instead of for all of
  /// them. Every dependence into and inside the chain must point along the
  /// later loop. Members are tried last first.
  void sink(std::vector<Item>& items, const std::vector<size_t>& active, DimMask fixed) {
    std::map<NodeId, std::vector<size_t>> readers, producers;
    for (size_t k : active) {
      if (deps_[k].producer == deps_[k].consumer) continue;
      readers[deps_[k].producer].push_back(k);
      producers[deps_[k].consumer].push_back(k);
    }
    auto itemOf = [&](NodeId n) -> std::optional<size_t> {
      for (size_t at = 0; at < items.size(); ++at)
        if (items[at].statement == n || std::count(items[at].members.begin(), items[at].members.end(), n)) return at;
      return std::nullopt;
    };
    for (size_t from = items.size(); from-- > 0;) {
      if (items[from].statement != -1) continue;
      const std::vector<NodeId> lastFirst(items[from].members.rbegin(), items[from].members.rend());
      for (NodeId node : lastFirst) {
        if (!std::count(items[from].members.begin(), items[from].members.end(), node)) continue;  // moved in a chain
        std::optional<size_t> to = sinkTarget(items, from, node, readers[node], fixed);
        if (!to) continue;
        std::set<NodeId> inFrom(items[from].members.begin(), items[from].members.end());
        std::set<NodeId> inTo(items[*to].members.begin(), items[*to].members.end());
        // The chain: `node` and the statements of its loop read only inside the chain or the later loop.
        std::set<NodeId> chain{node};
        for (bool grew = true; grew;) {
          grew = false;
          for (NodeId member : std::set<NodeId>(chain))
            for (size_t k : producers[member]) {
              NodeId p = deps_[k].producer;
              if (chain.count(p) || !inFrom.count(p) || hasSelfDependence(p, fixed)) continue;
              bool onlyChain = true;
              for (size_t r : readers[p]) onlyChain = onlyChain && (chain.count(deps_[r].consumer) || inTo.count(deps_[r].consumer));
              if (onlyChain) chain.insert(p), grew = true;
            }
        }
        // What the move keeps alive longer, and whether the chain may run in the later loop.
        const LoopKind loop = items[*to].loop;
        double longer = 0;
        bool fits = true;
        for (NodeId member : chain) {
          fits = fits && (dimsOf(member) & bit(loop.dim));
          for (size_t k : readers[member])
            if (inTo.count(deps_[k].consumer)) fits = fits && pointsAlong(k, fixed, loop);
          for (size_t k : producers[member]) {
            NodeId p = deps_[k].producer;
            if (chain.count(p)) {
              fits = fits && pointsAlong(k, fixed, loop);
              continue;
            }
            if (!inFrom.count(p)) continue;
            bool keptAnyway = false;
            for (size_t r : readers[p]) {
              std::optional<size_t> at = chain.count(deps_[r].consumer) ? std::nullopt : itemOf(deps_[r].consumer);
              keptAnyway = keptAnyway || (at && *at >= *to);
            }
            if (!keptAnyway) longer += elementBytes(p);
          }
        }
        if (!fits || elementBytes(node) < longer) continue;
        for (NodeId member : chain) {
          std::erase(items[from].members, member);
          items[*to].members.push_back(member);
        }
      }
    }
    std::erase_if(items, [](const Item& item) { return item.statement == -1 && item.members.empty(); });
  }

  bool hasSelfDependence(NodeId node, DimMask fixed) {
    for (size_t k : byConsumer_[node])
      if (deps_[k].producer == node && isActive(k, fixed)) return true;
    return false;
  }

  /// The later loop holding every reader of `node` (a statement of item
  /// `from` with no dependence on itself), if it accepts `node`.
  std::optional<size_t> sinkTarget(const std::vector<Item>& items, size_t from, NodeId node,
                                   const std::vector<size_t>& readerDeps, DimMask fixed) {
    if (readerDeps.empty() || hasSelfDependence(node, fixed)) return std::nullopt;
    std::optional<size_t> target;
    for (size_t k : readerDeps) {
      std::optional<size_t> holder;
      for (size_t at = 0; at < items.size() && !holder; ++at)
        if (items[at].statement == -1 &&
            std::count(items[at].members.begin(), items[at].members.end(), deps_[k].consumer))
          holder = at;
      if (!holder || *holder <= from || (target && *target != *holder)) return std::nullopt;
      target = holder;
    }
    const LoopKind loop = items[*target].loop;
    if (!(dimsOf(node) & bit(loop.dim))) return std::nullopt;
    for (size_t k : readerDeps)
      if (!pointsAlong(k, fixed, loop)) return std::nullopt;
    return target;
  }

  std::string names(const std::vector<NodeId>& component) const {
    std::string out;
    for (NodeId n : component) out += " %" + std::to_string(n);
    return out;
  }

  static isl_stat addStatement(isl_set* set, void* user) {
    auto* self = static_cast<FusionScheduler*>(user);
    std::optional<NodeId> node = nodeOfStatement(isl_set_get_tuple_name(set));
    if (node) self->domains_[*node] = IslPtr<isl_set>(set);
    else isl_set_free(set);
    return isl_stat_ok;
  }

  static isl_stat addDependence(isl_map* map, void* user) {
    auto* self = static_cast<FusionScheduler*>(user);
    IslPtr<isl_map> relation(map);
    std::optional<NodeId> producer = nodeOfStatement(isl_map_get_tuple_name(map, isl_dim_in));
    std::optional<NodeId> consumer = nodeOfStatement(isl_map_get_tuple_name(map, isl_dim_out));
    auto edge = producer && consumer ? self->edgeOf_.find({*producer, *consumer}) : self->edgeOf_.end();
    if (edge == self->edgeOf_.end() || !self->domains_.count(*producer) || !self->domains_.count(*consumer) ||
        isl_map_is_empty(map) == isl_bool_true)
      return isl_stat_ok;
    const size_t k = self->deps_.size();
    self->byConsumer_[*consumer].push_back(k);
    self->deps_.push_back({edge->second, *producer, *consumer, std::move(relation)});
    self->activeCache_[{k, DimMask{0}}] = true;  // just found non-empty: no loop fixed yet
    return isl_stat_ok;
  }

  IslPtr<isl_schedule> leaf(NodeId node) {
    isl_union_set* domain = isl_union_set_from_set(isl_set_copy(domains_.at(node).get()));
    return islCheck(isl_schedule_from_domain(domain), ctx_, "a statement's schedule");
  }

  void statementsOf(const std::vector<Item>& items, std::vector<NodeId>& out) const {
    for (const Item& item : items) {
      if (item.statement != -1) out.push_back(item.statement);
      statementsOf(item.body, out);
    }
  }

  /// The loop's body with a one-dimensional band on top: `S[c0, c1] -> [c1]` (or `[-c1]`).
  IslPtr<isl_schedule> band(const Item& item) {
    std::vector<NodeId> inside;
    statementsOf(item.body, inside);
    IslPtr<isl_schedule> body = tree(item.body);
    isl_union_pw_multi_aff* coordinates = isl_union_pw_multi_aff_empty(isl_union_set_get_space(
        islCheck(isl_schedule_get_domain(body.get()), ctx_, "a loop's domain").get()));
    for (NodeId n : inside) {
      isl_set* domain = domains_.at(n).get();
      isl_aff* c = isl_aff_var_on_domain(isl_local_space_from_space(isl_set_get_space(domain)), isl_dim_set,
                                         position(n, item.loop.dim));
      if (item.loop.backward) c = isl_aff_neg(c);
      isl_pw_multi_aff* piece = isl_pw_multi_aff_from_multi_aff(isl_multi_aff_from_aff(c));
      piece = isl_pw_multi_aff_intersect_domain(piece, isl_set_copy(domain));
      coordinates = isl_union_pw_multi_aff_add_pw_multi_aff(coordinates, piece);
    }
    auto partial = islCheck(isl_multi_union_pw_aff_from_union_pw_multi_aff(coordinates), ctx_, "a loop's band");
    return islCheck(isl_schedule_insert_partial_schedule(body.release(), partial.release()), ctx_, "inserting a loop");
  }

  DimMask untilDims_ = 0;  ///< the dimensions that end `until` a condition: untilOrder, preferred as loops
  std::set<NodeId> extentDependent_;  ///< then: the nodes whose values change with its bound
  isl_ctx* ctx_;
  const Graph& g_;
  std::map<NodeId, IslPtr<isl_set>> domains_;     ///< each statement's domain
  std::vector<NodeId> statements_;                ///< ascending
  std::map<std::pair<NodeId, NodeId>, EdgeId> edgeOf_;  ///< an edge of each (producer, consumer) pair
  std::vector<std::string> dims_;
  std::vector<Dependence> deps_;
  std::map<NodeId, std::vector<size_t>> byConsumer_;
  std::map<std::pair<size_t, DimMask>, bool> activeCache_;
  std::map<std::tuple<size_t, DimMask, int, bool>, bool> alongCache_;
  std::map<NodeId, double> elementBytes_;
  static constexpr int64_t kUnsetBound = 16;  ///< a bound without a `set` value, for the size estimate
};

}  // namespace

IslPtr<isl_schedule> fusionSchedule(isl_ctx* ctx, const Graph& g, isl_union_set* domain, isl_union_map* validity) {
  FusionScheduler s(ctx, g, domain, validity);
  if (s.statements().empty()) throw IslError("fusion schedule: no statements");
  return s.tree(s.sequence(s.statements(), 0));
}

}  // namespace tempo
