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
// pass no gradient to their inputs. A BackwardGraph keeps this state for one
// loss, so later requests for more targets extend the same backward graph.
#pragma once

#include "autodiff/AdjointBuilder.h"

#include <map>
#include <memory>
#include <set>
#include <vector>

namespace tempo {

class ValidityGuards;

struct AutodiffOptions {
  std::set<NodeId> stopGradient;  ///< nodes whose inputs get no gradient (detach)
};

/// The backward graph of one loss in `g`, shared by every gradient asked of
/// it: asking for more targets later adds only the accumulators and
/// contributions of the nodes the earlier requests did not reach (grad(loss,
/// W) then grad(loss, U) in a program build one backward pass through the
/// recurrence, not two). This works because the accumulator of a node n is
/// complete once built: every consumer of n that leads to the loss depends on
/// the same targets n does, so it was on the earlier path too. If the graph
/// changed in between so that this no longer holds (a consumer on the path
/// whose contribution to an old node was never built), the next request
/// builds a fresh backward graph. Keeps a reference to `g`.
class BackwardGraph {
public:
  /// Throws AutodiffError for a loss that is not a float scalar.
  BackwardGraph(Graph& g, NodeId loss, AutodiffOptions options = {});
  ~BackwardGraph();
  BackwardGraph(const BackwardGraph&) = delete;
  BackwardGraph& operator=(const BackwardGraph&) = delete;

  /// d(sum of the loss over its domain)/d(target) for each target, in order:
  /// a node over the target's domain with its type (the same node each time
  /// a target is asked again). Throws AutodiffError for a target that is not
  /// a float tensor.
  std::vector<NodeId> gradients(const std::vector<NodeId>& targets);

  NodeId loss() const { return loss_; }
  const AutodiffOptions& options() const { return options_; }

private:
  void extend(const std::set<NodeId>& path);
  void restart();

  Graph& g_;
  NodeId loss_;
  AutodiffOptions options_;
  std::unique_ptr<IslContext> ctx_;
  std::unique_ptr<ValidityGuards> guards_;
  std::set<NodeId> requested_;             ///< every target asked for so far
  std::map<NodeId, NodeId> acc_;           ///< path node -> its (complete) accumulator
  std::set<EdgeId> built_;                 ///< edges whose contribution exists
  std::map<NodeId, NodeId> zeroGradient_;  ///< target off the path -> its zeros
};

/// Adds d(sum of `loss` over its domain)/d(target) for each target to `g`
/// and returns the gradient nodes, in `targets` order (one BackwardGraph).
/// Throws AutodiffError for a loss that is not a float scalar or a target
/// that is not a float tensor.
std::vector<NodeId> addGradients(Graph& g, NodeId loss, const std::vector<NodeId>& targets,
                                 const AutodiffOptions& options = {});

}  // namespace tempo
