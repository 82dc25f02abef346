#include "common/MainWindow.h"

#include "common/ExampleCatalog.h"
#include "common/RecentFiles.h"
#include "common/StudioInfo.h"
#include "common/StudioLessonHost.h"
#include "editor/CodeEditor.h"
#include "editor/ProblemsPanel.h"
#include "graph/GraphView.h"
#include "lessons/LessonsPanel.h"
#include "passes/PassStepper.h"
#include "profiler/ProfilerPanel.h"
#include "run/RunPanel.h"
#include "runstore/RunStore.h"
#include "trace/ProfileSummary.h"
#include "schedule/ScheduleView.h"
#include "schedule/TransformBar.h"

#include <QDir>
#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>

namespace tempo::views {

namespace {
/// A dock holding `widget` in a frameless scroll area: a view with a large
/// minimum size gets scroll bars instead of forcing the window wider than the screen.
/// `scrolled` false: the widget fills the dock itself (a view that lays itself out at any size).
QDockWidget* makeDock(const QString& title, const QString& objectName, QWidget* widget, QWidget* parent, bool scrolled = true) {
  auto* dock = new QDockWidget(title, parent);
  dock->setObjectName(objectName);  // saveState/restoreState key
  if (!scrolled) {
    dock->setWidget(widget);
    return dock;
  }
  auto* scroll = new QScrollArea;
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidgetResizable(true);
  scroll->setWidget(widget);
  scroll->setMinimumSize(160, 80);
  dock->setWidget(scroll);
  return dock;
}
}  // namespace

MainWindow::MainWindow(Options options, QWidget* parent)
    : QMainWindow(parent), options_(std::move(options)), examplesDir_(findExamplesDir(options_.exampleDirs)),
      document_(new ProgramDocument(this)), editor_(new CodeEditor), problems_(new ProblemsPanel),
      runPanel_(new RunPanel), checkStatus_(new QLabel), cursorStatus_(new QLabel) {
  setCentralWidget(editor_);
  setDockNestingEnabled(true);
  buildDocks();
  buildMenus();
  connectViews();
  statusBar()->addWidget(checkStatus_, 1);
  statusBar()->addPermanentWidget(cursorStatus_);
  resize(1400, 900);
  if (options_.restoreSettings) {
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoredState_ = restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
  }
  updateTitle();
  document_->clear();
  updateRunStore();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks() {
  graphWidget_ = new GraphView;
  problemsDock_ = makeDock(tr("Problems"), QStringLiteral("ProblemsDock"), problems_, this);
  runDock_ = makeDock(tr("Run"), QStringLiteral("RunDock"), runPanel_, this);
  graphDock_ = makeDock(tr("Graph"), QStringLiteral("GraphDock"), graphWidget_, this);
  passesWidget_ = new PassStepper;
  passesDock_ = makeDock(tr("Passes"), QStringLiteral("PassesDock"), passesWidget_, this);
  scheduleWidget_ = new ScheduleView;
  scheduleDock_ = makeDock(tr("Schedule"), QStringLiteral("ScheduleDock"), scheduleWidget_, this);
  profilerWidget_ = new ProfilerPanel;
  profilerDock_ = makeDock(tr("Profiler"), QStringLiteral("ProfilerDock"), profilerWidget_, this, false);
  lessonHost_ = std::make_unique<StudioLessonHost>(*this);
  lessonsWidget_ = new LessonsPanel(lessonHost_.get());
  if (!examplesDir_.isEmpty()) lessonsWidget_->setLessonDir(QDir(examplesDir_).absoluteFilePath(QStringLiteral("../lessons")));
  lessonsDock_ = makeDock(tr("Lessons"), QStringLiteral("LessonsDock"), lessonsWidget_, this, false);
  addDockWidget(Qt::RightDockWidgetArea, graphDock_);
  tabifyDockWidget(graphDock_, passesDock_);
  tabifyDockWidget(passesDock_, scheduleDock_);
  addDockWidget(Qt::BottomDockWidgetArea, runDock_);
  addDockWidget(Qt::BottomDockWidgetArea, problemsDock_);
  tabifyDockWidget(runDock_, problemsDock_);
  tabifyDockWidget(problemsDock_, profilerDock_);
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);  // the graph gets the full height
  setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);  // a lesson's text gets the full height
  setCorner(Qt::TopLeftCorner, Qt::LeftDockWidgetArea);
  addDockWidget(Qt::LeftDockWidgetArea, lessonsDock_);
  lessonsDock_->hide();  // View ▸ Lessons opens it
  graphDock_->raise();
  problemsDock_->raise();
}

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  if (laidOut_) return;
  laidOut_ = true;
  if (!restoredState_) {  // first start: editor and graph side by side, a short bottom area
    resizeDocks({graphDock_}, {width() * 45 / 100}, Qt::Horizontal);
    resizeDocks({runDock_}, {height() * 28 / 100}, Qt::Vertical);
    if (lessonsDock_->isVisible()) resizeDocks({lessonsDock_}, {std::max(360, width() / 4)}, Qt::Horizontal);
  }
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* newAction = file->addAction(tr("&New"), QKeySequence::New, this, &MainWindow::newFile);
  QAction* openAction = file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openDialog);
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  connect(recentMenu_, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
  file->addSeparator();
  QAction* saveAction = file->addAction(tr("&Save"), QKeySequence::Save, this, &MainWindow::save);
  file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, &MainWindow::saveAs);
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
  quit->setMenuRole(QAction::QuitRole);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addAction(tr("&Undo"), QKeySequence::Undo, editor_, &QsciScintilla::undo);
  edit->addAction(tr("&Redo"), QKeySequence::Redo, editor_, &QsciScintilla::redo);
  edit->addSeparator();
  edit->addAction(tr("Cu&t"), QKeySequence::Cut, editor_, &QsciScintilla::cut);
  edit->addAction(tr("&Copy"), QKeySequence::Copy, editor_, &QsciScintilla::copy);
  edit->addAction(tr("&Paste"), QKeySequence::Paste, editor_, &QsciScintilla::paste);
  edit->addAction(tr("Select &All"), QKeySequence::SelectAll, editor_, [this] { editor_->selectAll(); });
  edit->addSeparator();
  edit->addAction(tr("Go to &Declaration"), QKeySequence(Qt::Key_F12), editor_, &CodeEditor::goToDeclaration);
  for (QAction* a : edit->actions()) a->setShortcutContext(Qt::WidgetWithChildrenShortcut), editor_->addAction(a);

  menuBar()->addMenu(buildExamplesMenu());

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  QAction* runAction = run->addAction(tr("&Run"), QKeySequence(Qt::CTRL | Qt::Key_R), this, [this] {
    showView(QStringLiteral("run"));
    runPanel_->run();
  });
  run->addAction(tr("&Profile"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R), this, [this] {
    showView(QStringLiteral("run"));
    runPanel_->profile();
  });
  QAction* cancelAction = run->addAction(tr("&Cancel Run"), QKeySequence(Qt::CTRL | Qt::Key_Period), runPanel_, &RunPanel::cancel);

  QToolBar* tools = addToolBar(tr("Main"));
  tools->setObjectName(QStringLiteral("MainToolBar"));
  tools->setMovable(false);
  tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  const std::pair<QAction*, QStyle::StandardPixmap> icons[] = {
      {newAction, QStyle::SP_FileIcon},      {openAction, QStyle::SP_DialogOpenButton},
      {saveAction, QStyle::SP_DialogSaveButton}, {runAction, QStyle::SP_MediaPlay},
      {cancelAction, QStyle::SP_MediaStop}};
  for (const auto& [action, icon] : icons) {
    action->setIcon(style()->standardIcon(icon));
    if (action == runAction) tools->addSeparator();
    tools->addAction(action);
  }

  viewMenu_ = menuBar()->addMenu(tr("&View"));
  for (QDockWidget* dock : {problemsDock_, graphDock_, passesDock_, scheduleDock_, runDock_, profilerDock_, lessonsDock_})
    viewMenu_->addAction(dock->toggleViewAction());
  viewMenu_->addSeparator();
  viewMenu_->addAction(tools->toggleViewAction());

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About Tempo Studio"), this, &MainWindow::about)->setMenuRole(QAction::AboutRole);
  help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt)->setMenuRole(QAction::AboutQtRole);
}

QMenu* MainWindow::buildExamplesMenu() {
  auto* menu = new QMenu(tr("E&xamples"), this);
  std::vector<ExampleGroup> groups = listExamples(examplesDir_);
  if (groups.empty()) menu->addAction(tr("(no examples found)"))->setEnabled(false);
  for (const ExampleGroup& group : groups) {
    QMenu* target = menu;
    if (!group.title.isEmpty()) target = menu->addMenu(group.title);
    for (const QString& path : group.files)
      target->addAction(QFileInfo(path).fileName(), this, [this, path] {
        if (maybeSave()) openFile(path);
      });
  }
  return menu;
}

void MainWindow::connectViews() {
  connect(editor_, &QsciScintilla::textChanged, this, [this] { document_->setText(editor_->text()); });
  connect(document_, &ProgramDocument::textReplaced, this, [this](const QString& text) {
    QSignalBlocker block(editor_);
    editor_->setText(text);
    editor_->setModified(false);
    editor_->setCursorPosition(0, 0);
  });
  connect(document_, &ProgramDocument::compiled, this, &MainWindow::onCompiled);
  connect(document_, &ProgramDocument::checkStarted, this, [this] { checkStatus_->setText(tr("Checking…")); });
  connect(document_, &ProgramDocument::modifiedChanged, this, &MainWindow::updateTitle);
  connect(document_, &ProgramDocument::filePathChanged, this, &MainWindow::updateTitle);
  connect(document_, &ProgramDocument::filePathChanged, this, &MainWindow::updateRunStore);
  connect(runPanel_, &RunPanel::runRecorded, this, [this](const QString&, qint64 id) {
    profilerWidget_->refresh();
    profilerWidget_->openRun(id);  // every recorded run opens in the profiler; Profile also shows it
    if (!runPanel_->lastRunWasProfile()) return;
    showView(QStringLiteral("profiler"));
    if (profilerDock_->height() < height() / 2) resizeDocks({profilerDock_}, {height() * 11 / 20}, Qt::Vertical);  // room for a timeline
  });
  connect(profilerWidget_, &ProfilerPanel::sourceActivated, editor_, &CodeEditor::selectRange);
  connect(editor_, &CodeEditor::cursorLineChanged, profilerWidget_, &ProfilerPanel::highlightLine);
  connect(profilerWidget_, &ProfilerPanel::runOpened, this, [this] {
    std::map<int, LineHeat> heat;  // the opened run's time per line, in the editor's margin
    const double wall = static_cast<double>(std::max<int64_t>(profilerWidget_->openedWallNs(), 1));
    for (const auto& [line, ns] : profilerWidget_->lineTimes())
      heat[line] = {QString::fromStdString(formatDuration(ns)), static_cast<double>(ns) / wall};
    editor_->setLineHeat(heat);
  });
  connect(document_, &ProgramDocument::filePathChanged, editor_, [this] { editor_->setLineHeat({}); });
  connect(problems_, &ProblemsPanel::problemActivated, editor_, &CodeEditor::selectRange);
  connect(editor_, &CodeEditor::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m, 4000); });
  connect(editor_, &QsciScintilla::cursorPositionChanged, this, [this](int line, int index) {
    cursorStatus_->setText(tr("Ln %1, Col %2").arg(line + 1).arg(index + 1));
  });
  auto selectSource = [this](int, int line, int col, int endLine, int endCol) {
    editor_->selectRange(line, col, endLine, endCol);
  };
  connect(graphWidget_, &GraphView::nodeActivated, this, selectSource);
  connect(editor_, &CodeEditor::cursorLineChanged, graphWidget_, &GraphView::highlightSourceLine);
  connect(passesWidget_, &PassStepper::nodeActivated, this, selectSource);
  connect(scheduleWidget_, &ScheduleView::nodeActivated, this, selectSource);
  // A compiled run follows the schedule as the schedule view shows it (transforms by hand, block size).
  connect(scheduleWidget_, &ScheduleView::scheduleReady, this, [this] {
    runPanel_->setSchedule(scheduleWidget_->transformBar()->appliedText(), scheduleWidget_->blockSize());
  });
  connect(runPanel_, &RunPanel::runFinished, this, [this](bool ok) {
    const RunOutcome& outcome = runPanel_->lastOutcome();
    lessonsWidget_->runFinished({ok, outcome.engine == Engine::Compiled, outcome.peakBytes});
  });
}

void MainWindow::onCompiled(const CheckedProgram& result) {
  editor_->setDiagnostics(result->diags.items());
  problems_->setDiagnostics(result->diags);
  runPanel_->setProgram(result);
  graphWidget_->setGraph(std::shared_ptr<const Graph>(result, &result->graph));  // shares the check: no copy
  passesWidget_->setProgram(result);
  scheduleWidget_->setProgram(result);
  size_t errors = result->diags.errorCount();
  size_t others = static_cast<size_t>(problems_->problemCount()) - errors;
  problemsDock_->setWindowTitle(problems_->problemCount() ? tr("Problems (%1)").arg(problems_->problemCount()) : tr("Problems"));
  QString graphSize = tr("%1 nodes, %2 edges").arg(result->graph.nodes().size()).arg(result->graph.edges().size());
  auto count = [](size_t n, const QString& one, const QString& many) { return (n == 1 ? one : many).arg(n); };
  if (errors) checkStatus_->setText(QStringLiteral("✗ ") + count(errors, tr("%1 error"), tr("%1 errors")));
  else if (others) checkStatus_->setText(QStringLiteral("⚠ ") + count(others, tr("%1 warning"), tr("%1 warnings")) + QStringLiteral(" · ") + graphSize);
  else checkStatus_->setText(tr("✓ No problems · %1").arg(graphSize));
}

void MainWindow::updateTitle() {
  setWindowTitle(QStringLiteral("%1[*] — %2").arg(document_->displayName(), QLatin1String(kApplicationName)));
  setWindowModified(document_->isModified());
  setWindowFilePath(document_->filePath());
}

void MainWindow::updateRunStore() {
  // A saved program's runs go next to it (as `tempo profile` records them); an unsaved one's to the studio's data folder.
  const QString program = document_->filePath();
  const QString db = program.isEmpty()
                         ? QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/untitled-runs.db")
                         : QString::fromStdString(defaultRunStorePath(program.toStdString()));
  runPanel_->setRunStore(db, program);
  profilerWidget_->setStore(db, program.isEmpty() ? QStringLiteral("untitled.tpo") : program);
}

bool MainWindow::isBusy() const { return viewsBusy() || lessonsWidget_->hasPendingActions(); }

bool MainWindow::viewsBusy() const {
  return document_->isChecking() || runPanel_->isRunning() || graphWidget_->layoutPending() ||
         passesWidget_->isBusy() || scheduleWidget_->isCompiling();
}

bool MainWindow::openFile(const QString& path, bool quiet) {
  QString error;
  if (!document_->load(path, error)) {
    if (!quiet) QMessageBox::warning(this, tr("Open"), error);
    return false;
  }
  RecentFiles::add(path);
  return true;
}

QDockWidget* MainWindow::viewDock(const QString& name) const {
  return name == QLatin1String("graph")      ? graphDock_
         : name == QLatin1String("passes")   ? passesDock_
         : name == QLatin1String("schedule") ? scheduleDock_
         : name == QLatin1String("run")      ? runDock_
         : name == QLatin1String("problems") ? problemsDock_
         : name == QLatin1String("profiler") ? profilerDock_
         : name == QLatin1String("lessons")  ? lessonsDock_
                                             : nullptr;
}

bool MainWindow::showView(const QString& name) {
  QDockWidget* dock = viewDock(name);
  if (!dock) return false;
  const bool opening = dock == lessonsDock_ && !dock->isVisible();
  dock->show();
  dock->raise();
  if (opening) resizeDocks({lessonsDock_}, {std::max(360, width() / 4)}, Qt::Horizontal);
  return true;
}

void MainWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  for (const QString& path : RecentFiles::files())
    recentMenu_->addAction(QFileInfo(path).fileName(), this, [this, path] {
      if (maybeSave()) openFile(path);
    })->setToolTip(path);
  if (recentMenu_->isEmpty()) recentMenu_->addAction(tr("(none)"))->setEnabled(false);
  else recentMenu_->addSeparator(), recentMenu_->addAction(tr("Clear List"), [] { RecentFiles::clear(); });
}

bool MainWindow::maybeSave() {
  if (!document_->isModified()) return true;
  auto answer = QMessageBox::question(this, tr("Unsaved changes"),
                                      tr("%1 has unsaved changes. Save them?").arg(document_->displayName()),
                                      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
  if (answer == QMessageBox::Save) return save();
  return answer == QMessageBox::Discard;
}

void MainWindow::newFile() {
  if (maybeSave()) document_->clear();
}

void MainWindow::openDialog() {
  if (!maybeSave()) return;
  QString start = document_->filePath().isEmpty() ? examplesDir_ : QFileInfo(document_->filePath()).absolutePath();
  QString path = QFileDialog::getOpenFileName(this, tr("Open program"), start, tr("Tempo programs (*.tpo);;All files (*)"));
  if (!path.isEmpty()) openFile(path);
}

bool MainWindow::save() {
  if (document_->filePath().isEmpty()) return saveAs();
  QString error;
  if (!document_->saveAs(document_->filePath(), error)) {
    QMessageBox::warning(this, tr("Save"), error);
    return false;
  }
  statusBar()->showMessage(tr("Saved %1").arg(document_->filePath()), 3000);
  return true;
}

bool MainWindow::saveAs() {
  QString path = QFileDialog::getSaveFileName(this, tr("Save program as"), document_->filePath(),
                                              tr("Tempo programs (*.tpo)"));
  if (path.isEmpty()) return false;
  QString error;
  if (!document_->saveAs(path, error)) {
    QMessageBox::warning(this, tr("Save As"), error);
    return false;
  }
  RecentFiles::add(path);
  return true;
}

void MainWindow::about() { QMessageBox::about(this, tr("About Tempo Studio"), aboutText()); }

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!maybeSave()) {
    event->ignore();
    return;
  }
  if (options_.restoreSettings) {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
  }
  event->accept();
}

}  // namespace tempo::views
