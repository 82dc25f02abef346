// LoweringStages: the names of the compiler's lowering stages and one stage's snapshot.
//
// Kept apart from Lowering.h (which pulls in the scheduler and isl) so that
// what only lists or shows the stages — the CLI's listing, the studio's pass
// stepper — needs no more than these two small types.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tempo {

struct LoweringStage {
  std::string name;         ///< `schedule`, `storage-plan`, ..., `machine-code`
  std::string description;  ///< one line, for listings
};

/// The stages in the order they run.
const std::vector<LoweringStage>& loweringStages();
/// True when `name` is one of loweringStages().
bool isLoweringStage(const std::string& name);

struct LoweringSnapshot {
  std::string stage;
  std::string description;
  std::string text;    ///< the loop program after the stage (and the storage plan after storage-plan)
  double seconds = 0;  ///< the stage's wall-clock time
  /// llvm-ir and machine-code: each generated kernel's own part of `text` (name, text), in node order.
  std::vector<std::pair<std::string, std::string>> kernels;
};

}  // namespace tempo
