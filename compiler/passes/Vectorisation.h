// Vectorisation: a dimension no value flows along becomes a batch axis.
//
// In `h[b, t] = tanh(x[b, t] @ W + h[b, t-1] @ U + bias)` every read takes b
// at b itself: the B sequences never exchange values, yet the graph computes
// B separate vector-matrix products per step. For each declared dimension d,
// in declaration order, this pass picks the nodes that may batch d
// (VectorisationPlan), removes d from their domains and prepends a batch axis
// of symbolic size bound(d) to their types, so h becomes f32[B, H] over (t)
// and each step is one [B, H] @ [H, H] product. Reads between two batched
// nodes drop their d atom; a batched node reads a per-point producer as the
// window 0:B; a per-point reader (and every graph output, which keeps its
// declared layout) picks its position of d out of the batch through a small
// adapter (BatchAdapters); each op's attributes and operand shapes are fixed
// up by BatchedOps. Sources keep their domains — their arrays are indexed by
// them — and are read as windows.
#pragma once

#include "pass/Pass.h"

namespace tempo {

class Vectorisation : public Pass {
public:
  std::string name() const override { return "vectorisation"; }
  std::string description() const override;
  void run(Graph& graph, PassContext& context) override;
};

}  // namespace tempo
