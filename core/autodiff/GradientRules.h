// GradientRules: the local derivative of every primitive op, as SDG nodes.
//
// For a node c = op(x_0, ..., x_n) and the gradient gc of the loss with
// respect to c's value (a node over c's domain with c's type), the rule for
// input slot k builds the gradient with respect to the value c reads through
// that input edge (the edge's read type: slice sizes first, then the
// producer's shape), over c's domain. Rules read the forward values exactly
// as c reads them (the same edge atoms), or c's own value (tanh' = 1 - y^2).
// Broadcast operands get their gradient summed back to their own shape;
// matmul promotes 1-D operands to matrices and back; reduce/expand/slice/cat
// are each other's adjoints. Merge is not handled here: its gradient flows to
// the branch whose condition holds (see Autodiff). Ops without a derivative
// (sources, comparisons, logic) and non-float operands give std::nullopt.
#pragma once

#include "autodiff/AdjointBuilder.h"

#include <optional>

namespace tempo {

/// The gradient with respect to input `slot` of node `c` (whose inputs are
/// `inputs`, ordered by slot), given `gradOut`, the gradient of c. Built with
/// `b`, whose domain is c's. std::nullopt when the input has no gradient.
std::optional<NodeId> inputGradient(AdjointBuilder& b, const Node& c, const std::vector<const Edge*>& inputs,
                                    int slot, NodeId gradOut);

/// True when `op` has a derivative with respect to its inputs.
bool isDifferentiableOp(OpKind op);

}  // namespace tempo
