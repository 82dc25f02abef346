// TimelineView + TimelineLevels: a synthetic 10-million-span run stays fluid (every frame under
// 50 ms while zooming from the whole run down to single spans and panning), the levels of detail
// add up to the trace, and a profiled example's stored spans are drawn, described and clickable.
#include "executor/CompiledEngine.h"
#include "frontend/Frontend.h"
#include "pass/PassRegistry.h"
#include "profiler/SpanSource.h"
#include "profiler/TimelineView.h"
#include "runstore/RunRecorder.h"
#include "runstore/RunStore.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace tempo;
using namespace tempo::views;

class TimelineViewTest : public QObject {
  Q_OBJECT
private Q_SLOTS:
  void levelsAddUpToTheTrace() {
    SyntheticSpans spans(100'000, 1000, 7);
    TimelineLevels levels;
    levels.build(spans);
    int64_t count = 0, busy = 0, expectedBusy = 0;
    for (const TimelineBucket& b : levels.level(0)) count += b.count, busy += b.busyNs;
    spans.forEach([&](const StoredSpan& s) { expectedBusy += s.durationNs; });
    QCOMPARE(count, int64_t{100'000});
    QCOMPARE(busy, expectedBusy);
    const TimelineBucket& top = levels.level(levels.levelCount() - 1).front();
    QCOMPARE(levels.level(levels.levelCount() - 1).size(), size_t{1});
    QCOMPARE(int64_t{top.count}, int64_t{100'000});
    QCOMPARE(top.busyNs, expectedBusy);
    QCOMPARE(levels.countIn(0, levels.endNs() + 1), int64_t{100'000});
    QVERIFY(levels.countIn(0, 50'000) >= 50);  // an upper bound, exact at bucket edges
    QVERIFY(levels.countIn(0, 50'000) <= 50 + 2);
    QVERIFY(levels.levelFor(1e9) > levels.levelFor(10));
  }

  void tenMillionSpansKeepEveryFrameUnder50ms() {
    auto spans = std::make_shared<SyntheticSpans>(10'000'000, 1000, 12);
    std::map<int, TimelineNode> nodes;
    for (int n = 0; n < 12; ++n) nodes[n] = {QStringLiteral("%%1 node").arg(n), QStringLiteral("synthetic:%1").arg(n), QStringLiteral("i, j"), n + 1};
    TimelineView view;
    view.resize(1200, 220);
    QElapsedTimer build;
    build.start();
    view.setTrace(spans, nodes);
    const qint64 buildMs = build.elapsed();
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    std::vector<double> frames;
    auto frame = [&] {
      view.repaint();
      frames.push_back(view.lastFrameMs());
    };
    frame();
    QVERIFY(!view.drewSpans());  // 10M spans: levels of detail
    const double centre = 600;
    for (int i = 0; i < 45 && (view.windowEnd() - view.windowStart()) > 20'000; ++i) {  // down to ~20 spans
      view.zoom(1.6, centre + (i % 5) * 37);
      frame();
    }
    QVERIFY(view.drewSpans());
    for (int i = 0; i < 20; ++i) {
      view.panPixels(i % 2 ? -300 : 500);
      frame();
    }
    view.selectNode(5);
    for (int i = 0; i < 45; ++i) {
      view.zoom(1 / 1.6, centre);
      frame();
    }
    view.showAll();
    frame();
    const double worst = *std::max_element(frames.begin(), frames.end());
    std::vector<double> sorted = frames;
    std::sort(sorted.begin(), sorted.end());
    qInfo("10M spans: levels built in %lld ms; %zu frames, median %.2f ms, worst %.2f ms", static_cast<long long>(buildMs),
          frames.size(), sorted[sorted.size() / 2], worst);
    QVERIFY2(worst < 50, qPrintable(QStringLiteral("worst frame %1 ms").arg(worst)));
  }

  void aStoredRunsSpansAreDrawnDescribedAndClickable() {
    const std::string path = std::string(TEMPO_SOURCE_DIR) + "/resources/examples/rnn.tpo";
    FrontendResult program = compileFile(path);
    QVERIFY(program.ok());
    CompiledProgram compiled = compileProgram(program.graph, defaultPipeline());
    TraceCollector trace;
    CompiledRunOptions options;
    options.trace = &trace;
    CompiledRunResult result = runCompiled(compiled, {}, options);
    QTemporaryDir dir;
    const std::string db = (dir.path() + QStringLiteral("/runs.db")).toStdString();
    int64_t id = 0;
    std::map<int, TimelineNode> nodes;
    {
      RunStore store(db);
      id = store.beginRun(runHeader(path, program.source, program.graph.withDerivedBounds({}), "", {}));
      store.finishRun(id, recordRun(compiled, {}, result, trace, program.source, false));
      for (const StoredNode& n : store.nodes(id))
        nodes[n.node] = {QString::fromStdString(n.label), QStringLiteral("rnn.tpo:%1").arg(n.line), QString::fromStdString(n.dims), n.line};
    }
    auto spans = std::make_shared<StoredRunSpans>(db, id);
    QCOMPARE(spans->spanCount(), static_cast<int64_t>(trace.spans().size()));
    TimelineView view;
    view.resize(1000, 200);
    view.setTrace(spans, nodes);
    QCOMPARE(view.levels().countIn(0, view.levels().endNs() + 1), spans->spanCount());
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.repaint();
    QVERIFY(view.drewSpans());  // a few hundred spans: drawn one by one
    QSignalSpy clicked(&view, &TimelineView::spanClicked);
    std::optional<QPoint> hit;
    for (int x = 10; x < 990 && !hit; x += 3)
      if (view.spanAt(QPoint(x, 60))) hit = QPoint(x, 60);
    QVERIFY(hit);
    const StoredSpan expected = *view.spanAt(*hit);
    QTest::mouseClick(&view, Qt::LeftButton, {}, *hit);
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked[0][0].value<StoredSpan>().node, expected.node);
    QCOMPARE(view.selectedNode(), expected.node);
    // Keys zoom and pan; Home shows the whole run again.
    const double width = view.windowEnd() - view.windowStart();
    QTest::keyClick(&view, Qt::Key_W);
    QVERIFY(view.windowEnd() - view.windowStart() < width);
    QTest::keyClick(&view, Qt::Key_Home);
    QCOMPARE(view.windowEnd() - view.windowStart(), width);
  }
};

QTEST_MAIN(TimelineViewTest)
#include "TimelineViewTest.moc"
