// LessonGoal: whether the studio's state meets a lesson step's goals.
//
// The Lessons panel asks its host (LessonHost) for a LessonState — what the
// studio shows now: the raised view, the nodes picked in the graph, whether the
// program checks, the schedule's applied transforms and broken dependences, the
// last run's result and measured peak, the answer typed in the panel — and
// checks each goal of the current step against it. Each result carries a short
// reason when the goal is not met ("the last run's peak was 6.2 KiB"), so a
// student sees what is missing. Pure functions over plain data: Qt-free.
#pragma once

#include "lessons/Lesson.h"

#include <optional>
#include <string>
#include <vector>

namespace tempo::views {

struct LessonRunState {
  bool ok = false;
  bool compiled = false;               ///< ran on the compiled engine
  std::optional<int64_t> peakBytes;    ///< measured (compiled engine only)
};

struct LessonState {
  std::vector<std::string> views;      ///< the views shown now: graph, passes, schedule, run, profiler, problems
  std::vector<std::string> picked;     ///< names of the nodes picked in the graph
  bool programOk = false;              ///< the program checks without errors
  bool scheduleReady = false;          ///< the schedule view shows a compiled schedule
  int64_t blockSize = 0;               ///< the schedule's block size (0: the cost model's)
  std::vector<std::string> applied;    ///< the transforms applied, in order
  std::vector<std::string> violations; ///< what the last tried transform broke (empty: legal)
  std::optional<LessonRunState> lastRun;  ///< the last finished run since the step began
  std::string answer;                  ///< the panel's answer box
};

struct GoalResult {
  bool met = false;
  std::string reason;  ///< why not (empty when met)
};

GoalResult checkGoal(const LessonGoal& goal, const LessonState& state);
/// True when every goal of `step` is met (a step without goals is met).
bool stepComplete(const LessonStep& step, const LessonState& state);

}  // namespace tempo::views
