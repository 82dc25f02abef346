#include "autodiff/TemporalReadAdjoint.h"

#include "autodiff/ReaderRange.h"
#include "autodiff/ValidityGuards.h"

#include <algorithm>
#include <map>
#include <optional>

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
  AdjointBuilder pb(g, p.domain, p.loc);
  std::vector<std::string> freeDims;
  for (const std::string& sj : c.domain) {
    if (auto it = inv.fixed.find(sj); it != inv.fixed.end()) {
      boundary.push_back({it->second, Constraint::Rel::Ge, 0});
      boundary.push_back({it->second, Constraint::Rel::Lt, IndexExpr::bound(g.boundOf(sj))});
    } else {
      freeDims.push_back(sj);
    }
  }
  auto readersSum = [&](const ReaderCase& rc) {
    std::vector<IndexAtom> atoms;
    for (const std::string& sj : c.domain) {
      if (auto it = inv.fixed.find(sj); it != inv.fixed.end()) {
        atoms.push_back(IndexAtom::point(it->second));
      } else if (auto r = rc.ranges.find(sj); r != rc.ranges.end()) {
        atoms.push_back(IndexAtom::slice(r->second.first, r->second.end));
      } else {
        atoms.push_back(IndexAtom::slice(0, IndexExpr::bound(g.boundOf(sj))));
      }
    }
    int64_t summed = static_cast<int64_t>(freeDims.size());
    NodeId r = pb.op(OpKind::Identity, {AdjointInput::through(scattered, atoms)});
    for (size_t k = 0; k < picks.size(); ++k)
      r = pb.slice(r, summed + static_cast<int64_t>(k), picks[k].second, picks[k].second + 1);
    std::vector<int64_t> axes;
    for (int64_t a = 0; a < summed + static_cast<int64_t>(picks.size()); ++a) axes.push_back(a);
    return pb.reduceSum(r, axes, false);
  };
  std::vector<ReaderCase> cases = readerCases(g, ctx, e, p.domain, freeDims);
  NodeId r;
  if (cases.size() == 1) {
    r = readersSum(cases[0]);
  } else {
    std::vector<AdjointInput> branches;
    for (size_t i = 0; i < cases.size(); ++i) {
      bool last = i + 1 == cases.size();
      branches.push_back(AdjointInput{readersSum(cases[i]), {}, true,
                                      last ? Condition::always() : Condition::of(cases[i].assumptions)});
    }
    r = pb.typed(OpKind::Merge, p.type, std::move(branches));
  }
  std::vector<Constraint> kept = dropImpliedByBox(g, ctx, p.domain, boundary);
  return pb.guarded(r, kept.empty() ? Condition::always() : Condition::of(kept));
}

}  // namespace tempo
