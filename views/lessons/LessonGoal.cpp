#include "lessons/LessonGoal.h"

#include "trace/ProfileSummary.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace tempo::views {

namespace {

std::string normalised(const std::string& s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// Answers compare as numbers when both are numbers (`8` = `8.0`), else as words
/// without case or spaces (`T` = `t`, `b, t` = `b,t`).
bool sameAnswer(const std::string& given, const std::string& expected) {
  if (size_t bar = expected.find('|'); bar != std::string::npos)  // alternatives: `backward | reverse`
    return sameAnswer(given, expected.substr(0, bar)) || sameAnswer(given, expected.substr(bar + 1));
  const std::string a = normalised(given), b = normalised(expected);
  if (a.empty()) return false;
  char* endA = nullptr;
  char* endB = nullptr;
  const double x = std::strtod(a.c_str(), &endA), y = std::strtod(b.c_str(), &endB);
  if (*endA == '\0' && *endB == '\0') return x == y;
  return a == b;
}

/// The transform's kind: its first word (`skew j by i` -> skew).
std::string kindOf(const std::string& transform) {
  const size_t begin = transform.find_first_not_of(' ');
  if (begin == std::string::npos) return "";
  return transform.substr(begin, transform.find(' ', begin) - begin);
}

GoalResult unmet(std::string reason) { return {false, std::move(reason)}; }

GoalResult checkRun(const LessonGoal& goal, const LessonState& state) {
  if (!state.lastRun) return unmet("no run yet in this step");
  const LessonRunState& run = *state.lastRun;
  if (!run.ok) return unmet("the last run failed");
  if (goal.kind == LessonGoalKind::RunOk) return {true, ""};
  if (!run.compiled) return unmet("the last run was on the reference engine");
  if (goal.kind == LessonGoalKind::RunCompiled) return {true, ""};
  if (!run.peakBytes) return unmet("the last run measured no peak");
  if (*run.peakBytes >= goal.bytes) return unmet("the last run's peak was " + formatBytes(*run.peakBytes));
  return {true, ""};
}

}  // namespace

GoalResult checkGoal(const LessonGoal& goal, const LessonState& state) {
  switch (goal.kind) {
    case LessonGoalKind::ProgramOk:
      return state.programOk ? GoalResult{true, ""} : unmet("the program has errors (see Problems)");
    case LessonGoalKind::RunOk:
    case LessonGoalKind::RunCompiled:
    case LessonGoalKind::PeakBelow:
      return checkRun(goal, state);
    case LessonGoalKind::ScheduleLegal:
    case LessonGoalKind::Applied: {
      if (!state.scheduleReady) return unmet("the schedule is not ready");
      if (!state.violations.empty())
        return unmet("the transform tried last breaks " + std::to_string(state.violations.size()) + " dependence(s)");
      if (goal.kind == LessonGoalKind::ScheduleLegal) return {true, ""};
      bool found = std::any_of(state.applied.begin(), state.applied.end(), [&](const std::string& t) {
        // One applied entry may hold several transforms: `skew j by i; interchange i, j`.
        size_t start = 0;
        while (start <= t.size()) {
          size_t end = t.find(';', start);
          if (kindOf(t.substr(start, end == std::string::npos ? std::string::npos : end - start)) == goal.text) return true;
          if (end == std::string::npos) break;
          start = end + 1;
        }
        return false;
      });
      return found ? GoalResult{true, ""} : unmet("no " + goal.text + " is applied yet");
    }
    case LessonGoalKind::BlockSize:
      return state.blockSize == goal.bytes ? GoalResult{true, ""}
                                           : unmet("the block size is " + (state.blockSize ? std::to_string(state.blockSize) : std::string("auto")));
    case LessonGoalKind::IllegalShown:
      return state.violations.empty() ? unmet("no broken dependence is shown") : GoalResult{true, ""};
    case LessonGoalKind::Answer:
      if (state.answer.empty()) return unmet("type an answer");
      return sameAnswer(state.answer, goal.text) ? GoalResult{true, ""} : unmet("not quite: try again");
    case LessonGoalKind::Selected:
      return std::find(state.picked.begin(), state.picked.end(), goal.text) != state.picked.end()
                 ? GoalResult{true, ""}
                 : unmet("click '" + goal.text + "' in the graph");
    case LessonGoalKind::ViewShown:
      return std::find(state.views.begin(), state.views.end(), goal.text) != state.views.end() ? GoalResult{true, ""} : unmet("open the " + goal.text + " view");
  }
  return unmet("unknown goal");
}

bool stepComplete(const LessonStep& step, const LessonState& state) {
  return std::all_of(step.goals.begin(), step.goals.end(), [&](const LessonGoal& g) { return checkGoal(g, state).met; });
}

}  // namespace tempo::views
