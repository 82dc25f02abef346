#include "passes/DeadCodeElimination.h"

#include "passes/GraphRewrite.h"

namespace tempo {

std::string DeadCodeElimination::description() const {
  return "A node is live when some output depends on it, directly or through a chain of reads. Starting "
         "from the outputs and following every edge back to its producer marks the live nodes; everything "
         "else (an unused let, a constant left behind by folding, the input of a bypassed identity) is "
         "removed. Dead code costs nothing to delete but would otherwise be scheduled, allocated and run.";
}

void DeadCodeElimination::run(Graph& graph, PassContext& context) {
  std::set<NodeId> live = reachableFromOutputs(graph);
  std::vector<NodeId> dead;
  for (const auto& [id, n] : graph.nodes())
    if (!live.count(id)) dead.push_back(id);
  for (NodeId id : dead) {
    graph.removeNode(id);
    context.change.removed.insert(id);
  }
  if (!dead.empty()) context.change.notes.push_back("removed " + std::to_string(dead.size()) + " dead nodes");
}

}  // namespace tempo
