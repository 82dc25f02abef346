#include "graph/Condition.h"

namespace tempo {

bool Condition::isAlways() const {
  for (const auto& conj : disjuncts_)
    if (conj.empty()) return true;
  return false;
}

Condition Condition::operator&&(const Condition& other) const {
  std::vector<std::vector<Constraint>> out;
  for (const auto& a : disjuncts_)
    for (const auto& b : other.disjuncts_) {
      std::vector<Constraint> conj = a;
      conj.insert(conj.end(), b.begin(), b.end());
      out.push_back(std::move(conj));
    }
  Condition c(std::move(out));
  return c.isAlways() ? always() : c;
}

Condition Condition::operator||(const Condition& other) const {
  if (isAlways() || other.isAlways()) return always();
  std::vector<std::vector<Constraint>> out = disjuncts_;
  out.insert(out.end(), other.disjuncts_.begin(), other.disjuncts_.end());
  return Condition(std::move(out));
}

Condition Condition::substitute(const std::map<std::string, IndexExpr>& values) const {
  Condition out = never();
  for (const std::vector<Constraint>& conj : disjuncts_) {
    std::vector<Constraint> mapped;
    for (const Constraint& k : conj) mapped.push_back({k.lhs.substitute(values), k.rel, k.rhs.substitute(values)});
    out = out || of(std::move(mapped));
  }
  return out;
}

Condition Condition::operator!() const {
  // not (A or B) = (not A) and (not B); not (a and b) = (not a) or (not b).
  Condition result = always();
  for (const auto& conj : disjuncts_) {
    Condition negConj = never();
    for (const Constraint& c : conj) negConj = negConj || of({negate(c)});
    result = result && negConj;
  }
  return result;
}

bool constraintHolds(const Constraint& c, const SymbolEnv& env) {
  int64_t l = c.lhs.evaluate(env), r = c.rhs.evaluate(env);
  switch (c.rel) {
    case Constraint::Rel::Eq: return l == r;
    case Constraint::Rel::Ne: return l != r;
    case Constraint::Rel::Lt: return l < r;
    case Constraint::Rel::Le: return l <= r;
    case Constraint::Rel::Gt: return l > r;
    case Constraint::Rel::Ge: return l >= r;
  }
  return false;
}

Constraint negate(const Constraint& c) {
  using R = Constraint::Rel;
  R r = c.rel;
  switch (c.rel) {
    case R::Eq: r = R::Ne; break;
    case R::Ne: r = R::Eq; break;
    case R::Lt: r = R::Ge; break;
    case R::Le: r = R::Gt; break;
    case R::Gt: r = R::Le; break;
    case R::Ge: r = R::Lt; break;
  }
  return {c.lhs, r, c.rhs};
}

bool Condition::holds(const SymbolEnv& env) const {
  for (const auto& conj : disjuncts_) {
    bool all = true;
    for (const Constraint& c : conj)
      if (!constraintHolds(c, env)) { all = false; break; }
    if (all) return true;
  }
  return false;
}

PointSet Condition::toPointSet(IslContext& ctx, const std::vector<std::string>& vars,
                               const std::vector<std::string>& params) const {
  PointSet acc = PointSet::fromConstraints(ctx, vars, params, {});
  acc = acc.subtract(acc);
  for (const auto& conj : disjuncts_) acc = acc.unite(PointSet::fromConstraints(ctx, vars, params, conj));
  return acc;
}

std::set<Symbol> Condition::symbols() const {
  std::set<Symbol> out;
  for (const auto& conj : disjuncts_)
    for (const Constraint& c : conj) {
      for (const Symbol& s : c.lhs.symbols()) out.insert(s);
      for (const Symbol& s : c.rhs.symbols()) out.insert(s);
    }
  return out;
}

std::string Condition::str() const {
  if (isNever()) return "false";
  if (isAlways()) return "true";
  std::string out;
  for (size_t i = 0; i < disjuncts_.size(); ++i) {
    std::string conj;
    for (size_t j = 0; j < disjuncts_[i].size(); ++j)
      conj += (j ? " and " : "") + disjuncts_[i][j].str();
    bool paren = disjuncts_.size() > 1 && disjuncts_[i].size() > 1;
    out += (i ? " or " : "") + (paren ? "(" + conj + ")" : conj);
  }
  return out;
}

bool Condition::operator==(const Condition& other) const { return str() == other.str(); }

}  // namespace tempo
