// LoopAstJson: a LoopProgram as JSON, for `tempo schedule --format json` and the studio.
//
// Each statement is an object with a "kind" (for, if, exec, alloc, free,
// swap_out, swap_in); loops carry "var", "lower", "upper" (exclusive), "step"
// and "body"; guards "condition", "then" and "else"; an exec its "node", the
// node's "label" and "point" as a list of {"dim", "index"}; memory statements
// "node", "label" and "bytes". Expressions are their printed IndexExpr forms.
#pragma once

#include "schedule/LoopAst.h"

#include <nlohmann/json.hpp>

namespace tempo {

nlohmann::json loopProgramToJson(const Graph& g, const LoopProgram& p);

}  // namespace tempo
