// MergeBranches: when each ordered branch of a merge is the one taken.
//
// A merge's inputs are ordered branches: at each point the first input whose
// edge condition holds is taken. The scheduler (dependences), the autodiff
// (the gradient of a merge flows to the branch taken) and anything else that
// needs "where does this input really matter" share this one definition.
#pragma once

#include "graph/Graph.h"

namespace tempo {

/// Where the consumer really reads through `e`: the edge's condition, and for
/// an input of a merge also the negation of every earlier branch's condition.
Condition effectiveCondition(const Graph& g, const Edge& e);

}  // namespace tempo
