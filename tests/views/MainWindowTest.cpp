// MainWindow: starts fast, opens every example without problems, wires the
// problems list to the editor, raises views by name, lists the examples, and
// stays responsive while the largest example is re-checked.
#include "MainWindowTestSupport.h"

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
#include <QThreadPool>
#include <QTimer>

#include <cstdio>
#include <ctime>
#include <limits>

using namespace tempo;
using namespace tempo::views;
using namespace tempo::views::testing;

namespace {

/// Ticks every 5 ms on the UI thread and keeps, for the longest gap between
/// ticks (wall time): the UI thread's own CPU time in it, and the time it
/// waited runnable for a core (the kernel's run delay, /proc/thread-self/schedstat).
/// What is left of a gap is time the thread slept: waiting on a lock, a
/// future or I/O, besides the timer's own period.
struct StallMeter {
  StallMeter() {
    wall_.start();
    last_ = sample(0);
    QObject::connect(&timer_, &QTimer::timeout, [this] {
      Sample now = sample(wall_.elapsed());
      qint64 wall = now.wallMs - last_.wallMs, cpu = now.cpuMs - last_.cpuMs, waiting = now.runDelayMs - last_.runDelayMs;
      if (wall > maxWallMs) maxWallMs = wall, cpuInMax = cpu, runDelayInMax = waiting;
      maxCpuMs = std::max(maxCpuMs, cpu);
      maxSleepMs = std::max(maxSleepMs, wall - cpu - waiting);
      if (QThreadPool::globalInstance()->activeThreadCount() == 0) globalPoolBusySince_ = -1;
      else if (globalPoolBusySince_ < 0) globalPoolBusySince_ = now.wallMs;
      else maxGlobalPoolBusyMs = std::max(maxGlobalPoolBusyMs, now.wallMs - globalPoolBusySince_);
      last_ = now;
    });
    timer_.start(5);
  }
  void stop() { timer_.stop(); }
  qint64 totalMs() const { return wall_.elapsed(); }

  qint64 maxWallMs = 0;      ///< the longest gap between ticks
  qint64 cpuInMax = 0;       ///< the UI thread's CPU time in that gap
  qint64 runDelayInMax = 0;  ///< its time runnable but not on a core in that gap
  qint64 maxCpuMs = 0;       ///< the most CPU time the UI thread spent in one gap
  qint64 maxSleepMs = 0;     ///< the longest the UI thread slept in one gap (the timer's period included)
  /// The longest Qt's global pool stayed busy, from tick to tick: Qt's own
  /// painting uses it for moments, a check or a layout would hold it for seconds.
  qint64 maxGlobalPoolBusyMs = 0;

private:
  struct Sample {
    qint64 wallMs, cpuMs, runDelayMs;
  };
  static Sample sample(qint64 wallMs) {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    qint64 cpu = static_cast<qint64>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
    unsigned long long onCpuNs = 0, runDelayNs = 0;
    if (FILE* f = std::fopen("/proc/thread-self/schedstat", "r")) {
      if (std::fscanf(f, "%llu %llu", &onCpuNs, &runDelayNs) != 2) runDelayNs = 0;
      std::fclose(f);
    }
    return {wallMs, cpu, static_cast<qint64>(runDelayNs / 1000000)};
  }
  QElapsedTimer wall_;
  QTimer timer_;
  Sample last_{};
  qint64 globalPoolBusySince_ = -1;
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
  // (problems, squiggles, graph layout, schedule, iteration space). A 5 ms
  // timer measures the gaps between its ticks. In every edit, the UI thread's
  // own work in a gap stays under 50 ms of CPU and it never sleeps 50 ms
  // (waiting on a lock, a future, I/O). The whole gap, wall time, is also under
  // 50 ms in one of three edits: the machine is shared, and a gap can also be
  // the kernel running someone else (its run delay is reported).
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
      QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 20000);  // every view shows the new check
      meter.stop();
      QVERIFY(result && result->ok());
      QCOMPARE(QString::fromStdString(result->source), window.editor()->text());
      qInfo("re-check of gpt_decode.tpo, edit %d: longest UI-thread gap %lld ms wall (%lld ms on a core, %lld ms "
            "waiting for one); most UI-thread CPU in a gap %lld ms, longest sleep %lld ms (over %lld ms)",
            attempt + 1, meter.maxWallMs, meter.cpuInMax, meter.runDelayInMax, meter.maxCpuMs, meter.maxSleepMs,
            meter.totalMs());
      QVERIFY2(meter.maxCpuMs < 50, qPrintable(QStringLiteral("%1 ms of UI-thread CPU").arg(meter.maxCpuMs)));
      // The studio's work stays off Qt's global pool: the raster engine paints with it and waits.
      QVERIFY2(meter.maxGlobalPoolBusyMs < 50, qPrintable(QStringLiteral("global pool busy %1 ms").arg(meter.maxGlobalPoolBusyMs)));
      QVERIFY2(meter.maxSleepMs < 50, qPrintable(QStringLiteral("the UI thread slept %1 ms").arg(meter.maxSleepMs)));
      bestWall = std::min(bestWall, meter.maxWallMs);
    }
    QVERIFY2(bestWall < 50, qPrintable(QStringLiteral("%1 ms").arg(bestWall)));
  }
};

QTEST_MAIN(MainWindowTest)
#include "MainWindowTest.moc"
