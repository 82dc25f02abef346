// IndexExprSimplify: the factories and operators that keep IndexExprs canonical.
//
// Canonical forms (every rule below is an identity over the integers):
//  * Const; Sym; Sum = constant + sorted (atom, nonzero coeff) terms, where an
//    atom is Sym, Min, Max, FloorDiv or Mod. A sum with no terms is a Const;
//    `1*atom + 0` is the atom itself.
//  * A sum whose only min/max atom is m = min/max(a_i) with coefficient k, plus
//    a rest r without min/max atoms, is distributed:
//      k*min(a_i) + r = min(k*a_i + r) if k > 0, max(k*a_i + r) if k < 0
//    (and dually for max), so `t + 1 - max(0, t - W + 1)` = `min(t + 1, W)`.
//    Sums with two or more min/max atoms are kept as sums, with every
//    k*max(a_i) written as -k*min(-a_i) so that opposite atoms cancel
//    (min(a, b) + max(-a, -b) = 0), and every min written as
//    s + g*min((a_i - s)/g) for a canonical shift s and common factor g (see
//    normaliseMin), so the form does not depend on how affine parts and
//    factors were grouped before the atoms met.
//  * Min/Max: nested same-kind operands are flattened; operands whose
//    difference is a constant collapse to the smaller (min) / larger (max),
//    which also folds constants and removes duplicates; an operand that is a
//    max (in a min) bounded below by another operand up to a nonnegative
//    constant is absorbed: min(a, max(a + c, b)) = a for c >= 0 (dually for
//    max). Operands are sorted by the total order (constants first); a single
//    operand is returned as is.
//  * floorDiv(e, c), c >= 2 (c == 1 gives e): with e = sum k_i*x_i + n,
//    every term with c | k_i and the multiple c*floor(n/c) of the constant are
//    pulled out (floor((c*x + y)/c) = x + floor(y/c)); nothing left but a
//    constant in [0, c) gives 0; g = gcd(k_i, c) > 1 divides through:
//    floor((g*x + r)/(g*c')) = floor((x + floor(r/g))/c'); and
//    floor((floor(x/a) + r)/c) = floor((x + r*a)/(a*c)).
//  * mod(e, c), c >= 2 (c == 1 gives 0): every coefficient and the constant
//    are reduced into [0, c); no terms left gives the constant; g = gcd(k_i, c)
//    > 1 gives mod(g*x + r, g*c') = g*mod(x + floor(r/g), c') + (r mod g);
//    mod(k*mod(x, a) + r, c) = mod(k*x + r, c) when c | a.
// Integer overflow is not guarded: coefficients and divisors stay small.
#include "symbolic/IndexExpr.h"

#include "symbolic/IndexExprNode.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <stdexcept>

namespace tempo {

using Kind = IndexExpr::Kind;

namespace {

const IndexExprNode& nodeOf(const IndexExpr& e) { return IndexExprBuilder::node(e); }

bool isMinMax(const IndexExpr& e) { return e.kind() == Kind::Min || e.kind() == Kind::Max; }

/// k*m + rest, with m a min or max, as a min or max of k*a_i + rest.
IndexExpr distribute(const IndexExpr& m, int64_t k, const LinearForm& rest) {
  Kind kind = m.kind();
  if (k < 0) kind = kind == Kind::Min ? Kind::Max : Kind::Min;
  std::vector<IndexExpr> ops;
  for (const auto& op : m.operands()) {
    LinearForm form = IndexExprBuilder::toLinear(op);
    for (auto& entry : form.terms) entry.second *= k;
    form.constant = form.constant * k + rest.constant;
    for (const auto& [atom, coeff] : rest.terms) form.terms[atom] += coeff;
    ops.push_back(IndexExprBuilder::fromLinear(std::move(form)));
  }
  return IndexExprBuilder::minMax(kind, std::move(ops));
}

/// The part of a form outside its min/max atoms.
LinearForm minMaxFree(const LinearForm& form) {
  LinearForm out = form;
  std::erase_if(out.terms, [](const auto& entry) { return isMinMax(entry.first); });
  return out;
}

LinearForm subtract(LinearForm a, const LinearForm& b) {
  a.constant -= b.constant;
  for (const auto& [atom, coeff] : b.terms) a.terms[atom] -= coeff;
  return a;
}

/// A min or max m written as shift + scale * min (see normaliseMin).
struct NormalMin {
  IndexExpr min;      ///< the normalised min
  int64_t scale = 1;  ///< m = shift + scale * min
  LinearForm shift;
};

/// The largest g with e = g * e' for a canonical e': the gcd of the
/// constant and the coefficients, where a min/max atom's coefficient counts
/// multiplied by the content of the atom itself (0 for the constant 0).
int64_t contentOf(const IndexExpr& e) {
  if (isMinMax(e)) {
    int64_t g = 0;
    for (const auto& op : e.operands()) g = std::gcd(g, contentOf(op));
    return g;
  }
  LinearForm form = IndexExprBuilder::toLinear(e);
  if (form.terms.size() == 1 && form.constant == 0 && form.terms.begin()->second == 1 &&
      !isMinMax(form.terms.begin()->first))
    return 1;  // a lone symbol, floor or mod atom
  int64_t g = std::abs(form.constant);
  for (const auto& [atom, coeff] : form.terms)
    g = std::gcd(g, isMinMax(atom) ? coeff * contentOf(atom) : coeff);
  return g;
}

/// e / g for a g that divides contentOf(e).
IndexExpr divideExact(const IndexExpr& e, int64_t g) {
  if (isMinMax(e)) {
    std::vector<IndexExpr> ops;
    for (const auto& op : e.operands()) ops.push_back(divideExact(op, g));
    return IndexExprBuilder::minMax(e.kind(), std::move(ops));
  }
  LinearForm form = IndexExprBuilder::toLinear(e);
  LinearForm out;
  out.constant = form.constant / g;
  for (const auto& [atom, coeff] : form.terms) {
    int64_t common = std::gcd(coeff, g);
    IndexExpr scaledAtom = common == g ? atom : divideExact(atom, g / common);
    out.terms[scaledAtom] += coeff / common;
  }
  return IndexExprBuilder::fromLinear(std::move(out));
}

/// min(o_j) = g * min(o_j / g) for g the content of the min.
NormalMin divideCommonFactor(NormalMin n) {
  int64_t g = contentOf(n.min);
  if (g <= 1) return n;
  n.min = divideExact(n.min, g);
  n.scale = g;
  return n;
}

/// m = shift + rest for the least rest over the operands' shifts.
NormalMin splitShift(const IndexExpr& m);

/// The min/max-free part an operand contributes as a candidate shift: its
/// own shift if it is a min or max, else its terms outside min/max atoms.
LinearForm shiftOf(const IndexExpr& operand) {
  if (isMinMax(operand)) return splitShift(operand).shift;
  return minMaxFree(IndexExprBuilder::toLinear(operand));
}

NormalMin splitShift(const IndexExpr& m) {
  std::vector<LinearForm> forms;
  for (const auto& op : m.operands()) forms.push_back(IndexExprBuilder::toLinear(op));
  std::optional<IndexExpr> best;
  LinearForm bestShift;
  for (const auto& op : m.operands()) {
    LinearForm shift = shiftOf(op);
    std::vector<IndexExpr> shifted;
    for (const auto& form : forms)
      shifted.push_back(IndexExprBuilder::fromLinear(subtract(form, shift)));
    IndexExpr normal = IndexExprBuilder::minMax(m.kind(), std::move(shifted));
    if (!best || normal < *best) {
      best = normal;
      bestShift = shift;
    }
  }
  return {*best, 1, bestShift};
}

/// min(o_j) = s + g*min((o_j - s)/g), where s is the shift of one operand
/// (its min/max-free part; for a nested min/max, recursively its own s),
/// chosen so that the remaining min is least in the total order, and g the
/// common factor of what remains.
/// The result does not change when any min/max-free expression is added to
/// every operand, so sums of several min/max atoms have one canonical form
/// however the affine parts were grouped.
NormalMin normaliseMin(const IndexExpr& m) { return divideCommonFactor(splitShift(m)); }

/// For sums of two or more min/max atoms: k*max(a_i) becomes -k*min(-a_i)
/// (so opposite atoms cancel) and every min is normalised by normaliseMin.
LinearForm normaliseMinMaxAtoms(const LinearForm& form) {
  LinearForm out;
  out.constant = form.constant;
  for (const auto& [atom, coeff] : form.terms) {
    if (!isMinMax(atom)) {
      out.terms[atom] += coeff;
      continue;
    }
    IndexExpr m = atom;
    int64_t k = coeff;
    if (atom.kind() == Kind::Max) {
      std::vector<IndexExpr> negated;
      for (const auto& op : atom.operands()) negated.push_back(-op);
      m = IndexExprBuilder::minMax(Kind::Min, std::move(negated));
      k = -coeff;
    }
    if (m.kind() != Kind::Min) {  // the negated operands collapsed
      for (const auto& [a, c] : IndexExprBuilder::toLinear(m).terms) out.terms[a] += c * k;
      out.constant += IndexExprBuilder::toLinear(m).constant * k;
      continue;
    }
    auto [normal, scale, shift] = normaliseMin(m);
    out.terms[normal] += k * scale;
    out.constant += shift.constant * k;
    for (const auto& [a, c] : shift.terms) out.terms[a] += c * k;
  }
  return out;
}

/// True when a - b is a constant; sets diff to it.
bool constantDifference(const LinearForm& a, const LinearForm& b, int64_t& diff) {
  if (a.terms != b.terms) return false;
  diff = a.constant - b.constant;
  return true;
}

/// Whether `other` (an operand of a min) makes the max `m` redundant:
/// some operand of m is >= other by a constant (dually for max in a max).
bool absorbs(Kind kind, const LinearForm& other, const IndexExpr& inner) {
  Kind dual = kind == Kind::Min ? Kind::Max : Kind::Min;
  if (inner.kind() != dual) return false;
  for (const auto& op : inner.operands()) {
    int64_t diff = 0;
    if (!constantDifference(IndexExprBuilder::toLinear(op), other, diff)) continue;
    if (kind == Kind::Min ? diff >= 0 : diff <= 0) return true;
  }
  return false;
}

std::vector<IndexExpr> flatten(Kind kind, std::vector<IndexExpr> operands) {
  std::vector<IndexExpr> flat;
  for (auto& op : operands) {
    if (op.kind() == kind) {
      for (const auto& inner : op.operands()) flat.push_back(inner);
    } else {
      flat.push_back(std::move(op));
    }
  }
  return flat;
}

/// Keeps one operand per class of operands at constant distance: the least
/// (min) or greatest (max) of them.
std::vector<IndexExpr> collapseConstantDifferences(Kind kind, const std::vector<IndexExpr>& ops) {
  std::vector<IndexExpr> kept;
  std::vector<LinearForm> keptForms;
  for (const auto& op : ops) {
    LinearForm form = IndexExprBuilder::toLinear(op);
    bool merged = false;
    for (size_t i = 0; i < kept.size() && !merged; ++i) {
      int64_t diff = 0;
      if (!constantDifference(form, keptForms[i], diff)) continue;
      merged = true;
      if (kind == Kind::Min ? diff < 0 : diff > 0) {
        kept[i] = op;
        keptForms[i] = form;
      }
    }
    if (!merged) {
      kept.push_back(op);
      keptForms.push_back(std::move(form));
    }
  }
  return kept;
}

std::vector<IndexExpr> dropAbsorbed(Kind kind, const std::vector<IndexExpr>& ops) {
  std::vector<LinearForm> forms;
  for (const auto& op : ops) forms.push_back(IndexExprBuilder::toLinear(op));
  std::vector<IndexExpr> kept;
  for (size_t i = 0; i < ops.size(); ++i) {
    bool absorbed = false;
    for (size_t j = 0; j < ops.size() && !absorbed; ++j)
      absorbed = j != i && absorbs(kind, forms[j], ops[i]);
    if (!absorbed) kept.push_back(ops[i]);
  }
  return kept;
}

/// Splits a form's terms into those whose coefficient `divisor` divides and the rest.
std::pair<LinearForm, LinearForm> splitTerms(const LinearForm& form, int64_t divisor) {
  LinearForm multiples, rest;
  for (const auto& [atom, coeff] : form.terms) {
    if (coeff == 0) continue;
    (coeff % divisor == 0 ? multiples : rest).terms[atom] = coeff;
  }
  return {multiples, rest};
}

int64_t termGcd(const LinearForm& form, int64_t divisor) {
  int64_t g = divisor;
  for (const auto& entry : form.terms) g = std::gcd(g, entry.second);
  return g;
}

/// The single atom of a form with coefficient 1, if that is all it has.
std::optional<IndexExpr> soleUnitAtom(const LinearForm& form) {
  if (form.terms.size() != 1 || form.terms.begin()->second != 1) return std::nullopt;
  return form.terms.begin()->first;
}

IndexExpr makeDivOrMod(Kind kind, IndexExpr operand, int64_t divisor) {
  IndexExprNode n;
  n.kind = kind;
  n.operands = {std::move(operand)};
  n.divisor = divisor;
  return IndexExprBuilder::make(std::move(n));
}

}  // namespace

LinearForm IndexExprBuilder::toLinear(const IndexExpr& e) {
  LinearForm form;
  const IndexExprNode& n = nodeOf(e);
  if (n.kind == Kind::Const) {
    form.constant = n.value;
  } else if (n.kind == Kind::Sum) {
    form.constant = n.value;
    for (const auto& [atom, coeff] : n.terms) form.terms[atom] = coeff;
  } else {
    form.terms[e] = 1;
  }
  return form;
}

IndexExpr IndexExprBuilder::fromLinear(LinearForm form) {
  std::erase_if(form.terms, [](const auto& entry) { return entry.second == 0; });
  if (form.terms.empty()) return constant(form.constant);
  if (form.terms.size() == 1 && form.constant == 0 && form.terms.begin()->second == 1)
    return form.terms.begin()->first;

  int minMaxCount = 0;
  for (const auto& entry : form.terms) minMaxCount += isMinMax(entry.first) ? 1 : 0;
  if (minMaxCount >= 2) {
    LinearForm normal = normaliseMinMaxAtoms(form);
    std::erase_if(normal.terms, [](const auto& entry) { return entry.second == 0; });
    if (normal.terms != form.terms || normal.constant != form.constant)
      return fromLinear(std::move(normal));
  }
  // Distribute the sum over its min/max atom when it has exactly one.
  if (minMaxCount == 1) {
    auto it = std::find_if(form.terms.begin(), form.terms.end(),
                           [](const auto& entry) { return isMinMax(entry.first); });
    IndexExpr m = it->first;
    int64_t k = it->second;
    form.terms.erase(it);
    return distribute(m, k, form);
  }

  IndexExprNode n;
  n.kind = Kind::Sum;
  n.value = form.constant;
  for (auto& [atom, coeff] : form.terms) n.terms.emplace_back(atom, coeff);
  return make(std::move(n));
}

IndexExpr IndexExprBuilder::minMax(Kind kind, std::vector<IndexExpr> operands) {
  if (operands.empty()) throw std::invalid_argument("min/max of no operands");
  std::vector<IndexExpr> ops = flatten(kind, std::move(operands));
  ops = collapseConstantDifferences(kind, ops);
  ops = dropAbsorbed(kind, ops);
  std::sort(ops.begin(), ops.end());
  if (ops.size() == 1) return ops.front();
  IndexExprNode n;
  n.kind = kind;
  n.operands = std::move(ops);
  return make(std::move(n));
}

IndexExpr IndexExprBuilder::floorDiv(const IndexExpr& e, int64_t divisor) {
  if (divisor <= 0) throw std::invalid_argument("floorDiv by a non-positive divisor");
  if (divisor == 1) return e;
  LinearForm form = toLinear(e);
  auto [multiples, rest] = splitTerms(form, divisor);
  for (auto& entry : multiples.terms) entry.second /= divisor;
  multiples.constant = floorDivInt(form.constant, divisor);
  rest.constant = modInt(form.constant, divisor);
  IndexExpr pulled = fromLinear(std::move(multiples));
  if (rest.terms.empty()) return pulled;  // floor(r / c) = 0 for r in [0, c)

  if (int64_t g = termGcd(rest, divisor); g > 1) {
    for (auto& entry : rest.terms) entry.second /= g;
    rest.constant /= g;
    return pulled + floorDiv(fromLinear(std::move(rest)), divisor / g);
  }
  if (auto inner = soleUnitAtom(rest); inner && inner->kind() == Kind::FloorDiv) {
    int64_t a = inner->divisor();
    return pulled + floorDiv(inner->operands()[0] + rest.constant * a, a * divisor);
  }
  return pulled + makeDivOrMod(Kind::FloorDiv, fromLinear(std::move(rest)), divisor);
}

IndexExpr IndexExprBuilder::mod(const IndexExpr& e, int64_t divisor) {
  if (divisor <= 0) throw std::invalid_argument("mod by a non-positive divisor");
  if (divisor == 1) return IndexExpr(0);
  LinearForm form = toLinear(e);
  LinearForm rest;
  rest.constant = modInt(form.constant, divisor);
  for (const auto& [atom, coeff] : form.terms)
    if (int64_t k = modInt(coeff, divisor); k != 0) rest.terms[atom] = k;
  if (rest.terms.empty()) return IndexExpr(rest.constant);

  if (int64_t g = termGcd(rest, divisor); g > 1) {
    int64_t low = rest.constant % g;
    for (auto& entry : rest.terms) entry.second /= g;
    rest.constant /= g;
    return mod(fromLinear(std::move(rest)), divisor / g) * g + low;
  }
  if (rest.terms.size() == 1) {
    const auto& [inner, k] = *rest.terms.begin();
    if (inner.kind() == Kind::Mod && inner.divisor() % divisor == 0)
      return mod(inner.operands()[0] * k + rest.constant, divisor);
  }
  return makeDivOrMod(Kind::Mod, fromLinear(std::move(rest)), divisor);
}

// ---- public factories and operators ----------------------------------------

IndexExpr IndexExpr::min(const IndexExpr& a, const IndexExpr& b) {
  return IndexExprBuilder::minMax(Kind::Min, {a, b});
}

IndexExpr IndexExpr::max(const IndexExpr& a, const IndexExpr& b) {
  return IndexExprBuilder::minMax(Kind::Max, {a, b});
}

IndexExpr IndexExpr::floorDiv(const IndexExpr& a, int64_t divisor) {
  return IndexExprBuilder::floorDiv(a, divisor);
}

IndexExpr IndexExpr::mod(const IndexExpr& a, int64_t divisor) {
  return IndexExprBuilder::mod(a, divisor);
}

IndexExpr operator+(const IndexExpr& a, const IndexExpr& b) {
  LinearForm form = IndexExprBuilder::toLinear(a);
  LinearForm other = IndexExprBuilder::toLinear(b);
  form.constant += other.constant;
  for (const auto& [atom, coeff] : other.terms) form.terms[atom] += coeff;
  return IndexExprBuilder::fromLinear(std::move(form));
}

IndexExpr operator-(const IndexExpr& a, const IndexExpr& b) { return a + (-b); }

IndexExpr operator-(const IndexExpr& a) { return a * -1; }

IndexExpr operator*(const IndexExpr& a, int64_t k) {
  if (k == 1) return a;
  LinearForm form = IndexExprBuilder::toLinear(a);
  form.constant *= k;
  for (auto& entry : form.terms) entry.second *= k;
  return IndexExprBuilder::fromLinear(std::move(form));
}

std::optional<IndexExpr> IndexExpr::multiply(const IndexExpr& a, const IndexExpr& b) {
  if (auto k = a.constantValue()) return b * *k;
  if (auto k = b.constantValue()) return a * *k;
  return std::nullopt;
}

}  // namespace tempo
