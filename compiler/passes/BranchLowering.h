// BranchLowering: ordered branches of a merge become disjoint conditional edges.
//
// A recurrent tensor is written as ordered branches (`h[b, 0] = ...` then
// `h[b, t] = ...`): at each point the first branch whose guard holds wins.
// Later stages (scheduling, code generation) want every edge to say exactly
// when it is live, independently of the others. This pass rewrites branch k's
// condition to `guard_k and not guard_j` for every earlier j, then simplifies
// it with isl over the node's domain box: `t != 0` becomes `t > 0`, a
// condition that always holds becomes `true`, and a branch that can never be
// taken is removed with its edge.
#pragma once

#include "pass/Pass.h"

namespace tempo {

class BranchLowering : public Pass {
public:
  std::string name() const override { return "branch-lowering"; }
  std::string description() const override;
  void run(Graph& graph, PassContext& context) override;
};

}  // namespace tempo
