// ScheduleTransform: a user's change to a schedule — shift, interchange, skew, reverse —
// checked against the exact dependences.
//
// A schedule maps every statement instance S_n[d...] to a time vector (ScheduleResult::
// scheduleMap; constant entries order the statements of a loop body). A transform names
// the program's dimensions (`t`, `b`), never isl's loop variables: for each statement the
// time entry that *carries* a dimension is the first one whose expression depends on it.
//   shift h by 1 along t      h's entry carrying t plus 1 (h: a tensor name, %4 or S_4)
//   interchange t, b [in h]   the entries carrying t and b swapped (every statement with both)
//   skew t by b [factor 2]    the entry carrying t plus 2 x the entry carrying b
//   reverse t [in h]          the entry carrying t negated
// Transforms are written one after another, separated by `;`, and apply in order. The
// result is checked with isl against every dependence (ScheduleCheck): a legal one becomes
// loops again (isl's AST generator on the transformed map), an illegal one lists each
// violated dependence with the edge, the source line and a smallest example pair
// ("h[b=0, t=0] would run after its reader %6 at [b=0, t=1], at B=1, T=2"). The CLI's
// `tempo schedule FILE --transform "..."` and the studio's schedule view use it; with
// ScheduleOptions::transforms set the whole lowering (memory statements, runs) follows.
#pragma once

#include "graph/Graph.h"
#include "schedule/DependenceRelations.h"
#include "schedule/LoopAst.h"
#include "symbolic/PointSet.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace tempo {

struct ScheduleTransform {
  enum class Kind { Shift, Interchange, Skew, Reverse };
  Kind kind = Kind::Shift;
  std::string statement;  ///< as written: a tensor name, `%4` or `S_4`; empty: every statement
  std::string dim;        ///< the dimension moved (shift, skew, reverse) or the first one swapped
  std::string other;      ///< interchange's second dimension, skew's `by` dimension
  int64_t amount = 1;     ///< shift's distance, skew's factor
  int column = 1;         ///< where the transform starts in the text (1-based), for errors
};

/// Bad transform text, or a transform that names what the program does not have.
class ScheduleTransformError : public std::runtime_error {
public:
  ScheduleTransformError(int column, const std::string& message)
      : std::runtime_error("column " + std::to_string(column) + ": " + message), column_(column) {}
  int column() const { return column_; }

private:
  int column_;
};

/// Parses `shift h by 1 along t; interchange t, b`; throws ScheduleTransformError.
std::vector<ScheduleTransform> parseScheduleTransforms(const std::string& text);

/// The stable text of one transform (`interchange t, b in h`), which parses back to it.
std::string printScheduleTransform(const ScheduleTransform& t);
std::string printScheduleTransforms(const std::vector<ScheduleTransform>& ts);

/// A dependence the transformed schedule breaks.
struct ViolatedDependence {
  EdgeId edge = -1;
  NodeId producer = -1, consumer = -1;
  std::string pairs;     ///< the violated instance pairs (isl map text)
  std::string sentence;  ///< the edge, its source line and the smallest example pair
};

struct TransformedSchedule {
  std::string map;                             ///< the transformed schedule (isl union map text)
  std::vector<ViolatedDependence> violations;  ///< empty when the schedule is legal
  bool legal() const { return violations.empty(); }
};

/// Applies `transforms` in order to `scheduleMap` (a schedule of `rel`'s statements) and
/// checks the result against every dependence of `rel`. Throws ScheduleTransformError for a
/// statement or dimension the program does not have.
TransformedSchedule transformSchedule(const Graph& g, IslContext& ctx, const DependenceRelations& rel,
                                      const std::string& scheduleMap, const std::vector<ScheduleTransform>& transforms);

/// Thrown by the scheduler when ScheduleOptions::transforms give an illegal schedule. It
/// carries the illegal schedule's loops too (no memory statements), so a view can show what
/// would run: a reader before the value it reads.
class IllegalScheduleError : public std::runtime_error {
public:
  IllegalScheduleError(std::vector<ViolatedDependence> violations, LoopProgram loops);
  const std::vector<ViolatedDependence>& violations() const { return violations_; }
  const LoopProgram& loops() const { return loops_; }

private:
  std::vector<ViolatedDependence> violations_;
  LoopProgram loops_;
};

}  // namespace tempo
