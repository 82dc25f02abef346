#include "passes/BranchLowering.h"

#include "passes/ConditionSimplifier.h"
#include "passes/GraphRewrite.h"

namespace tempo {

std::string BranchLowering::description() const {
  return "A recurrent tensor's branches are ordered: at each point the first branch whose guard holds "
         "wins (h[0] = ..., then h[t] = ... everywhere else). This pass makes the order explicit: branch k "
         "becomes live exactly where its own guard holds and no earlier guard does, and the condition is "
         "simplified with isl over the tensor's domain (t != 0 becomes t > 0, a condition that always holds "
         "becomes true, a branch that can never be taken is removed). Afterwards the edges of a merge are "
         "disjoint, so later passes and the scheduler can treat each one on its own.";
}

void BranchLowering::run(Graph& graph, PassContext& context) {
  IslContext ctx;
  std::vector<NodeId> merges;
  for (const auto& [id, n] : graph.nodes())
    if (n.op == OpKind::Merge) merges.push_back(id);
  for (NodeId id : merges) {
    ConditionSimplifier simplifier(ctx, graph, graph.node(id).domain);
    Condition notEarlier = Condition::always();
    int removed = 0;
    bool rewritten = false;
    for (const Edge* in : graph.inputs(id)) {
      Edge& e = graph.edge(in->id);
      Condition guard = e.condition;
      Condition lowered = simplifier.simplify(guard && notEarlier);
      notEarlier = simplifier.simplify(notEarlier && !guard);
      if (lowered.isNever()) {
        graph.removeEdge(e.id);
        ++removed;
        rewritten = true;
        continue;
      }
      rewritten |= !(lowered == e.condition);
      e.condition = lowered;
    }
    if (!rewritten) continue;
    compactInputSlots(graph, id);
    context.change.rewritten.insert(id);
    const Node& n = graph.node(id);
    std::string label = "%" + std::to_string(id) + (n.name.empty() ? "" : " " + n.name);
    context.change.notes.push_back(label + ": branches made disjoint" +
                                   (removed ? ", " + std::to_string(removed) + " unreachable removed" : ""));
  }
}

}  // namespace tempo
