// Optimize: `optimize LOSS over i with OPTIMISER` as a graph transformation.
//
// Training is a dimension: every param the loss depends on becomes recurrent
// over the iteration dimension i (W[0] = its initialiser, W[i + 1] = the
// optimiser's update of W[i] with the gradient at i), and so does everything
// computed from it. `addOptimizer` rewrites the lowered program in place:
//
// 1. Params: the float params the loss depends on (through any edges). Each
//    keeps its node id (so every reader and output still reads it) but
//    becomes a merge over (i, its dims); its initialiser moves to a new source
//    node named `W.init`.
// 2. Iteration: every node that reads such a param, or a node that does, and
//    is not over i gets i in its domain; each edge from such a node reads it at
//    the same i. Nodes already over i only gain the `i` atom on those edges.
// 3. Gradients: `addGradients` of the loss (summed over its domain, i
//    included) with respect to the per-iteration params, while their merges
//    have no inputs yet: the gradient at iteration i flows through that
//    iteration's forward graph only, never through the update chain.
// 4. Updates (OptimizerRules): the optional global norm clip, then one update
//    node per param; finally each param's merge gets its branches
//    `W.init if i == 0` and `update[i - 1]`.
//
// The result is one program whose recurrence spans domains (the param over
// (i), the forward pass over (i, b, t), the loss over (i)); it goes strictly
// into the past only along i, which the front end's recurrence check accepts.
// The trained params are recorded in Graph::trainedParams; addFinalParamOutputs
// exposes their values after the last update (`tempo run --save-params`).
#pragma once

#include "autodiff/OptimizerRules.h"

#include <set>
#include <stdexcept>
#include <vector>

namespace tempo {

/// A request that cannot be carried out; `related` names a node to point a
/// note at (a param already over i), or -1.
class OptimizeError : public std::invalid_argument {
public:
  explicit OptimizeError(const std::string& message, NodeId related = -1)
      : std::invalid_argument(message), related(related) {}
  NodeId related = -1;
};

struct OptimizeRequest {
  NodeId loss = -1;
  std::string dim;                 ///< the iteration dimension (declared in the graph)
  OptimizerSpec optimizer;
  std::vector<NodeId> params;      ///< every declared param (the trainable candidates)
  std::set<NodeId> stopGradient;   ///< detach nodes
  SourceRange loc;                 ///< the optimize statement
};

/// Rewrites `g` as described above and records the trained params in
/// `g.trainedParams` (in `request.params` order). Throws OptimizeError when
/// the loss is not a float scalar, does not depend on any float param, does
/// not vary over the dimension, or a param it depends on is already over it.
void addOptimizer(Graph& g, const OptimizeRequest& request);

/// For each trained param, adds a node over the param's own dimensions reading
/// its update at the last iteration (`update[I - 1]`) and an output named
/// `finalParamOutputName(name)` for it; returns those outputs.
std::vector<GraphOutput> addFinalParamOutputs(Graph& g);
/// `W.final`: the name of the output holding param W's final value.
std::string finalParamOutputName(const std::string& param);

}  // namespace tempo
