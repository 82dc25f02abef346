// MainWindow: starts fast, opens every example without problems, wires the
// problems list to the editor, raises views by name, lists the examples, and
// stays responsive while the largest example is re-checked.
#include "DocumentTestSupport.h"

#include "common/MainWindow.h"
#include "editor/CodeEditor.h"
#include "editor/ProblemsPanel.h"
#include "run/RunPanel.h"

#include <QDockWidget>
#include <QElapsedTimer>
#include <QMenuBar>
#include <QStandardPaths>

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

CompiledProgram openAndWait(MainWindow& window, const QString& path) {
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
      CompiledProgram result = openAndWait(window, path);
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
    CompiledProgram result = waitForCheck(*window.document(), [&] {
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

  void viewsAndMenus() {
    MainWindow window(testOptions());
    window.show();
    for (const char* view : {"graph", "passes", "schedule", "run", "problems"}) QVERIFY(window.showView(QLatin1String(view)));
    QVERIFY(!window.showView(QStringLiteral("nope")));
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

  void editingStaysResponsiveDuringARecheck() {
    MainWindow window(testOptions());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, examplesDir() + QStringLiteral("/gpt_decode.tpo")));
    QElapsedTimer clock;
    qint64 last = 0, maxGap = 0;
    QTimer ticker;
    ticker.setInterval(5);
    connect(&ticker, &QTimer::timeout, [&] {
      qint64 now = clock.elapsed();
      maxGap = std::max(maxGap, now - last);
      last = now;
    });
    QSignalSpy started(window.document(), &ProgramDocument::checkStarted);
    clock.start();
    ticker.start();
    CompiledProgram result = waitForCheck(*window.document(), [&] {
      window.editor()->setCursorPosition(window.editor()->lines() - 1, 0);
      for (char c : QByteArray("# typing a comment")) QTest::keyClick(window.editor(), c), QTest::qWait(10);
    });
    ticker.stop();
    QVERIFY(result && result->ok());
    QVERIFY(started.size() >= 1);
    QVERIFY(window.document()->text().contains(QStringLiteral("# typing a comment")));
    qInfo("longest UI-thread stall during the re-check of gpt_decode.tpo: %lld ms (over %lld ms)", maxGap, clock.elapsed());
    QVERIFY2(maxGap < 50, qPrintable(QStringLiteral("%1 ms").arg(maxGap)));
  }
};

QTEST_MAIN(MainWindowTest)
#include "MainWindowTest.moc"
