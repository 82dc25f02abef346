#include "passes/AlgebraicSimplification.h"

#include "ops/TypeInference.h"
#include "passes/GraphRewrite.h"
#include "passes/RecurrenceLift.h"
#include "passes/WindowSums.h"

#include <algorithm>

namespace tempo {

std::string AlgebraicSimplification::description() const {
  return "Some nodes compute nothing new: x * 1, x + 0, x - 0, x / 1, neg(neg(x)), an identity copy, a cast "
         "to the same dtype, a reshape or expand to the same shape, a permute that keeps the axis order, a "
         "merge with a single unconditional branch, an expand whose elementwise readers broadcast its input "
         "themselves. Using a table of such rules, this pass makes the readers "
         "of those nodes read x directly, composing the index expressions of the two reads (reading "
         "s[b] where s = identity(h[b, 0:T]) becomes reading h[b, 0:T]). Only exact rules are used, so the "
         "program computes the same numbers with fewer nodes and fewer copies. One rule goes further: a running "
         "sum acc[t] = acc[t-1] + x[t] (starting at acc[0] = x[0]) that is only read at its end acc[T-1] becomes "
         "sum(x[0:T], dim=0), one reduction instead of T sequential steps (the suffix sum read at acc[0] too); on "
         "floats the reduction rounds once instead of after every step, so the last bits may differ.";
}

namespace {

const Edge* inputAt(const Graph& g, const Node& n, int slot) {
  auto ins = g.inputs(n.id);
  return slot < static_cast<int>(ins.size()) ? ins[slot] : nullptr;
}

bool isConstantValue(const Graph& g, const Edge* e, double value) {
  if (!e) return false;
  const Node& p = g.node(e->producer);
  return p.op == OpKind::Constant && p.attrs.value == value;
}

/// `x op c -> x` for the constant `c` in slot `constSlot`, when x's read type is the result type.
std::optional<Edge> passThrough(const Graph& g, const Node& n, int valueSlot, int constSlot, double c) {
  const Edge* x = inputAt(g, n, valueSlot);
  if (!x || !isConstantValue(g, inputAt(g, n, constSlot), c) || !(g.readType(*x) == n.type)) return std::nullopt;
  return *x;
}

RewriteRule binaryIdentity(std::string name, OpKind op, double c, bool commutes) {
  return {std::move(name), [op, c, commutes](const Graph& g, const Node& n) -> std::optional<Edge> {
            if (n.op != op) return std::nullopt;
            if (auto r = passThrough(g, n, 0, 1, c)) return r;
            return commutes ? passThrough(g, n, 1, 0, c) : std::nullopt;
          },
          {}};
}

/// The single input of `n` when `keeps(n, input type)` says the op leaves the value as it is.
RewriteRule unaryIdentity(std::string name, OpKind op, std::function<bool(const Node&, const TensorType&)> keeps) {
  return {std::move(name), [op, keeps](const Graph& g, const Node& n) -> std::optional<Edge> {
            const Edge* x = inputAt(g, n, 0);
            if (n.op != op || !x || !x->condition.isAlways()) return std::nullopt;
            TensorType in = g.readType(*x);
            if (!(in == n.type) || !keeps(n, in)) return std::nullopt;
            return *x;
          },
          {}};
}

std::optional<Edge> doubleNegation(const Graph& g, const Node& n) {
  const Edge* outer = inputAt(g, n, 0);
  if (n.op != OpKind::Neg || !outer) return std::nullopt;
  const Node& inner = g.node(outer->producer);
  const Edge* x = inputAt(g, inner, 0);
  if (inner.op != OpKind::Neg || !x || inner.id == n.id) return std::nullopt;
  auto atoms = composeReads(inner.domain, *x, *outer);
  if (!atoms) return std::nullopt;
  Edge composed = *x;
  composed.index = *atoms;
  composed.condition = outer->condition;
  if (!(g.readType(composed) == n.type)) return std::nullopt;
  return composed;
}

std::optional<Edge> singleBranchMerge(const Graph& g, const Node& n) {
  auto ins = g.inputs(n.id);
  if (n.op != OpKind::Merge || ins.size() != 1 || !ins[0]->condition.isAlways() || ins[0]->producer == n.id)
    return std::nullopt;
  return *ins[0];
}

bool isIdentityPerm(const std::vector<int64_t>& perm) {
  for (size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != static_cast<int64_t>(i)) return false;
  return true;
}

/// An output node equal to an identity read of a node over the same domain can be replaced by it.
bool redirectOutput(Graph& g, const Node& n, const Edge& value, GraphChange& change) {
  const Node& p = g.node(value.producer);
  if (!isOutput(g, n.id) || !value.isIdentityRead(p.domain) || p.domain != n.domain || !(p.type == n.type) ||
      !value.condition.isAlways())
    return false;
  redirectUsers(g, n.id, p.id);
  return true;
}

/// Whether `c`'s inputs, as it reads them now, still give its own type.
bool keepsItsType(const Graph& g, const Node& c) {
  std::vector<TensorType> inputs;
  for (const Edge* e : g.inputs(c.id)) inputs.push_back(g.readType(*e));
  TypeResult t = inferType(c.op, c.attrs, inputs);
  return std::holds_alternative<TensorType>(t) && std::get<TensorType>(t) == c.type;
}

/// `expand(x)` read by an elementwise node with several operands (binary, where, fused): that node
/// broadcasts x itself (NumPy's rules, the generated kernels' broadcast inputs) when its other
/// operands give it the expanded shape anyway, so it reads x, and the expand's copy is gone
/// (autodiff's gradient of a sum: expand(g[B, 1], [B, 2]) * p). Exact: every element is the same.
bool foldExpandIntoBroadcast(Graph& g, NodeId id, GraphChange& change) {
  const Node& n = g.node(id);
  const Edge* x = n.op == OpKind::Expand ? soleUnconditionalInput(g, n) : nullptr;
  if (!x || x->producer == id) return false;
  // Not an expand to a window's shape (it grows with a dimension): static tiling tiles such
  // expands along the window and knows no broadcast of a smaller operand there.
  if (std::any_of(n.type.shape.begin(), n.type.shape.end(),
                  [](const IndexExpr& e) { return e.dependsOnKind(SymbolKind::Dim); }))
    return false;
  const Edge source = *x;
  const std::vector<std::string> domain = n.domain;
  bool moved = false;
  for (const Edge* user : g.users(id)) {
    const Node& c = g.node(user->consumer);
    const OpClass k = opClass(c.op);
    if (c.id == id || (k != OpClass::Binary && k != OpClass::Ternary && k != OpClass::Fused)) continue;
    auto atoms = composeReads(domain, source, *user);
    // Point reads only: a window of x stays an expand of a window (static tiling and the
    // window passes know slices of expands, not broadcasts of windows).
    if (!atoms || std::any_of(atoms->begin(), atoms->end(), [](const IndexAtom& a) { return a.isSlice(); }))
      continue;
    Edge& e = g.edge(user->id);
    const Edge original = e;
    e.producer = source.producer;
    e.index = *atoms;
    if (!keepsItsType(g, c)) {
      e = original;
      continue;
    }
    change.rewritten.insert(c.id);
    moved = true;
  }
  if (moved) removeIfUnread(g, id, change);
  return moved;
}

}  // namespace

const std::vector<RewriteRule>& identityViewRules() {
  static const std::vector<RewriteRule> rules = {
      unaryIdentity("identity(x) -> x", OpKind::Identity, [](const Node&, const TensorType&) { return true; }),
      unaryIdentity("reshape(x) to its own shape -> x", OpKind::Reshape,
                    [](const Node&, const TensorType&) { return true; }),
      unaryIdentity("expand(x) to its own shape -> x", OpKind::Expand,
                    [](const Node&, const TensorType&) { return true; }),
      unaryIdentity("permute(x) keeping the axis order -> x", OpKind::Permute,
                    [](const Node& n, const TensorType&) { return isIdentityPerm(n.attrs.perm); }),
  };
  return rules;
}

const std::vector<RewriteRule>& algebraicRules() {
  static const std::vector<RewriteRule> rules = [] {
    std::vector<RewriteRule> r = {
      binaryIdentity("x * 1 -> x", OpKind::Mul, 1, true),
      binaryIdentity("x + 0 -> x", OpKind::Add, 0, true),
      binaryIdentity("x - 0 -> x", OpKind::Sub, 0, false),
      binaryIdentity("x / 1 -> x", OpKind::Div, 1, false),
      {"neg(neg(x)) -> x", doubleNegation, {}},
      unaryIdentity("cast(x) to its own dtype -> x", OpKind::Cast,
                    [](const Node& n, const TensorType& in) { return n.attrs.dtype == in.dtype; }),
    };
    r.insert(r.end(), identityViewRules().begin(), identityViewRules().end());
    std::vector<RewriteRule> rest = {
      {"expand(x) read by an elementwise node that broadcasts x itself -> x", {}, foldExpandIntoBroadcast},
      {"merge with one unconditional branch -> the branch", singleBranchMerge, {}},
      {"running sum read only at its end -> sum over the window", {}, liftRunningSum},
      {"sum over several whole windows -> one sum per window, nested", {}, splitWindowSum},
      {"sum over a window of a merge the window does not choose -> a merge of the branches' sums", {}, sumEachBranch},
      {"sum of outer products over a window -> one matrix product of the windows", {}, contractOuterProducts},
      {"sum over a fixed window of a recurrence's value -> a running sum read at its end", {}, accumulateWindowSum},
    };
    r.insert(r.end(), rest.begin(), rest.end());
    return r;
  }();
  return rules;
}

void applyRewriteRules(Graph& graph, const std::vector<RewriteRule>& rules, GraphChange& change) {
  rewriteToFixpoint(graph, [&](NodeId id) {
    for (const RewriteRule& rule : rules) {
      if (rule.rewrite) {
        Node n = graph.node(id);
        if (!rule.rewrite(graph, id, change)) continue;
        change.notes.push_back(shortLabel(n) + ": " + rule.name);
        return true;
      }
      std::optional<Edge> value = rule.match(graph, graph.node(id));
      if (!value) continue;
      Node n = graph.node(id);
      bool moved = forwardReaders(graph, id, *value, change);
      if (graph.hasNode(id)) moved |= redirectOutput(graph, n, *value, change);
      if (moved && graph.hasNode(id) && graph.users(id).empty() && !isOutput(graph, id)) {
        graph.removeNode(id);
        recordRemoval(change, id);
      }
      if (!moved) continue;
      change.notes.push_back(shortLabel(n) + ": " + rule.name);
      return true;
    }
    return false;
  });
}

void AlgebraicSimplification::run(Graph& graph, PassContext& context) {
  applyRewriteRules(graph, algebraicRules(), context.change);
}

}  // namespace tempo
