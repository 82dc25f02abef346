// IndexExpr: accessors, total order, hashing, evaluation, substitution and
// printing. The canonicalising factories live in IndexExprSimplify.cpp.
#include "symbolic/IndexExpr.h"

#include "symbolic/IndexExprNode.h"

#include <stdexcept>

namespace tempo {

using Kind = IndexExpr::Kind;

namespace {

const IndexExprNode& nodeOf(const IndexExpr& e) { return IndexExprBuilder::node(e); }

size_t mixHash(size_t seed, size_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

size_t computeHash(const IndexExprNode& n) {
  size_t h = std::hash<int>()(static_cast<int>(n.kind));
  h = mixHash(h, std::hash<int64_t>()(n.value));
  h = mixHash(h, std::hash<int64_t>()(n.divisor));
  if (n.kind == Kind::Sym) {
    h = mixHash(h, std::hash<std::string>()(n.symbol.name));
    h = mixHash(h, static_cast<size_t>(n.symbol.kind));
  }
  for (const auto& [atom, coeff] : n.terms)
    h = mixHash(mixHash(h, atom.hash()), std::hash<int64_t>()(coeff));
  for (const auto& op : n.operands) h = mixHash(h, op.hash());
  return h;
}

/// Rank of each atom kind in the total order: symbols first, so sums print
/// symbols before floor, mod, min and max atoms.
int kindRank(Kind k) {
  switch (k) {
    case Kind::Const: return 0;
    case Kind::Sym: return 1;
    case Kind::Sum: return 2;
    case Kind::FloorDiv: return 3;
    case Kind::Mod: return 4;
    case Kind::Min: return 5;
    case Kind::Max: return 6;
  }
  return 7;
}

template <typename T>
int cmp3(const T& a, const T& b) { return a < b ? -1 : (b < a ? 1 : 0); }

/// Dimensions before bounds, then by name: `t - W + 1`.
int compareSymbols(const Symbol& a, const Symbol& b) {
  if (a.kind != b.kind) return a.kind == SymbolKind::Dim ? -1 : 1;
  return cmp3(a.name, b.name);
}

int compareOperands(const std::vector<IndexExpr>& a, const std::vector<IndexExpr>& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    if (int c = compareIndexExpr(a[i], b[i])) return c;
  return cmp3(a.size(), b.size());
}

}  // namespace

IndexExpr IndexExprBuilder::make(IndexExprNode node) {
  node.hash = computeHash(node);
  return IndexExpr(std::make_shared<const IndexExprNode>(std::move(node)));
}

IndexExpr IndexExprBuilder::constant(int64_t value) {
  IndexExprNode n;
  n.kind = Kind::Const;
  n.value = value;
  return make(std::move(n));
}

namespace {

/// Non-constant expressions compare as `sum(coeff * atom) + constant`
/// (a lone atom is `1*atom + 0`): term by term, then by length, then by
/// constant. So `t + 1` sorts before `W` (dims first), and adding the same
/// constant to two expressions never changes their order.
struct SumView {
  const IndexExpr& self;
  const IndexExprNode& n;
  size_t size() const { return n.kind == Kind::Sum ? n.terms.size() : 1; }
  const IndexExpr& atom(size_t i) const { return n.kind == Kind::Sum ? n.terms[i].first : self; }
  int64_t coeff(size_t i) const { return n.kind == Kind::Sum ? n.terms[i].second : 1; }
  int64_t constant() const { return n.kind == Kind::Sum ? n.value : 0; }
};

/// Order of atoms (never Const or Sum): by kind, then by content.
int compareAtoms(const IndexExprNode& x, const IndexExprNode& y) {
  if (&x == &y) return 0;
  if (int c = cmp3(kindRank(x.kind), kindRank(y.kind))) return c;
  if (x.kind == Kind::Sym) return compareSymbols(x.symbol, y.symbol);
  if (int c = compareOperands(x.operands, y.operands)) return c;
  return cmp3(x.divisor, y.divisor);
}

}  // namespace

int compareIndexExpr(const IndexExpr& a, const IndexExpr& b) {
  const IndexExprNode& x = nodeOf(a);
  const IndexExprNode& y = nodeOf(b);
  if (&x == &y) return 0;
  bool xConst = x.kind == Kind::Const, yConst = y.kind == Kind::Const;
  if (xConst || yConst) return xConst && yConst ? cmp3(x.value, y.value) : (xConst ? -1 : 1);
  SumView vx{a, x}, vy{b, y};
  for (size_t i = 0; i < vx.size() && i < vy.size(); ++i) {
    if (int c = compareAtoms(nodeOf(vx.atom(i)), nodeOf(vy.atom(i)))) return c;
    if (int c = cmp3(vx.coeff(i), vy.coeff(i))) return c;
  }
  if (int c = cmp3(vx.size(), vy.size())) return c;
  return cmp3(vx.constant(), vy.constant());
}

// ---- construction and accessors -------------------------------------------

IndexExpr::IndexExpr() : IndexExpr(int64_t{0}) {}

IndexExpr::IndexExpr(int64_t value) {
  IndexExprNode n;
  n.kind = Kind::Const;
  n.value = value;
  n.hash = computeHash(n);
  node_ = std::make_shared<const IndexExprNode>(std::move(n));
}

IndexExpr::IndexExpr(std::shared_ptr<const IndexExprNode> node) : node_(std::move(node)) {}

IndexExpr IndexExpr::symbol(const Symbol& s) {
  if (s.name.empty()) throw std::invalid_argument("symbol with an empty name");
  IndexExprNode n;
  n.kind = Kind::Sym;
  n.symbol = s;
  return IndexExprBuilder::make(std::move(n));
}

IndexExpr::Kind IndexExpr::kind() const { return node_->kind; }

std::optional<int64_t> IndexExpr::constantValue() const {
  if (node_->kind != Kind::Const) return std::nullopt;
  return node_->value;
}

std::optional<Symbol> IndexExpr::asSymbol() const {
  if (node_->kind != Kind::Sym) return std::nullopt;
  return node_->symbol;
}

bool IndexExpr::isAffine() const {
  switch (node_->kind) {
    case Kind::Const:
    case Kind::Sym: return true;
    case Kind::Sum:
      for (const auto& term : node_->terms)
        if (term.first.kind() != Kind::Sym) return false;
      return true;
    default: return false;
  }
}

std::optional<IndexExpr::Linear> IndexExpr::linear() const {
  if (!isAffine()) return std::nullopt;
  Linear lin;
  switch (node_->kind) {
    case Kind::Const: lin.constant = node_->value; break;
    case Kind::Sym: lin.coeffs[node_->symbol] = 1; break;
    default:
      lin.constant = node_->value;
      for (const auto& [atom, coeff] : node_->terms) lin.coeffs[*atom.asSymbol()] = coeff;
  }
  return lin;
}

std::vector<IndexExpr> IndexExpr::operands() const { return node_->operands; }

int64_t IndexExpr::divisor() const { return node_->divisor; }

std::vector<std::pair<IndexExpr, int64_t>> IndexExpr::sumTerms() const { return node_->terms; }

int64_t IndexExpr::sumConstant() const {
  return node_->kind == Kind::Sum || node_->kind == Kind::Const ? node_->value : 0;
}

bool IndexExpr::operator==(const IndexExpr& other) const {
  if (node_ == other.node_) return true;
  if (node_->hash != other.node_->hash) return false;
  return compareIndexExpr(*this, other) == 0;
}

bool IndexExpr::operator<(const IndexExpr& other) const {
  return compareIndexExpr(*this, other) < 0;
}

size_t IndexExpr::hash() const { return node_->hash; }

// ---- evaluation, symbols, substitution ------------------------------------

int64_t IndexExpr::evaluate(const SymbolEnv& env) const {
  const IndexExprNode& n = *node_;
  switch (n.kind) {
    case Kind::Const: return n.value;
    case Kind::Sym: {
      auto it = env.find(n.symbol.name);
      if (it == env.end()) throw std::out_of_range("unbound symbol '" + n.symbol.name + "'");
      return it->second;
    }
    case Kind::Sum: {
      int64_t sum = n.value;
      for (const auto& [atom, coeff] : n.terms) sum += coeff * atom.evaluate(env);
      return sum;
    }
    case Kind::Min:
    case Kind::Max: {
      int64_t best = n.operands.front().evaluate(env);
      for (size_t i = 1; i < n.operands.size(); ++i) {
        int64_t v = n.operands[i].evaluate(env);
        best = n.kind == Kind::Min ? std::min(best, v) : std::max(best, v);
      }
      return best;
    }
    case Kind::FloorDiv: return floorDivInt(n.operands.front().evaluate(env), n.divisor);
    case Kind::Mod: return modInt(n.operands.front().evaluate(env), n.divisor);
  }
  return 0;
}

std::set<Symbol> IndexExpr::symbols() const {
  std::set<Symbol> out;
  if (node_->kind == Kind::Sym) out.insert(node_->symbol);
  for (const auto& term : node_->terms) out.merge(term.first.symbols());
  for (const auto& op : node_->operands) out.merge(op.symbols());
  return out;
}

bool IndexExpr::dependsOn(const std::string& name) const {
  for (const auto& s : symbols())
    if (s.name == name) return true;
  return false;
}

bool IndexExpr::dependsOnKind(SymbolKind kind) const {
  for (const auto& s : symbols())
    if (s.kind == kind) return true;
  return false;
}

IndexExpr IndexExpr::substitute(const std::map<std::string, IndexExpr>& replacements) const {
  const IndexExprNode& n = *node_;
  switch (n.kind) {
    case Kind::Const: return *this;
    case Kind::Sym: {
      auto it = replacements.find(n.symbol.name);
      return it == replacements.end() ? *this : it->second;
    }
    case Kind::Sum: {
      IndexExpr sum(n.value);
      for (const auto& [atom, coeff] : n.terms) sum = sum + atom.substitute(replacements) * coeff;
      return sum;
    }
    case Kind::Min:
    case Kind::Max: {
      std::vector<IndexExpr> ops;
      for (const auto& op : n.operands) ops.push_back(op.substitute(replacements));
      return IndexExprBuilder::minMax(n.kind, std::move(ops));
    }
    case Kind::FloorDiv: return floorDiv(n.operands.front().substitute(replacements), n.divisor);
    case Kind::Mod: return mod(n.operands.front().substitute(replacements), n.divisor);
  }
  return *this;
}

// ---- printing --------------------------------------------------------------

namespace {

/// The two printed syntaxes differ only in how atoms are spelled and wrapped.
struct Printer {
  bool isl = false;

  std::string atom(const IndexExpr& e) const {
    const IndexExprNode& n = nodeOf(e);
    switch (n.kind) {
      case Kind::Const: return std::to_string(n.value);
      case Kind::Sym: return n.symbol.name;
      case Kind::Sum: return sum(n);
      case Kind::Min:
      case Kind::Max: {
        std::string s = n.kind == Kind::Min ? "min(" : "max(";
        for (size_t i = 0; i < n.operands.size(); ++i)
          s += (i ? ", " : "") + print(n.operands[i]);
        return s + ")";
      }
      case Kind::FloorDiv: {
        const std::string d = std::to_string(n.divisor);
        if (isl) return "floor((" + print(n.operands[0]) + ")/" + d + ")";
        return "floor(" + wrapped(n.operands[0]) + " / " + d + ")";
      }
      case Kind::Mod: {
        const std::string d = std::to_string(n.divisor);
        if (isl) return "((" + print(n.operands[0]) + ") mod " + d + ")";
        return wrapped(n.operands[0]) + " mod " + d;
      }
    }
    return "?";
  }

  /// An operand of floor/mod in readable form: sums and mods get parentheses.
  std::string wrapped(const IndexExpr& e) const {
    bool bare = e.kind() != Kind::Sum && e.kind() != Kind::Mod;
    return bare ? atom(e) : "(" + atom(e) + ")";
  }

  /// A term's atom: a readable mod needs parentheses; in isl form every
  /// non-symbol atom is parenthesised so `k*(...)` is always well formed.
  std::string termAtom(const IndexExpr& e) const {
    if (e.kind() == Kind::Sym) return atom(e);
    if (isl || e.kind() == Kind::Mod) return "(" + atom(e) + ")";
    return atom(e);
  }

  std::string sum(const IndexExprNode& n) const {
    std::string s;
    for (const auto& [a, coeff] : n.terms) {
      bool first = s.empty();
      int64_t mag = coeff < 0 ? -coeff : coeff;
      if (first) s += coeff < 0 ? "-" : "";
      else s += coeff < 0 ? " - " : " + ";
      if (mag != 1) s += std::to_string(mag) + "*";
      s += termAtom(a);
    }
    if (n.value != 0) s += (n.value < 0 ? " - " : " + ") + std::to_string(n.value < 0 ? -n.value : n.value);
    return s;
  }

  std::string print(const IndexExpr& e) const { return atom(e); }
};

}  // namespace

std::string IndexExpr::str() const { return Printer{false}.print(*this); }

std::string IndexExpr::toIsl() const { return Printer{true}.print(*this); }

}  // namespace tempo
