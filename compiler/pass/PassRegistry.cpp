#include "pass/PassRegistry.h"

#include "passes/AlgebraicSimplification.h"
#include "passes/BranchLowering.h"
#include "passes/CommonSubexpressionElimination.h"
#include "passes/ConstantFolding.h"
#include "passes/DeadCodeElimination.h"
#include "passes/DomainReduction.h"
#include "passes/Fusion.h"
#include "passes/PermuteSinking.h"
#include "passes/StaticTiling.h"
#include "passes/SliceSinking.h"
#include "passes/Vectorisation.h"
#include "passes/ViewSelection.h"
#include "passes/WeightPanels.h"

namespace tempo {

namespace {

using PassFactory = std::unique_ptr<Pass> (*)();

template <class P> std::unique_ptr<Pass> create() { return std::make_unique<P>(); }

/// The default pipeline, in order.
const std::vector<PassFactory>& defaultFactories() {
  static const std::vector<PassFactory> factories = {
      create<BranchLowering>,
      create<ConstantFolding>,
      create<AlgebraicSimplification>,
      create<CommonSubexpressionElimination>,
      create<DomainReduction>,
      create<DeadCodeElimination>,
      create<SliceSinking>,
      create<Vectorisation>,
      create<PermuteSinking>,
      create<StaticTiling>,
      create<Fusion>,  // it hides the elementwise ops the other passes look at
      create<ViewSelection>,  // after fusion: a fused node reads views too
      create<WeightPanels>,   // after view-selection: its panel copy must stay a copy
  };
  return factories;
}

}  // namespace

Pipeline defaultPipeline() {
  Pipeline p;
  for (PassFactory make : defaultFactories()) p.add(make());
  return p;
}

std::vector<std::string> defaultPassNames() {
  std::vector<std::string> names;
  for (PassFactory make : defaultFactories()) names.push_back(make()->name());
  return names;
}

std::unique_ptr<Pass> makePass(const std::string& name) {
  for (PassFactory make : defaultFactories())
    if (auto pass = make(); pass->name() == name) return pass;
  defaultPipeline().pass(name);  // throws UnknownPassError listing the valid names
  throw UnknownPassError("unknown pass '" + name + "'");
}

}  // namespace tempo
