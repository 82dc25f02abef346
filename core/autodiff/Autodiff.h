// Autodiff: reverse-mode differentiation of an SDG, into the same SDG.
//
// Given a scalar loss node and target nodes, `addGradients` adds the backward
// graph to the forward one as ordinary nodes and edges, so the passes, the
// scheduler and both engines run it like any program. The loss may have a
// domain; it then stands for the sum of its values over that domain. The
// gradient of a target W is a node over W's domain with W's type.
//
// Data flow: the nodes on some path from a target to the loss get an
// accumulator (an identity node over their domain, created first so that
// recurrences — h[t] reading h[t-1] — become backward recurrences without
// any ordering problem). For every edge consumer c -> producer p among them,
// GradientRules gives the gradient of the value c reads (over c's domain;
// for a merge, c's gradient where that branch is the one taken, zero
// elsewhere), ValidityGuards keeps it zero where c's forward value is
// undefined, and TemporalReadAdjoint carries it back through the edge's
// index atoms to p's domain, boundary conditions included. Each accumulator
// is the Add of its contributions (zero if none); the loss's includes the
// seed 1 at every point of its domain. Nodes in `stopGradient` (detach)
// pass no gradient to their inputs.
#pragma once

#include "autodiff/AdjointBuilder.h"

#include <set>
#include <vector>

namespace tempo {

struct AutodiffOptions {
  std::set<NodeId> stopGradient;  ///< nodes whose inputs get no gradient (detach)
};

/// Adds d(sum of `loss` over its domain)/d(target) for each target to `g`
/// and returns the gradient nodes, in `targets` order. Throws AutodiffError
/// for a loss that is not a float scalar or a target that is not a float tensor.
std::vector<NodeId> addGradients(Graph& g, NodeId loss, const std::vector<NodeId>& targets,
                                 const AutodiffOptions& options = {});

}  // namespace tempo
