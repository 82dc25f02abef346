// DependenceRelations: statements and dependences written as isl text.
//
// Relations are spelled in isl's syntax and parsed: producer variables are
// `p0, p1, ...`, consumer variables `c0, c1, ...` (so a dimension name can
// never clash with an isl keyword or with the other side's names), bounds
// keep their own names as parameters unless a name is unsafe in isl text, in
// which case it becomes `P<k>` (boundOfParam maps it back). Every text is then
// parsed, coalesced and printed by isl, which both checks it and gives the
// stable normalised form stored in the result.
#include "schedule/DependenceRelations.h"


#include "schedule/IslPtr.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>
#include <stdexcept>

namespace tempo {

namespace {

bool isSafeParamName(const std::string& name) {
  static const std::set<std::string> keywords = {
      "exists", "and", "or", "not", "implies", "mod", "min", "max", "floor", "ceil", "floord",
      "ceild", "true", "false", "infty", "NaN", "rat", "domain", "range", "div"};
  static const std::regex identifier("[A-Za-z_][A-Za-z0-9_]*");
  static const std::regex reserved("[pcP][0-9]+|S_[A-Za-z0-9_]*");  // variables, statements
  return std::regex_match(name, identifier) && !std::regex_match(name, reserved) &&
         !keywords.count(name);
}

/// Renames dimensions and bounds in expressions to the names used in isl text.
class IslNaming {
public:
  explicit IslNaming(const std::map<std::string, std::string>& paramOfBound) {
    for (const auto& [bound, param] : paramOfBound) renaming_.emplace(bound, IndexExpr::dim(param));
  }
  void addVars(const std::vector<std::string>& dims, const std::string& prefix) {
    for (size_t i = 0; i < dims.size(); ++i) renaming_[dims[i]] = IndexExpr::dim(prefix + std::to_string(i));
  }
  std::string expr(const IndexExpr& e, const std::string& where) const {
    for (const Symbol& s : e.symbols())
      if (!renaming_.count(s.name))
        throw std::invalid_argument(where + ": index `" + e.str() + "` names '" + s.name +
                                    "', which is neither a dimension of the reader nor a bound");
    return "(" + e.substitute(renaming_).toIsl() + ")";
  }
  std::string condition(const Condition& c, const std::string& where) const {
    std::vector<std::string> disjuncts;
    for (const auto& conj : c.disjuncts()) {
      std::string text;
      for (const Constraint& k : conj) {
        std::string l = expr(k.lhs, where), r = expr(k.rhs, where), part;
        switch (k.rel) {
          case Constraint::Rel::Eq: part = l + " = " + r; break;
          case Constraint::Rel::Ne: part = "(" + l + " < " + r + " or " + l + " > " + r + ")"; break;
          case Constraint::Rel::Lt: part = l + " < " + r; break;
          case Constraint::Rel::Le: part = l + " <= " + r; break;
          case Constraint::Rel::Gt: part = l + " > " + r; break;
          case Constraint::Rel::Ge: part = l + " >= " + r; break;
        }
        text += (text.empty() ? "" : " and ") + part;
      }
      disjuncts.push_back(text.empty() ? "0 = 0" : "(" + text + ")");
    }
    if (disjuncts.empty()) return "1 = 0";
    std::string out;
    for (const std::string& d : disjuncts) out += (out.empty() ? "" : " or ") + d;
    return "(" + out + ")";
  }

private:
  std::map<std::string, IndexExpr> renaming_;
};

std::string joined(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

std::string tuple(const std::string& name, size_t n, const std::string& prefix) {
  std::vector<std::string> vars;
  for (size_t i = 0; i < n; ++i) vars.push_back(prefix + std::to_string(i));
  return name + "[" + joined(vars, ", ") + "]";
}

std::string paramPrefix(const std::vector<std::string>& params) {
  return "[" + joined(params, ", ") + "] -> ";
}

struct Builder {
  const Graph& g;
  isl_ctx* ctx;
  DependenceRelations& rel;
  std::map<std::string, std::string> paramOfBound;
  std::map<std::string, std::string> normalisedShapes;  ///< text with placeholder names -> isl's form
  inline static const std::string kProducer = kShapeProducer, kConsumer = kShapeConsumer;

  std::string paramOf(const std::string& dim, const std::string& where) const {
    std::string bound = g.boundOf(dim);
    auto it = paramOfBound.find(bound);
    if (bound.empty() || it == paramOfBound.end())
      throw std::invalid_argument(where + ": dimension '" + dim + "' has no bound");
    return it->second;
  }

  /// `0 <= v_i < Bound_i` for each dimension of `node`.
  /// and the guard of each guarded dimension (Graph::dimGuards) over the others.
  std::vector<std::string> boxConstraints(const Node& node, const std::string& prefix) const {
    std::vector<std::string> out;
    for (size_t i = 0; i < node.domain.size(); ++i)
      out.push_back("0 <= " + prefix + std::to_string(i) + " < " +
                    paramOf(node.domain[i], "node %" + std::to_string(node.id)));
    for (const std::string& d : node.domain) {
      auto guard = g.dimGuards.find(d);
      if (guard == g.dimGuards.end()) continue;
      bool covered = true;  // a node without a dimension the guard names runs on the whole range
      for (const Symbol& x : guard->second.symbols())
        covered = covered && (x.kind == SymbolKind::Bound ||
                              std::find(node.domain.begin(), node.domain.end(), x.name) != node.domain.end());
      if (!covered) continue;
      IslNaming naming(paramOfBound);
      naming.addVars(node.domain, prefix);
      out.push_back(naming.condition(guard->second, "the guard of '" + d + "' in node %" + std::to_string(node.id)));
    }
    return out;
  }

  std::vector<std::string> paramConstraints() const {
    std::vector<std::string> out;
    // The derived bounds' equalities stay in the context only: every relation
    // holds for any value of them, and existential divisions in every piece
    // would make isl's scheduling much slower.
    for (const std::string& p : rel.params) out.push_back(p + " >= 1");
    return out;
  }

  /// isl's normalised form of the set or map `text` whose tuples are named
  /// kProducer and kConsumer, with those names replaced by `producer` and
  /// `consumer` in it. Many statements and edges share one shape up to their
  /// names, so each shape is parsed and coalesced once.
  std::string normalised(const std::string& text, const std::string& producer, const std::string& consumer) {
    auto it = normalisedShapes.find(text);
    if (it == normalisedShapes.end()) it = normalisedShapes.emplace(text, normalisedText(text)).first;
    return renamedTuples(renamedTuples(it->second, kProducer, producer), kConsumer, consumer);
  }
  std::string normalisedText(const std::string& text) const {
    if (text.find(" -> " + kConsumer) == std::string::npos) {
      auto set = islCheck(isl_set_read_from_str(ctx, text.c_str()), ctx, "parsing `" + text + "`");
      set.reset(isl_set_coalesce(set.release()));
      return islTakeString(isl_set_to_str(set.get()));
    }
    auto map = islCheck(isl_map_read_from_str(ctx, text.c_str()), ctx, "parsing `" + text + "`");
    map.reset(isl_map_coalesce(map.release()));
    return islTakeString(isl_map_to_str(map.get()));
  }

  std::string piece(const std::string& head, std::vector<std::string> constraints) const {
    for (const std::string& p : paramConstraints()) constraints.push_back(p);
    return paramPrefix(rel.params) + "{ " + head +
           (constraints.empty() ? "" : " : " + joined(constraints, " and ")) + " }";
  }

  void addStatement(const Node& n) {
    ScheduleStatement s{n.id, statementName(n.id), n.domain, ""};
    s.domain = normalised(piece(tuple(kProducer, n.domain.size(), "c"), boxConstraints(n, "c")), s.name, "");
    rel.statements.push_back(std::move(s));
  }

  /// `l1 <= q and l2 <= q and q < h1 and q < h2` for a block atom [max(l1, l2), min(h1, h2)).
  static std::string blockRange(const IndexAtom& a, const std::string& q, const IslNaming& naming,
                                const std::string& where) {
    std::vector<std::string> parts;
    const bool maxStart = a.start.kind() == IndexExpr::Kind::Max;
    for (const IndexExpr& lo : maxStart ? a.start.operands() : std::vector<IndexExpr>{a.start})
      parts.push_back(naming.expr(lo, where) + " <= " + q);
    const bool minStop = a.stop->kind() == IndexExpr::Kind::Min;
    for (const IndexExpr& hi : minStop ? a.stop->operands() : std::vector<IndexExpr>{*a.stop})
      parts.push_back(q + " < " + naming.expr(hi, where));
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : " and ") + p;
    return out;
  }

  /// The window's own newest position in a block read: its stop - 1 (time
  /// forwards) or its start (backwards), taken from the operand of the min / max
  /// that is not the block's edge. Blocks that end before it get no proximity
  /// (their values are old); the one holding it pulls the reader next to its
  /// producer, as the newest element of an untiled slice does.
  static IndexExpr blockNewest(const IndexAtom& a, bool forward) {
    const IndexExpr& bound = forward ? *a.stop : a.start;
    const IndexExpr edge = forward ? a.block->first + IndexExpr(a.block->size) : a.block->first;
    const bool split = bound.kind() == (forward ? IndexExpr::Kind::Min : IndexExpr::Kind::Max);
    IndexExpr pick = bound;
    if (split)
      for (const IndexExpr& o : bound.operands())
        if (!(o == edge)) {
          pick = o;
          break;
        }
    return forward ? pick - 1 : pick;
  }

  void addDependence(const Edge& e) {
    const Node& producer = g.node(e.producer);
    const Node& consumer = g.node(e.consumer);
    std::string where = "edge %" + std::to_string(e.consumer) + " <- %" + std::to_string(e.producer);
    if (e.index.size() != producer.domain.size())
      throw std::invalid_argument(where + ": " + std::to_string(e.index.size()) + " index atoms for a producer over " +
                                  std::to_string(producer.domain.size()) + " dimensions");
    IslNaming naming(paramOfBound);
    naming.addVars(consumer.domain, "c");
    std::vector<std::string> common = boxConstraints(consumer, "c");
    for (const std::string& c : boxConstraints(producer, "p")) common.push_back(c);
    Condition live = effectiveCondition(g, e);
    common.push_back(naming.condition(live, where));
    std::vector<std::string> exact = common, last = common, first = common;
    for (size_t i = 0; i < e.index.size(); ++i) {
      const IndexAtom& a = e.index[i];
      std::string q = "p" + std::to_string(i);
      if (!a.isSlice()) {
        exact.push_back(q + " = " + naming.expr(a.start, where));
        last.push_back(exact.back());
        first.push_back(exact.back());
      } else {
        if (a.isBlock()) {
          // A block read: `max(l1, l2) <= q < min(h1, h2)` as one conjunction of
          // its operands (one basic map for isl, not a piece per min / max
          // branch); for proximity the part of the same range at the window's
          // newest position (blockNewest): a whole range of distances keeps isl
          // from fusing the reader's loop with its producer's.
          std::string range = blockRange(a, q, naming, where);
          exact.push_back(range);
          last.push_back(range + " and " + q + " = " + naming.expr(blockNewest(a, true), where));
          first.push_back(range + " and " + q + " = " + naming.expr(blockNewest(a, false), where));
          continue;
        }
        exact.push_back(naming.expr(a.start, where) + " <= " + q + " < " + naming.expr(*a.stop, where));
        last.push_back(q + " = " + naming.expr(*a.stop - 1, where));
        first.push_back(q + " = " + naming.expr(a.start, where));
      }
    }
    std::string head = tuple(kProducer, producer.domain.size(), "p") + " -> " +
                       tuple(kConsumer, consumer.domain.size(), "c");
    const std::string p = statementName(producer.id), c = statementName(consumer.id);
    // A read of points only has one element per point: its newest is itself.
    std::string validity = normalised(piece(head, exact), p, c);
    const bool points = std::none_of(e.index.begin(), e.index.end(), [](const IndexAtom& a) { return a.isSlice(); });
    rel.dependences.push_back({e.id, e.producer, e.consumer, validity,
                               points ? validity : normalised(piece(head, last), p, c),
                               points ? validity : normalised(piece(head, first), p, c)});
  }
};

/// The bodies of the pieces of a union text `[..] -> { a; b }` -> `a; b`.
std::string unionBody(const std::string& text) {
  size_t open = text.find('{');
  size_t close = text.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close <= open) return "";
  std::string body = text.substr(open + 1, close - open - 1);
  size_t first = body.find_first_not_of(' ');
  size_t last = body.find_last_not_of(' ');
  return first == std::string::npos ? "" : body.substr(first, last - first + 1);
}

std::string unionOf(const std::vector<std::string>& params, const std::vector<std::string>& texts) {
  std::vector<std::string> bodies;
  for (const std::string& t : texts) {
    std::string b = unionBody(t);
    if (!b.empty()) bodies.push_back(b);
  }
  return paramPrefix(params) + "{ " + joined(bodies, "; ") + " }";
}

}  // namespace

std::string renamedTuples(std::string text, const std::string& from, const std::string& to) {
  const std::string tuple = from + "[";
  for (size_t at = text.find(tuple); at != std::string::npos; at = text.find(tuple, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

std::string statementName(NodeId node) { return "S_" + std::to_string(node); }

std::optional<NodeId> nodeOfStatement(const std::string& name) {
  static const std::regex pattern("S_([0-9]+)");
  std::smatch m;
  if (!std::regex_match(name, m, pattern)) return std::nullopt;
  return std::stoi(m[1].str());
}

std::string DependenceRelations::paramContext() const {
  std::vector<std::string> cs;
  for (const std::string& p : params) cs.push_back(p + " >= 1");
  return paramPrefix(params) + "{ : " + joined(cs, " and ") + " }";
}

std::string DependenceRelations::paramContextWithDerived() const {
  std::vector<std::string> cs;
  for (const std::string& p : params) cs.push_back(p + " >= 1");
  for (const std::string& e : paramEqualities) cs.push_back(e);
  return paramPrefix(params) + "{ : " + joined(cs, " and ") + " }";
}

std::string DependenceRelations::domainUnion() const {
  std::vector<std::string> texts;
  for (const ScheduleStatement& s : statements) texts.push_back(s.domain);
  return unionOf(params, texts);
}

std::string DependenceRelations::validityUnion() const {
  std::vector<std::string> texts;
  for (const EdgeDependence& d : dependences) texts.push_back(d.validity);
  return unionOf(params, texts);
}

std::string DependenceRelations::proximityUnion(TimeDirection newest) const {
  std::vector<std::string> texts;
  for (const EdgeDependence& d : dependences)
    texts.push_back(newest == TimeDirection::Forward ? d.newestForward : d.newestBackward);
  return unionOf(params, texts);
}

const ScheduleStatement* DependenceRelations::statementOf(NodeId node) const {
  for (const ScheduleStatement& s : statements)
    if (s.node == node) return &s;
  return nullptr;
}

DependenceRelations buildDependenceRelations(const Graph& g, IslContext& ctx) {
  DependenceRelations rel;
  Builder b{g, ctx.get(), rel, {}, {}};
  for (const std::string& bound : g.boundNames()) {
    std::string param = isSafeParamName(bound) ? bound : "P" + std::to_string(rel.params.size());
    rel.params.push_back(param);
    rel.boundOfParam[param] = bound;
    b.paramOfBound[bound] = param;
  }
  IslNaming boundNaming(b.paramOfBound);
  for (const auto& [bound, expr] : g.derivedBounds) {
    auto it = b.paramOfBound.find(bound);
    if (it == b.paramOfBound.end()) continue;  // no dimension uses it
    rel.paramEqualities.push_back(it->second + " = " + boundNaming.expr(expr, "derived bound '" + bound + "'"));
  }
  for (const auto& [id, node] : g.nodes()) b.addStatement(node);
  for (const auto& [id, edge] : g.edges()) b.addDependence(edge);
  return rel;
}

}  // namespace tempo
