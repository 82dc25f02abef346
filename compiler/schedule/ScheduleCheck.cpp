// ScheduleCheck: dependences against lexicographic time, decided by isl.
#include "schedule/ScheduleCheck.h"

#include "schedule/IslPtr.h"

namespace tempo {

namespace {

/// { time(A) -> time(B) : A -> B in deps }.
IslPtr<isl_union_map> timeRelation(isl_union_map* deps, isl_union_map* schedule) {
  isl_union_map* t = isl_union_map_apply_domain(isl_union_map_copy(deps), isl_union_map_copy(schedule));
  return IslPtr<isl_union_map>(isl_union_map_apply_range(t, isl_union_map_copy(schedule)));
}

/// Callback of isl_union_map_foreach_map: clears `*ok` for a pair not strictly increasing.
isl_stat checkIncreasing(isl_map* map, void* user) {
  auto* ok = static_cast<isl_bool*>(user);
  IslPtr<isl_map> owned(map);
  isl_space* space = isl_map_get_space(map);
  if (isl_space_tuple_is_equal(space, isl_dim_in, space, isl_dim_out) != isl_bool_true) {
    isl_space_free(space);
    *ok = isl_bool_false;
    return isl_stat_ok;
  }
  IslPtr<isl_map> before(isl_map_lex_lt(isl_space_range(space)));
  isl_bool sub = isl_map_is_subset(map, before.get());
  if (sub != isl_bool_true) *ok = sub;
  return sub == isl_bool_error ? isl_stat_error : isl_stat_ok;
}

}  // namespace

bool scheduleRespects(isl_union_map* deps, isl_union_map* schedule) {
  isl_ctx* ctx = isl_union_map_get_ctx(deps);
  auto times = timeRelation(deps, schedule);
  if (!times) throw IslError("applying the schedule: " + islLastError(ctx));
  // A dependence whose ends are not both scheduled cannot be respected.
  auto scheduled = IslPtr<isl_union_set>(isl_union_map_domain(isl_union_map_copy(schedule)));
  isl_bool covered = isl_union_set_is_subset(IslPtr<isl_union_set>(isl_union_map_domain(isl_union_map_copy(deps))).get(),
                                             scheduled.get());
  isl_bool coveredRange = isl_union_set_is_subset(
      IslPtr<isl_union_set>(isl_union_map_range(isl_union_map_copy(deps))).get(), scheduled.get());
  if (covered == isl_bool_error || coveredRange == isl_bool_error)
    throw IslError("checking the schedule: " + islLastError(ctx));
  if (covered != isl_bool_true || coveredRange != isl_bool_true) return false;
  isl_bool ok = isl_bool_true;
  if (isl_union_map_foreach_map(times.get(), checkIncreasing, &ok) == isl_stat_error || ok == isl_bool_error)
    throw IslError("checking the schedule: " + islLastError(ctx));
  return ok == isl_bool_true;
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
