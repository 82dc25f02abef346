// DeadCodeElimination: remove nodes no output depends on.
//
// Starting from the program's outputs, follow edges towards producers; every
// node not reached computes a value nobody reads (a let that is never used, a
// constant made redundant by folding, the inputs of a bypassed identity). It
// is removed with its edges.
#pragma once

#include "pass/Pass.h"

namespace tempo {

class DeadCodeElimination : public Pass {
public:
  std::string name() const override { return "dead-code-elimination"; }
  std::string description() const override;
  void run(Graph& graph, PassContext& context) override;
};

}  // namespace tempo
