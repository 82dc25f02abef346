// CommonSubexpressionElimination: compute each distinct value once.
//
// Two nodes with the same op, attributes, domain and type that read the same
// producers through the same index atoms and conditions compute the same
// value at every point, so one can stand for both. The lowest id is kept and
// the other's readers (and outputs) are redirected to it; this repeats until
// nothing merges, since merging two nodes can make their readers identical.
// Sources merge too, because every source op is deterministic: constants with
// the same value, loads of the same file, random or hash initialisers with the
// same seed and parameters over the same domain and type produce identical
// arrays in this system (seeded, not drawn from a global generator).
#pragma once

#include "pass/Pass.h"

namespace tempo {

class CommonSubexpressionElimination : public Pass {
public:
  std::string name() const override { return "common-subexpression-elimination"; }
  std::string description() const override;
  void run(Graph& graph, PassContext& context) override;
};

}  // namespace tempo
