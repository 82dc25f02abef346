// Lesson: one lesson of the studio's Lessons panel, read from a Markdown file.
//
// A lesson is `resources/lessons/NN-name.md` next to its program `NN-name.tpo`.
// The Markdown is for people (it reads well on GitHub); the studio reads
// directives from HTML comments, one per line, which a Markdown viewer hides:
//   # Title                         the lesson's title
//   <!-- program: 01-recurrence.tpo -->
//   ## Step title                   each level-2 heading starts a step; its text follows
//   <!-- do: view schedule -->      done when the step is entered (LessonActionKind)
//   <!-- goal: schedule legal -->   checked by the studio (LessonGoal.h)
//   <!-- solution: transform skew j by i -->   what "Show me" does; tests take it too
// Actions: view NAME, select NAME, bounds B=2, T=6, engine compiled|reference,
// transform TEXT, block N, budget BYTES, run, answer TEXT, replace "OLD" with "NEW".
// A malformed directive is a LessonError naming the file and line. Qt-free.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tempo::views {

struct LessonError : std::runtime_error {
  LessonError(const std::string& file, int line, const std::string& message);
  std::string file;
  int line = 0;
};

enum class LessonActionKind { View, Select, Bounds, Engine, Transform, Block, Budget, Run, Answer, Replace };

struct LessonAction {
  LessonActionKind kind = LessonActionKind::Run;
  std::string text;     ///< the argument as written (the view, node, transform, answer, bounds)
  std::string replacement;  ///< Replace: the new text (`text` is the old one)
  int64_t number = 0;   ///< Block: the block size; Budget: bytes
  int line = 0;
};

enum class LessonGoalKind { ProgramOk, RunOk, RunCompiled, PeakBelow, ScheduleLegal, Applied, IllegalShown, BlockSize, Answer, Selected, ViewShown };

struct LessonGoal {
  LessonGoalKind kind = LessonGoalKind::RunOk;
  std::string text;    ///< Applied: the transform kind; Answer: the answers (`a | b`); Selected: the node; ViewShown: the view
  int64_t bytes = 0;   ///< PeakBelow: bytes; BlockSize: the block size
  int line = 0;
};

struct LessonStep {
  std::string title;
  std::string markdown;  ///< the step's text without its directives
  std::vector<LessonAction> actions;
  std::vector<LessonGoal> goals;
  std::vector<LessonAction> solution;
};

struct Lesson {
  std::string path;     ///< the Markdown file
  std::string title;
  std::string intro;    ///< text before the first step
  std::string program;  ///< the program's file name, next to the Markdown
  std::vector<LessonStep> steps;

  std::string programPath() const;  ///< the program's full path
};

/// Reads a lesson from its text (`path` names it in errors and locates the program).
Lesson parseLesson(const std::string& text, const std::string& path);
/// Reads the lesson file at `path`.
Lesson loadLesson(const std::string& path);
/// The lessons of `dir` (`*.md`, in file-name order), each read; a malformed one throws.
std::vector<Lesson> loadLessons(const std::string& dir);

/// A goal as a sentence for the panel: "the schedule is legal", "the peak is below 4.0 KiB".
std::string describeGoal(const LessonGoal& goal);
/// An action as its directive text (`transform skew j by i`), as parseLesson reads it.
std::string printAction(const LessonAction& action);

}  // namespace tempo::views
