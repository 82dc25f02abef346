// The studio's profiler: Run > Profile records a traced run next to the program and opens it;
// the timeline holds one span per statement instance, the memory view's measured curve is the
// executor's events (the same live bytes, event for event, as a run of the same program here),
// the statistics table has a row per node; a click on a span selects its source range in the
// editor and a cursor line highlights its spans; two runs compare side by side.
#include "MainWindowTestSupport.h"

#include "common/MainWindow.h"
#include "editor/CodeEditor.h"
#include "executor/CompiledEngine.h"
#include "pass/PassRegistry.h"
#include "profiler/MemoryChart.h"
#include "profiler/ProfilerPanel.h"
#include "profiler/RunComparison.h"
#include "profiler/StatisticsTable.h"
#include "profiler/TimelineView.h"
#include "run/RunPanel.h"
#include "runstore/RunStore.h"

#include <QChart>
#include <QFile>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>

#include <filesystem>

using namespace tempo;
using namespace tempo::views;
using namespace tempo::views::testing;

namespace {

qint64 profileAndWait(MainWindow& window) {
  QSignalSpy recorded(window.runPanel(), &RunPanel::runRecorded);
  window.runPanel()->profile();
  if (!recorded.wait(120000)) return 0;
  return recorded[0][1].toLongLong();
}

}  // namespace

class ProfilerPanelTest : public QObject {
  Q_OBJECT
private Q_SLOTS:
  void aProfiledRunOpensInEveryView() {
    QTemporaryDir dir;
    const QString program = dir.path() + QStringLiteral("/rnn_peer.tpo");
    QVERIFY(QFile::copy(QStringLiteral(TEMPO_SOURCE_DIR "/bench/programs/rnn_peer.tpo"), program));
    MainWindow window(testOptions());
    window.resize(1300, 900);
    CheckedProgram checked = waitForCheck(*window.document(), [&] { QVERIFY(window.openFile(program, true)); });
    QVERIFY(checked && checked->ok());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    const qint64 id = profileAndWait(window);
    QVERIFY(id > 0);
    ProfilerPanel* panel = window.profilerWidget();
    QCOMPARE(panel->openedRun(), id);
    const std::string db = (dir.path() + QStringLiteral("/.tempo/runs.db")).toStdString();
    QCOMPARE(panel->storePath().toStdString(), db);
    RunStore store(db);
    std::optional<StoredRun> run = store.run(id);
    QVERIFY(run && run->status == "ok");
    QCOMPARE(panel->runsTable()->rowCount(), 1);

    // Timeline: every statement instance, as the levels of detail count them.
    QCOMPARE(panel->timeline()->levels().spanCount(), run->instances);
    QCOMPARE(panel->timeline()->levels().countIn(0, panel->timeline()->levels().endNs() + 1), run->instances);

    // Memory: the measured curve is the executor's events, live byte for live byte.
    CompiledProgram compiled = compileProgram(checked->graph, defaultPipeline());
    CompiledRunResult again = runCompiled(compiled, {});
    const std::vector<MemoryEvent>& events = again.measuredTimeline.events();
    auto* measured = qobject_cast<QLineSeries*>(panel->memory()->chart()->series().at(1));
    QVERIFY(measured);
    QCOMPARE(panel->memory()->measuredPoints(), static_cast<int>(events.size()));
    QCOMPARE(measured->count(), static_cast<qsizetype>(2 * events.size()));  // steps: before and after each event
    for (size_t i = 0; i < events.size(); ++i)
      QCOMPARE(measured->at(static_cast<int>(2 * i + 1)).y(), static_cast<double>(events[i].liveBytes));
    QCOMPARE(panel->memory()->peakBytes(), static_cast<double>(again.stats.peakBytes));
    // The stores live at the peak hold at least the peak (each listed at its own measured peak).
    qInfo("live at the peak: %d stores, %lld bytes; measured peak %lld", panel->memory()->liveStores()->rowCount(),
          static_cast<long long>(panel->memory()->liveStoresBytes()), static_cast<long long>(again.stats.peakBytes));
    QVERIFY(panel->memory()->liveStores()->rowCount() > 0);
    QVERIFY(panel->memory()->liveStoresBytes() >= again.stats.peakBytes);
    const int atPeak = panel->memory()->liveStores()->rowCount();
    panel->memory()->showLiveStores(0, 1e12);  // the whole run: every store
    QVERIFY(panel->memory()->liveStores()->rowCount() >= atPeak);

    // The editor's heat margin: the run's time per source line.
    const std::map<int, LineHeat>& heat = window.editor()->lineHeat();
    QVERIFY(heat.count(21));  // h[t, b] = tanh(x[t, b] @ W + h[t-1, b] @ U + bias)
    double shares = 0;
    for (const auto& [line, h] : heat) {
      shares += h.share;
      QVERIFY(!h.text.isEmpty());
    }
    QVERIFY(shares > 0.5 && shares <= 1.0 + 1e-9);

    // Statistics: a row per node that ran, with the time inside generated code where a kernel ran.
    QCOMPARE(panel->statistics()->table()->rowCount(), static_cast<int>(store.nodes(id).size()));
    QTableWidget* stats = panel->statistics()->table();
    int inCode = -1;
    for (int c = 0; c < stats->columnCount(); ++c)
      if (stats->horizontalHeaderItem(c)->text() == QStringLiteral("in code")) inCode = c;
    QVERIFY(inCode >= 0);
    bool timed = false;
    for (int r = 0; r < stats->rowCount(); ++r) timed |= stats->item(r, inCode)->text() != QStringLiteral("-");
    QVERIFY(timed);

    // A span -> its node's source range in the editor.
    TimelineView* timeline = panel->timeline();
    panel->showTab(QStringLiteral("timeline"));
    timeline->repaint();
    std::optional<QPoint> hit;
    for (int x = 10; x < timeline->width() - 10 && !hit; x += 2)
      if (std::optional<StoredSpan> s = timeline->spanAt(QPoint(x, 60))) {
        for (const StoredNode& n : store.nodes(id))
          if (n.node == s->node && n.line > 0) hit = QPoint(x, 60);
      }
    QVERIFY(hit);
    const StoredSpan span = *timeline->spanAt(*hit);
    int line = 0;
    for (const StoredNode& n : store.nodes(id))
      if (n.node == span.node) line = n.line;
    QTest::mouseClick(timeline, Qt::LeftButton, {}, *hit);
    int fromLine = 0, fromCol = 0, toLine = 0, toCol = 0;
    window.editor()->getSelection(&fromLine, &fromCol, &toLine, &toCol);
    QCOMPARE(fromLine + 1, line);  // QScintilla counts lines from 0
    QCOMPARE(timeline->selectedNode(), span.node);
    // ... and a cursor line -> the spans of its nodes.
    window.editor()->setCursorPosition(20, 0);  // line 21: h[t, b] = tanh(x[t, b] @ W + h[t-1, b] @ U + bias)
    QTRY_COMPARE(timeline->selectedLine(), 21);  // QScintilla reports cursor moves on its next update

    // A selected instance shows its flows: the spans that read its value and those whose values it read.
    const std::vector<StoredFlow> allFlows = store.flows(id);
    QVERIFY(!allFlows.empty());
    StoredSpan reader;
    reader.node = allFlows.back().consumerNode;
    reader.startNs = allFlows.back().consumerStartNs;
    timeline->selectSpan(reader);
    QCOMPARE(timeline->flows().size(), store.flows(id, reader.node, reader.startNs).size());
    QVERIFY(!timeline->flows().empty());
    timeline->repaint();  // the arrows draw
    if (qEnvironmentVariableIsSet("TEMPO_TEST_SHOT_DIR")) {  // for looking at it
      timeline->setWindow(reader.startNs - 400'000.0, reader.startNs + 100'000.0);
      timeline->grab().save(qEnvironmentVariable("TEMPO_TEST_SHOT_DIR") + QStringLiteral("/profiler-flows.png"));
    }

    // The top-level loops' iterations are a track of their own; a click on one zooms to it.
    QCOMPARE(timeline->steps().size(), store.steps(id).size());
    QVERIFY(!timeline->steps().empty());
    timeline->showAll();
    std::optional<StoredStep> step;
    QPoint stepPos;
    for (int x = 10; x < timeline->width() - 10 && !step; x += 1)
      if ((step = timeline->stepAt(QPoint(x, 31)))) stepPos = QPoint(x, 31);
    QVERIFY(step);
    QTest::mouseClick(timeline, Qt::LeftButton, {}, stepPos);
    QVERIFY(timeline->windowStart() <= step->startNs && timeline->windowEnd() >= step->endNs);
    QVERIFY(timeline->windowEnd() - timeline->windowStart() <= 1.05 * (step->endNs - step->startNs) + 20);

    // A second run, compared with the first.
    const qint64 second = profileAndWait(window);
    QVERIFY(second > id);
    QCOMPARE(panel->runsTable()->rowCount(), 2);
    QVERIFY(panel->compareRuns(id, second));
    QCOMPARE(panel->tabs()->currentWidget(), static_cast<QWidget*>(panel->comparison()));
    QVERIFY(panel->comparison()->timelineA()->hasTrace() && panel->comparison()->timelineB()->hasTrace());
    QCOMPARE(panel->comparison()->timelineA()->extent(), panel->comparison()->timelineB()->extent());
    const QString text = panel->comparison()->diffText()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("by node:")), qPrintable(text));
    // One scale: zooming A moves B.
    panel->comparison()->timelineA()->zoom(4, 100);
    QCOMPARE(panel->comparison()->timelineB()->windowStart(), panel->comparison()->timelineA()->windowStart());
    QCOMPARE(panel->comparison()->timelineB()->windowEnd(), panel->comparison()->timelineA()->windowEnd());
    // A plain Run on the compiled engine is recorded too (and opens in the profiler).
    QSignalSpy recorded(window.runPanel(), &RunPanel::runRecorded);
    window.runPanel()->setEngine(Engine::Compiled);
    window.runPanel()->run();
    QVERIFY(recorded.wait(120000));
    QVERIFY(!window.runPanel()->lastRunWasProfile());
    QCOMPARE(panel->openedRun(), recorded[0][1].toLongLong());
    QCOMPARE(store.run(panel->openedRun())->header.label, std::string("studio run"));
    if (qEnvironmentVariableIsSet("TEMPO_TEST_SHOT_DIR")) {  // for looking at it
      panel->showTab(QStringLiteral("compare"));
      window.grab().save(qEnvironmentVariable("TEMPO_TEST_SHOT_DIR") + QStringLiteral("/profiler-compare.png"));
    }
  }

  void everyExampleProfilesFromTheStudio() {
    QTemporaryDir dir;  // a copy of the examples (with their data), so no run store lands in the source tree
    std::filesystem::copy(examplesDir().toStdString(), dir.path().toStdString(), std::filesystem::copy_options::recursive);
    MainWindow window(testOptions());
    for (const QString& original : allExamples()) {
      const QString copy = dir.path() + original.mid(examplesDir().size());
      CheckedProgram checked = waitForCheck(*window.document(), [&] { QVERIFY(window.openFile(copy, true)); });
      QVERIFY2(checked && checked->ok(), qPrintable(copy));
      const qint64 id = profileAndWait(window);
      QVERIFY2(id > 0, qPrintable(copy));
      ProfilerPanel* panel = window.profilerWidget();
      QCOMPARE(panel->openedRun(), id);
      RunStore store(panel->storePath().toStdString());
      QCOMPARE(store.run(id)->status, std::string("ok"));
      QCOMPARE(panel->timeline()->levels().spanCount(), store.run(id)->instances);
      QCOMPARE(panel->statistics()->table()->rowCount(), static_cast<int>(store.nodes(id).size()));
    }
  }
};

QTEST_MAIN(ProfilerPanelTest)
#include "ProfilerPanelTest.moc"
