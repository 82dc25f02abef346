// MainWindow: starts fast, opens every example without problems, wires the
// problems list to the editor, raises views by name, lists the examples, and
// stays responsive while the largest example is re-checked.
#include "DocumentTestSupport.h"

#include "common/MainWindow.h"
#include "common/RecentFiles.h"
#include "common/StudioInfo.h"
#include "editor/CodeEditor.h"
#include "editor/ProblemsPanel.h"
#include "graph/GraphView.h"
#include "run/RunPanel.h"

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTimer>

#include <ctime>
#include <limits>

using namespace tempo;
using namespace tempo::views;
using namespace tempo::views::testing;

namespace {
MainWindow::Options testOptions() {
  MainWindow::Options options;
  options.exampleDirs = {examplesDir()};
  options.restoreSettings = false;
  return options;
}

/// Ticks every 5 ms on the UI thread and keeps the longest gap between ticks,
/// in wall time and in the UI thread's CPU time.
struct StallMeter {
  StallMeter() {
    wall_.start();
    lastWall_ = 0;
    lastCpu_ = cpuMs();
    QObject::connect(&timer_, &QTimer::timeout, [this] {
      qint64 now = wall_.elapsed(), cpu = cpuMs();
      maxWallMs = std::max(maxWallMs, now - lastWall_);
      maxCpuMs = std::max(maxCpuMs, cpu - lastCpu_);
      lastWall_ = now;
      lastCpu_ = cpu;
    });
    timer_.start(5);
  }
  void stop() { timer_.stop(); }
  qint64 totalMs() const { return wall_.elapsed(); }
  static qint64 cpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<qint64>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
  }

  qint64 maxWallMs = 0;
  qint64 maxCpuMs = 0;

private:
  QElapsedTimer wall_;
  QTimer timer_;
  qint64 lastWall_ = 0;
  qint64 lastCpu_ = 0;
};

CheckedProgram openAndWait(MainWindow& window, const QString& path) {
  return waitForCheck(*window.document(), [&] { QVERIFY(window.openFile(path, true)); });
}
}  // namespace

class MainWindowTest : public QObject {
  Q_OBJECT
private Q_SLOTS:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void constructsAndShowsUnderOneSecond() {
    QElapsedTimer timer;
    timer.start();
    MainWindow window(testOptions());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    qint64 ms = timer.elapsed();
    qInfo("construct + show: %lld ms", ms);
    QVERIFY2(ms < 1000, qPrintable(QStringLiteral("%1 ms").arg(ms)));
  }

  void everyExampleOpensWithoutProblems() {
    MainWindow window(testOptions());
    window.show();
    for (const QString& path : allExamples()) {
      // Known bug (docs/studio.md): Graphviz frees an invalid pointer laying out the
      // fusion-grouped graphs of the REINFORCE examples; left out until it is fixed.
      if (path.contains(QStringLiteral("/rl/"))) continue;
      CheckedProgram result = openAndWait(window, path);
      QVERIFY2(result, qPrintable(path));
      QVERIFY2(result->diags.empty(), qPrintable(QString::fromStdString(result->renderedDiagnostics())));
      QCOMPARE(window.problems()->problemCount(), 0);
      QVERIFY(window.editor()->diagnostics().empty());
      QCOMPARE(window.editor()->text(), window.document()->text());
      QVERIFY(window.windowTitle().contains(QFileInfo(path).fileName()));
    }
  }

  void seededErrorReachesProblemsAndEditor() {
    MainWindow window(testOptions());
    window.show();
    QVERIFY(openAndWait(window, examplesDir() + QStringLiteral("/small/counter.tpo")));
    CodeEditor* editor = window.editor();
    int line = -1;
    for (int i = 0; i < editor->lines(); ++i)
      if (editor->text(i).startsWith(QStringLiteral("c[t] = c[t-1]"))) line = i;
    QVERIFY(line >= 0);
    CheckedProgram result = waitForCheck(*window.document(), [&] {
      editor->setSelection(line, 9, line, 10);  // the '-' of c[t-1]
      editor->replaceSelectedText(QStringLiteral("+"));
    });
    QVERIFY(result && result->diags.hasErrors());
    QVERIFY(window.problems()->problemCount() >= 1);
    QVERIFY(window.problems()->topLevelItem(0)->text(1).startsWith(QString::number(line + 1) + QLatin1Char(':')));
    int begin = editor->positionOf(result->diags.sorted().front().range.begin);
    QVERIFY(editor->hasIndicatorAt(CodeEditor::indicatorFor(Severity::Error), begin));
    QVERIFY(window.isWindowModified());
  }

  void graphNodeClicksSelectTheirSource() {
    MainWindow window(testOptions());
    window.show();
    CheckedProgram result = openAndWait(window, examplesDir() + QStringLiteral("/rnn.tpo"));
    QVERIFY(result);
    const Node* tanh = nullptr;  // the recurrent branch's tanh(...) on line 17
    for (const auto& [id, node] : result->graph.nodes())
      if (node.op == OpKind::Tanh && node.loc.begin.line == 17) tanh = &node;
    QVERIFY(tanh);
    const SourceRange& r = tanh->loc;
    bool ok = QMetaObject::invokeMethod(window.graphWidget(), "nodeActivated", Q_ARG(int, tanh->id), Q_ARG(int, r.begin.line),
                                        Q_ARG(int, r.begin.col), Q_ARG(int, r.end.line), Q_ARG(int, r.end.col));
    if (!ok) QSKIP("the graph view is not built in");
    QVERIFY(window.editor()->selectedText().startsWith(QStringLiteral("tanh(x[b, t] @ W")));
    QCOMPARE(window.editor()->cursorLine(), 17);
  }

  void recentFilesAndAbout() {
    RecentFiles::clear();
    MainWindow window(testOptions());
    QVERIFY(openAndWait(window, examplesDir() + QStringLiteral("/rnn.tpo")));
    QVERIFY(openAndWait(window, examplesDir() + QStringLiteral("/returns.tpo")));
    QStringList recent = RecentFiles::files();
    QCOMPARE(recent.size(), 2);
    QVERIFY(recent[0].endsWith(QStringLiteral("returns.tpo")));
    QVERIFY(recent[1].endsWith(QStringLiteral("rnn.tpo")));
    QVERIFY(!window.openFile(examplesDir() + QStringLiteral("/no_such_file.tpo"), true));
    QCOMPARE(RecentFiles::files().size(), 2);
    QString about = aboutText();
    QVERIFY(about.contains(QLatin1String(qVersion())));
    QVERIFY(about.contains(QStringLiteral("isl-0.25")));
    QVERIFY(about.contains(QLatin1String(kStudioVersion)));
    RecentFiles::clear();
  }

  void viewsAndMenus() {
    MainWindow window(testOptions());
    window.show();
    for (const char* view : {"graph", "passes", "schedule", "run", "problems"}) QVERIFY(window.showView(QLatin1String(view)));
    QVERIFY(!window.showView(QStringLiteral("nope")));
    // The window fits a 1366x768 laptop screen whatever its views' own minimum sizes.
    QVERIFY2(window.minimumSizeHint().width() <= 1366 && window.minimumSizeHint().height() <= 768,
             qPrintable(QStringLiteral("%1x%2").arg(window.minimumSizeHint().width()).arg(window.minimumSizeHint().height())));
    QStringList menus;
    for (QAction* a : window.menuBar()->actions()) menus << a->text().remove(QLatin1Char('&'));
    QCOMPARE(menus, (QStringList{"File", "Edit", "Examples", "Run", "View", "Help"}));
    QMenu* examples = window.menuBar()->actions()[2]->menu();
    QStringList names;
    for (QAction* a : examples->actions()) {
      if (a->menu())
        for (QAction* sub : a->menu()->actions()) names << sub->text();
      else names << a->text();
    }
    QCOMPARE(names.size(), allExamples().size());
    QVERIFY(names.contains(QStringLiteral("gpt_decode.tpo")));
    QVERIFY(names.contains(QStringLiteral("counter.tpo")));
  }

  void followsADarkPalette() {
    QPalette light = QApplication::palette();
    QPalette dark = light;
    dark.setColor(QPalette::Window, QColor(45, 45, 48));
    dark.setColor(QPalette::WindowText, QColor(220, 220, 220));
    dark.setColor(QPalette::Base, QColor(30, 30, 30));
    dark.setColor(QPalette::AlternateBase, QColor(40, 40, 42));
    dark.setColor(QPalette::Text, QColor(220, 220, 220));
    dark.setColor(QPalette::Button, QColor(50, 50, 52));
    dark.setColor(QPalette::ButtonText, QColor(220, 220, 220));
    dark.setColor(QPalette::Highlight, QColor(38, 79, 120));
    MainWindow window(testOptions());
    window.show();
    QVERIFY(openAndWait(window, examplesDir() + QStringLiteral("/rnn.tpo")));
    QApplication::setPalette(dark);  // a theme change while the studio runs
    QCoreApplication::processEvents();
    QsciLexer* lexer = window.editor()->lexer();
    QCOMPARE(lexer->paper(0), dark.color(QPalette::Base));
    for (int style = 0; style < 8; ++style)  // every style stays readable on the dark paper
      QVERIFY2(std::abs(lexer->color(style).lightness() - lexer->paper(style).lightness()) > 90, qPrintable(QString::number(style)));
    if (qEnvironmentVariableIsSet("TEMPO_TEST_SHOT_DIR"))
      window.grab().save(qEnvironmentVariable("TEMPO_TEST_SHOT_DIR") + QStringLiteral("/studio-dark.png"));
    QApplication::setPalette(light);
  }

  // The UI thread is never blocked for 50 ms or more while the largest example is
  // re-checked: from the first keystroke of an edit until the new check is shown
  // (problems, squiggles, graph layout). A 5 ms timer records the longest gap
  // between its ticks (wall time) and the UI thread's own CPU time in that gap.
  // The machine is shared, so a gap can also be the scheduler running someone
  // else: the wall-time bound must hold in one of three edits, and the CPU-time
  // bound (work the UI thread itself did) in every one.
  void editingStaysResponsiveDuringARecheck() {
    MainWindow window(testOptions());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, examplesDir() + QStringLiteral("/gpt_decode.tpo")));
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 20000);  // the first graph layout is on screen
    qint64 bestWall = std::numeric_limits<qint64>::max();
    for (int attempt = 0; attempt < 3 && bestWall >= 50; ++attempt) {
      StallMeter meter;
      CheckedProgram result = waitForCheck(*window.document(), [&] {
        window.editor()->setCursorPosition(window.editor()->lines() - 1, 0);
        for (char c : QByteArray("# typing a comment")) QTest::keyClick(window.editor(), c), QTest::qWait(10);
        QTest::keyClick(window.editor(), Qt::Key_Return);
      });
      QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 20000);  // the graph's new layout is installed too
      meter.stop();
      QVERIFY(result && result->ok());
      QCOMPARE(QString::fromStdString(result->source), window.editor()->text());
      qInfo("re-check of gpt_decode.tpo, edit %d: longest UI-thread stall %lld ms wall, %lld ms of UI-thread CPU "
            "(over %lld ms)", attempt + 1, meter.maxWallMs, meter.maxCpuMs, meter.totalMs());
      QVERIFY2(meter.maxCpuMs < 50, qPrintable(QStringLiteral("%1 ms of UI-thread CPU").arg(meter.maxCpuMs)));
      bestWall = std::min(bestWall, meter.maxWallMs);
    }
    QVERIFY2(bestWall < 50, qPrintable(QStringLiteral("%1 ms").arg(bestWall)));
  }
};

QTEST_MAIN(MainWindowTest)
#include "MainWindowTest.moc"
