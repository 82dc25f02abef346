// ScheduleCheck: dependences against lexicographic time, decided by isl.
#include "schedule/ScheduleCheck.h"

#include "schedule/IslPtr.h"

#include <map>
#include <string>

namespace tempo {

namespace {

/// The schedule split by statement (tuple name -> its map to time), so each
/// dependence is checked against its two statements' maps alone: applying
/// the whole schedule to the whole union of dependences merges every pair
/// into one time -> time map of hundreds of pieces, which isl simplifies
/// again and again.
struct SplitCheck {
  std::map<std::string, IslPtr<isl_map>> timeOf;
  bool ok = true;
};

isl_stat addStatementTime(isl_map* map, void* user) {
  auto* check = static_cast<SplitCheck*>(user);
  check->timeOf[isl_map_get_tuple_name(map, isl_dim_in)] = IslPtr<isl_map>(map);
  return isl_stat_ok;
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
  IslPtr<isl_set> scheduledFrom(isl_map_domain(isl_map_copy(producer->second.get())));
  IslPtr<isl_set> scheduledTo(isl_map_domain(isl_map_copy(consumer->second.get())));
  isl_bool covered = isl_set_is_subset(from.get(), scheduledFrom.get());
  if (covered == isl_bool_true) covered = isl_set_is_subset(to.get(), scheduledTo.get());
  if (covered == isl_bool_error) return isl_stat_error;
  if (covered != isl_bool_true) {
    check->ok = false;
    return isl_stat_ok;
  }
  isl_map* times = isl_map_apply_domain(isl_map_copy(dep), isl_map_copy(producer->second.get()));
  times = isl_map_apply_range(times, isl_map_copy(consumer->second.get()));
  IslPtr<isl_map> t(times);
  if (!t) return isl_stat_error;
  IslPtr<isl_map> before(isl_map_lex_lt(isl_space_range(isl_map_get_space(t.get()))));
  isl_bool sub = isl_map_is_subset(t.get(), before.get());
  if (sub == isl_bool_error) return isl_stat_error;
  check->ok = sub == isl_bool_true;
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
