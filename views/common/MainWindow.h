// MainWindow: the Tempo Studio window.
//
// The editor is the central widget; docks hold the problems list, the
// dependence graph (GraphView), the pass stepper (PassStepper), the schedule
// (ScheduleView), the run panel and the profiler (ProfilerPanel, over the
// program's run store). One ProgramDocument connects them: edits re-check the program in the
// background, and each result updates squiggles, problems, graph and the
// bounds of the run panel. Clicking a graph node selects its source range;
// moving the cursor highlights the nodes that line made (and their spans in
// the profiler's timeline); clicking a span or a statistics row selects its
// line. Run ▸ Profile records a traced run and opens its timeline. The menus follow
// the platform's conventions (File with recent files, Edit, Examples, Run,
// View toggling each dock, Help → About), and window geometry and dock
// layout are remembered between sessions (QSettings). The Lessons dock (View ▸
// Lessons) walks through the lessons of resources/lessons, next to the examples,
// acting on these views through a StudioLessonHost.
#pragma once

#include "document/ProgramDocument.h"

#include <QMainWindow>
#include <QString>
#include <QStringList>

#include <memory>

class QDockWidget;
class QLabel;
class QMenu;

namespace tempo::views {

class CodeEditor;
class LessonHost;
class GraphView;
class LessonsPanel;
class PassStepper;
class ProblemsPanel;
class ProfilerPanel;
class RunPanel;
class ScheduleView;

class MainWindow : public QMainWindow {
  Q_OBJECT
public:
  struct Options {
    QStringList exampleDirs;       ///< candidates for the Examples menu (first with .tpo files wins)
    bool restoreSettings = true;   ///< restore geometry and dock layout (off for screenshots)
  };

  explicit MainWindow(Options options, QWidget* parent = nullptr);
  ~MainWindow() override;

  ProgramDocument* document() const { return document_; }
  CodeEditor* editor() const { return editor_; }
  ProblemsPanel* problems() const { return problems_; }
  RunPanel* runPanel() const { return runPanel_; }
  GraphView* graphWidget() const { return graphWidget_; }
  PassStepper* passesWidget() const { return passesWidget_; }
  ScheduleView* scheduleWidget() const { return scheduleWidget_; }
  ProfilerPanel* profilerWidget() const { return profilerWidget_; }
  LessonsPanel* lessonsWidget() const { return lessonsWidget_; }
  const QString& examplesDir() const { return examplesDir_; }

  /// True while a check, a run or a graph layout is in progress, or a lesson's action waits.
  bool isBusy() const;
  /// True while a check, a compile, a run or a graph layout is in progress.
  bool viewsBusy() const;
  /// Opens `path`; reports a failure in a message box unless `quiet`.
  bool openFile(const QString& path, bool quiet = false);
  /// Shows and raises a view: graph, passes, schedule, run, profiler, problems or lessons; false if unknown.
  bool showView(const QString& name);
  /// The dock of a view named as showView names it (null if unknown).
  QDockWidget* viewDock(const QString& name) const;
  /// Asks whether to save unsaved changes; false when the user cancels.
  bool maybeSave();

protected:
  void closeEvent(QCloseEvent* event) override;
  void showEvent(QShowEvent* event) override;

private:
  void buildDocks();
  void buildMenus();
  QMenu* buildExamplesMenu();
  void connectViews();
  void rebuildRecentMenu();
  void onCompiled(const CheckedProgram& result);
  void updateTitle();
  void updateRunStore();
  void newFile();
  void openDialog();
  bool save();
  bool saveAs();
  void about();

  Options options_;
  QString examplesDir_;
  ProgramDocument* document_ = nullptr;
  CodeEditor* editor_ = nullptr;
  ProblemsPanel* problems_ = nullptr;
  RunPanel* runPanel_ = nullptr;
  GraphView* graphWidget_ = nullptr;
  PassStepper* passesWidget_ = nullptr;
  ScheduleView* scheduleWidget_ = nullptr;
  ProfilerPanel* profilerWidget_ = nullptr;
  std::unique_ptr<LessonHost> lessonHost_;
  LessonsPanel* lessonsWidget_ = nullptr;
  QDockWidget* lessonsDock_ = nullptr;
  QDockWidget* profilerDock_ = nullptr;
  QDockWidget* problemsDock_ = nullptr;
  QDockWidget* graphDock_ = nullptr;
  QDockWidget* passesDock_ = nullptr;
  QDockWidget* scheduleDock_ = nullptr;
  QDockWidget* runDock_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QMenu* viewMenu_ = nullptr;
  QLabel* checkStatus_ = nullptr;
  QLabel* cursorStatus_ = nullptr;
  bool restoredState_ = false;  // a saved dock layout was restored
  bool laidOut_ = false;        // the first show sized the docks
};

}  // namespace tempo::views
