// DomainChecks: whole-program checks of recurrent tensors, exact via isl.
//
// Two properties make a program of recurrent tensors evaluable. Coverage:
// every point of a recurrent tensor's domain is covered by one of its
// branches. Well-founded recurrences: every cycle of the dependence graph
// must move strictly in one direction along some order of the dimensions —
// into the past (`h[t-1]`) or into the future (`g[t+1]`), per dimension —
// and never return to the same point. The check builds each edge's
// dependence relation inside a cycle as an isl set and searches for a
// lexicographic order (a permutation of the dimensions and a direction for
// each) under which every edge goes backwards or stays, with no cycle of
// same-point edges.
#pragma once

#include "frontend/LoweringContext.h"

namespace tempo {

void checkDomains(LoweringContext& cx);

}  // namespace tempo
