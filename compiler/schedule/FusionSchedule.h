// FusionSchedule: a loop nest built from the dependences, without isl's scheduler.
//
// The scheduler's first choice (Scheduler.h). It builds the schedule tree
// level by level, as a compiler textbook distributes and fuses loops
// (Allen and Kennedy's codegen, with greedy fusion). At a level, the loops
// around are fixed (every statement of the group has their dimensions, and
// a dependence counts only between instances at the same iteration of them);
// the group's strongly connected components under those dependences are
// placed in dependence order. A component whose statements have no dimension
// left is a statement of the sequence (a cycle there cannot be ordered: no
// schedule of this shape exists). Otherwise it needs a loop over a dimension
// every member has, run forwards or backwards, along which each of its own
// dependences points the same way (distance >= 0 forwards, <= 0 backwards;
// isl decides it exactly on the relations). It joins the first loop, at or
// after the last one holding a producer of it, whose dimension and direction
// it accepts, whose members' dependences into it point that way too, and
// that holds a producer of it or reads one of its producers (fusing unrelated
// statements gains no locality and keeps their stores live together);
// otherwise it opens a new loop, over the dimension most statements of the
// group share (then declaration order), forwards if it can. Each loop's
// members are then scheduled the same way with its dimension fixed. A
// dependence carried by an outer loop or by the sequence order is satisfied
// and drops out, so every dependence is respected by construction; the
// scheduler still verifies the result exactly before using it. In a program
// with an `until` dimension, components go in another dependence order
// (untilOrder): statements first, then what does not depend on the bound, so
// that the recurrences feeding the condition share the one loop that stops and
// nothing computed with the bound runs before it (UntilLoops).
//
// What it cannot build — a cycle no single dimension carries (it would need
// a skewed schedule), or a cycle at one point — is an IslError naming the
// statements, and the scheduler then asks isl.
#pragma once

#include "schedule/DependenceRelations.h"
#include "schedule/IslPtr.h"

#include <vector>

namespace tempo {

/// The schedule tree of the statements of `domain` (`S_n[...]` sets of `g`'s
/// nodes, as DependenceRelations names them) under the dependences
/// `validity` (between them; others are ignored): sequences and
/// one-dimensional bands, each band a loop over one dimension (negated when
/// it runs backwards). Neither argument is consumed. Throws IslError when no
/// such loop nest respects the dependences (see the header comment).
IslPtr<isl_schedule> fusionSchedule(isl_ctx* ctx, const Graph& g, isl_union_set* domain, isl_union_map* validity);

}  // namespace tempo
