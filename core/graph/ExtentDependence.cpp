#include "graph/ExtentDependence.h"

#include <algorithm>
#include <deque>

namespace tempo {

std::set<std::string> boundAndDerived(const Graph& g, const std::string& bound) {
  std::set<std::string> names{bound};
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [name, expr] : g.derivedBounds)
      if (!names.count(name))
        for (const Symbol& s : expr.symbols())
          if (names.count(s.name)) {
            names.insert(name), grew = true;
            break;
          }
  }
  return names;
}

namespace {

template <class Symbols>
bool mentionsAny(const Symbols& symbols, const std::set<std::string>& names) {
  for (const Symbol& s : symbols)
    if (names.count(s.name)) return true;
  return false;
}

bool mentions(const IndexExpr& e, const std::set<std::string>& names) { return mentionsAny(e.symbols(), names); }

bool atomMentions(const IndexAtom& a, const std::set<std::string>& names) {
  return mentions(a.start, names) || (a.stop && mentions(*a.stop, names)) ||
         (a.block && mentions(a.block->first, names));
}

std::string quoted(const Node& n) { return n.name.empty() ? "a " + std::string(opName(n.op)) : "'" + n.name + "'"; }

/// Why `n`'s own computation (not what it reads) changes with the bounds in `names`; "" if it does not.
std::string ownDependence(const Graph& g, const Node& n, const std::set<std::string>& names) {
  for (const IndexExpr& s : n.type.shape)
    if (mentions(s, names)) return quoted(n) + " has a shape written with " + *names.begin();
  const OpAttrs& a = n.attrs;
  bool attrs = mentions(a.start, names) || mentions(a.stop, names) || (a.index && mentions(*a.index, names));
  for (const IndexExpr& s : a.shape) attrs = attrs || mentions(s, names);
  if (attrs) return quoted(n) + " is computed with " + *names.begin();
  if (isWholeArraySource(n.op))
    for (size_t i = 1; i < n.domain.size(); ++i)
      if (names.count(g.boundOf(n.domain[i])))
        return quoted(n) + " is drawn with " + n.domain[i] + " after " + n.domain[0] +
               " in its domain, so its values change with " + g.boundOf(n.domain[i]) + " (declare " + n.domain[i] +
               " first)";
  return "";
}

/// Why edge `e` makes its consumer's value change with the bounds in `names`; "" if it does not.
std::string readDependence(const Graph& g, const Edge& e, const std::set<std::string>& names) {
  const Node& p = g.node(e.producer);
  for (const IndexAtom& a : e.index)
    if (atomMentions(a, names)) return "reads " + quoted(p) + " through the bound " + *names.begin();
  if (mentionsAny(e.condition.symbols(), names))
    return "reads " + quoted(p) + " under the condition `" + e.condition.str() + "`, written with " + *names.begin();
  return "";
}

/// Whether atom `a` along `dim` may reach a later step than the consumer's: its last step
/// (one before a slice's stop) must be the consumer's step or earlier (t - 1, 0:t + 1) or step 0.
bool laterThanOwn(const IndexAtom& a, const std::string& dim, bool consumerHasDim) {
  auto last = a.isSlice() ? a.stop->linear() : a.start.linear();  // a slice's stop is one past its last step
  if (!last) return true;
  const int64_t limit = a.isSlice() ? 1 : 0;
  if (last->coeffs.empty()) return last->constant > limit;  // a fixed step: only the first is always earlier
  auto c = last->coeffs.find(Symbol{dim, SymbolKind::Dim});
  if (!consumerHasDim || last->coeffs.size() != 1 || c == last->coeffs.end() || c->second != 1) return true;
  return last->constant > limit;
}

/// The atom through which `e` reads its producer along `dim` at a later step than the
/// consumer's own (any step after 0 when the consumer has no `dim`); null if none.
const IndexAtom* laterStepRead(const Graph& g, const Edge& e, const std::string& dim, bool consumerHasDim) {
  const Node& p = g.node(e.producer);
  for (size_t i = 0; i < p.domain.size() && i < e.index.size(); ++i) {
    if (p.domain[i] != dim) continue;
    const IndexAtom& a = e.index[i];
    if (laterThanOwn(a, dim, consumerHasDim)) return &a;
  }
  return nullptr;
}


}  // namespace

std::set<NodeId> boundDependentNodes(const Graph& g, const std::string& bound) {
  const std::set<std::string> names = boundAndDerived(g, bound);
  std::set<NodeId> out;
  std::deque<NodeId> work;
  for (const auto& [id, n] : g.nodes()) {
    bool direct = !ownDependence(g, n, names).empty();
    for (const Edge* e : g.inputs(id)) direct = direct || !readDependence(g, *e, names).empty();
    if (direct && out.insert(id).second) work.push_back(id);
  }
  while (!work.empty()) {
    NodeId id = work.front();
    work.pop_front();
    for (const Edge* e : g.users(id))
      if (out.insert(e->consumer).second) work.push_back(e->consumer);
  }
  return out;
}

std::optional<UndecidableRead> firstUndecidableRead(const Graph& g, NodeId node, const std::string& dim) {
  const std::set<std::string> names = boundAndDerived(g, g.boundOf(dim));
  std::set<NodeId> seen{node};
  std::deque<NodeId> work{node};
  while (!work.empty()) {
    const Node& n = g.node(work.front());
    work.pop_front();
    if (std::string why = ownDependence(g, n, names); !why.empty()) return UndecidableRead{n.id, n.loc, why};
    const bool hasDim = std::find(n.domain.begin(), n.domain.end(), dim) != n.domain.end();
    for (const Edge* e : g.inputs(n.id)) {
      SourceRange where = e->loc.valid() ? e->loc : n.loc;
      if (std::string why = readDependence(g, *e, names); !why.empty()) return UndecidableRead{n.id, where, why};
      if (const IndexAtom* a = laterStepRead(g, *e, dim, hasDim))
        return UndecidableRead{n.id, where, "reads " + quoted(g.node(e->producer)) + " at " + dim + " = " + a->str() +
                                                (hasDim ? ", a later step than its own" : ", from outside the steps")};
      if (seen.insert(e->producer).second) work.push_back(e->producer);
    }
  }
  return std::nullopt;
}

}  // namespace tempo
