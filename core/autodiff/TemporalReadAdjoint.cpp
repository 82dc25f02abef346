#include "autodiff/TemporalReadAdjoint.h"

#include "autodiff/ReaderRange.h"
#include "autodiff/ValidityGuards.h"
#include "graph/GraphAlgorithms.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace tempo {

namespace {

/// For each atom: the consumer dimension it fixes and the inverse expression
/// over the producer's dimensions, when the atom is invertible (`s_j + k`).
struct Inversion {
  std::vector<std::optional<std::pair<std::string, IndexExpr>>> perAtom;
  std::map<std::string, IndexExpr> fixed;  ///< consumer dim -> its value at producer point q
};

Inversion invert(const Edge& e, const Node& c, const Node& p) {
  std::map<std::string, int> uses;
  for (const IndexAtom& a : e.index) {
    std::set<Symbol> syms = a.start.symbols();
    if (a.isSlice())
      for (const Symbol& s : a.stop->symbols()) syms.insert(s);
    for (const Symbol& s : syms)
      if (s.kind == SymbolKind::Dim) ++uses[s.name];
  }
  Inversion inv;
  inv.perAtom.resize(e.index.size());
  for (size_t i = 0; i < e.index.size(); ++i) {
    const IndexAtom& a = e.index[i];
    if (a.isSlice()) continue;
    std::optional<IndexExpr::Linear> lin = a.start.linear();
    if (!lin) continue;
    std::vector<std::pair<Symbol, int64_t>> dims;
    for (const auto& [sym, coeff] : lin->coeffs)
      if (sym.kind == SymbolKind::Dim) dims.emplace_back(sym, coeff);
    if (dims.size() != 1 || dims[0].second != 1 || uses[dims[0].first.name] != 1) continue;
    const std::string& sj = dims[0].first.name;
    if (std::find(c.domain.begin(), c.domain.end(), sj) == c.domain.end()) continue;
    IndexExpr offset = a.start - IndexExpr::dim(sj);  // bounds and constants only
    IndexExpr value = IndexExpr::dim(p.domain[i]) - offset;
    inv.perAtom[i] = std::make_pair(sj, value);
    inv.fixed.emplace(sj, value);
  }
  return inv;
}

/// True for a point atom that reads the same producer point from every consumer point.
bool isConstantPoint(const IndexAtom& a) { return !a.isSlice() && !a.start.dependsOnKind(SymbolKind::Dim); }

/// True when some atom of `e` mentions consumer dimension `s`.
bool mentions(const Edge& e, const std::string& s) {
  for (const IndexAtom& a : e.index)
    if (a.start.dependsOn(s) || (a.isSlice() && a.stop->dependsOn(s))) return true;
  return false;
}

/// True when `to` depends on `from` through the graph's edges (`from` is an ancestor of `to`).
bool dependsOn(const Graph& g, NodeId to, NodeId from) {
  std::set<NodeId> seen{to};
  std::vector<NodeId> work{to};
  while (!work.empty()) {
    NodeId n = work.back();
    work.pop_back();
    for (const Edge* in : g.inputs(n)) {
      if (in->producer == from) return true;
      if (seen.insert(in->producer).second) work.push_back(in->producer);
    }
  }
  return false;
}

/// A running sum along consumer dimension `dim`: from s to the end (suffix)
/// or from the start to s (prefix).
struct RunningSum {
  std::string dim;
  bool suffix = true;
};

/// Whether the readers of q along the free consumer dimension `s` may be
/// summed with a running sum, and in which direction. A running sum from the
/// first reader to the end of `s` (or from its start to the last reader) adds
/// the non-readers beyond the range too; they hold exact zeros at q, so the
/// value is the same, but q's gradient then depends on them. That is harmless
/// unless the consumer feeds the producer (a recurrence through this edge);
/// there the direction must follow time: a window into the past of the same
/// dimension (hi(s) <= s + 1) is summed from the first reader onwards, one
/// into the future (lo(s) >= s) up to the last reader. Anything else keeps
/// the plain sum over the readers' range.
std::optional<RunningSum> runningSumFor(const Graph& g, IslContext& ctx, const Edge& e, const std::string& s) {
  if (!dependsOn(g, e.producer, e.consumer)) return RunningSum{s, true};
  const Node& c = g.node(e.consumer);
  const Node& p = g.node(e.producer);
  std::vector<IndexExpr> bounds;
  for (const std::string& d : c.domain) bounds.push_back(IndexExpr::bound(g.boundOf(d)));
  std::vector<std::string> params = g.boundNames();
  PointSet box = PointSet::box(ctx, c.domain, bounds, params);
  auto always = [&](const Constraint& k) { return box.isSubsetOf(PointSet::fromConstraints(ctx, c.domain, params, {k})); };
  bool past = true, future = true;
  for (size_t i = 0; i < e.index.size() && i < p.domain.size(); ++i) {
    const IndexAtom& a = e.index[i];
    if (!a.start.dependsOn(s) && !(a.isSlice() && a.stop->dependsOn(s))) continue;
    if (p.domain[i] != s) return std::nullopt;
    IndexExpr hi = a.isSlice() ? *a.stop : a.start + 1;
    past = past && always({hi, Constraint::Rel::Le, IndexExpr::dim(s) + 1});
    future = future && always({a.start, Constraint::Rel::Ge, IndexExpr::dim(s)});
  }
  if (past) return RunningSum{s, true};
  if (future) return RunningSum{s, false};
  return std::nullopt;
}

/// For a consumer dimension `s` that no atom of `e` mentions, when the consumer feeds the
/// producer (`q[t] = q[t-1] + p[0]` with p reading q[t-1]): summing the consumer's points
/// along `s` at once would make a value over fewer dimensions, in the cycle of the backward
/// recurrences. A running sum along `s` keeps the cycle over one domain, if it runs the
/// way the backward recurrence does: the forward reads along `s` inside the recurrence all
/// go into the past (the gradient flows from the future: sum from s to the end) or all into
/// the future (sum from the start to s). nullopt otherwise.
std::optional<RunningSum> recurrenceDirection(const Graph& g, IslContext& ctx, const Edge& e, const std::string& s) {
  std::set<NodeId> cycle;
  for (const std::vector<NodeId>& comp : stronglyConnectedComponents(g))
    if (std::find(comp.begin(), comp.end(), e.consumer) != comp.end()) cycle.insert(comp.begin(), comp.end());
  std::vector<std::string> params = g.boundNames();
  bool past = false, future = false;
  for (const auto& [id, edge] : g.edges()) {
    if (!cycle.count(edge.consumer) || !cycle.count(edge.producer)) continue;
    const Node& c = g.node(edge.consumer);
    const Node& p = g.node(edge.producer);
    if (std::find(c.domain.begin(), c.domain.end(), s) == c.domain.end()) continue;
    std::vector<IndexExpr> bounds;
    for (const std::string& d : c.domain) bounds.push_back(IndexExpr::bound(g.boundOf(d)));
    PointSet box = PointSet::box(ctx, c.domain, bounds, params);
    auto always = [&](const Constraint& k) { return box.isSubsetOf(PointSet::fromConstraints(ctx, c.domain, params, {k})); };
    for (size_t i = 0; i < edge.index.size() && i < p.domain.size(); ++i) {
      if (p.domain[i] != s) continue;
      const IndexAtom& a = edge.index[i];
      IndexExpr hi = a.isSlice() ? *a.stop : a.start + 1;
      past = past || always({hi, Constraint::Rel::Le, IndexExpr::dim(s)});
      future = future || always({a.start, Constraint::Rel::Ge, IndexExpr::dim(s) + 1});
    }
  }
  if (past == future) return std::nullopt;
  return RunningSum{s, past};
}

/// `v` (over b's domain) summed along `run.dim`: R[s] = v[s] + R[s + 1] up to
/// the last point (suffix), or R[s] = v[s] + R[s - 1] from the first (prefix).
/// A recurrence, so each point costs one addition of v's size.
NodeId runningSum(AdjointBuilder& b, NodeId v, const RunningSum& run) {
  NodeId r = b.typed(OpKind::Merge, b.typeOf(v), {});
  std::vector<IndexAtom> previous;
  for (const std::string& d : b.domain())
    previous.push_back(IndexAtom::point(d == run.dim ? IndexExpr::dim(d) + (run.suffix ? 1 : -1) : IndexExpr::dim(d)));
  NodeId add = b.op(OpKind::Add, {AdjointInput::at(v), AdjointInput::through(r, previous)});
  Constraint more = run.suffix
                        ? Constraint{IndexExpr::dim(run.dim) + 1, Constraint::Rel::Lt, IndexExpr::bound(b.graph().boundOf(run.dim))}
                        : Constraint{IndexExpr::dim(run.dim), Constraint::Rel::Ge, 1};
  b.connect(r, 0, AdjointInput{add, {}, true, Condition::of({more})});
  b.connect(r, 1, AdjointInput::at(v));
  return r;
}

/// The one coordinate consumer dimension `s` has wherever `guard` holds in c's box, if
/// there is one: a branch taken only at `t == 0` (or `t == T - 1`) reads its producer there
/// alone. The candidates are the first and last coordinates and every `s == k` the guard
/// states (k free of dimensions), each checked with isl. nullopt when the guard holds nowhere.
std::optional<IndexExpr> pinnedCoordinate(const Graph& g, IslContext& ctx, const Node& c, const std::string& s,
                                          const Condition& guard) {
  if (guard.isAlways() || guard.isNever()) return std::nullopt;
  IndexExpr extent = IndexExpr::bound(g.boundOf(s));
  std::vector<IndexExpr> candidates{IndexExpr(0), extent - 1};
  for (const std::vector<Constraint>& conj : guard.disjuncts())
    for (const Constraint& k : conj) {
      if (k.rel != Constraint::Rel::Eq) continue;
      if (k.lhs == IndexExpr::dim(s) && !k.rhs.dependsOnKind(SymbolKind::Dim)) candidates.push_back(k.rhs);
      if (k.rhs == IndexExpr::dim(s) && !k.lhs.dependsOnKind(SymbolKind::Dim)) candidates.push_back(k.lhs);
    }
  std::vector<IndexExpr> bounds;
  for (const std::string& d : c.domain) bounds.push_back(IndexExpr::bound(g.boundOf(d)));
  std::vector<std::string> params = g.boundNames();
  PointSet live = PointSet::box(ctx, c.domain, bounds, params).intersect(guard.toPointSet(ctx, c.domain, params));
  if (live.isEmpty()) return std::nullopt;
  for (const IndexExpr& k : candidates)
    if (live.isSubsetOf(PointSet::fromConstraints(ctx, c.domain, params, {{IndexExpr::dim(s), Constraint::Rel::Eq, k}})))
      return k;
  return std::nullopt;
}

}  // namespace

NodeId temporalReadAdjoint(Graph& g, IslContext& ctx, const Edge& e, NodeId readGrad, const Condition& guard) {
  const Node c = g.node(e.consumer);
  const Node p = g.node(e.producer);
  if (e.isIdentityRead(p.domain) && p.domain == c.domain)
    return AdjointBuilder(g, c.domain, c.loc).guarded(readGrad, guard);
  Inversion inv = invert(e, c, p);

  // Over the consumer's domain: scatter the elements of every atom that is
  // neither invertible nor a constant point to their positions along the
  // producer dimension's full extent. A constant point (`T - 1`) needs no
  // scatter: it contributes where q equals it.
  AdjointBuilder cb(g, c.domain, c.loc);
  NodeId scattered = readGrad;
  std::vector<std::pair<size_t, IndexExpr>> picks;  // per scattered axis: its atom, q
  std::vector<Constraint> boundary;
  for (size_t i = 0; i < e.index.size(); ++i) {
    if (inv.perAtom[i]) continue;
    const IndexAtom& a = e.index[i];
    IndexExpr q = IndexExpr::dim(p.domain[i]);
    int64_t axis = static_cast<int64_t>(picks.size());
    if (isConstantPoint(a)) {
      boundary.push_back({q, Constraint::Rel::Eq, a.start});
      continue;
    }
    IndexExpr extent = IndexExpr::bound(g.boundOf(p.domain[i]));
    if (!a.isSlice()) {  // a point read gets an axis of size 1 to place
      std::vector<IndexExpr> shape = cb.typeOf(scattered).shape;
      shape.insert(shape.begin() + axis, IndexExpr(1));
      scattered = cb.reshape(scattered, shape);
    }
    scattered = cb.placeAt(scattered, axis, a.start, extent);
    picks.emplace_back(i, q);
  }
  scattered = cb.guarded(scattered, guard);

  // Over the producer's domain: read the readers (a point for each fixed
  // consumer dimension, the readers' range along the others), pick q's
  // position along each scattered axis, and sum. Where the readers' range
  // differs between parts of the domain, each part gets its own read.
  // Consumer dimensions that no atom mentions are read whole by every q: they
  // are summed once, over the consumer's domain without them. A single
  // remaining free dimension becomes a running sum (runningSumFor), read at
  // one point per q: O(extent) work per q instead of O(readers * extent).
  // A consumer dimension no atom mentions but the guard pins to one coordinate (the branch
  // `p[0] = tanh(q[0])` is live at t == 0 only) is read at that coordinate, under the
  // boundary condition, instead of summed: the sum would make q's gradient depend on the
  // gradient at every t, a cycle through a value over fewer dimensions when the
  // recurrences are coupled (q reads p[t-1]).
  AdjointBuilder pb(g, p.domain, p.loc);
  std::map<std::string, IndexExpr> pinned;
  for (const std::string& sj : c.domain)
    if (!inv.fixed.count(sj) && !mentions(e, sj))
      if (std::optional<IndexExpr> k = pinnedCoordinate(g, ctx, c, sj, guard)) pinned.emplace(sj, *k);
  // Without free dimensions, one whole dimension of a recurrence through `e` is summed by a
  // running sum instead (recurrenceDirection), read at its end.
  std::optional<RunningSum> wholeRun;
  bool anyFree = false;
  for (const std::string& sj : c.domain) anyFree = anyFree || (!inv.fixed.count(sj) && !pinned.count(sj) && mentions(e, sj));
  if (!anyFree && dependsOn(g, e.producer, e.consumer))
    for (const std::string& sj : c.domain)
      if (!wholeRun && !inv.fixed.count(sj) && !pinned.count(sj)) wholeRun = recurrenceDirection(g, ctx, e, sj);
  std::vector<std::string> freeDims, kept, whole;
  for (const std::string& sj : c.domain) {
    if (pinned.count(sj) || (wholeRun && wholeRun->dim == sj)) {
      kept.push_back(sj);
    } else if (auto it = inv.fixed.find(sj); it != inv.fixed.end()) {
      boundary.push_back({it->second, Constraint::Rel::Ge, 0});
      boundary.push_back({it->second, Constraint::Rel::Lt, IndexExpr::bound(g.boundOf(sj))});
      kept.push_back(sj);
    } else {
      (mentions(e, sj) ? freeDims : whole).push_back(sj);
      if (mentions(e, sj)) kept.push_back(sj);
    }
  }
  AdjointBuilder kb(g, kept, c.loc);
  if (!whole.empty()) {
    std::vector<IndexAtom> atoms;
    for (const std::string& sj : c.domain)
      atoms.push_back(std::find(kept.begin(), kept.end(), sj) != kept.end()
                          ? IndexAtom::point(IndexExpr::dim(sj))
                          : IndexAtom::slice(0, IndexExpr::bound(g.boundOf(sj))));
    std::vector<int64_t> axes;
    for (size_t a = 0; a < whole.size(); ++a) axes.push_back(static_cast<int64_t>(a));
    scattered = kb.reduceSum(kb.op(OpKind::Identity, {AdjointInput::through(scattered, atoms)}), axes, false);
  }
  std::optional<RunningSum> run = wholeRun;
  if (freeDims.size() == 1) run = runningSumFor(g, ctx, e, freeDims[0]);
  if (run) scattered = runningSum(kb, scattered, *run);
  std::vector<Constraint> where = dropImpliedByBox(g, ctx, p.domain, boundary);
  std::vector<ReaderCase> readers = readerCases(g, ctx, e, p.domain, freeDims);
  const size_t cases = readers.size();
  auto readersSum = [&](const ReaderCase& rc) {
    std::vector<IndexAtom> atoms;
    std::vector<Constraint> someReader;  // for a running sum: q has a reader at all
    int64_t summed = 0;
    for (const std::string& sj : kept) {
      IndexExpr extent = IndexExpr::bound(g.boundOf(sj));
      auto r = rc.ranges.find(sj);
      if (auto it = inv.fixed.find(sj); it != inv.fixed.end()) {
        atoms.push_back(IndexAtom::point(it->second));
      } else if (auto pin = pinned.find(sj); pin != pinned.end()) {
        atoms.push_back(IndexAtom::point(pin->second));
      } else if (run && r == rc.ranges.end()) {  // readers unknown: the whole running sum
        atoms.push_back(IndexAtom::point(run->suffix ? IndexExpr(0) : extent - 1));
      } else if (run) {
        // From the first reader on, or up to the last. Where q has no reader
        // the running sum is not read at all: its nearest point would be a
        // non-reader that may depend on q (the consumer at q itself).
        const ReaderRange& range = r->second;
        atoms.push_back(IndexAtom::point(run->suffix ? IndexExpr::min(range.first, extent - 1)
                                                     : IndexExpr::max(range.end - 1, 0)));
        someReader.push_back(run->suffix ? Constraint{range.first, Constraint::Rel::Lt, extent}
                                         : Constraint{range.end, Constraint::Rel::Ge, 1});
      } else {
        atoms.push_back(r != rc.ranges.end() ? IndexAtom::slice(r->second.first, r->second.end)
                                             : IndexAtom::slice(0, extent));
        ++summed;
      }
    }
    // The read is made only where it is used (inside the boundary, in this case of the
    // domain, where q has a reader), a condition of the read itself: an unconditional read
    // would let every point depend on the one it reads, which in a recurrence through `e`
    // is a cycle the front end rightly cannot order.
    std::vector<Constraint> when = where;
    if (cases > 1) when.insert(when.end(), rc.assumptions.begin(), rc.assumptions.end());
    std::vector<Constraint> reader = dropImpliedByBox(g, ctx, p.domain, someReader);
    when.insert(when.end(), reader.begin(), reader.end());
    NodeId r = pb.guardedRead(AdjointInput::through(scattered, atoms, when.empty() ? Condition::always() : Condition::of(when)));
    for (size_t k = 0; k < picks.size(); ++k)
      r = pb.slice(r, summed + static_cast<int64_t>(k), picks[k].second, picks[k].second + 1);
    std::vector<int64_t> axes;
    for (int64_t a = 0; a < summed + static_cast<int64_t>(picks.size()); ++a) axes.push_back(a);
    return pb.reduceSum(r, axes, false);
  };
  if (cases == 1) return readersSum(readers[0]);
  std::vector<AdjointInput> branches;
  for (size_t i = 0; i < cases; ++i) {
    bool last = i + 1 == cases;
    branches.push_back(AdjointInput{readersSum(readers[i]), {}, true,
                                    last ? Condition::always() : Condition::of(readers[i].assumptions)});
  }
  return pb.typed(OpKind::Merge, p.type, std::move(branches));
}

}  // namespace tempo
