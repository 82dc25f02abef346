// ConstantFolding: elementwise ops on scalar constants become constants.
//
// `2.0 * 0.5` or `sqrt(16.0)` need not be computed at every point of a
// domain: when every input of an elementwise op is a scalar constant, the
// result is computed once here (with the runtime's numeric rules, see
// ScalarFolding) and the node becomes a constant. Folding runs producers
// first, so chains fold in one go. Loads and random initialisers are never
// evaluated at compile time: their values belong to the run, not the program.
#pragma once

#include "pass/Pass.h"

namespace tempo {

class ConstantFolding : public Pass {
public:
  std::string name() const override { return "constant-folding"; }
  std::string description() const override;
  void run(Graph& graph, PassContext& context) override;
};

}  // namespace tempo
