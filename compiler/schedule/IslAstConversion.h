// IslAstConversion: isl's generated AST turned into our LoopAst.
//
// isl_ast_build produces a C-like AST: `for` nodes (iterator, init,
// condition, increment), `if` nodes, blocks, marks and `user` nodes that call
// a statement with its domain point as expressions of the loop iterators.
// This file walks that tree once and builds the LoopAst the rest of the
// system uses, so nothing after the scheduler sees an isl type: iterators
// (`c0`, `c1`, ...) become Dim symbols, parameters become the graph's Bound
// symbols, integer expressions become IndexExprs (+, -, * by a constant,
// min, max, floor division and remainders by constants) and conditions
// become Conditions. A `for` condition `c <= e` becomes the exclusive upper
// bound `e + 1`. Anything else isl could print (a select, a call inside an
// expression) is reported as an IslError rather than approximated.
#pragma once

#include "schedule/DependenceRelations.h"
#include "schedule/LoopAst.h"

struct isl_ast_node;

namespace tempo {

/// The LoopAst of an isl AST whose user statements are named by `rel`.
/// `root` is not consumed.
LoopBody convertIslAst(isl_ast_node* root, const DependenceRelations& rel, const Graph& g);

}  // namespace tempo
