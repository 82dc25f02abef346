#include "lowering/LoweringStages.h"

#include <algorithm>

namespace tempo {

const std::vector<LoweringStage>& loweringStages() {
  static const std::vector<LoweringStage> stages{
      {"schedule", "isl's parametric schedule of the statement instances, as a loop program"},
      {"storage-plan", "a store per node: whole, point, circular window or blocks, from its reads"},
      {"memory-placement", "alloc and free in the loops around each store's uses, sizes symbolic in the bounds"},
  };
  return stages;
}

bool isLoweringStage(const std::string& name) {
  const auto& stages = loweringStages();
  return std::any_of(stages.begin(), stages.end(), [&](const LoweringStage& s) { return s.name == name; });
}

}  // namespace tempo
