// PassRegistry: the default compiler pipeline, in one place.
//
// Every pass the compiler runs by default is listed here, in order, so the
// CLI (`tempo compile --passes`), the studio and the tests all see the same
// pipeline. The order matters: branch lowering first (the others see
// disjoint conditional edges), folding before simplification (which then
// sees `x * 1` where the 1 was `2.0 - 1.0`), merging of duplicates after
// both, domain reduction on the merged graph, and dead code last to sweep up
// what the others left behind.
#pragma once

#include "pass/Pipeline.h"

namespace tempo {

/// The default pipeline: every pass of `defaultPassNames()`, in that order.
Pipeline defaultPipeline();
/// The names of the default pipeline's passes, in order.
std::vector<std::string> defaultPassNames();
/// A fresh instance of the pass called `name`; UnknownPassError listing the valid names otherwise.
std::unique_ptr<Pass> makePass(const std::string& name);

}  // namespace tempo
