// Fusion: chains of elementwise ops become one `fused` node.
//
// After lowering, a layer norm `(x - mean) / sqrt(var + 1e-5) * gamma` is
// four nodes over the same domain, and the runtime writes each one's whole
// result to memory only for the next node to read it straight back. This
// pass finds groups of elementwise nodes (unary, binary with broadcasting,
// where, cast) over one domain, linked by identity reads (the consumer reads
// its producer at its own point, unconditionally), where every node but the
// last is read only inside the group, is not an output, and has the last
// node's shape or a single element (a smaller intermediate would be
// recomputed at every element it broadcasts to). Each group becomes
// a single node of op `fused` whose attrs carry the group's expression
// program (FusedProgram.h): the steps in order, their operands being the
// fused node's inputs (the group's distinct outside reads), earlier steps, or
// literals folded in from scalar constants, and the ids of the nodes it
// replaced. The CPU kernel then evaluates the whole program in one pass over
// the output in small chunks (runtime/kernels/cpu/Fused.h), with the same
// element functions, so results do not change. It runs last of the graph
// passes, when the graph no longer changes shape.
#pragma once

#include "pass/Pass.h"

namespace tempo {

class Fusion : public Pass {
public:
  std::string name() const override { return "fusion"; }
  std::string description() const override;
  void run(Graph& graph, PassContext& context) override;
};

}  // namespace tempo
