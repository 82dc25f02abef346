// StudioLessonHost: the Lessons panel's host in the studio's main window.
//
// Opens a lesson's program as a fresh copy in the studio's data folder
// (`lessons/NN-name.tpo`: a student's edits and run store never touch the
// lesson itself), performs the lessons' actions on the window's views (raise
// a view, pick a node in the graph, set bounds, the engine or the memory
// budget, try a schedule transform, set the block size, run, replace text in
// the editor) and reports what the window shows as a LessonState.
#pragma once

#include "lessons/LessonHost.h"

namespace tempo::views {

class MainWindow;

class StudioLessonHost : public LessonHost {
public:
  explicit StudioLessonHost(MainWindow& window) : window_(window) {}

  bool openLessonProgram(const Lesson& lesson, QString& error) override;
  void perform(const LessonAction& action) override;
  bool busy() const override;
  LessonState state() const override;

private:
  MainWindow& window_;
};

}  // namespace tempo::views
