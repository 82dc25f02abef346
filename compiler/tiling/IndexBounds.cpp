#include "tiling/IndexBounds.h"

namespace tempo {

namespace {

std::optional<IndexExpr> bound(const IndexExpr& e, const Graph& g, bool upper);

std::optional<IndexExpr> symbolBound(const Symbol& s, const Graph& g, bool upper) {
  if (s.kind == SymbolKind::Bound) return IndexExpr::bound(s.name);
  std::string b = g.boundOf(s.name);
  if (b.empty()) return std::nullopt;
  return upper ? IndexExpr::bound(b) - 1 : IndexExpr(0);
}

std::optional<IndexExpr> minMaxBound(const IndexExpr& e, const Graph& g, bool upper) {
  bool isMin = e.kind() == IndexExpr::Kind::Min;
  std::optional<IndexExpr> out;
  // The upper bound of a min (lower bound of a max) may take any one operand: a
  // constant one when there is one; otherwise all are combined.
  if (isMin == upper) {
    for (const IndexExpr& op : e.operands())
      if (auto b = bound(op, g, upper); b && b->isConstant()) out = out ? (isMin ? IndexExpr::min(*out, *b) : IndexExpr::max(*out, *b)) : *b;
    if (out) return out;
  }
  for (const IndexExpr& op : e.operands()) {
    auto b = bound(op, g, upper);
    if (!b) return std::nullopt;
    out = out ? (isMin ? IndexExpr::min(*out, *b) : IndexExpr::max(*out, *b)) : *b;
  }
  return out;
}

std::optional<IndexExpr> bound(const IndexExpr& e, const Graph& g, bool upper) {
  switch (e.kind()) {
    case IndexExpr::Kind::Const:
      return e;
    case IndexExpr::Kind::Min:
    case IndexExpr::Kind::Max:
      return minMaxBound(e, g, upper);
    case IndexExpr::Kind::FloorDiv: {
      auto b = bound(e.operands().at(0), g, upper);
      if (!b) return std::nullopt;
      return IndexExpr::floorDiv(*b, e.divisor());
    }
    case IndexExpr::Kind::Mod:
      return upper ? IndexExpr(e.divisor() - 1) : IndexExpr(0);
    case IndexExpr::Kind::Sym:
    case IndexExpr::Kind::Sum: {
      auto lin = e.linear();
      if (!lin) return std::nullopt;
      IndexExpr out(lin->constant);
      for (const auto& [sym, coeff] : lin->coeffs) {
        auto b = symbolBound(sym, g, (coeff > 0) == upper);
        if (!b) return std::nullopt;
        out = out + *b * coeff;
      }
      return out;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<IndexExpr> upperBoundOverDims(const IndexExpr& e, const Graph& g) { return bound(e, g, true); }
std::optional<IndexExpr> lowerBoundOverDims(const IndexExpr& e, const Graph& g) { return bound(e, g, false); }

}  // namespace tempo
