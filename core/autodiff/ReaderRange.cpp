#include "autodiff/ReaderRange.h"

#include "graph/Condition.h"

namespace tempo {

namespace {

class Counter {
public:
  Counter(const Graph& g, IslContext& ctx, const std::vector<std::string>& pd, const std::string& s,
          const std::vector<Constraint>& assumptions, std::optional<Constraint>& undecided)
      : g_(g), ctx_(ctx), pd_(pd), s_(s), extent_(IndexExpr::bound(g.boundOf(s))), assumptions_(assumptions),
        undecided_(undecided) {}

  /// #{s in [0, S) : f(s) <= q}, for f nondecreasing in s.
  std::optional<IndexExpr> atMost(const IndexExpr& f, const IndexExpr& q) const {
    if (!f.dependsOn(s_)) return constant(f, q);
    switch (f.kind()) {
      case IndexExpr::Kind::Max:
      case IndexExpr::Kind::Min: {
        std::optional<IndexExpr> acc;
        for (const IndexExpr& op : f.operands()) {
          std::optional<IndexExpr> c = atMost(op, q);
          if (!c) return std::nullopt;
          // max(a, b) <= q needs both (the shorter prefix); min(a, b) <= q either.
          acc = !acc ? *c : f.kind() == IndexExpr::Kind::Max ? IndexExpr::min(*acc, *c) : IndexExpr::max(*acc, *c);
        }
        return acc;
      }
      case IndexExpr::Kind::FloorDiv:  // floor(a / k) <= q  <=>  a <= k q + k - 1
        return atMost(f.operands().at(0), q * f.divisor() + f.divisor() - 1);
      case IndexExpr::Kind::Mod: return std::nullopt;
      default: break;
    }
    std::optional<IndexExpr::Linear> lin = f.linear();
    if (!lin) return std::nullopt;
    int64_t k = 0;
    for (const auto& [sym, coeff] : lin->coeffs) {
      if (sym.kind != SymbolKind::Dim) continue;
      if (sym.name != s_) return std::nullopt;  // another consumer dimension
      k = coeff;
    }
    if (k <= 0) return std::nullopt;
    IndexExpr rest = f - IndexExpr::dim(s_) * k;  // k s + rest <= q  <=>  s <= floor((q - rest) / k)
    IndexExpr count = (k == 1 ? q - rest : IndexExpr::floorDiv(q - rest, k)) + 1;
    return IndexExpr::min(IndexExpr::max(count, 0), extent_);
  }

private:
  /// A bound-only f: all of [0, S) when f <= q wherever the assumptions hold,
  /// none when nowhere; otherwise the comparison is recorded for a case split.
  std::optional<IndexExpr> constant(const IndexExpr& f, const IndexExpr& q) const {
    std::vector<IndexExpr> bounds;
    for (const std::string& d : pd_) bounds.push_back(IndexExpr::bound(g_.boundOf(d)));
    std::vector<std::string> params = g_.boundNames();
    PointSet where = PointSet::box(ctx_, pd_, bounds, params)
                         .intersect(PointSet::fromConstraints(ctx_, pd_, params, assumptions_));
    Constraint c{f, Constraint::Rel::Le, q};
    PointSet holds = PointSet::fromConstraints(ctx_, pd_, params, {c});
    if (where.isSubsetOf(holds)) return extent_;
    if (where.intersect(holds).isEmpty()) return IndexExpr(0);
    if (!undecided_) undecided_ = c;
    return std::nullopt;
  }

  const Graph& g_;
  IslContext& ctx_;
  const std::vector<std::string>& pd_;
  std::string s_;
  IndexExpr extent_;
  const std::vector<Constraint>& assumptions_;
  std::optional<Constraint>& undecided_;
};

constexpr int kMaxCaseDepth = 3;

std::optional<ReaderRange> rangeOf(const Graph& g, IslContext& ctx, const Edge& e, const std::vector<std::string>& pd,
                                   const std::string& s, const std::vector<Constraint>& assumptions,
                                   std::optional<Constraint>& undecided) {
  Counter count(g, ctx, pd, s, assumptions, undecided);
  IndexExpr extent = IndexExpr::bound(g.boundOf(s));
  std::optional<IndexExpr> first, end;
  for (size_t i = 0; i < e.index.size(); ++i) {
    const IndexAtom& a = e.index[i];
    if (!a.start.dependsOn(s) && !(a.isSlice() && a.stop->dependsOn(s))) continue;
    IndexExpr q = IndexExpr::dim(pd[i]);
    std::optional<IndexExpr> readsUpTo = count.atMost(a.start, q);  // lo(s) <= q
    // hi(s) <= q: q already left behind; for a point, lo(s) <= q - 1 (`s // 2 + 1` is no
    // floor division the counter knows, `s // 2` is).
    std::optional<IndexExpr> pastQ = a.isSlice() ? count.atMost(*a.stop, q) : count.atMost(a.start, q - 1);
    if (!readsUpTo || !pastQ) return std::nullopt;
    first = first ? IndexExpr::max(*first, *pastQ) : *pastQ;
    end = end ? IndexExpr::min(*end, *readsUpTo) : *readsUpTo;
  }
  if (!first) return ReaderRange{0, extent};
  return ReaderRange{*first, IndexExpr::max(*first, *end)};  // empty, never inverted
}

void explore(const Graph& g, IslContext& ctx, const Edge& e, const std::vector<std::string>& pd,
             const std::vector<std::string>& dims, const std::vector<Constraint>& assumptions, int depth,
             std::vector<ReaderCase>& out) {
  std::vector<IndexExpr> bounds;
  for (const std::string& d : pd) bounds.push_back(IndexExpr::bound(g.boundOf(d)));
  std::vector<std::string> params = g.boundNames();
  if (PointSet::box(ctx, pd, bounds, params).intersect(PointSet::fromConstraints(ctx, pd, params, assumptions)).isEmpty())
    return;
  ReaderCase c{assumptions, {}};
  std::optional<Constraint> undecided;
  for (const std::string& s : dims)
    if (std::optional<ReaderRange> r = rangeOf(g, ctx, e, pd, s, assumptions, undecided)) c.ranges.emplace(s, *r);
  if (undecided && depth < kMaxCaseDepth) {
    std::vector<Constraint> yes = assumptions, no = assumptions;
    yes.push_back(*undecided);
    no.push_back(negate(*undecided));
    explore(g, ctx, e, pd, dims, yes, depth + 1, out);
    explore(g, ctx, e, pd, dims, no, depth + 1, out);
    return;
  }
  out.push_back(std::move(c));
}

}  // namespace

std::vector<ReaderCase> readerCases(const Graph& g, IslContext& ctx, const Edge& e,
                                    const std::vector<std::string>& producerDomain,
                                    const std::vector<std::string>& dims) {
  std::vector<ReaderCase> out;
  explore(g, ctx, e, producerDomain, dims, {}, 0, out);
  if (out.empty()) out.push_back({});  // an empty producer box: one trivial case
  return out;
}

}  // namespace tempo
