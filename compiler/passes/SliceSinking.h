// SliceSinking: a slice at a moving position becomes a read of the producer.
//
// Autodiff gives the gradient of a window read `logp[i, 0:T, 0:B]` as one
// [T, B] value per i, and each point (i, t, b) of logp then picks its own
// element out of it: `slice(slice(G[i], axis 0, t:t+1), axis 1, b:b+1)`.
// Such a slice's position moves with a dimension, so no pass can batch or
// tile along that dimension (the attribute mentions it), and the whole [T, B]
// value is kept alive for the T·B points that each read one element. This
// pass moves each such slice towards the values it selects from, while the
// result stays exactly the same: through elementwise ops and expands that
// only it reads (the op then computes the slice's elements alone, at the
// slice's points — the same total work), into a window read (`x[i, 0:T]`
// sliced at t is `x[i, t:t+1]`), and finally turns a window of one position
// that moves with a dimension into a point read and a reshape (`x[i, t]`).
// The gradient above becomes `-g[i, t, b] / B` at every point, which
// vectorisation can batch along b and the schedule can fuse into the step.
#pragma once

#include "pass/Pass.h"

namespace tempo {

class SliceSinking : public Pass {
public:
  std::string name() const override { return "slice-sinking"; }
  std::string description() const override;
  void run(Graph& graph, PassContext& context) override;
};

}  // namespace tempo
