// IterationSpaceView (views/schedule): the RNN at T = 8, B = 2 draws exactly
// the dots and arrows IterationSpaceRules.h expects from the graph; Step,
// Reset, End and Play move through the schedule's order; clicking a dot names
// its statement and source line and emits its source range; a memory event
// list is shown. Pictures go to $TEMPO_SCREENSHOT_DIR when it is set.
#include "executor/CompiledEngine.h"
#include "frontend/Frontend.h"
#include "pass/PassRegistry.h"
#include "schedule/IterationCanvas.h"
#include "schedule/IterationSpaceView.h"

#include "schedule/IterationSpaceRules.h"

#include <QDir>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest/QtTest>

#include <filesystem>

using namespace tempo;
using namespace tempo::views;

namespace {

std::shared_ptr<const CompiledProgram> compiledExample(const std::string& name) {
  auto path = std::filesystem::path(TEMPO_SOURCE_DIR) / "resources" / "examples" / name;
  FrontendResult r = compileFile(path.string());
  if (!r.ok()) qFatal("%s", r.renderedDiagnostics().c_str());
  return std::make_shared<CompiledProgram>(compileProgram(r.graph, defaultPipeline()));
}

NodeId nodeNamed(const Graph& g, const std::string& name) {
  for (const auto& [id, n] : g.nodes())
    if (n.name == name) return id;
  qFatal("no node named %s", name.c_str());
  return -1;
}

/// Waits until the view shows the space for its current choices (it builds it in the background).
bool settled(const IterationSpaceView& view) {
  return QTest::qWaitFor([&] { return !view.isBuilding(); }, 60000);
}

void maybeShoot(QWidget& w, const QString& name) {
  QString dir = qEnvironmentVariable("TEMPO_SCREENSHOT_DIR");
  if (dir.isEmpty()) return;
  QDir().mkpath(dir);
  QVERIFY(w.grab().save(QDir(dir).filePath(name + ".png")));
}

}  // namespace

class IterationSpaceViewTest : public QObject {
  Q_OBJECT

private Q_SLOTS:
  void rnnHasTheExpectedDotsAndArrows() {
    auto program = compiledExample("rnn.tpo");
    IterationSpaceView view;
    view.setSchedule(program);
    view.setBound("T", 8);
    view.setBound("B", 2);
    view.setDimensions("t", "b");
    QVERIFY(settled(view));
    QVERIFY(view.space());
    SymbolEnv bounds{{"B", 2}, {"T", 8}};
    QCOMPARE(view.space()->dots.size(), testing::expectedDots(program->graph, bounds, "t", "b"));
    QCOMPARE(view.space()->arrows.size(), testing::expectedArrows(program->graph, bounds, "t", "b"));
    QVERIFY(view.space()->arrows.size() > 0);
    QVERIFY(view.infoText().contains(QString::number(view.space()->dots.size())));
  }

  void defaultsAreT8AndTwo() {
    IterationSpaceView view;
    view.setSchedule(compiledExample("gpt_decode.tpo"));
    QVERIFY(settled(view));
    QVERIFY(view.space());
    QCOMPARE(view.space()->dimX, std::string("t"));
    QCOMPARE(view.space()->dimY, std::string("l"));
    QCOMPARE(view.space()->bounds.at("T"), 8);
    QCOMPARE(view.space()->bounds.at("L"), 2);
  }

  void steppingFollowsTheOrder() {
    IterationSpaceView view;
    view.setSchedule(compiledExample("rnn.tpo"));
    QVERIFY(settled(view));
    const IterationSpace* s = view.space();
    QVERIFY(s);
    int total = view.playback()->stepCount();
    QCOMPARE(total, static_cast<int>(s->dots.size()));
    int previous = -1;
    for (int i = 1; i <= 5; ++i) {
      view.step();
      QCOMPARE(view.playback()->stepsTaken(), i);
      int dot = view.playback()->currentDot();
      QVERIFY(dot >= 0);
      QVERIFY(s->dots[dot].step > previous);
      previous = s->dots[dot].step;
      QVERIFY(view.stepText().startsWith(QStringLiteral("step %1 / %2").arg(i).arg(total)));
    }
    view.reset();
    QCOMPARE(view.playback()->stepsTaken(), 0);
    QCOMPARE(view.playback()->currentDot(), -1);
    view.finish();
    QCOMPARE(view.playback()->stepsTaken(), total);
    QVERIFY(view.playback()->atEnd());
    view.reset();
    view.setPlaying(true);
    QTRY_VERIFY_WITH_TIMEOUT(view.playback()->stepsTaken() >= 2, 3000);
    view.setPlaying(false);
    QVERIFY(!view.eventLines().isEmpty());  // the memory list (or the note that there are none)
  }

  void replayPaintsStepsWithoutRenderingThePicture() {
    IterationSpaceView view;
    view.resize(1200, 900);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setSchedule(compiledExample("rnn.tpo"));
    QVERIFY(settled(view));
    view.setBound(QStringLiteral("T"), 64);
    view.setBound(QStringLiteral("B"), 28);  // close to the 6,000 instances the view draws at most
    QVERIFY(settled(view));
    const IterationSpace* s = view.space();
    QVERIFY(s);
    QVERIFY2(s->dots.size() > 5000 && s->dots.size() <= IterationSpaceView::kMaxDots, qPrintable(QString::number(s->dots.size())));
    IterationCanvas* canvas = view.canvas();
    auto pixelAt = [&](int dot) { return canvas->grab().toImage().pixelColor(canvas->dotPosition(dot)); };
    view.step();  // the first step draws the picture hollow, once
    const int dot1 = view.playback()->currentDot();
    const QColor before = pixelAt(dot1 + 0);
    const int renders = canvas->renderCount();
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < 10; ++i) {
      view.stepBy(300);
      canvas->grab();  // paint
    }
    const qint64 ms = timer.elapsed();
    QCOMPARE(view.playback()->stepsTaken(), 3001);
    QCOMPARE(canvas->renderCount(), renders);  // no step rendered the picture again
    maybeShoot(view, QStringLiteral("iteration-replay"));
    // The first executed dot is filled with its statement's colour; a dot not yet executed is hollow (white).
    const QColor filled(QString::fromStdString(s->statements[s->dots[static_cast<size_t>(dot1)].statement].color));
    QCOMPARE(pixelAt(dot1).name(), filled.name());
    QVERIFY(before.isValid());
    int later = -1;
    for (size_t d = 0; d < s->dots.size() && later < 0; ++d)
      if (!view.playback()->executed(static_cast<int>(d))) later = static_cast<int>(d);
    QVERIFY(later >= 0);
    QCOMPARE(pixelAt(later).name(), QColor(Qt::white).name());
    view.finish();
    QCOMPARE(pixelAt(later).name(),
             QColor(QString::fromStdString(s->statements[s->dots[static_cast<size_t>(later)].statement].color)).name());
    view.reset();
    QCOMPARE(pixelAt(dot1).name(), QColor(Qt::white).name());
    QCOMPARE(canvas->renderCount(), renders);
    // A click selects a dot: its ring and red dependences are painted over the picture, not drawn into it.
    auto redPixels = [&] {
      const QImage image = canvas->grab().toImage();
      int n = 0;
      for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
          if (const QColor c = image.pixelColor(x, y); c.red() > c.green() + 60 && c.red() > c.blue() + 60) ++n;
      return n;
    };
    const int redBefore = redPixels();
    const IterationArrow* longest = &s->arrows.front();  // a dot with a long dependence arrow
    for (const IterationArrow& a : s->arrows)
      if (std::abs(s->dots[a.to].x - s->dots[a.from].x) + std::abs(s->dots[a.to].y - s->dots[a.from].y) >
          std::abs(s->dots[longest->to].x - s->dots[longest->from].x) + std::abs(s->dots[longest->to].y - s->dots[longest->from].y))
        longest = &a;
    timer.restart();
    view.selectDot(longest->to);
    const int redAfter = redPixels();
    const qint64 selectMs = timer.elapsed();
    QVERIFY2(redAfter > redBefore, qPrintable(QStringLiteral("%1 -> %2").arg(redBefore).arg(redAfter)));
    QCOMPARE(canvas->renderCount(), renders);
    maybeShoot(view, QStringLiteral("iteration-selection"));
    qInfo("replayed 3000 of %zu instances in %lld ms (10 paints); a click's selection painted in %lld ms", s->dots.size(),
          static_cast<long long>(ms), static_cast<long long>(selectMs));
  }

  void clickingADotNamesItsStatement() {
    auto program = compiledExample("rnn.tpo");
    IterationSpaceView view;
    view.resize(900, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setSchedule(program);
    view.setBound("B", 2);
    QVERIFY(settled(view));
    // Vectorisation batches h over b; the node the output h names keeps (b, t).
    NodeId h = -1;
    for (const GraphOutput& o : program->graph.outputs)
      if (o.name == "h") h = o.node;
    int dot = view.space()->findDot(h, {1, 3});
    QVERIFY(dot >= 0);
    QSignalSpy spy(&view, &IterationSpaceView::nodeActivated);
    QPoint at = view.canvas()->dotPosition(dot);
    QCOMPARE(view.canvas()->dotAt(at), dot);
    QTest::mouseClick(view.canvas(), Qt::LeftButton, {}, at);
    const Node& node = program->graph.node(h);
    QString label = node.name.empty() ? QString::fromStdString(std::string(opName(node.op))) : QString::fromStdString(node.name);
    QCOMPARE(view.infoText(),
             QStringLiteral("statement %%1 %2 at (b=1, t=3) \u2014 line %3").arg(h).arg(label).arg(node.loc.begin.line));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy[0][0].toInt(), h);
    QCOMPARE(spy[0][1].toInt(), node.loc.begin.line);
    QCOMPARE(spy[0][2].toInt(), node.loc.begin.col);
    QCOMPARE(spy[0][3].toInt(), node.loc.end.line);
    QCOMPARE(spy[0][4].toInt(), node.loc.end.col);
    for (int i = 0; i < 40; ++i) view.step();
    maybeShoot(view, "iteration_rnn_step40");
  }

  void largeBoundsAreRefusedPolitely() {
    IterationSpaceView view;
    view.setSchedule(compiledExample("rnn.tpo"));
    view.setBound("T", 64);
    view.setBound("B", 64);
    QVERIFY(settled(view));
    QVERIFY(!view.space());
    QVERIFY(view.infoText().contains("too many"));
    QVERIFY(view.isBuilding() || view.space() == nullptr);
    view.setBound("B", 2);
    QVERIFY(view.isBuilding());  // built off the UI thread
    QVERIFY(settled(view));
    QVERIFY(view.space());
  }
};

QTEST_MAIN(IterationSpaceViewTest)
#include "IterationSpaceViewTest.moc"
