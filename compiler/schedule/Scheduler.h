// Scheduler: orders every statement instance of an SDG and emits loops with isl.
//
// `scheduleGraph` is the compiler's scheduling step. Each node is a statement
// over its domain with the bounds as parameters (>= 1), each edge an exact
// dependence relation (DependenceRelations). The first choice is the fusion
// schedule (FusionSchedule: loops distributed and fused along the
// dependences, built in milliseconds); when no loop nest of that shape
// respects the dependences, isl's scheduler is asked. isl's scheduler computes a
// schedule with the dependences as validity constraints and, as proximity
// constraints ("a reader runs soon after the newest value it reads"), the
// dependences with each slice read at its newest element. Which element is
// newest depends on the direction time will run — the last one forwards, the
// first one backwards (returns.tpo's suffix read `r[t:T]`) — so a graph with
// slices is scheduled both ways, the backwards variant on a second thread in
// an isl context of its own, and the loops with fewer loops and guards are
// kept (forwards on a tie).
// isl's AST generator turns the schedule into loops,
// which IslAstConversion brings into our LoopAst. Nothing is specialised to
// bound values: the same loops run for every `--set T=...`. Statements with
// an empty domain whose inputs are all such statements too (weight loads,
// constants, eval_index of a bound) are hoisted: they run once, first, in a
// dependence-respecting order, and the fusion schedule or isl's orders the
// rest after them (a sequence node in the schedule tree). Sources over a
// domain (`load` of x over (b, t)) are ordinary statements, placed near their readers.
// isl is given each chain of same-point statements as one statement
// (StatementClusters; `clusterStatements` in the options) and expands the
// chains back into the schedule: far fewer statements for its scheduler,
// the same instances for everything after it. A variant that fails with
// clusters is scheduled again without them.
//
// If isl's scheduler fails, runs out of its operation budget, or returns a
// schedule that the exact check (ScheduleCheck) rejects, the FallbackSchedule
// is used instead (components in topological order, a searched loop order
// inside each) and the result says so and why. Every returned schedule has
// been verified against every validity dependence; the check runs on another
// core, in an isl context of its own reading the schedule map's text, while
// isl's AST generator makes the loops.
#pragma once

#include "pass/PhaseClock.h"
#include "schedule/DependenceRelations.h"
#include "schedule/IslError.h"
#include "schedule/LoopAst.h"
#include "schedule/ScheduleTransform.h"
#include "schedule/StatementClusters.h"
#include "symbolic/PointSet.h"

#include <optional>
#include <string>

namespace tempo {

struct ScheduleOptions {
  enum class Algorithm {
    Fusion,    ///< the fusion schedule, then isl's scheduler if it fails, then the fallback
    Isl,       ///< isl's scheduler, with the fallback if it fails
    Fallback,  ///< the fallback schedule only
  };
  Algorithm algorithm = Algorithm::Fusion;
  /// isl's operation budget for computing the schedule (0: unlimited).
  unsigned long maxIslOperations = 20'000'000;
  /// Give isl each chain of same-point statements as one (StatementClusters).
  bool clusterStatements = true;
  /// The user's changes to the schedule found (ScheduleTransform), applied in order; an
  /// illegal result throws IllegalScheduleError, naming every dependence it breaks.
  std::vector<ScheduleTransform> transforms;
};

struct ScheduleResult {
  LoopProgram program;
  DependenceRelations relations;
  std::string scheduleTree;  ///< isl's schedule tree (YAML block style)
  std::string scheduleMap;   ///< statement instance -> time vector (isl union map)
  TimeDirection newestElement = TimeDirection::Forward;  ///< the proximity variant kept
  ScheduleOptions::Algorithm used = ScheduleOptions::Algorithm::Fusion;  ///< the method that made the schedule
  std::string fusionFailure;   ///< why the fusion schedule was not used ("" if it was or was not asked for)
  bool usedFallback = false;
  std::string fallbackReason;  ///< why isl's schedule was not used ("" if it was, or if the fusion schedule was)
  PhaseSeconds phases;         ///< seconds per phase: dependences, isl per variant, schedule map, loops, the rest of the verification
  StatementClusters clusters;  ///< the statements isl scheduled as one (empty when not clustered)
  std::string transforms;      ///< the transforms applied (printScheduleTransforms; "" for none)
  std::string untransformedMap;  ///< the schedule map before them ("" when none were given)
};

/// `fusion`, `isl`, `fallback`.
std::string algorithmName(ScheduleOptions::Algorithm a);
/// The algorithm named `name` (as algorithmName spells it); nullopt for another name.
std::optional<ScheduleOptions::Algorithm> parseAlgorithm(const std::string& name);

/// Schedules `g`; throws IslError or std::invalid_argument when the graph
/// cannot be scheduled at all (no valid schedule found by either method),
/// ScheduleTransformError or IllegalScheduleError for bad or illegal transforms.
ScheduleResult computeSchedule(const Graph& g, IslContext& ctx, const ScheduleOptions& options = {});

/// The loops of `computeSchedule`.
LoopProgram scheduleGraph(const Graph& g, IslContext& ctx, const ScheduleOptions& options = {});

}  // namespace tempo
