#include "memory/StoragePlanner.h"

#include "memory/BufferSharing.h"


#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>

namespace tempo {

namespace {

/// The smallest window (at the default bounds) a circular store keeps in one buffer.
constexpr int64_t kOneBufferWindowBytes = int64_t(64) << 10;

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
using LoopEnds = std::map<const ForStmt*, size_t>;  ///< a loop -> pre-order position of its last statement

/// The statements enclosing the body being walked.
struct Enclosing {
  std::vector<const ForStmt*> loops;
  std::vector<Guard> guards;
};

void collectSites(const LoopBody& body, Enclosing& at, SiteMap& out, LoopEnds& ends, size_t& order) {
  for (const LoopStmt& s : body) {
    ++order;
    if (const auto* f = s.as<ForStmt>()) {
      at.loops.push_back(f);
      collectSites(f->body, at, out, ends, order);
      at.loops.pop_back();
      ends[f] = order;
    } else if (const auto* i = s.as<IfStmt>()) {
      for (bool thenBranch : {true, false}) {
        at.guards.push_back({i, thenBranch});
        collectSites(thenBranch ? i->thenBody : i->elseBody, at, out, ends, order);
        at.guards.pop_back();
      }
    } else if (const auto* e = s.as<ExecStmt>()) {
      out[e->node].push_back({e, at.loops, at.guards, order});
    }
  }
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

/// The coordinates an atom reads along dim d, relative to d: from `d - back`
/// to `d + ahead`. Each is a constant or an expression of bounds (a window of
/// W behind: back = W - 1, ahead = 0).
struct Reach {
  IndexExpr back, ahead;
};

std::optional<Reach> reachOf(const IndexAtom& a, const std::string& d) {
  if (!a.isSlice()) {
    auto c = offsetFromDim(a.start, d);
    if (!c) return std::nullopt;
    return Reach{-*c, *c};
  }
  std::optional<IndexExpr> hi = offsetFromDim(*a.stop, d);  // reads up to d + hi - 1
  if (!hi && a.stop->kind() == IndexExpr::Kind::Min)  // min(2*ds + 2, d + 1) <= d + 1 (a tiled window)
    for (const IndexExpr& o : a.stop->operands())
      if (auto c = offsetFromDim(o, d)) hi = hi ? IndexExpr::min(*hi, *c) : *c;
  if (!hi) return std::nullopt;
  std::optional<IndexExpr> lo = offsetFromDim(a.start, d);
  if (!lo && a.start.kind() == IndexExpr::Kind::Max)  // max(0, d - m) >= d - m
    for (const IndexExpr& o : a.start.operands())
      if (auto c = offsetFromDim(o, d)) lo = lo ? IndexExpr::max(*lo, *c) : *c;
  if (!lo) return std::nullopt;
  return Reach{-*lo, *hi - 1};
}

/// A constant at most zero: the read provably does not reach that side of d.
bool notPositive(const IndexExpr& e) {
  auto c = e.constantValue();
  return c && *c <= 0;
}

bool isIdentityAtom(const IndexAtom& a, const std::string& d) {
  return !a.isSlice() && a.start == IndexExpr::dim(d);
}

class Planner {
public:
  Planner(const Graph& g, const LoopProgram& p) : g_(g) {
    Enclosing top;
    size_t order = 0;
    collectSites(p.body, top, sites_, loopEnds_, order);
    for (const GraphOutput& o : g.outputs) outputs_.insert(o.node);
  }

  StoreSpec plan(const Node& n) const {
    if (outputs_.count(n.id)) return StoreSpec::whole("a graph output");
    std::vector<const Edge*> users = g_.users(n.id);
    if (sites_.find(n.id) == sites_.end()) return StoreSpec::whole("not executed by the schedule");
    bool allIdentity = std::all_of(users.begin(), users.end(), [&](const Edge* e) { return e->isIdentityRead(n.domain); });
    if (allIdentity && pointSafe(n, users)) return StoreSpec::point("every read is the point just computed");
    // Of the dims a circular store could run along, the one of the innermost
    // loop: the placement then pins the dims of the loops around it.
    std::optional<StoreSpec> best;
    size_t bestDepth = 0;
    for (size_t d = 0; d < n.domain.size(); ++d) {
      auto reads = circularReads(n, users, d);
      if (!reads) continue;
      std::vector<int> pinned;
      auto depth = circularSafe(n, users, d, *reads, pinned);
      if (!depth || (best && *depth <= bestDepth)) continue;
      bestDepth = *depth;
      best = StoreSpec::circular(static_cast<int>(d), reads->window,
                                 "reads along " + n.domain[d] + " stay within " + reads->window.str() +
                                     " of the loop's current coordinate" +
                                     (reads->final.empty() ? "" : ", or read its last ones after the loop"),
                                 pinned);
      best->oneBuffer = inOneBuffer(n, users, d, reads->window);
    }
    if (best) return *best;
    // A loaded or initialised source holds its whole array already; its store holds windows of it.
    if (auto block = isWholeArraySource(n.op) ? std::nullopt : blockReads(n, users))
      return StoreSpec::block(block->first, block->second,
                              "read a block of " + std::to_string(block->second) + " along " +
                                  n.domain[static_cast<size_t>(block->first)] + " at a time");
    return StoreSpec::whole(users.empty() ? "never read" : "reads not covered by a point or circular window");
  }

private:
  /// Whether a circular store of `n` along d keeps its values in one buffer
  /// (StoreSpec::oneBuffer), so that its windows are read in place: they have one
  /// static shape; every read is a window along d (one point of every other dim) by
  /// a node whose kernel makes a fresh value, so no value outlives its lanes being
  /// written again; and a window is worth not copying (kOneBufferWindowBytes or more
  /// at the program's default bounds: the buffer costs twice the window's bytes).
  bool inOneBuffer(const Node& n, const std::vector<const Edge*>& users, size_t d, const IndexExpr& window) const {
    if (users.empty() || !n.type.isStaticOverDims()) return false;
    for (const Edge* e : users) {
      if (e->index.size() != n.domain.size() || !makesFreshValue(g_.node(e->consumer))) return false;
      for (size_t i = 0; i < e->index.size(); ++i)
        if (e->index[i].isBlock() || e->index[i].isSlice() != (i == d)) return false;
    }
    try {
      SymbolEnv defaults = g_.withDerivedBounds(SymbolEnv(g_.boundDefaults.begin(), g_.boundDefaults.end()));
      int64_t bytes = static_cast<int64_t>(dtypeSize(n.type.dtype)) * window.evaluate(defaults);
      for (int64_t s : n.type.evaluateShape(defaults)) bytes *= s;
      return bytes >= kOneBufferWindowBytes;
    } catch (const std::exception&) {
      return false;  // no default for a bound it needs
    }
  }

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
    Condition reading = siteCondition(reader) && e.condition.substitute(at);
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

  /// What a circular store along d must keep for these reads.
  struct CircularReads {
    IndexExpr window = 1;              ///< coordinates kept (final reads may widen it)
    int direction = 0;                 ///< 1: reads behind (a forward loop), -1: ahead, 0: only the current one
    std::set<const Edge*> final;       ///< point reads not relative to d: the last coordinates, after the loop?
  };

  /// The window along dim d over all reads, or nullopt. The reads along the
  /// other dims may be anything: a circular store keeps their whole extent in
  /// each of its slots (outerLoopsPinned asks more of a dim a loop pins).
  std::optional<CircularReads> circularReads(const Node& n, const std::vector<const Edge*>& users, size_t d) const {
    if (users.empty()) return std::nullopt;
    CircularReads out;
    IndexExpr behind = 1, ahead = 1;
    bool allBehind = true, allAhead = true;
    for (const Edge* e : users) {
      if (e->index.size() != n.domain.size()) return std::nullopt;
      const IndexAtom& a = e->index[d];
      if (!a.isSlice() && !a.isBlock() && !a.start.dependsOn(n.domain[d])) {
        out.final.insert(e);
        continue;
      }
      auto r = reachOf(a, n.domain[d]);
      if (!r) return std::nullopt;
      allBehind = allBehind && notPositive(r->ahead);
      allAhead = allAhead && notPositive(r->back);
      behind = atLeast(behind, r->back + 1);
      ahead = atLeast(ahead, r->ahead + 1);
    }
    // Only the current coordinate, and perhaps the last ones after the loop, in whichever direction
    // it runs (a backward loop's last is its lowest coordinate).
    if (allBehind && allAhead) return out;
    if (allBehind) out.direction = 1, out.window = behind;
    else if (allAhead) out.direction = -1, out.window = ahead;
    else return std::nullopt;  // reads both behind and ahead
    return out;
  }

  static IndexExpr atLeast(const IndexExpr& a, const IndexExpr& b) {
    auto x = a.constantValue(), y = b.constantValue();
    return x && y ? IndexExpr(std::max(*x, *y)) : IndexExpr::max(a, b);
  }

  /// The depth of the loop a circular store along d runs with (`reads.window`
  /// widened for the final reads), or nullopt when it is not safe: `n` and
  /// every reader execute inside one loop over n's dim d, in the direction of
  /// the reads, all at the same offset from the loop's variable (coordinate =
  /// variable + offset: one coordinate per iteration, in order); a final read
  /// runs after that loop, in the same iteration of the loops around it, and
  /// reads one of the last coordinates it wrote.
  std::optional<size_t> circularSafe(const Node& n, const std::vector<const Edge*>& users, size_t d,
                                     CircularReads& reads, std::vector<int>& pinned) const {
    const std::vector<Site>& own = sites_.at(n.id);
    const std::vector<const ForStmt*>& loops = own.front().loops;
    size_t depth = 0;
    std::optional<LoopOffset> offset;
    for (size_t k = 0; k < loops.size(); ++k)
      if (auto o = alongLoop(own.front().exec->point[d], *loops[k])) depth = k, offset = o;
    if (!offset) return std::nullopt;
    const ForStmt* loop = loops[depth];
    const int direction = reads.direction;
    const int64_t order = loop->step * offset->sign;  // > 0: the coordinates rise as the loop runs
    if ((direction > 0 && order <= 0) || (direction < 0 && order >= 0)) return std::nullopt;
    if (!reads.final.empty() && loop->step != 1) return std::nullopt;
    auto inLoop = [&](const Site& s, const IndexExpr& coord) {
      if (std::find(s.loops.begin(), s.loops.end(), loop) == s.loops.end()) return false;
      auto o = alongLoop(coord, *loop);
      return o && *o == *offset;
    };
    for (const Site& s : own)
      if (!inLoop(s, s.exec->point[d])) return std::nullopt;
    const std::vector<const ForStmt*> outer(loops.begin(), loops.begin() + static_cast<std::ptrdiff_t>(depth));
    for (const Edge* e : users) {
      const Node& c = g_.node(e->consumer);
      auto it = sites_.find(c.id);
      if (it == sites_.end()) continue;  // a reader never executed reads nothing
      if (reads.final.count(e)) {
        for (const Site& s : it->second) {
          auto lag = lagBehindLast(*e, d, s, loop, *offset, outer);
          if (!lag) return std::nullopt;
          reads.window = atLeast(reads.window, *lag + 1);
        }
        continue;
      }
      int ci = indexOf(c.domain, n.domain[d]);
      if (ci < 0) return std::nullopt;
      for (const Site& s : it->second)
        if (!inLoop(s, s.exec->point[ci])) return std::nullopt;
    }
    if (!outerLoopsPinned(n, users, d, loop, pinned)) return std::nullopt;
    return depth;
  }

  /// k when reader site `s` runs after `loop` (in the iteration of the loops
  /// around it that ran the loop) and reads, through `e`, the coordinate
  /// written k iterations before the last, the last being the coordinate at
  /// the loop's last variable (`last - k`, or `last + k` for a coordinate
  /// that runs against the variable).
  std::optional<int64_t> lagBehindLast(const Edge& e, size_t d, const Site& s, const ForStmt* loop,
                                       const LoopOffset& offset, const std::vector<const ForStmt*>& outer) const {
    if (s.order <= loopEnds_.at(loop) || s.loops.size() < outer.size() ||
        !std::equal(outer.begin(), outer.end(), s.loops.begin()))
      return std::nullopt;
    const Node& c = g_.node(e.consumer);
    std::map<std::string, IndexExpr> at;
    for (size_t i = 0; i < c.domain.size(); ++i) at.emplace(c.domain[i], s.exec->point[i]);
    const IndexExpr coord = e.index[d].start.substitute(at);
    const IndexExpr lastVar = loop->upper - IndexExpr(1);
    const IndexExpr last = offset.sign > 0 ? lastVar + offset.offset : offset.offset - lastVar;
    auto lin = (offset.sign > 0 ? last - coord : coord - last).linear();
    if (lin && lin->coeffs.empty()) {
      if (lin->constant < 0) return std::nullopt;
      return lin->constant;
    }
    // Not syntactically equal (floor(t / 2) against -B + floor((c0 + B) / 2)): ask isl.
    std::vector<std::string> vars;
    for (const ForStmt* f : s.loops) vars.push_back(f->var);
    try {
      if (!isl_) isl_ = std::make_unique<IslContext>();
      Condition same = Condition::of({Constraint{coord, Constraint::Rel::Eq, last}});
      if (siteCondition(s).toPointSet(*isl_, vars, g_.boundNames()).isSubsetOf(
              same.toPointSet(*isl_, vars, g_.boundNames())))
        return 0;
    } catch (const std::exception&) {
    }
    return std::nullopt;
  }

  /// Each loop around `loop` runs over one of n's other dims, for n and all
  /// its readers (at the same offset from its variable), and every read along
  /// that dim is the identity: then the points with the same coordinate there
  /// are all written and read in one run of `loop`, in its order (a loop
  /// around it that n does not vary over, or a read of another run's
  /// coordinate, would find the window overwritten). `pinnedDims` gets those
  /// dims: one coordinate of each is live at a time.
  bool outerLoopsPinned(const Node& n, const std::vector<const Edge*>& users, size_t d, const ForStmt* loop,
                        std::vector<int>& pinnedDims) const {
    const Site& first = sites_.at(n.id).front();
    for (const ForStmt* outer : first.loops) {
      if (outer == loop) return true;
      int pinned = -1;
      for (size_t i = 0; i < n.domain.size() && pinned < 0; ++i)
        if (i != d && offsetFromLoopVar(first.exec->point[i], *outer)) pinned = static_cast<int>(i);
      if (pinned < 0 || !allRunAt(n, users, static_cast<size_t>(pinned), outer)) return false;
      const size_t p = static_cast<size_t>(pinned);
      if (!std::all_of(users.begin(), users.end(), [&](const Edge* e) { return isIdentityAtom(e->index[p], n.domain[p]); }))
        return false;
      pinnedDims.push_back(pinned);
    }
    return false;  // unreachable: `loop` encloses the first site
  }

  /// Every exec of n and of its readers has coordinate `k` of n (the same-named
  /// one of a reader) at `f`'s variable plus the offset of n's first exec.
  bool allRunAt(const Node& n, const std::vector<const Edge*>& users, size_t k, const ForStmt* f) const {
    const std::string& dim = n.domain[k];
    const auto offset = offsetFromLoopVar(sites_.at(n.id).front().exec->point[k], *f);
    auto at = [&](NodeId id) {
      int i = indexOf(g_.node(id).domain, dim);
      auto it = sites_.find(id);
      if (it == sites_.end()) return true;
      return i >= 0 && std::all_of(it->second.begin(), it->second.end(), [&](const Site& s) {
               auto o = offsetFromLoopVar(s.exec->point[static_cast<size_t>(i)], *f);
               return o && offset && *o == *offset;
             });
    };
    return at(n.id) && std::all_of(users.begin(), users.end(), [&](const Edge* e) { return at(e->consumer); });
  }

  const Graph& g_;
  SiteMap sites_;
  LoopEnds loopEnds_;
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
std::pair<int64_t, int64_t> pointBytes(const Node& n, const TensorType& type, const std::vector<int64_t>& box,
                                       const SymbolEnv& bounds) {
  int64_t elem = static_cast<int64_t>(dtypeSize(type.dtype));
  auto bytesAt = [&](const SymbolEnv& env) {
    int64_t numel = 1;
    for (int64_t s : type.evaluateShape(env)) numel *= std::max<int64_t>(s, 0);
    return numel * elem;
  };
  int64_t count = 1;
  for (int64_t b : box) count *= std::max<int64_t>(b, 0);
  if (count == 0) return {0, 0};
  if (type.isStaticOverDims()) {
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
  auto [total, largest] = pointBytes(n, heldType(g, n), box, bounds);
  int64_t bytes = total;
  if (spec.kind == StoreKind::Point) bytes = largest;
  if (spec.kind == StoreKind::Circular) {
    int64_t points = box[spec.dim];
    try {
      if (points > 0) points = spec.windowAt(g.withDerivedBounds(bounds), points);
    } catch (const std::out_of_range&) {  // a window in a bound without a value: the whole extent
    }
    points = spec.lanesFor(points);
    for (size_t i = 0; i < box.size(); ++i)
      if (static_cast<int>(i) != spec.dim) points *= box[i];
    bytes = largest * points;
  }
  if (spec.kind == StoreKind::Block) {  // whole blocks of `window` coordinates along dim
    int64_t lanes = spec.blockSize();
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
    std::string kind = storeSpecName(spec, n.domain);
    out += "%" + std::to_string(id) + (n.name.empty() ? "" : " " + n.name) + ": " + kind + "  " +
           std::to_string(spec.predictedBytes) + " B" + (spec.reason.empty() ? "" : "  -- " + spec.reason) + "\n";
  }
  return out;
}

}  // namespace tempo
