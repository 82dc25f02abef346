#include "common/StudioLessonHost.h"

#include "common/MainWindow.h"
#include "editor/CodeEditor.h"
#include "graph/GraphView.h"
#include "run/BoundsEditor.h"
#include "run/RunPanel.h"
#include "schedule/ScheduleView.h"
#include "schedule/TransformBar.h"

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QStandardPaths>

namespace tempo::views {

namespace {
const char* const kViewNames[] = {"graph", "passes", "schedule", "run", "profiler", "problems"};
}

bool StudioLessonHost::openLessonProgram(const Lesson& lesson, QString& error) {
  const QDir dir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/lessons"));
  // Edits to a lesson's copy are let go (the lesson starts afresh anyway); anything else may be saved first.
  const bool lessonCopy = QFileInfo(window_.document()->filePath()).absolutePath() == dir.absolutePath();
  if (!lessonCopy && !window_.maybeSave()) {
    error = QObject::tr("the current program has unsaved changes");
    return false;
  }
  if (!dir.mkpath(QStringLiteral("."))) {
    error = QObject::tr("cannot create %1").arg(dir.path());
    return false;
  }
  const QString source = QString::fromStdString(lesson.programPath());
  const QString copy = dir.filePath(QFileInfo(source).fileName());
  QFile::remove(copy);
  if (!QFile::copy(source, copy)) {
    error = QObject::tr("cannot copy %1 to %2").arg(source, copy);
    return false;
  }
  QFile(copy).setPermissions(QFile::ReadOwner | QFile::WriteOwner);  // an installed lesson may be read-only
  window_.scheduleWidget()->transformBar()->reset();
  window_.runPanel()->budgetEdit()->clear();
  return window_.openFile(copy, true) || (error = QObject::tr("cannot open %1").arg(copy), false);
}

void StudioLessonHost::perform(const LessonAction& action) {
  const QString text = QString::fromStdString(action.text);
  switch (action.kind) {
    case LessonActionKind::View: window_.showView(text); break;
    case LessonActionKind::Select:
      window_.showView(QStringLiteral("graph"));
      window_.graphWidget()->searchFor(text);
      break;
    case LessonActionKind::Bounds:
      for (const QString& pair : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QStringList parts = pair.split(QLatin1Char('='));
        window_.runPanel()->boundsEditor()->setValue(parts[0].trimmed().toStdString(), parts[1].trimmed().toLongLong());
      }
      break;
    case LessonActionKind::Engine:
      window_.runPanel()->setEngine(text == QLatin1String("compiled") ? Engine::Compiled : Engine::Reference);
      break;
    case LessonActionKind::Transform:
      window_.showView(QStringLiteral("schedule"));
      window_.scheduleWidget()->transformBar()->tryTransform(text);
      break;
    case LessonActionKind::Block: window_.scheduleWidget()->setBlockSize(static_cast<int>(action.number)); break;
    case LessonActionKind::Budget: window_.runPanel()->budgetEdit()->setText(text); break;
    case LessonActionKind::Run:
      window_.showView(QStringLiteral("run"));
      window_.runPanel()->run();
      break;
    case LessonActionKind::Replace: {
      CodeEditor* editor = window_.editor();
      // Literal, case-sensitive, from the start; the editor's undo takes it back.
      if (editor->findFirst(text, false, true, false, false, true, 0, 0)) editor->replace(QString::fromStdString(action.replacement));
      break;
    }
    case LessonActionKind::Answer: break;  // the panel's own
  }
}

bool StudioLessonHost::busy() const { return window_.viewsBusy(); }

LessonState StudioLessonHost::state() const {
  LessonState state;
  for (const char* name : kViewNames)
    if (QDockWidget* dock = window_.viewDock(QLatin1String(name)); dock && dock->isVisible() && !dock->visibleRegion().isEmpty())
      state.views.emplace_back(name);
  state.picked = window_.graphWidget()->pickedNames();
  const CheckedProgram& program = window_.document()->latest();
  state.programOk = program && program->ok() && !window_.document()->isChecking();
  ScheduleView* schedule = window_.scheduleWidget();
  state.scheduleReady = schedule->compiled() != nullptr && !schedule->isCompiling();
  state.blockSize = schedule->blockSize();
  for (const QString& t : schedule->transformBar()->applied()) state.applied.push_back(t.toStdString());
  for (const QString& v : schedule->violations()) state.violations.push_back(v.toStdString());
  return state;
}

}  // namespace tempo::views
