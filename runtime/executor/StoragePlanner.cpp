#include "executor/StoragePlanner.h"

#include "executor/SourceArrays.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>

namespace tempo {

namespace {

/// An If branch enclosing a statement: the If and whether it is the then-branch.
struct Guard {
  const IfStmt* stmt = nullptr;
  bool thenBranch = true;
  bool operator==(const Guard&) const = default;
};

/// One exec of a node in the loop program.
struct Site {
  const ExecStmt* exec = nullptr;
  std::vector<const ForStmt*> loops;  ///< enclosing loops, outermost first
  std::vector<Guard> guards;          ///< enclosing If branches, outermost first
  size_t order = 0;                   ///< pre-order position in the program
};

using SiteMap = std::map<NodeId, std::vector<Site>>;

/// The statements enclosing the body being walked.
struct Enclosing {
  std::vector<const ForStmt*> loops;
  std::vector<Guard> guards;
};

void collectSites(const LoopBody& body, Enclosing& at, SiteMap& out, size_t& order) {
  for (const LoopStmt& s : body) {
    ++order;
    if (const auto* f = s.as<ForStmt>()) {
      at.loops.push_back(f);
      collectSites(f->body, at, out, order);
      at.loops.pop_back();
    } else if (const auto* i = s.as<IfStmt>()) {
      for (bool thenBranch : {true, false}) {
        at.guards.push_back({i, thenBranch});
        collectSites(thenBranch ? i->thenBody : i->elseBody, at, out, order);
        at.guards.pop_back();
      }
    } else if (const auto* e = s.as<ExecStmt>()) {
      out[e->node].push_back({e, at.loops, at.guards, order});
    }
  }
}

/// `c` with every symbol named in `values` replaced by its expression.
Condition substituted(const Condition& c, const std::map<std::string, IndexExpr>& values) {
  Condition out = Condition::never();
  for (const std::vector<Constraint>& conj : c.disjuncts()) {
    std::vector<Constraint> mapped;
    for (const Constraint& k : conj) mapped.push_back({k.lhs.substitute(values), k.rel, k.rhs.substitute(values)});
    out = out || Condition::of(std::move(mapped));
  }
  return out;
}

/// What holds wherever `site` runs: its loops' ranges and its guards.
Condition siteCondition(const Site& site) {
  std::vector<Constraint> ranges;
  for (const ForStmt* f : site.loops) {
    if (std::abs(f->step) != 1) continue;  // a strided range is still within these bounds
    IndexExpr var = IndexExpr::dim(f->var);
    ranges.push_back({var, Constraint::Rel::Ge, f->lower});
    ranges.push_back({var, Constraint::Rel::Lt, f->upper});
  }
  Condition c = Condition::of(std::move(ranges));
  for (const Guard& gd : site.guards) c = c && (gd.thenBranch ? gd.stmt->condition : !gd.stmt->condition);
  return c;
}

int indexOf(const std::vector<std::string>& v, const std::string& x) {
  auto it = std::find(v.begin(), v.end(), x);
  return it == v.end() ? -1 : static_cast<int>(it - v.begin());
}

/// For an affine `d + c` (coefficient 1 on d, nothing else): c.
std::optional<int64_t> offsetFrom(const IndexExpr& e, const std::string& d) {
  auto lin = e.linear();
  if (!lin || lin->coeffs.size() != 1) return std::nullopt;
  auto it = lin->coeffs.begin();
  if (it->first.name != d || it->second != 1) return std::nullopt;
  return lin->constant;
}

/// The range [minK, maxK] of look-backs `d - k` an atom reads along dim d.
std::optional<std::pair<int64_t, int64_t>> lookbacks(const IndexAtom& a, const std::string& d) {
  if (!a.isSlice()) {
    auto c = offsetFrom(a.start, d);
    if (!c) return std::nullopt;
    return std::make_pair(-*c, -*c);
  }
  auto hi = offsetFrom(*a.stop, d);  // reads up to d + hi - 1
  if (!hi) return std::nullopt;
  std::optional<int64_t> lo = offsetFrom(a.start, d);
  if (!lo && a.start.kind() == IndexExpr::Kind::Max)  // max(0, d - m) >= d - m
    for (const IndexExpr& o : a.start.operands())
      if (auto c = offsetFrom(o, d)) lo = lo ? std::max(*lo, *c) : *c;
  if (!lo) return std::nullopt;
  return std::make_pair(1 - *hi, -*lo);
}

bool isIdentityAtom(const IndexAtom& a, const std::string& d) {
  return !a.isSlice() && a.start == IndexExpr::dim(d);
}

bool isLoopVar(const IndexExpr& e, const ForStmt* f) {
  auto s = e.asSymbol();
  return s && s->name == f->var;
}

/// `e - v` when `e` is `f`'s variable v plus an offset that no loop of `site`
/// changes (a bound such as `I`: isl may run iteration i at c0 = i + I); nullopt otherwise.
std::optional<IndexExpr::Linear> offsetFromLoop(const IndexExpr& e, const ForStmt* f, const std::vector<const ForStmt*>& loops) {
  auto lin = e.linear();
  if (!lin) return std::nullopt;
  auto var = std::find_if(lin->coeffs.begin(), lin->coeffs.end(), [&](const auto& c) { return c.first.name == f->var; });
  if (var == lin->coeffs.end() || var->second != 1) return std::nullopt;
  lin->coeffs.erase(var);
  for (const auto& [sym, coeff] : lin->coeffs)
    if (std::any_of(loops.begin(), loops.end(), [&](const ForStmt* l) { return l->var == sym.name; })) return std::nullopt;
  return lin;
}

class Planner {
public:
  Planner(const Graph& g, const LoopProgram& p) : g_(g) {
    Enclosing top;
    size_t order = 0;
    collectSites(p.body, top, sites_, order);
    for (const GraphOutput& o : g.outputs) outputs_.insert(o.node);
  }

  StoreSpec plan(const Node& n) const {
    if (outputs_.count(n.id)) return StoreSpec::whole("a graph output");
    std::vector<const Edge*> users = g_.users(n.id);
    if (sites_.find(n.id) == sites_.end()) return StoreSpec::whole("not executed by the schedule");
    bool allIdentity = std::all_of(users.begin(), users.end(), [&](const Edge* e) { return e->isIdentityRead(n.domain); });
    if (allIdentity && pointSafe(n, users)) return StoreSpec::point("every read is the point just computed");
    for (size_t d = 0; d < n.domain.size(); ++d) {
      auto range = lookbackRange(n, users, d);
      if (!range) continue;
      auto [minK, maxK] = *range;
      int64_t window = std::max(std::abs(minK), std::abs(maxK)) + 1;
      int direction = maxK > 0 ? 1 : minK < 0 ? -1 : 0;
      if (circularSafe(n, users, d, direction))
        return StoreSpec::circular(static_cast<int>(d), window,
                                   "reads along " + n.domain[d] + " stay within " + std::to_string(window) +
                                       " of the loop's current coordinate");
    }
    // A loaded or initialised source holds its whole array already; its store holds windows of it.
    if (auto block = isWholeArraySource(n.op) ? std::nullopt : blockReads(n, users))
      return StoreSpec::block(block->first, block->second,
                              "read a block of " + std::to_string(block->second) + " along " +
                                  n.domain[static_cast<size_t>(block->first)] + " at a time");
    return StoreSpec::whole(users.empty() ? "never read" : "reads not covered by a point or circular window");
  }

private:
  /// The dim and block size when every read of `n` is a block read along one
  /// dim with the same size BS and lane 0 at a multiple of BS (static tiling's
  /// aligned blocks); nullopt otherwise.
  std::optional<std::pair<int, int64_t>> blockReads(const Node& n, const std::vector<const Edge*>& users) const {
    if (users.empty() || !n.type.isStaticOverDims()) return std::nullopt;
    std::optional<std::pair<int, int64_t>> found;
    for (const Edge* e : users) {
      int dim = -1;
      for (size_t i = 0; i < e->index.size(); ++i)
        if (e->index[i].isBlock()) dim = static_cast<int>(i);
      if (dim < 0 || e->index.size() != n.domain.size()) return std::nullopt;
      const BlockLanes& b = *e->index[static_cast<size_t>(dim)].block;
      auto lin = b.first.linear();
      if (!lin || lin->constant % b.size != 0) return std::nullopt;
      for (const auto& [sym, coeff] : lin->coeffs)
        if (coeff % b.size != 0) return std::nullopt;
      if (found && *found != std::make_pair(dim, b.size)) return std::nullopt;
      found = std::make_pair(dim, b.size);
    }
    return found;
  }

  /// Every reader site is preceded in its iteration by an exec of `n` at the same point.
  bool pointSafe(const Node& n, const std::vector<const Edge*>& users) const {
    const std::vector<Site>& own = sites_.at(n.id);
    for (const Edge* e : users) {
      const Node& c = g_.node(e->consumer);
      auto it = sites_.find(c.id);
      if (it == sites_.end()) continue;  // a reader never executed reads nothing
      for (const Site& sc : it->second) {
        const Site* sp = nullptr;
        for (const Site& s : own)
          if (s.order < sc.order && (!sp || s.order > sp->order)) sp = &s;
        if (!sp || sp->loops != sc.loops) return false;
        for (size_t i = 0; i < n.domain.size(); ++i) {
          int ci = indexOf(c.domain, n.domain[i]);
          if (ci < 0 || sp->exec->point[i] != sc.exec->point[ci]) return false;
        }
        if (!runsWhenRead(*sp, sc, *e)) return false;
      }
    }
    return true;
  }

  /// Wherever `reader` runs and reads through `e`, the guards of `writer` (in
  /// the same loops) hold too: exactly, with isl, unless they are the reader's own.
  bool runsWhenRead(const Site& writer, const Site& reader, const Edge& e) const {
    bool shared = std::all_of(writer.guards.begin(), writer.guards.end(), [&](const Guard& gd) {
      return std::find(reader.guards.begin(), reader.guards.end(), gd) != reader.guards.end();
    });
    if (shared) return true;
    const Node& c = g_.node(e.consumer);
    std::map<std::string, IndexExpr> at;
    for (size_t i = 0; i < c.domain.size(); ++i) at.emplace(c.domain[i], reader.exec->point[i]);
    Condition reading = siteCondition(reader) && substituted(e.condition, at);
    std::vector<std::string> vars;
    for (const ForStmt* f : reader.loops) vars.push_back(f->var);
    try {
      if (!isl_) isl_ = std::make_unique<IslContext>();
      return reading.toPointSet(*isl_, vars, g_.boundNames())
          .isSubsetOf(siteCondition(writer).toPointSet(*isl_, vars, g_.boundNames()));
    } catch (const std::exception&) {
      return false;  // a condition isl cannot express: stay conservative
    }
  }

  /// Look-backs along dim d over all reads, or nullopt. The reads along the
  /// other dims may be anything: a circular store keeps their whole extent in
  /// each of its slots (outerLoopsPinned asks more of a dim a loop pins).
  std::optional<std::pair<int64_t, int64_t>> lookbackRange(const Node& n, const std::vector<const Edge*>& users,
                                                           size_t d) const {
    if (users.empty()) return std::nullopt;
    int64_t minK = INT64_MAX, maxK = INT64_MIN;
    for (const Edge* e : users) {
      if (e->index.size() != n.domain.size()) return std::nullopt;
      auto r = lookbacks(e->index[d], n.domain[d]);
      if (!r) return std::nullopt;
      minK = std::min(minK, r->first);
      maxK = std::max(maxK, r->second);
    }
    if (minK < 0 && maxK > 0) return std::nullopt;  // reads both behind and ahead
    return std::make_pair(minK, maxK);
  }

  /// `n` and every reader execute inside one loop over n's dim d, in the
  /// direction of the reads, all at the same offset from the loop's variable
  /// (coordinate = variable + offset: one coordinate per iteration, in order).
  bool circularSafe(const Node& n, const std::vector<const Edge*>& users, size_t d, int direction) const {
    const std::vector<Site>& own = sites_.at(n.id);
    const ForStmt* loop = nullptr;
    std::optional<IndexExpr::Linear> offset;
    for (const ForStmt* f : own.front().loops)
      if (auto o = offsetFromLoop(own.front().exec->point[d], f, own.front().loops)) loop = f, offset = o;
    if (!loop || (direction > 0 && loop->step <= 0) || (direction < 0 && loop->step >= 0)) return false;
    auto inLoop = [&](const Site& s, const IndexExpr& coord) {
      if (std::find(s.loops.begin(), s.loops.end(), loop) == s.loops.end()) return false;
      auto o = offsetFromLoop(coord, loop, s.loops);
      return o && o->coeffs == offset->coeffs && o->constant == offset->constant;
    };
    for (const Site& s : own)
      if (!inLoop(s, s.exec->point[d])) return false;
    for (const Edge* e : users) {
      const Node& c = g_.node(e->consumer);
      int ci = indexOf(c.domain, n.domain[d]);
      if (ci < 0) return false;
      auto it = sites_.find(c.id);
      if (it == sites_.end()) continue;
      for (const Site& s : it->second)
        if (!inLoop(s, s.exec->point[ci])) return false;
    }
    return outerLoopsPinned(n, users, d, loop);
  }

  /// Each loop around `loop` runs over one of n's other dims, for n and all
  /// its readers, and every read along that dim is the identity: then the
  /// points with the same coordinate there are all written and read in one
  /// run of `loop`, in its order (a loop around it that n does not vary over,
  /// or a read of another run's coordinate, would find the window overwritten).
  bool outerLoopsPinned(const Node& n, const std::vector<const Edge*>& users, size_t d, const ForStmt* loop) const {
    const Site& first = sites_.at(n.id).front();
    for (const ForStmt* outer : first.loops) {
      if (outer == loop) return true;
      int pinned = -1;
      for (size_t i = 0; i < n.domain.size() && pinned < 0; ++i)
        if (i != d && isLoopVar(first.exec->point[i], outer)) pinned = static_cast<int>(i);
      if (pinned < 0 || !allRunAt(n, users, n.domain[pinned], outer)) return false;
      const size_t p = static_cast<size_t>(pinned);
      if (!std::all_of(users.begin(), users.end(), [&](const Edge* e) { return isIdentityAtom(e->index[p], n.domain[p]); }))
        return false;
    }
    return false;  // unreachable: `loop` encloses the first site
  }

  /// Every exec of n and of its readers has coordinate `dim` equal to `f`'s variable.
  bool allRunAt(const Node& n, const std::vector<const Edge*>& users, const std::string& dim, const ForStmt* f) const {
    auto at = [&](NodeId id) {
      int i = indexOf(g_.node(id).domain, dim);
      auto it = sites_.find(id);
      if (it == sites_.end()) return true;
      return i >= 0 && std::all_of(it->second.begin(), it->second.end(),
                                   [&](const Site& s) { return isLoopVar(s.exec->point[i], f); });
    };
    return at(n.id) && std::all_of(users.begin(), users.end(), [&](const Edge* e) { return at(e->consumer); });
  }

  const Graph& g_;
  SiteMap sites_;
  std::set<NodeId> outputs_;
  mutable std::unique_ptr<IslContext> isl_;  ///< made on the first guard check
};

std::vector<int64_t> domainBounds(const Graph& g, const Node& n, const SymbolEnv& bounds) {
  std::vector<int64_t> out;
  for (const std::string& d : n.domain) {
    auto it = bounds.find(g.boundOf(d));
    out.push_back(it == bounds.end() ? 0 : it->second);
  }
  return out;
}

/// Total and largest bytes of one point's value over the box.
std::pair<int64_t, int64_t> pointBytes(const Node& n, const std::vector<int64_t>& box, const SymbolEnv& bounds) {
  int64_t elem = static_cast<int64_t>(dtypeSize(n.type.dtype));
  auto bytesAt = [&](const SymbolEnv& env) {
    int64_t numel = 1;
    for (int64_t s : n.type.evaluateShape(env)) numel *= std::max<int64_t>(s, 0);
    return numel * elem;
  };
  int64_t count = 1;
  for (int64_t b : box) count *= std::max<int64_t>(b, 0);
  if (count == 0) return {0, 0};
  if (n.type.isStaticOverDims()) {
    int64_t one = bytesAt(bounds);
    return {one * count, one};
  }
  int64_t total = 0, largest = 0;
  std::vector<int64_t> p(box.size(), 0);
  SymbolEnv env = bounds;
  for (int64_t k = 0; k < count; ++k) {
    for (size_t i = 0; i < p.size(); ++i) env[n.domain[i]] = p[i];
    int64_t b = bytesAt(env);
    total += b;
    largest = std::max(largest, b);
    for (size_t i = p.size(); i-- > 0;) {
      if (++p[i] < box[i]) break;
      p[i] = 0;
    }
  }
  return {total, largest};
}

}  // namespace

int64_t predictStoreBytes(const Graph& g, const Node& n, const StoreSpec& spec, const SymbolEnv& bounds) {
  std::vector<int64_t> box = domainBounds(g, n, bounds);
  auto [total, largest] = pointBytes(n, box, bounds);
  int64_t bytes = total;
  if (spec.kind == StoreKind::Point) bytes = largest;
  if (spec.kind == StoreKind::Circular) {
    int64_t points = std::min<int64_t>(spec.window, box[spec.dim]);
    for (size_t i = 0; i < box.size(); ++i)
      if (static_cast<int>(i) != spec.dim) points *= box[i];
    bytes = largest * points;
  }
  if (spec.kind == StoreKind::Block) {  // whole blocks of `window` coordinates along dim
    int64_t lanes = spec.window;
    int64_t points = (box[spec.dim] + lanes - 1) / lanes * lanes;
    for (size_t i = 0; i < box.size(); ++i)
      if (static_cast<int>(i) != spec.dim) points *= box[i];
    bytes = largest * points;
  }
  if (isWholeArraySource(n.op)) bytes = total;  // the loaded / initialised array; its store holds windows of it
  return bytes;
}

StoragePlan chooseStores(const Graph& g, const LoopProgram& program) {
  Planner planner(g, program);
  StoragePlan plan;
  for (const auto& [id, n] : g.nodes()) plan.emplace(id, planner.plan(n));
  return plan;
}

StoragePlan planStorage(const Graph& g, const LoopProgram& program, const SymbolEnv& bounds) {
  StoragePlan plan = chooseStores(g, program);
  for (auto& [id, spec] : plan) spec.predictedBytes = predictStoreBytes(g, g.node(id), spec, bounds);
  return plan;
}

StoragePlan wholeStoragePlan(const Graph& g, const SymbolEnv& bounds) {
  StoragePlan plan;
  for (const auto& [id, n] : g.nodes()) {
    StoreSpec spec = StoreSpec::whole("baseline");
    spec.predictedBytes = predictStoreBytes(g, n, spec, bounds);
    plan.emplace(id, std::move(spec));
  }
  return plan;
}

int64_t predictedTotalBytes(const StoragePlan& plan) {
  int64_t total = 0;
  for (const auto& [id, spec] : plan) total += spec.predictedBytes;
  return total;
}

std::string printStoragePlan(const Graph& g, const StoragePlan& plan) {
  std::string out;
  for (const auto& [id, spec] : plan) {
    const Node& n = g.node(id);
    std::string kind = storeKindName(spec.kind);
    if (spec.kind == StoreKind::Circular || spec.kind == StoreKind::Block)
      kind += "(" + n.domain[spec.dim] + ", " + std::to_string(spec.window) + ")";
    out += "%" + std::to_string(id) + (n.name.empty() ? "" : " " + n.name) + ": " + kind + "  " +
           std::to_string(spec.predictedBytes) + " B" + (spec.reason.empty() ? "" : "  -- " + spec.reason) + "\n";
  }
  return out;
}

}  // namespace tempo
