// ScheduleCheck: does a schedule run every producer instance before its readers?
//
// A schedule maps each statement instance to a point in time (a vector
// compared lexicographically). It respects a dependence relation
// { P[q] -> C[c] } when time(P[q]) is lexicographically smaller than
// time(C[c]) for every pair in the relation, for every value of the bound
// parameters. isl decides this exactly, per dependence: the differences
// time(C[c]) - time(P[q]) of its pairs must all be lexicographically positive,
// decided one coordinate at a time (no negative coordinate among the
// differences zero before it). The scheduler verifies every schedule it
// returns with this check, and the tests use it too.
#pragma once

#include "schedule/IslError.h"
#include "symbolic/PointSet.h"

#include <string>

struct isl_union_map;

namespace tempo {

/// True when `schedule` (statement -> time, all times in one space) orders
/// every pair of `deps` strictly. Neither argument is consumed.
bool scheduleRespects(isl_union_map* deps, isl_union_map* schedule);

/// The same for relations given as isl text; throws IslError on bad text.
bool scheduleRespects(IslContext& ctx, const std::string& deps, const std::string& schedule);

/// The dependences `schedule` violates (isl text; `{  }` when none).
std::string scheduleViolations(IslContext& ctx, const std::string& deps, const std::string& schedule);

}  // namespace tempo
