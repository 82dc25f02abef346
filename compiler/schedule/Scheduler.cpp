// Scheduler: relations -> isl schedule (or the fallback) -> verified -> isl AST -> LoopAst.
#include "schedule/Scheduler.h"

#include "schedule/FallbackSchedule.h"
#include "schedule/FusionSchedule.h"
#include "schedule/IslAstConversion.h"
#include "schedule/IslPtr.h"
#include "schedule/RelationReader.h"
#include "schedule/ScheduleCheck.h"
#include "schedule/StatementClusters.h"

#include <functional>
#include <future>
#include <optional>
#include <regex>
#include <set>

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
  IslPtr<isl_set> astContext;  ///< the context with the derived bounds' definitions
};

/// The inputs, with the proximity relations only when `newest` is given (isl's scheduler needs them).
IslInputs readInputs(isl_ctx* ctx, const DependenceRelations& rel, std::optional<TimeDirection> newest) {
  IslInputs in;
  RelationReader reader(ctx);
  in.domain = reader.domains(rel);
  in.validity = reader.validity(rel);
  if (newest) in.proximity = reader.proximity(rel, *newest);
  in.context = islCheck(isl_set_read_from_str(ctx, rel.paramContext().c_str()), ctx, "reading the context");
  in.astContext = islCheck(isl_set_read_from_str(ctx, rel.paramContextWithDerived().c_str()), ctx, "reading the context");
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
  isl_ast_build* build = isl_ast_build_from_context(isl_set_copy(in.astContext.get()));
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

/// Statements with an empty domain whose inputs are all hoisted too (loads of
/// weights, constants, eval_index of a bound), in an order that respects their
/// dependences. They run once, before everything else.
std::vector<NodeId> hoistedStatements(const Graph& g) {
  std::vector<NodeId> order;
  std::set<NodeId> hoisted;
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [id, n] : g.nodes()) {
      if (hoisted.count(id) || !n.domain.empty()) continue;
      bool ready = true;
      for (const Edge* e : g.inputs(id)) ready = ready && hoisted.count(e->producer);
      if (!ready) continue;
      hoisted.insert(id);
      order.push_back(id);
      changed = true;
    }
  }
  return order;
}

/// `[..] -> { S_a[] -> [0]; S_b[] -> [1] }` for the hoisted statements.
std::string hoistedOrder(const DependenceRelations& rel, const std::vector<NodeId>& hoisted) {
  std::string params, body;
  for (size_t i = 0; i < rel.params.size(); ++i) params += (i ? ", " : "") + rel.params[i];
  for (size_t i = 0; i < hoisted.size(); ++i)
    body += (i ? "; " : "") + statementName(hoisted[i]) + "[] -> [" + std::to_string(i) + "]";
  return "[" + params + "] -> { " + body + " }";
}

/// A schedule tree with one band that orders `domain` by the map `text`.
IslPtr<isl_schedule> bandSchedule(isl_ctx* ctx, isl_union_set* domain, const std::string& text, const std::string& what) {
  auto map = islCheck(isl_union_map_read_from_str(ctx, text.c_str()), ctx, "reading the " + what);
  map.reset(isl_union_map_intersect_domain(map.release(), isl_union_set_copy(domain)));
  auto partial = islCheck(isl_multi_union_pw_aff_from_union_map(map.release()), ctx, "the " + what + " band");
  isl_schedule* s = isl_schedule_from_domain(isl_union_set_copy(domain));
  return islCheck(isl_schedule_insert_partial_schedule(s, partial.release()), ctx, "the " + what + " tree");
}

/// The inputs restricted to the statements that are not hoisted.
IslInputs withoutHoisted(isl_ctx* ctx, const IslInputs& in, isl_union_set* hoisted) {
  IslInputs main;
  main.domain = islCheck(isl_union_set_subtract(isl_union_set_copy(in.domain.get()), isl_union_set_copy(hoisted)), ctx,
                         "removing hoisted statements");
  auto restrict = [&](const IslPtr<isl_union_map>& m) {
    isl_union_map* r = isl_union_map_intersect_domain(isl_union_map_copy(m.get()), isl_union_set_copy(main.domain.get()));
    r = isl_union_map_intersect_range(r, isl_union_set_copy(main.domain.get()));
    return islCheck(r, ctx, "restricting dependences");
  };
  main.validity = restrict(in.validity);
  if (in.proximity) main.proximity = restrict(in.proximity);
  main.context = IslPtr<isl_set>(isl_set_copy(in.context.get()));
  main.astContext = IslPtr<isl_set>(isl_set_copy(in.astContext.get()));
  return main;
}

/// isl's schedule of `in` with each statement cluster (StatementClusters)
/// contracted into its root's statement, expanded back afterwards: the
/// members run at their root's time, in their order inside the cluster.
IslPtr<isl_schedule> clusteredSchedule(isl_ctx* ctx, const Graph& g, const DependenceRelations& rel,
                                       const StatementClusters& clusters, const IslInputs& in,
                                       unsigned long maxOperations) {
  if (clusters.clusters.empty()) return islSchedule(ctx, in, maxOperations);
  auto contraction = islCheck(isl_union_map_read_from_str(ctx, clusters.contractionText(g, rel.params).c_str()), ctx,
                              "reading the cluster contraction");
  contraction.reset(isl_union_map_intersect_domain(contraction.release(), isl_union_set_copy(in.domain.get())));
  IslInputs contracted;
  contracted.domain = islCheck(isl_union_set_apply(isl_union_set_copy(in.domain.get()),
                                                   isl_union_map_copy(contraction.get())),
                               ctx, "contracting the domain");
  // A pair inside one cluster at one point is kept by the members' order.
  auto samePoint = islCheck(isl_union_set_identity(isl_union_set_copy(contracted.domain.get())), ctx, "identity");
  auto contract = [&](const IslPtr<isl_union_map>& m) {
    isl_union_map* r = isl_union_map_apply_domain(isl_union_map_copy(m.get()), isl_union_map_copy(contraction.get()));
    r = isl_union_map_apply_range(r, isl_union_map_copy(contraction.get()));
    return islCheck(isl_union_map_subtract(r, isl_union_map_copy(samePoint.get())), ctx, "contracting dependences");
  };
  contracted.validity = contract(in.validity);
  contracted.proximity = contract(in.proximity);
  contracted.context = IslPtr<isl_set>(isl_set_copy(in.context.get()));
  IslPtr<isl_schedule> schedule = islSchedule(ctx, contracted, maxOperations);
  IslPtr<isl_schedule> order = bandSchedule(ctx, in.domain.get(), clusters.positionText(g, rel.params), "cluster order");
  auto expansion = islCheck(isl_union_pw_multi_aff_from_union_map(contraction.release()), ctx, "the contraction");
  return islCheck(isl_schedule_expand(schedule.release(), expansion.release(), order.release()), ctx,
                  "expanding the clusters");
}

/// The hoisted statements in sequence, then `scheduleRest`'s schedule of the
/// other statements (given the inputs restricted to them).
IslPtr<isl_schedule> hoistedThen(isl_ctx* ctx, const Graph& g, const DependenceRelations& rel, const IslInputs& in,
                                 const std::function<IslPtr<isl_schedule>(const IslInputs&)>& scheduleRest) {
  std::vector<NodeId> hoisted = hoistedStatements(g);
  if (hoisted.empty()) return scheduleRest(in);
  std::string order = hoistedOrder(rel, hoisted);
  auto orderMap = islCheck(isl_union_map_read_from_str(ctx, order.c_str()), ctx, "reading the hoisted order");
  auto hoistedDomain = islCheck(isl_union_map_domain(isl_union_map_copy(orderMap.get())), ctx, "hoisted domain");
  IslInputs main = withoutHoisted(ctx, in, hoistedDomain.get());
  IslPtr<isl_schedule> first = bandSchedule(ctx, hoistedDomain.get(), order, "hoisted order");
  if (isl_union_set_is_empty(main.domain.get()) == isl_bool_true) return first;
  IslPtr<isl_schedule> second = scheduleRest(main);
  return islCheck(isl_schedule_sequence(first.release(), second.release()), ctx, "sequencing hoisted statements");
}

/// A verified schedule with its loops, as text and loops (no isl object, so a
/// candidate computed in another isl context outlives it).
struct Candidate {
  std::string tree;
  std::string map;
  LoopBody loops;
};

/// Loops and guards in `body`: the measure of how simple a candidate's loops are.
size_t controlStatements(const LoopBody& body) {
  size_t n = 0;
  for (const LoopStmt& s : body) {
    if (const auto* f = s.as<ForStmt>()) n += 1 + controlStatements(f->body);
    if (const auto* i = s.as<IfStmt>()) n += 1 + controlStatements(i->thenBody) + controlStatements(i->elseBody);
  }
  return n;
}

/// Whether the schedule map `map` (text) respects every dependence of `rel`. Runs on a thread of its
/// own while `finish` generates the loops on the caller's, so it makes its own isl context (isl is
/// thread-safe across contexts) and reads the map and the dependences from their text (`rel` is only
/// read). The map's text, not the schedule tree's: isl reads a tree's text more slowly than it
/// checks it.
bool respectsEveryDependence(const std::string& map, const DependenceRelations& rel) {
  IslContext own;
  isl_ctx* ctx = own.get();
  auto schedule = islCheck(isl_union_map_read_from_str(ctx, map.c_str()), ctx, "reading the schedule map");
  IslPtr<isl_union_map> validity = RelationReader(ctx).validity(rel);
  return scheduleRespects(validity.get(), schedule.get());
}

/// Verifies `schedule` against every dependence and generates its loops, the two at once: the
/// verification (as long as the loops' generation on a large program) on another core.
Candidate finish(isl_ctx* ctx, const Graph& g, const DependenceRelations& rel, const IslInputs& in,
                 IslPtr<isl_schedule> schedule, PhaseClock& clock) {
  Candidate c;
  auto map = islCheck(isl_schedule_get_map(schedule.get()), ctx, "reading the schedule map");
  c.map = islTakeString(isl_union_map_to_str(map.get()));
  clock.lap("schedule map");
  std::future<bool> respects =
      std::async(std::launch::async, [&map = c.map, &rel] { return respectsEveryDependence(map, rel); });
  auto ast = generateAst(ctx, g, in, schedule.get());
  c.loops = convertIslAst(ast.get(), rel, g);
  c.tree = printSchedule(ctx, schedule.get());
  clock.lap("loops (isl AST)");
  if (!respects.get()) throw IslError("the schedule does not respect every dependence");
  clock.lap("verification (in parallel): the rest");
  return c;
}

/// isl's schedule for one proximity variant, verified, or why there is none.
struct Variant {
  std::optional<Candidate> candidate;
  std::string error;
  bool clustered = false;  ///< scheduled with the statement clusters
};

/// Clustering is exact for the dependences between a cluster's statements
/// (StatementClusters checks them) but not for a path that leaves a cluster
/// and comes back at the same point through an instance no member needs (a
/// member computed where its only reader takes another branch): isl then
/// finds no schedule or the verification rejects it, and the variant is
/// scheduled again without clusters.
Variant scheduleVariant(isl_ctx* ctx, const Graph& g, const DependenceRelations& rel,
                        const StatementClusters& clusters, TimeDirection newest, const ScheduleOptions& options,
                        PhaseClock& clock) {
  const std::string way = newest == TimeDirection::Forward ? " (forwards)" : " (backwards)";
  auto attempt = [&](const StatementClusters& c) {
    IslInputs in = readInputs(ctx, rel, newest);
    IslPtr<isl_schedule> schedule = hoistedThen(ctx, g, rel, in, [&](const IslInputs& rest) {
      return clusteredSchedule(ctx, g, rel, c, rest, options.maxIslOperations);
    });
    clock.lap("isl schedule" + way);
    return finish(ctx, g, rel, in, std::move(schedule), clock);
  };
  try {
    return {attempt(clusters), "", !clusters.clusters.empty()};
  } catch (const IslError& e) {
    if (clusters.clusters.empty()) return {std::nullopt, e.what()};
  }
  try {
    return {attempt(StatementClusters{}), "", false};
  } catch (const IslError& e) {
    return {std::nullopt, e.what()};
  }
}

}  // namespace

std::string algorithmName(ScheduleOptions::Algorithm a) {
  switch (a) {
    case ScheduleOptions::Algorithm::Fusion: return "fusion";
    case ScheduleOptions::Algorithm::Isl: return "isl";
    case ScheduleOptions::Algorithm::Fallback: return "fallback";
  }
  return "fusion";
}

std::optional<ScheduleOptions::Algorithm> parseAlgorithm(const std::string& name) {
  for (auto a : {ScheduleOptions::Algorithm::Fusion, ScheduleOptions::Algorithm::Isl, ScheduleOptions::Algorithm::Fallback})
    if (algorithmName(a) == name) return a;
  return std::nullopt;
}

ScheduleResult computeSchedule(const Graph& g, IslContext& context, const ScheduleOptions& options) {
  isl_ctx* ctx = context.get();
  ScheduleResult r;
  PhaseClock clock;
  r.relations = buildDependenceRelations(g, context);
  clock.lap("dependences");

  std::optional<Candidate> best;
  bool clustered = false;
  if (options.algorithm == ScheduleOptions::Algorithm::Fusion) {
    try {
      IslInputs in = readInputs(ctx, r.relations, std::nullopt);
      IslPtr<isl_schedule> schedule =
          hoistedThen(ctx, g, r.relations, in, [&](const IslInputs& rest) {
            return fusionSchedule(ctx, g, rest.domain.get(), rest.validity.get());
          });
      clock.lap("fusion schedule");
      best = finish(ctx, g, r.relations, in, std::move(schedule), clock);
      r.used = ScheduleOptions::Algorithm::Fusion;
    } catch (const IslError& e) {
      r.fusionFailure = e.what();
      clock.lap("fusion schedule (failed)");
    }
  }
  if (!best && options.algorithm != ScheduleOptions::Algorithm::Fallback) {
    r.used = ScheduleOptions::Algorithm::Isl;
    if (options.clusterStatements) r.clusters = clusterStatements(g, r.relations, context);
    clock.lap("statement clusters");
    // The newest element of a slice depends on the direction time will run in,
    // which only the schedule decides: try both, keep the simpler loops.
    // The backwards variant runs on another thread in an isl context of its
    // own (isl is thread-safe across contexts; the relations are text).
    const bool both =
        r.relations.proximityUnion(TimeDirection::Forward) != r.relations.proximityUnion(TimeDirection::Backward);
    std::future<Variant> backwards;
    if (both)
      backwards = std::async(std::launch::async, [&] {
        IslContext own;
        PhaseClock unused;
        return scheduleVariant(own.get(), g, r.relations, r.clusters, TimeDirection::Backward, options, unused);
      });
    std::vector<std::pair<TimeDirection, Variant>> variants;
    variants.emplace_back(TimeDirection::Forward,
                          scheduleVariant(ctx, g, r.relations, r.clusters, TimeDirection::Forward, options, clock));
    if (both) {
      variants.emplace_back(TimeDirection::Backward, backwards.get());
      clock.lap("isl schedule (backwards, in parallel): the rest");
    }
    for (auto& [newest, v] : variants) {
      if (!v.candidate) {
        if (r.fallbackReason.empty()) r.fallbackReason = v.error;
        continue;
      }
      if (!best || controlStatements(v.candidate->loops) < controlStatements(best->loops)) {
        best = std::move(v.candidate);
        r.newestElement = newest;
        clustered = v.clustered;
      }
    }
    if (best) r.fallbackReason.clear();
  } else if (options.algorithm == ScheduleOptions::Algorithm::Fallback) {
    r.fallbackReason = "the fallback schedule was requested";
  }
  if (!best) {
    r.usedFallback = true;
    r.used = ScheduleOptions::Algorithm::Fallback;
    try {
      IslInputs in = readInputs(ctx, r.relations, TimeDirection::Forward);
      best = finish(ctx, g, r.relations, in,
                    bandSchedule(ctx, in.domain.get(), buildFallbackSchedule(g, r.relations, context),
                                 "fallback schedule"),
                    clock);
    } catch (const IslError& e) {
      if (options.algorithm == ScheduleOptions::Algorithm::Fallback) throw;
      throw IslError(r.fallbackReason + "; " + e.what());
    }
  }
  if (!options.transforms.empty()) {
    TransformedSchedule t = transformSchedule(g, context, r.relations, best->map, options.transforms);
    IslInputs in = readInputs(ctx, r.relations, std::nullopt);
    if (!t.legal()) {  // its loops, unverified, for a view to show what would go wrong
      auto illegal = bandSchedule(ctx, in.domain.get(), t.map, "transformed schedule");
      auto ast = generateAst(ctx, g, in, illegal.get());
      throw IllegalScheduleError(std::move(t.violations), LoopProgram{convertIslAst(ast.get(), r.relations, g)});
    }
    r.untransformedMap = best->map;
    best = finish(ctx, g, r.relations, in, bandSchedule(ctx, in.domain.get(), t.map, "transformed schedule"), clock);
    r.transforms = printScheduleTransforms(options.transforms);
  }
  if (!clustered) r.clusters = {};
  r.scheduleMap = best->map;
  r.scheduleTree = best->tree;
  r.program.body = std::move(best->loops);
  r.phases = clock.phases();
  return r;
}

LoopProgram scheduleGraph(const Graph& g, IslContext& ctx, const ScheduleOptions& options) {
  return computeSchedule(g, ctx, options).program;
}

}  // namespace tempo
