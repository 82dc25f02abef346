// PointSpecialisation: a node every reader reads at one fixed coordinate is computed there only.
//
// Autodiff gives each branch of a recurrence its own gradient chain over the
// whole domain: the weight gradient of `h[0] = tanh(x[0] @ W)` is
// `merge(x[0]^T @ g[t] if t == 0, 0 if t > 0)` over (t), read by the final sum
// at t = 0 alone, yet a schedule runs a node over its whole domain box, so the
// product is computed (as a product with zeros) at every step of the backward
// loop. When every reader of a node reads dimension d at the same coordinate c
// (0 or d's bound minus one, so c is always inside the domain) the node's value
// is needed at c only: d := c is substituted into its reads, conditions,
// attributes and shape, d leaves its domain and its readers' index, and a
// merge's conditions are simplified over the smaller domain (`0 > 0` is a branch
// never taken and goes). Consumers first, so a whole chain is specialised back
// to where it meets values needed at every coordinate. Sources (not eval_index:
// its index is its value), outputs and members of a recurrence keep their
// domains. Part of domain-reduction.
#pragma once

#include "graph/Graph.h"
#include "pass/Pass.h"

namespace tempo {

/// Specialises every node all of whose readers read some dimension at one fixed coordinate.
void specialiseFixedPointReads(Graph& graph, PassContext& context);

}  // namespace tempo
