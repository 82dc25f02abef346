// Lowering: a checked AST becomes the symbolic dependence graph.
//
// Statements are processed in source order: dimensions and bounds, bound
// defaults (`set`), compile-time constants, inputs and params (source nodes
// with their initialiser), recurrent tensor declarations (a merge node that
// its branches feed, in order, each guarded by the constants on its left
// side), let-bindings (whose domain is the set of dimensions they use) and
// outputs. Errors are reported and lowering continues, so one run reports
// several. After the last statement the whole-program checks run: branch
// coverage and well-founded recurrences (DomainChecks).
#pragma once

#include "frontend/Ast.h"
#include "frontend/LoweringContext.h"

namespace tempo {

/// Lowers `program` into cx.graph, reporting problems into cx.diags.
void lowerProgram(const ast::Program& program, LoweringContext& cx);

}  // namespace tempo
