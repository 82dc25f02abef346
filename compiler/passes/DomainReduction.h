// DomainReduction: drop the dimensions a node's value does not vary over.
//
// Lowering gives every expression the domain of the tensor it defines, so in
// `h[b, 0] = tanh(x[b, 0] @ W)` the matmul is over (b, t) although it only
// reads x at t = 0: it would be computed T times. A node whose input reads,
// conditions, shape and attributes never mention a dimension d has the same
// value at every d, so d is removed from its domain and its readers drop the
// matching index atom. Working producers first lets the reduction flow down a
// chain (the matmul, then the add, then the tanh). Sources keep their domain
// (a load's domain indexes its array), as do outputs (their domain is the
// shape of the result); a dimension that some reader slices is kept. Members
// of a recurrence are reduced too (a recurrent tensor reading itself at t - 1
// mentions t, so it keeps t, but the transposed weights inside a training
// step do not vary along its batch and time dimensions), except a member that
// reads its recurrence at a fixed point of the dimension (`h[b, 0] = o *
// tanh(c[b, 0])` with c reading h[t-1]): without the dimension it would close
// a cycle through values over it that no loop of the schedule carries.
// Then the other direction (PointSpecialisation): a node every reader reads at
// one fixed coordinate of a dimension is computed at that coordinate only.
#pragma once

#include "pass/Pass.h"

namespace tempo {

class DomainReduction : public Pass {
public:
  std::string name() const override { return "domain-reduction"; }
  std::string description() const override;
  void run(Graph& graph, PassContext& context) override;
};

}  // namespace tempo
