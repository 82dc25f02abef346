// Scheduler: relations -> isl schedule (or the fallback) -> verified -> isl AST -> LoopAst.
#include "schedule/Scheduler.h"

#include "schedule/FallbackSchedule.h"
#include "schedule/IslAstConversion.h"
#include "schedule/IslPtr.h"
#include "schedule/ScheduleCheck.h"

#include <regex>

namespace tempo {

namespace {

/// Limits isl's operation count while alive and restores the previous limit.
class OperationBudget {
public:
  OperationBudget(isl_ctx* ctx, unsigned long max) : ctx_(ctx), previous_(isl_ctx_get_max_operations(ctx)) {
    isl_ctx_reset_operations(ctx_);
    isl_ctx_set_max_operations(ctx_, max);
  }
  ~OperationBudget() {
    isl_ctx_set_max_operations(ctx_, previous_);
    isl_ctx_reset_operations(ctx_);
  }
  OperationBudget(const OperationBudget&) = delete;
  OperationBudget& operator=(const OperationBudget&) = delete;

private:
  isl_ctx* ctx_;
  unsigned long previous_;
};

struct IslInputs {
  IslPtr<isl_union_set> domain;
  IslPtr<isl_union_map> validity;
  IslPtr<isl_union_map> proximity;
  IslPtr<isl_set> context;
};

IslInputs readInputs(isl_ctx* ctx, const DependenceRelations& rel) {
  IslInputs in;
  in.domain = islCheck(isl_union_set_read_from_str(ctx, rel.domainUnion().c_str()), ctx, "reading domains");
  in.validity = islCheck(isl_union_map_read_from_str(ctx, rel.validityUnion().c_str()), ctx, "reading dependences");
  in.proximity = islCheck(isl_union_map_read_from_str(ctx, rel.proximityUnion().c_str()), ctx, "reading proximity");
  in.context = islCheck(isl_set_read_from_str(ctx, rel.paramContext().c_str()), ctx, "reading the context");
  return in;
}

IslPtr<isl_schedule> islSchedule(isl_ctx* ctx, const IslInputs& in, unsigned long maxOperations) {
  isl_schedule_constraints* sc = isl_schedule_constraints_on_domain(isl_union_set_copy(in.domain.get()));
  sc = isl_schedule_constraints_set_context(sc, isl_set_copy(in.context.get()));
  sc = isl_schedule_constraints_set_validity(sc, isl_union_map_copy(in.validity.get()));
  sc = isl_schedule_constraints_set_proximity(sc, isl_union_map_copy(in.proximity.get()));
  OperationBudget budget(ctx, maxOperations);
  isl_schedule* s = isl_schedule_constraints_compute_schedule(sc);
  if (!s) {
    bool quota = isl_ctx_last_error(ctx) == isl_error_quota;
    std::string msg = islLastError(ctx);
    throw IslError(quota ? "isl's scheduler ran out of its operation budget" : "isl's scheduler failed: " + msg);
  }
  return IslPtr<isl_schedule>(s);
}

std::string printSchedule(isl_ctx* ctx, isl_schedule* s) {
  auto p = islCheck(isl_printer_to_str(ctx), ctx, "printing the schedule");
  p.reset(isl_printer_set_yaml_style(p.release(), ISL_YAML_STYLE_BLOCK));
  p.reset(isl_printer_print_schedule(p.release(), s));
  if (!p) throw IslError("printing the schedule: " + islLastError(ctx));
  return islTakeString(isl_printer_get_str(p.get()));
}

/// A loop-variable prefix (`c`, then others) that no bound name could be mistaken for.
std::string iteratorPrefix(const Graph& g) {
  for (std::string prefix : {"c", "i", "k", "loop"}) {
    std::regex pattern(prefix + "[0-9]+");
    bool clash = false;
    for (const std::string& b : g.boundNames()) clash = clash || std::regex_match(b, pattern);
    if (!clash) return prefix;
  }
  return "loop_var_";
}

IslPtr<isl_ast_node> generateAst(isl_ctx* ctx, const Graph& g, const IslInputs& in, isl_schedule* schedule) {
  isl_ast_build* build = isl_ast_build_from_context(isl_set_copy(in.context.get()));
  std::string prefix = iteratorPrefix(g);
  if (prefix != "c") {
    isl_id_list* names = isl_id_list_alloc(ctx, 64);
    for (int i = 0; i < 64; ++i)
      names = isl_id_list_add(names, isl_id_alloc(ctx, (prefix + std::to_string(i)).c_str(), nullptr));
    build = isl_ast_build_set_iterators(build, names);
  }
  auto b = islCheck(build, ctx, "creating the AST build");
  return islCheck(isl_ast_build_node_from_schedule(b.get(), isl_schedule_copy(schedule)), ctx, "generating the AST");
}

}  // namespace

ScheduleResult computeSchedule(const Graph& g, IslContext& context, const ScheduleOptions& options) {
  isl_ctx* ctx = context.get();
  ScheduleResult r;
  r.relations = buildDependenceRelations(g, context);
  IslInputs in = readInputs(ctx, r.relations);

  IslPtr<isl_schedule> schedule;
  if (options.algorithm == ScheduleOptions::Algorithm::Isl) {
    try {
      schedule = islSchedule(ctx, in, options.maxIslOperations);
      auto map = islCheck(isl_schedule_get_map(schedule.get()), ctx, "reading the schedule map");
      if (!scheduleRespects(in.validity.get(), map.get())) {
        schedule.reset();
        r.fallbackReason = "isl's schedule does not respect every dependence";
      }
    } catch (const IslError& e) {
      schedule.reset();
      r.fallbackReason = e.what();
    }
  } else {
    r.fallbackReason = "the fallback schedule was requested";
  }
  if (!schedule) {
    r.usedFallback = true;
    std::string text = buildFallbackSchedule(g, r.relations, context);
    auto map = islCheck(isl_union_map_read_from_str(ctx, text.c_str()), ctx, "reading the fallback schedule");
    map.reset(isl_union_map_intersect_domain(map.release(), isl_union_set_copy(in.domain.get())));
    auto partial = islCheck(isl_multi_union_pw_aff_from_union_map(map.release()), ctx, "the fallback's band");
    isl_schedule* s = isl_schedule_from_domain(isl_union_set_copy(in.domain.get()));
    schedule = islCheck(isl_schedule_insert_partial_schedule(s, partial.release()), ctx, "the fallback's tree");
  }

  auto map = islCheck(isl_schedule_get_map(schedule.get()), ctx, "reading the schedule map");
  if (!scheduleRespects(in.validity.get(), map.get()))
    throw IslError("the schedule violates dependences");
  r.scheduleMap = islTakeString(isl_union_map_to_str(map.get()));
  r.scheduleTree = printSchedule(ctx, schedule.get());
  auto ast = generateAst(ctx, g, in, schedule.get());
  r.program.body = convertIslAst(ast.get(), r.relations, g);
  return r;
}

LoopProgram scheduleGraph(const Graph& g, IslContext& ctx, const ScheduleOptions& options) {
  return computeSchedule(g, ctx, options).program;
}

}  // namespace tempo
