// LessonHost: what the Lessons panel asks of the studio around it.
//
// The panel (LessonsPanel) knows lessons, steps and goals but no other view;
// the studio's main window gives it a host that opens a lesson's program,
// performs an action (raise a view, pick a node, set bounds, try a transform,
// run...), says when the studio is busy (checking, compiling, laying out or
// running: the panel performs actions one at a time, each when the studio is
// idle) and reports what it shows now as a LessonState. The run and the answer
// parts of that state are the panel's own (it hears about runs through
// LessonsPanel::runFinished).
#pragma once

#include "lessons/Lesson.h"
#include "lessons/LessonGoal.h"

#include <QString>

namespace tempo::views {

class LessonHost {
public:
  virtual ~LessonHost() = default;
  /// Opens a fresh copy of the lesson's program (the student's edits never touch the lesson).
  virtual bool openLessonProgram(const Lesson& lesson, QString& error) = 0;
  /// Performs one action (may start work on a worker thread: see busy()). Answer actions are the panel's.
  virtual void perform(const LessonAction& action) = 0;
  virtual bool busy() const = 0;
  /// The studio's part of the state (view, picked nodes, program, schedule).
  virtual LessonState state() const = 0;
};

}  // namespace tempo::views
