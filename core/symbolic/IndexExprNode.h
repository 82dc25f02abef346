// IndexExprNode: the internal, immutable node behind an IndexExpr.
//
// Shared only by IndexExpr.cpp (accessors, order, printing, evaluation) and
// IndexExprSimplify.cpp (the factories that build canonical forms). Nothing
// outside core/symbolic should include this file: the public contract is
// IndexExpr.h. IndexExprBuilder is the one place that may create nodes; it
// computes each node's hash once, at construction.
#pragma once

#include "symbolic/IndexExpr.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace tempo {

/// One term of a Sum: an atom (Sym, Min, Max, FloorDiv or Mod) times a
/// nonzero coefficient.
using IndexTerm = std::pair<IndexExpr, int64_t>;

class IndexExprNode {
public:
  IndexExpr::Kind kind = IndexExpr::Kind::Const;
  int64_t value = 0;                ///< Const: the value; Sum: the constant
  Symbol symbol;                    ///< Sym
  std::vector<IndexTerm> terms;     ///< Sum: sorted by atom, nonzero coefficients
  std::vector<IndexExpr> operands;  ///< Min/Max: sorted; FloorDiv/Mod: one
  int64_t divisor = 0;              ///< FloorDiv/Mod: >= 2
  size_t hash = 0;
};

/// An expression as `constant + sum(coeff * atom)`, atoms in canonical order.
struct LinearForm {
  std::map<IndexExpr, int64_t> terms;  ///< zero coefficients are allowed here
  int64_t constant = 0;
};

struct IndexExprBuilder {
  static const IndexExprNode& node(const IndexExpr& e) { return *e.node_; }
  /// Wraps a fully formed node (hash filled in here).
  static IndexExpr make(IndexExprNode node);

  static IndexExpr constant(int64_t value);
  /// Canonical expression for a linear form (see IndexExprSimplify.cpp).
  static IndexExpr fromLinear(LinearForm form);
  static LinearForm toLinear(const IndexExpr& e);
  /// Canonical min (kind Min) or max (kind Max) of any number of operands.
  static IndexExpr minMax(IndexExpr::Kind kind, std::vector<IndexExpr> operands);
  static IndexExpr floorDiv(const IndexExpr& e, int64_t divisor);
  static IndexExpr mod(const IndexExpr& e, int64_t divisor);
};

/// Three-way total order on canonical expressions (<0, 0, >0).
int compareIndexExpr(const IndexExpr& a, const IndexExpr& b);

/// floor(a / b) and a mod b (result in [0, b)) for b > 0.
inline int64_t floorDivInt(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}
inline int64_t modInt(int64_t a, int64_t b) { return a - floorDivInt(a, b) * b; }

}  // namespace tempo
