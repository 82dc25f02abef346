// ScheduleCheck: dependences against lexicographic time, decided by isl.
#include "schedule/ScheduleCheck.h"

#include "schedule/IslPtr.h"

#include <isl/constraint.h>
#include <isl/local_space.h>

#include <map>
#include <string>

namespace tempo {

namespace {

/// The schedule split by statement (tuple name -> its map to time and the
/// instances it schedules), so each dependence is checked against its two
/// statements' maps alone: applying the whole schedule to the whole union of
/// dependences merges every pair into one time -> time map of hundreds of
/// pieces, which isl simplifies again and again.
struct StatementTime {
  IslPtr<isl_map> time;
  IslPtr<isl_set> scheduled;  ///< the map's domain, computed once per statement
};
struct SplitCheck {
  std::map<std::string, StatementTime> timeOf;
  bool ok = true;
};

isl_stat addStatementTime(isl_map* map, void* user) {
  auto* check = static_cast<SplitCheck*>(user);
  StatementTime& s = check->timeOf[isl_map_get_tuple_name(map, isl_dim_in)];
  s.scheduled.reset(isl_map_domain(isl_map_copy(map)));
  s.time.reset(map);
  return s.scheduled ? isl_stat_ok : isl_stat_error;
}

/// Whether every vector of `d` (consumed) is lexicographically positive: none
/// has a negative first non-zero coordinate and none is all zeros. Decided one
/// coordinate at a time (x_k < 0 among the vectors zero before k, then keep
/// those zero at k), stopping as soon as no vector is left: a time difference
/// usually settles in its first coordinates, which makes this much cheaper
/// than comparing the pairs with isl's lexicographic order (a union of one
/// piece per coordinate).
isl_bool lexPositive(isl_set* d) {
  IslPtr<isl_set> rest(d);
  const isl_size n = isl_set_dim(rest.get(), isl_dim_set);
  if (n < 0) return isl_bool_error;
  for (int k = 0; k < n; ++k) {
    isl_constraint* negative = isl_constraint_alloc_inequality(isl_local_space_from_space(isl_set_get_space(rest.get())));
    negative = isl_constraint_set_coefficient_si(negative, isl_dim_set, k, -1);  // -x_k - 1 >= 0
    negative = isl_constraint_set_constant_si(negative, -1);
    IslPtr<isl_set> below(isl_set_add_constraint(isl_set_copy(rest.get()), negative));
    isl_bool none = isl_set_is_empty(below.get());
    if (none != isl_bool_true) return none == isl_bool_error ? isl_bool_error : isl_bool_false;
    rest.reset(isl_set_fix_si(rest.release(), isl_dim_set, k, 0));
    isl_bool empty = isl_set_is_empty(rest.get());
    if (empty != isl_bool_false) return empty;  // true: every vector is positive before k
  }
  return isl_bool_false;  // some vector is all zeros: two instances at the same time
}

/// Clears `ok` when a pair of dependence `dep` is not strictly increasing in
/// time, or when one of its statements has no time (is not scheduled).
isl_stat checkDependence(isl_map* dep, void* user) {
  auto* check = static_cast<SplitCheck*>(user);
  IslPtr<isl_map> owned(dep);
  if (!check->ok) return isl_stat_ok;
  auto producer = check->timeOf.find(isl_map_get_tuple_name(dep, isl_dim_in));
  auto consumer = check->timeOf.find(isl_map_get_tuple_name(dep, isl_dim_out));
  if (producer == check->timeOf.end() || consumer == check->timeOf.end()) {
    check->ok = isl_map_is_empty(dep) == isl_bool_true;
    return isl_stat_ok;
  }
  // Every instance the dependence names must be scheduled.
  IslPtr<isl_set> from(isl_map_domain(isl_map_copy(dep))), to(isl_map_range(isl_map_copy(dep)));
  isl_bool covered = isl_set_is_subset(from.get(), producer->second.scheduled.get());
  if (covered == isl_bool_true) covered = isl_set_is_subset(to.get(), consumer->second.scheduled.get());
  if (covered == isl_bool_error) return isl_stat_error;
  if (covered != isl_bool_true) {
    check->ok = false;
    return isl_stat_ok;
  }
  // time(producer) << time(consumer) for every pair: their differences are lexicographically positive.
  isl_map* times = isl_map_apply_domain(owned.release(), isl_map_copy(producer->second.time.get()));
  times = isl_map_apply_range(times, isl_map_copy(consumer->second.time.get()));
  if (!times) return isl_stat_error;
  isl_bool later = lexPositive(isl_map_deltas(times));
  if (later == isl_bool_error) return isl_stat_error;
  check->ok = later == isl_bool_true;
  return isl_stat_ok;
}

}  // namespace

bool scheduleRespects(isl_union_map* deps, isl_union_map* schedule) {
  isl_ctx* ctx = isl_union_map_get_ctx(deps);
  SplitCheck check;
  if (isl_union_map_foreach_map(schedule, addStatementTime, &check) == isl_stat_error ||
      isl_union_map_foreach_map(deps, checkDependence, &check) == isl_stat_error)
    throw IslError("checking the schedule: " + islLastError(ctx));
  return check.ok;
}

bool scheduleRespects(IslContext& ctx, const std::string& deps, const std::string& schedule) {
  auto d = islCheck(isl_union_map_read_from_str(ctx.get(), deps.c_str()), ctx.get(), "parsing dependences");
  auto s = islCheck(isl_union_map_read_from_str(ctx.get(), schedule.c_str()), ctx.get(), "parsing schedule");
  return scheduleRespects(d.get(), s.get());
}

namespace {

struct Violations {
  isl_union_map* schedule;
  isl_union_map* bad;
};

/// Adds the pairs of one dependence map that `schedule` does not order.
isl_stat collectViolations(isl_map* dep, void* user) {
  auto* v = static_cast<Violations*>(user);
  IslPtr<isl_map> d(dep);
  auto scheduleOf = [&](isl_set* statements) {
    return isl_union_map_intersect_domain(isl_union_map_copy(v->schedule), isl_union_set_from_set(statements));
  };
  isl_union_map* before = isl_union_map_lex_lt_union_map(scheduleOf(isl_map_domain(isl_map_copy(dep))),
                                                          scheduleOf(isl_map_range(isl_map_copy(dep))));
  isl_union_map* bad = isl_union_map_subtract(isl_union_map_from_map(d.release()), before);
  v->bad = isl_union_map_union(v->bad, bad);
  return v->bad ? isl_stat_ok : isl_stat_error;
}

}  // namespace

std::string scheduleViolations(IslContext& ctx, const std::string& deps, const std::string& schedule) {
  auto d = islCheck(isl_union_map_read_from_str(ctx.get(), deps.c_str()), ctx.get(), "parsing dependences");
  auto s = islCheck(isl_union_map_read_from_str(ctx.get(), schedule.c_str()), ctx.get(), "parsing schedule");
  Violations v{s.get(), isl_union_map_empty(isl_union_map_get_space(d.get()))};
  isl_stat status = isl_union_map_foreach_map(d.get(), collectViolations, &v);
  IslPtr<isl_union_map> bad(v.bad);
  if (status == isl_stat_error || !bad) throw IslError("listing violations: " + islLastError(ctx.get()));
  bad.reset(isl_union_map_coalesce(bad.release()));
  return islTakeString(isl_union_map_to_str(bad.get()));
}

}  // namespace tempo
