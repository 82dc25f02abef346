// IndexExpr: integer expressions over dimensions and bounds, kept canonical.
//
// Index expressions say where a recurrent tensor reads another (`t-1`,
// `max(0, t-W+1)`, `T-1`) and how big a symbolic size is (`t+1`). They are
// affine combinations of symbols (dimensions such as `t`, bounds such as `T`)
// with integer coefficients, plus `min`, `max`, floor division and modulo by
// positive constants. Every IndexExpr is built through the factory functions
// and operators below, which keep it in one canonical simplified form, so two
// expressions that are structurally equal after canonicalisation compare equal
// with `==`. An IndexExpr can be evaluated at a point, printed in a stable
// textual form, substituted into, and written in isl's syntax.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tempo {

enum class SymbolKind { Dim, Bound };

/// A named integer variable: a dimension (`t`) or a bound (`T`).
struct Symbol {
  std::string name;
  SymbolKind kind = SymbolKind::Dim;
  auto operator<=>(const Symbol&) const = default;
};

/// Values of symbols at one point (dimension and bound values by name).
using SymbolEnv = std::map<std::string, int64_t>;

class IndexExprNode;  // internal, defined in IndexExpr.cpp

class IndexExpr {
public:
  enum class Kind { Const, Sym, Sum, Min, Max, FloorDiv, Mod };

  IndexExpr();                       ///< the constant 0
  IndexExpr(int64_t value);          ///< a constant (implicit on purpose)
  IndexExpr(int value) : IndexExpr(static_cast<int64_t>(value)) {}

  static IndexExpr symbol(const Symbol& s);
  static IndexExpr dim(const std::string& name) { return symbol({name, SymbolKind::Dim}); }
  static IndexExpr bound(const std::string& name) { return symbol({name, SymbolKind::Bound}); }
  static IndexExpr min(const IndexExpr& a, const IndexExpr& b);
  static IndexExpr max(const IndexExpr& a, const IndexExpr& b);
  /// floor(a / divisor); throws std::invalid_argument unless divisor > 0.
  static IndexExpr floorDiv(const IndexExpr& a, int64_t divisor);
  /// a mod divisor with a result in [0, divisor); throws unless divisor > 0.
  static IndexExpr mod(const IndexExpr& a, int64_t divisor);

  friend IndexExpr operator+(const IndexExpr& a, const IndexExpr& b);
  friend IndexExpr operator-(const IndexExpr& a, const IndexExpr& b);
  friend IndexExpr operator-(const IndexExpr& a);
  friend IndexExpr operator*(const IndexExpr& a, int64_t k);
  friend IndexExpr operator*(int64_t k, const IndexExpr& a) { return a * k; }
  /// Product of two expressions; defined only when one side is constant.
  /// Returns std::nullopt when both sides are non-constant (not affine).
  static std::optional<IndexExpr> multiply(const IndexExpr& a, const IndexExpr& b);

  Kind kind() const;
  bool isConstant() const { return kind() == Kind::Const; }
  std::optional<int64_t> constantValue() const;
  /// True for a single symbol (possibly with coefficient 1 and offset 0).
  std::optional<Symbol> asSymbol() const;
  /// True when built from symbols, constants, + and * by constants only.
  bool isAffine() const;
  /// For an affine expression: the coefficient of each symbol and the constant.
  /// std::nullopt if not affine.
  struct Linear {
    std::map<Symbol, int64_t> coeffs;  ///< no zero entries
    int64_t constant = 0;
  };
  std::optional<Linear> linear() const;

  /// Children of Min/Max (sorted canonical order), or the operand of FloorDiv/Mod.
  std::vector<IndexExpr> operands() const;
  /// Divisor of FloorDiv/Mod (0 otherwise).
  int64_t divisor() const;
  /// A Sum's terms, each an atom (a symbol, min, max, floor or mod) with its nonzero
  /// coefficient, in canonical order (empty for another kind), and its constant (the
  /// value of a Const, 0 for the other kinds): `2*t + max(0, t - 3) + 1` is
  /// {(t, 2), (max(0, t - 3), 1)} and 1.
  std::vector<std::pair<IndexExpr, int64_t>> sumTerms() const;
  int64_t sumConstant() const;

  /// Value at a point. Throws std::out_of_range naming a symbol missing from env.
  int64_t evaluate(const SymbolEnv& env) const;

  std::set<Symbol> symbols() const;
  bool dependsOn(const std::string& name) const;
  bool dependsOnKind(SymbolKind kind) const;

  /// Replaces symbols by expressions (by symbol name); result is canonical.
  IndexExpr substitute(const std::map<std::string, IndexExpr>& replacements) const;

  /// Stable canonical printed form, e.g. `t - 1`, `max(0, t - W + 1)`,
  /// `T - 1`, `2*t + 1`, `floor(t / 4)`, `t mod 4`.
  std::string str() const;
  /// The same expression in isl's syntax (`floor((t)/4)`, `(t) mod 4`, `max(a, b)`).
  std::string toIsl() const;

  bool operator==(const IndexExpr& other) const;
  bool operator!=(const IndexExpr& other) const { return !(*this == other); }
  /// A total order on canonical forms (used for sorting min/max operands).
  bool operator<(const IndexExpr& other) const;
  size_t hash() const;

private:
  explicit IndexExpr(std::shared_ptr<const IndexExprNode> node);
  std::shared_ptr<const IndexExprNode> node_;
  friend class IndexExprNode;
  friend struct IndexExprBuilder;
};

}  // namespace tempo

template <>
struct std::hash<tempo::IndexExpr> {
  size_t operator()(const tempo::IndexExpr& e) const { return e.hash(); }
};
