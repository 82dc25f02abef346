#include "memory/MemoryPlacement.h"

#include "memory/BufferSharing.h"
#include "memory/StoragePlanner.h"

#include <algorithm>
#include <optional>
#include <set>

namespace tempo {

namespace {

/// One step down the loop AST: the statement's index in its list and, for
/// the list below it, 0 (a For's body or an If's then-branch) or 1 (else).
struct Step {
  size_t index = 0;
  int branch = 0;
  bool operator==(const Step&) const = default;
  bool operator<(const Step& o) const { return index != o.index ? index < o.index : branch < o.branch; }
};
using Path = std::vector<Step>;  ///< from the top; the last step is the statement itself

struct Site {
  const ExecStmt* exec = nullptr;
  Path path;
  std::vector<std::pair<const ForStmt*, size_t>> loops;  ///< enclosing loops and the depth of their step
};

void collect(const LoopBody& body, Path& at, std::vector<std::pair<const ForStmt*, size_t>>& loops,
             std::map<NodeId, std::vector<Site>>& out) {
  for (size_t i = 0; i < body.size(); ++i) {
    const LoopStmt& s = body[i];
    at.push_back({i, 0});
    if (const auto* f = s.as<ForStmt>()) {
      loops.emplace_back(f, at.size() - 1);
      collect(f->body, at, loops, out);
      loops.pop_back();
    } else if (const auto* c = s.as<IfStmt>()) {
      collect(c->thenBody, at, loops, out);
      at.back().branch = 1;
      collect(c->elseBody, at, loops, out);
    } else if (const auto* e = s.as<ExecStmt>()) {
      out[e->node].push_back({e, at, loops});
    }
    at.pop_back();
  }
}

/// The deepest statement list holding every path: its depth (the number of steps to it).
size_t commonDepth(const std::vector<const Path*>& paths) {
  size_t depth = 0;
  for (;; ++depth) {
    for (const Path* p : paths)
      if (p->size() <= depth + 1 || !((*p)[depth] == (*paths.front())[depth])) return depth;
  }
}

/// `e` follows loop `f`: its variable plus `offset` (isl may run t at c0 = t + B).
bool followsLoop(const IndexExpr& e, const ForStmt* f, const IndexExpr& offset) {
  auto o = offsetFromLoopVar(e, *f);
  return o && *o == offset;
}

struct Insertion {
  NodeId node;
  LoopStmt stmt;
};

/// Per statement list (identified by the steps to it): what goes before / after statement i.
struct ListEdits {
  std::map<size_t, std::vector<Insertion>> before, after;
};

class Placer {
public:
  Placer(const Graph& g, const LoopProgram& program, const StoragePlan& stores) : g_(g), stores_(stores) {
    Path at;
    std::vector<std::pair<const ForStmt*, size_t>> loops;
    collect(program.body, at, loops, sites_);
    for (const GraphOutput& o : g.outputs) outputs_.insert(o.node);
  }

  void placeAll() {
    for (const auto& [id, own] : sites_) place(g_.node(id), own);
  }

  LoopBody rebuild(const LoopBody& in, Path& prefix) const {
    auto it = edits_.find(prefix);
    LoopBody out;
    for (size_t i = 0; i < in.size(); ++i) {
      if (it != edits_.end()) emit(it->second.before, i, out);
      LoopStmt s = in[i];
      prefix.push_back({i, 0});
      if (auto* f = s.as<ForStmt>()) {
        f->body = rebuild(f->body, prefix);
      } else if (auto* c = s.as<IfStmt>()) {
        c->thenBody = rebuild(c->thenBody, prefix);
        prefix.back().branch = 1;
        c->elseBody = rebuild(c->elseBody, prefix);
      }
      prefix.pop_back();
      out.push_back(std::move(s));
      if (it != edits_.end()) emit(it->second.after, i, out);
    }
    return out;
  }

private:
  static void emit(const std::map<size_t, std::vector<Insertion>>& at, size_t i, LoopBody& out) {
    auto it = at.find(i);
    if (it == at.end()) return;
    std::vector<const Insertion*> sorted;
    for (const Insertion& x : it->second) sorted.push_back(&x);
    std::stable_sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->node < b->node; });
    for (const Insertion* x : sorted) out.push_back(x->stmt);
  }

  StoreSpec specOf(NodeId id) const {
    auto it = stores_.find(id);
    return it == stores_.end() ? StoreSpec::whole() : it->second;
  }

  void place(const Node& n, const std::vector<Site>& own) {
    std::vector<const Path*> uses;
    for (const Site& s : own) uses.push_back(&s.path);
    for (const Edge* e : g_.users(n.id))
      if (auto it = sites_.find(e->consumer); it != sites_.end())
        for (const Site& s : it->second) uses.push_back(&s.path);
    StoreSpec spec = specOf(n.id);
    size_t depth = 0;
    std::map<std::string, IndexExpr> pinned;
    if (spec.kind == StoreKind::Point) depth = commonDepth(uses);
    if (spec.kind == StoreKind::Circular) depth = std::min(commonDepth(uses), circularLoopDepth(n, own, spec.dim));
    // A block store holds every point, like a whole store, and lives where one would.
    bool everyPoint = spec.kind == StoreKind::Whole || spec.kind == StoreKind::Block;
    if (everyPoint && !outputs_.count(n.id)) depth = wholeDepth(n, own, commonDepth(uses), pinned);
    if (isWholeArraySource(n.op)) depth = 0, pinned.clear();  // its array is built once: freeing it in a loop rebuilds it
    if (!everyPoint) pinned = pinnedDims(n, own, spec, depth);
    const Path& first = *uses.front();
    Path list(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(depth));
    size_t lo = SIZE_MAX, hi = 0;
    for (const Path* p : uses) lo = std::min(lo, (*p)[depth].index), hi = std::max(hi, (*p)[depth].index);
    StoreBytes bytes = storeBytes(g_, n, spec, pinned);
    ListEdits& edits = edits_[list];
    edits.before[lo].push_back({n.id, LoopStmt{AllocStmt{n.id, bytes}}});
    if (!outputs_.count(n.id)) edits.after[hi].push_back({n.id, LoopStmt{FreeStmt{n.id, bytes}}});
  }

  /// How deep a whole store can live: down through the Ifs and the loops
  /// around all its uses, as long as each loop pins one of its dims (see
  /// pinsDim: its values then never cross the loop's iterations); `pinned`
  /// gets each such dim with its loop variable.
  size_t wholeDepth(const Node& n, const std::vector<Site>& own, size_t common,
                    std::map<std::string, IndexExpr>& pinned) const {
    size_t depth = 0;
    for (; depth < common; ++depth) {
      const ForStmt* loop = nullptr;
      for (const auto& [f, d] : own.front().loops)
        if (d == depth) loop = f;
      if (!loop) continue;  // an If around every use
      std::optional<size_t> k = pinsDim(n, own, loop);
      if (!k) break;
      pinned.emplace(n.domain[*k], own.front().exec->point[*k]);
    }
    return depth;
  }

  /// A dim k of `n` that follows `loop`'s variable (at one offset) at every
  /// write of n and at every read (each reader reads coordinate k at its own
  /// same-named coordinate, which follows the loop wherever it runs).
  std::optional<size_t> pinsDim(const Node& n, const std::vector<Site>& own, const ForStmt* loop) const {
    for (size_t k = 0; k < n.domain.size(); ++k) {
      const auto offset = offsetFromLoopVar(own.front().exec->point[k], *loop);
      if (!offset) continue;
      bool ok = std::all_of(own.begin(), own.end(),
                            [&](const Site& s) { return followsLoop(s.exec->point[k], loop, *offset); });
      for (const Edge* e : g_.users(n.id)) {
        if (!ok) break;
        if (e->index.size() != n.domain.size() || e->index[k].isSlice()) { ok = false; break; }
        auto sym = e->index[k].start.asSymbol();
        const Node& c = g_.node(e->consumer);
        auto at = sym ? std::find(c.domain.begin(), c.domain.end(), sym->name) : c.domain.end();
        if (at == c.domain.end()) { ok = false; break; }
        size_t ci = static_cast<size_t>(at - c.domain.begin());
        if (auto it = sites_.find(c.id); it != sites_.end())
          for (const Site& s : it->second) ok = ok && followsLoop(s.exec->point[ci], loop, *offset);
      }
      if (ok) return k;
    }
    return std::nullopt;
  }

  /// Depth of the step to the loop over the circular dim (the planner checked that it encloses every use).
  size_t circularLoopDepth(const Node& n, const std::vector<Site>& own, int dim) const {
    size_t found = 0;  // the innermost loop it follows, as the planner chose
    for (const auto& [f, depth] : own.front().loops)
      if (alongLoop(own.front().exec->point[static_cast<size_t>(dim)], *f)) found = depth;
    return found;
  }

  /// For a point or circular store: the dims that the loops around the
  /// placement level fix, as the same expression at every exec of `n`.
  std::map<std::string, IndexExpr> pinnedDims(const Node& n, const std::vector<Site>& own, const StoreSpec& spec,
                                              size_t depth) const {
    std::map<std::string, IndexExpr> pinned;
    std::set<std::string> scope;
    for (const auto& [f, d] : own.front().loops)
      if (d < depth) scope.insert(f->var);
    for (size_t k = 0; k < n.domain.size(); ++k) {
      if (spec.kind == StoreKind::Circular && static_cast<int>(k) == spec.dim) continue;
      const IndexExpr& x = own.front().exec->point[k];
      bool same = std::all_of(own.begin(), own.end(), [&](const Site& s) { return s.exec->point[k] == x; });
      bool inScope = true;
      for (const Symbol& s : x.symbols())
        if (s.kind == SymbolKind::Dim && !scope.count(s.name)) inScope = false;
      if (same && inScope) pinned.emplace(n.domain[k], x);
    }
    return pinned;
  }

  const Graph& g_;
  const StoragePlan& stores_;
  std::map<NodeId, std::vector<Site>> sites_;
  std::set<NodeId> outputs_;
  std::map<Path, ListEdits> edits_;
};

LoopBody filtered(const LoopBody& in, bool keepAllocs, bool keepSwaps) {
  LoopBody out;
  for (const LoopStmt& s : in) {
    if (s.as<FreeStmt>() || (!keepAllocs && s.as<AllocStmt>()) ||
        (!keepSwaps && (s.as<SwapOutStmt>() || s.as<SwapInStmt>())))
      continue;
    LoopStmt c = s;
    if (auto* f = c.as<ForStmt>()) f->body = filtered(f->body, keepAllocs, keepSwaps);
    if (auto* i = c.as<IfStmt>()) {
      i->thenBody = filtered(i->thenBody, keepAllocs, keepSwaps);
      i->elseBody = filtered(i->elseBody, keepAllocs, keepSwaps);
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

namespace {

/// How many coordinates of `dim` a node over `domain` has at the other dims'
/// values: its bound, or less under a dimension guard `c*dim <= e` (static
/// tiling's blocks, `4*ds <= t`: floor(e / c) + 1), when the guard is one
/// conjunction whose upper bounds on `dim` are all of that form.
IndexExpr guardedExtent(const Graph& g, const std::vector<std::string>& domain, const std::string& dim) {
  IndexExpr bound = IndexExpr::bound(g.boundOf(dim));
  auto guard = g.dimGuards.find(dim);
  if (guard == g.dimGuards.end() || guard->second.disjuncts().size() != 1) return bound;
  IndexExpr extent = bound;
  for (const Constraint& k : guard->second.disjuncts().front()) {
    std::optional<IndexExpr::Linear> diff = (k.rhs - k.lhs).linear();  // rhs - lhs, >= 0 for Le
    if (!diff) return bound;
    if (k.rel == Constraint::Rel::Ge || k.rel == Constraint::Rel::Gt) diff = (k.lhs - k.rhs).linear();
    const bool strict = k.rel == Constraint::Rel::Lt || k.rel == Constraint::Rel::Gt;
    if (!diff || k.rel == Constraint::Rel::Eq || k.rel == Constraint::Rel::Ne) return bound;
    int64_t c = 0;
    IndexExpr rest(diff->constant - (strict ? 1 : 0));  // c*dim <= rest
    for (const auto& [sym, coeff] : diff->coeffs) {
      if (sym.name == dim) c = -coeff;
      else if (std::find(domain.begin(), domain.end(), sym.name) == domain.end() && sym.kind != SymbolKind::Bound) return bound;
      else rest = rest + IndexExpr::symbol(sym) * coeff;
    }
    if (c < 0) continue;  // a lower bound on dim: the count stays at most the bound
    if (c == 0) return bound;
    extent = IndexExpr::min(extent, IndexExpr::floorDiv(rest, c) + 1);
  }
  return extent;
}

/// The extent of a summed dim: guarded when the guard names only dims summed
/// before it (StoreBytes binds them in order) or pinned ones, else its bound.
IndexExpr summedExtent(const Graph& g, const std::vector<std::string>& domain, const std::string& dim,
                       const std::map<std::string, IndexExpr>& pinned,
                       const std::vector<std::pair<std::string, IndexExpr>>& summedBefore) {
  IndexExpr extent = guardedExtent(g, domain, dim).substitute(pinned);
  for (const std::string& other : domain) {
    if (other == dim || !extent.dependsOn(other)) continue;
    bool before = std::any_of(summedBefore.begin(), summedBefore.end(), [&](const auto& s) { return s.first == other; });
    if (!before) return IndexExpr::bound(g.boundOf(dim));
  }
  return extent;
}

}  // namespace

StoreBytes storeBytes(const Graph& g, const Node& n, const StoreSpec& spec,
                      const std::map<std::string, IndexExpr>& pinned) {
  const TensorType& held = heldType(g, n);  // an expand view holds its input's bytes
  int64_t element = static_cast<int64_t>(dtypeSize(held.dtype));
  auto extent = [&](const std::string& dim) { return IndexExpr::bound(g.boundOf(dim)); };
  std::vector<std::pair<std::string, IndexExpr>> summed, maxed, all;
  std::vector<IndexExpr> factors, wholeFactors = n.type.shape;
  for (const IndexExpr& s : held.shape) factors.push_back(s.substitute(pinned));
  for (size_t k = 0; k < n.domain.size(); ++k) {
    const std::string& d = n.domain[k];
    all.emplace_back(d, extent(d));
    if (pinned.count(d)) continue;
    bool alongWindow = spec.kind == StoreKind::Circular && static_cast<int>(k) == spec.dim;
    bool alongBlocks = spec.kind == StoreKind::Block && static_cast<int>(k) == spec.dim;
    if (alongBlocks) {  // whole blocks: BS * ceil(extent / BS) coordinates (the element shape is static)
      const int64_t lanes = spec.blockSize();
      factors.push_back(IndexExpr::floorDiv(extent(d) + (lanes - 1), lanes) * lanes);
      continue;
    }
    if (spec.kind == StoreKind::Point || alongWindow) maxed.emplace_back(d, extent(d));
    else summed.emplace_back(d, summedExtent(g, n.domain, d, pinned, summed));
    if (alongWindow) factors.push_back(IndexExpr::min(spec.window, extent(d)) * spec.lanesFor(1));
  }
  // A loaded or initialised source holds its whole array; the values in its store are windows of it.
  if (isWholeArraySource(n.op)) return StoreBytes::term(element, wholeFactors, all);
  return StoreBytes::term(element, factors, summed, maxed);
}

LoopProgram placeMemory(const Graph& g, const LoopProgram& program, const StoragePlan& stores) {
  LoopProgram plain = withoutMemoryStatements(program);
  Placer placer(g, plain, stores);
  placer.placeAll();
  Path prefix;
  return LoopProgram{placer.rebuild(plain.body, prefix)};
}

LoopProgram placeMemory(const Graph& g, const LoopProgram& program) {
  LoopProgram plain = withoutMemoryStatements(program);
  return placeMemory(g, plain, chooseStores(g, plain));
}

LoopProgram withoutMemoryStatements(const LoopProgram& program) { return {filtered(program.body, false, false)}; }

LoopProgram withoutFrees(const LoopProgram& program) { return {filtered(program.body, true, true)}; }

}  // namespace tempo
