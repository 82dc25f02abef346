// FallbackSchedule: a simple, always-explainable schedule for when isl's fails.
//
// The strongly connected components of the graph run one after another in a
// topological order of the component graph (a dependence between components
// then always points forward). Inside a component every statement runs in
// the same loop nest over the program's dimensions — in some order, each
// forwards or backwards — and, within one iteration, in a topological order
// of the component's same-point reads. The first loop order and direction
// (declaration order and forwards first) that respects the component's own
// dependences is taken, so `h[t-1]` gives a forward `t` loop, `g[t+1]` a
// backward one, and a read of the previous time step's last layer puts `t`
// outside `l`. The time vector of statement S is
// [component, ±dim_1 or 0, ..., ±dim_k or 0, position in component].
#pragma once

#include "schedule/DependenceRelations.h"

#include <string>

namespace tempo {

/// The schedule as an isl union map text (statement -> time). Throws IslError
/// when no loop order and direction respects a component's dependences.
std::string buildFallbackSchedule(const Graph& g, const DependenceRelations& rel, IslContext& ctx);

}  // namespace tempo
