#include "passes/DomainReduction.h"

#include "passes/GraphRewrite.h"
#include "passes/PointSpecialisation.h"

#include <algorithm>

namespace tempo {

std::string DomainReduction::description() const {
  return "Lowering gives every expression the domain of the tensor it defines: in h[b, 0] = tanh(x[b, 0] @ W) "
         "the matmul is defined over (b, t) although it only reads x at t = 0, so it would be computed T times "
         "over. A node whose reads, conditions, shape and attributes never mention a dimension has the same "
         "value along it, so this pass removes that dimension from its domain and from its readers' index "
         "expressions, producers first so that whole chains shrink. Sources and outputs keep their domains, "
         "and so does a dimension some reader slices; inside a recurrence a node that reads nothing along a "
         "dimension (a transposed weight in a training step) loses it too, unless it reads the recurrence "
         "at a fixed point of the dimension (an LSTM's h[b, 0] = o * tanh(c[b, 0])): no loop would carry "
         "the cycle it would make. A node every reader reads at one fixed coordinate of a dimension (0 or its "
         "last) is needed there only: autodiff's gradient of the first step's branch, merge(x[0]^T @ g[t] if "
         "t == 0, 0 if t > 0), is read at t = 0 alone by the weight's sum, but over (t) it would be a product "
         "at every step. The coordinate is substituted into the node's reads, conditions and attributes, the "
         "dimension dropped, branches that can no longer be taken removed, consumers first so that the chain "
         "behind it is specialised too.";
}

namespace {

bool mentions(const IndexExpr& e, const std::string& dim) { return e.dependsOn(dim); }

bool conditionMentions(const Condition& c, const std::string& dim) {
  for (const Symbol& s : c.symbols())
    if (s.name == dim) return true;
  return false;
}

/// True when the value of `n` may differ between two points that differ only in `dim`.
bool variesAlong(const Graph& g, const Node& n, const std::string& dim) {
  for (const Edge* e : g.inputs(n.id)) {
    if (conditionMentions(e->condition, dim)) return true;
    for (const IndexAtom& a : e->index)
      if (mentions(a.start, dim) || (a.stop && mentions(*a.stop, dim))) return true;
  }
  for (const IndexExpr& s : n.type.shape)
    if (mentions(s, dim)) return true;
  const OpAttrs& a = n.attrs;
  if (a.index && mentions(*a.index, dim)) return true;
  if (mentions(a.start, dim) || mentions(a.stop, dim)) return true;
  return std::any_of(a.shape.begin(), a.shape.end(), [&](const IndexExpr& s) { return mentions(s, dim); });
}

bool someReaderSlices(const Graph& g, NodeId id, size_t position) {
  for (const Edge* e : g.users(id))
    if (e->index.at(position).isSlice()) return true;
  return false;
}

/// True when `n` reads a member of its own recurrence at a fixed coordinate of `dim`
/// (`h[b, 0] = o * tanh(c[b, 0])`, with c reading h[t-1]): over its domain without `dim`
/// it would sit in a cycle through values over `dim` that no loop carries (the fusion
/// schedule's loops carry a cycle only along a dimension its members share), so it keeps
/// `dim` and is computed at every coordinate, as lowered.
bool readsItsRecurrenceAtAFixedPoint(const Graph& g, const Node& n, const std::string& dim,
                                     const std::vector<NodeId>& component) {
  if (component.size() < 2) return false;
  for (const Edge* e : g.inputs(n.id)) {
    if (std::find(component.begin(), component.end(), e->producer) == component.end()) continue;
    const std::vector<std::string>& pd = g.node(e->producer).domain;
    for (size_t k = 0; k < pd.size() && k < e->index.size(); ++k)
      if (pd[k] == dim && !e->index[k].isSlice() && !e->index[k].start.dependsOnKind(SymbolKind::Dim)) return true;
  }
  return false;
}

}  // namespace

void DomainReduction::run(Graph& graph, PassContext& context) {
  // Producers first, and inside a recurrence (the training step of `optimize`
  // is one) member by member until nothing changes: a member whose reads never
  // mention d reads the same producer points at every d, so its value does not
  // vary along d even though the cycle as a whole does.
  for (const auto& component : componentsProducersFirst(graph)) {
    for (bool progress = true; progress;) {
      progress = false;
      for (NodeId id : component) {
        const Node& n = graph.node(id);
        if (opClass(n.op) == OpClass::Source || isOutput(graph, id)) continue;
        std::vector<std::string> dropped;
        for (size_t pos = n.domain.size(); pos-- > 0;) {
          std::string dim = n.domain[pos];
          if (variesAlong(graph, n, dim) || someReaderSlices(graph, id, pos) ||
              readsItsRecurrenceAtAFixedPoint(graph, n, dim, component))
            continue;
          for (const Edge* e : graph.users(id)) {
            Edge& reader = graph.edge(e->id);
            reader.index.erase(reader.index.begin() + static_cast<long>(pos));
            context.change.rewritten.insert(reader.consumer);
          }
          graph.node(id).domain.erase(graph.node(id).domain.begin() + static_cast<long>(pos));
          dropped.insert(dropped.begin(), dim);
        }
        if (dropped.empty()) continue;
        progress = component.size() > 1;
        context.change.rewritten.insert(id);
        std::string dims;
        for (const std::string& d : dropped) dims += (dims.empty() ? "" : ", ") + d;
        context.change.notes.push_back("%" + std::to_string(id) + (n.name.empty() ? "" : " " + n.name) +
                                       ": dropped " + dims);
      }
    }
  }
  specialiseFixedPointReads(graph, context);
}

}  // namespace tempo
