#include "graph/MergeBranches.h"

namespace tempo {

Condition effectiveCondition(const Graph& g, const Edge& e) {
  Condition live = e.condition;
  if (g.node(e.consumer).op != OpKind::Merge) return live;
  for (const Edge* earlier : g.inputs(e.consumer)) {
    if (earlier->inputIndex >= e.inputIndex) break;
    live = live && !earlier->condition;
  }
  return live;
}

}  // namespace tempo
