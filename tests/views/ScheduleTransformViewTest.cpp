// The schedule view's transforms (views/schedule/TransformBar): a legal transform is
// applied (the loops change, nothing is broken) and undo / redo / reset move through
// the applied list; an illegal one is not applied, the status names what it breaks and
// the iteration space draws the schedule it would run with its broken arrows; dragging
// a dot one cell along the x axis tries `shift %N by 1 along x`.
#include "executor/CompiledEngine.h"
#include "schedule/IterationCanvas.h"
#include "schedule/IterationSpaceView.h"
#include "schedule/ScheduleView.h"
#include "schedule/TransformBar.h"
#include "support/WavefrontProgram.h"

#include <QContextMenuEvent>
#include <functional>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QtTest/QtTest>

using namespace tempo;
using namespace tempo::views;

namespace {


std::shared_ptr<const FrontendResult> wavefront() {
  auto r = std::make_shared<FrontendResult>(compileSource(tempo::testing::kWavefrontProgram, "wavefront.tpo", "."));
  if (!r->ok()) qFatal("%s", r->renderedDiagnostics().c_str());
  return r;
}

std::shared_ptr<const FrontendResult> example(const char* name) {
  auto r = std::make_shared<FrontendResult>(compileFile(std::string(TEMPO_SOURCE_DIR "/resources/examples/") + name));
  if (!r->ok()) qFatal("%s", r->renderedDiagnostics().c_str());
  return r;
}

bool settled(ScheduleView& view) {
  return QTest::qWaitFor([&] { return !view.isCompiling() && view.compiled(); }, 60000);
}

/// Shows `view` on the wavefront program with the iteration space over x = j, y = i (at
/// N = M = 2); null if it does not settle.
IterationSpaceView* showWavefront(ScheduleView& view) {
  view.resize(1000, 900);
  view.show();
  if (!QTest::qWaitForWindowExposed(&view)) return nullptr;
  view.setProgram(wavefront());
  if (!settled(view)) return nullptr;
  IterationSpaceView* space = view.iterationView();
  if (!QTest::qWaitFor([&] { return !space->isBuilding() && space->space(); }, 60000)) return nullptr;
  space->setDimensions(QStringLiteral("j"), QStringLiteral("i"));
  const bool ready = QTest::qWaitFor([&] { return !space->isBuilding() && space->space() && space->space()->dimX == "j"; }, 60000);
  return ready ? space : nullptr;
}

}  // namespace

class ScheduleTransformViewTest : public QObject {
  Q_OBJECT

private Q_SLOTS:
  void aLegalTransformIsAppliedAndUndone() {
    ScheduleView view;
    view.setProgram(wavefront());
    QVERIFY(settled(view));
    const QString original = view.loopText();
    TransformBar* bar = view.transformBar();
    bar->input()->setText(QStringLiteral("skew j by i; interchange i, j"));
    QTest::keyClick(bar->input(), Qt::Key_Return);
    QVERIFY(settled(view));
    QVERIFY2(view.violations().isEmpty(), qPrintable(view.violations().join('\n')));
    QCOMPARE(bar->applied(), QStringList{QStringLiteral("skew j by i; interchange i, j")});
    QVERIFY(bar->input()->text().isEmpty());
    QVERIFY(view.loopText() != original);
    QVERIFY2(view.loopText().contains(QStringLiteral("max(0, ")), qPrintable(view.loopText()));  // the wavefront's bounds
    QVERIFY(view.iterationView()->space());
    QCOMPARE(view.iterationView()->space()->brokenArrows(), 0);
    QVERIFY(view.statusText().contains(QStringLiteral("Transformed by hand")));
    bar->undo();
    QVERIFY(settled(view));
    QCOMPARE(view.loopText(), original);
    QVERIFY(bar->applied().isEmpty());
    bar->redo();
    QVERIFY(settled(view));
    QCOMPARE(bar->applied().size(), 1);
    QVERIFY(view.loopText() != original);
    bar->reset();
    QVERIFY(settled(view));
    QCOMPARE(view.loopText(), original);
  }

  void anIllegalTransformIsShownButNotApplied() {
    ScheduleView view;
    view.setProgram(wavefront());
    QVERIFY(settled(view));
    view.transformBar()->tryTransform(QStringLiteral("reverse i"));
    QVERIFY(settled(view));
    QVERIFY(QTest::qWaitFor([&] { return !view.iterationView()->isBuilding(); }, 60000));
    QVERIFY(!view.violations().isEmpty());
    QVERIFY(view.transformBar()->applied().isEmpty());
    QVERIFY2(view.statusText().contains(QStringLiteral("Illegal")), qPrintable(view.statusText()));
    QVERIFY2(view.statusText().contains(QStringLiteral("wavefront.tpo:9:")), qPrintable(view.statusText()));
    QVERIFY(view.iterationView()->space());
    QVERIFY(view.iterationView()->space()->brokenArrows() > 0);
    QVERIFY(view.iterationView()->canvas()->svg().contains("class=\"violated\""));
    QVERIFY(view.iterationView()->infoText().contains(QStringLiteral("broken")));
  }

  void draggingADotTriesAShift() {
    ScheduleView view;
    IterationSpaceView* space = showWavefront(view);
    QVERIFY(space);
    const IterationSpace& s = *space->space();
    // A dot of the statement 'a' at (i=1, j=0) and where its (i=1, j=1) sits: one cell to the right
    // (the view draws at N = M = 2).
    int from = -1, to = -1;
    NodeId a = -1;
    for (const IterationStatement& st : s.statements)
      if (view.compiled()->graph.node(st.node).name == "a" && st.domain.size() == 2) a = st.node;
    from = s.findDot(a, {1, 0});
    to = s.findDot(a, {1, 1});
    QVERIFY(from >= 0 && to >= 0);
    QSignalSpy tries(view.transformBar(), &TransformBar::tryRequested);
    IterationCanvas* canvas = space->canvas();
    QTest::mousePress(canvas, Qt::LeftButton, {}, canvas->dotPosition(from));
    QTest::mouseRelease(canvas, Qt::LeftButton, {}, canvas->dotPosition(to));
    QCOMPARE(tries.count(), 1);
    QCOMPARE(tries.at(0).at(1).toString(), QStringLiteral("shift %") + QString::number(a) + QStringLiteral(" by 1 along j"));
    QVERIFY(settled(view));
  }

  // The studio's drags on the RNN and causal attention examples, one legal and one illegal each;
  // tests/cli/ScheduleCommandTest.cpp (DragsOfTheStudioTests) gives the same transforms to the CLI.
  void dragsOnTheRnnAndAttentionExamples() {
    struct Drag {
      const char* program;
      std::function<bool(const Node&, size_t)> statement;  // which statement's dot (node, its domain size)
      std::vector<int64_t> from, to;                           // its points, in its domain's order
      const char* broken;                                      // "" for a legal drag, else what the status names
      int count = 0;                                           // broken dependences
    };
    auto named = [](const char* name) { return [name](const Node& n, size_t) { return n.name == name; }; };
    auto pointReshape = [](const Node& n, size_t dims) { return n.op == OpKind::Reshape && dims == 2; };
    const Drag drags[] = {
        {"rnn.tpo", named("h"), {1}, {2}, "(matmul) reads %H[t - 1]", 2},  // h after its readers at t+1 and t
        {"rnn.tpo", pointReshape, {0, 0}, {0, 1}, ""},                   // out h's per-sequence reshape, a step later
        {"attention_causal.tpo", named("k"), {0}, {1}, "(matmul) reads %H[0:t + 1]", 1},  // k after the window reads it
        {"attention_causal.tpo", named("k"), {1}, {0}, ""},                             // k a step early
    };
    ScheduleView view;
    view.resize(1000, 900);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    for (const Drag& drag : drags) {
      view.transformBar()->reset();
      view.setProgram(example(drag.program));
      QVERIFY(settled(view));
      IterationSpaceView* space = view.iterationView();
      space->setDimensions(QStringLiteral("t"), QStringLiteral("b"));
      QVERIFY(QTest::qWaitFor([&] { return !space->isBuilding() && space->space() && space->space()->dimX == "t"; }, 60000));
      const IterationSpace& s = *space->space();
      NodeId node = -1;
      for (const IterationStatement& st : s.statements)
        if (drag.statement(view.compiled()->graph.node(st.node), st.domain.size())) node = st.node;
      QVERIFY2(node >= 0, drag.program);
      const int from = s.findDot(node, drag.from), to = s.findDot(node, drag.to);
      QVERIFY(from >= 0 && to >= 0);
      IterationCanvas* canvas = space->canvas();
      QTest::mousePress(canvas, Qt::LeftButton, {}, canvas->dotPosition(from));
      QTest::mouseRelease(canvas, Qt::LeftButton, {}, canvas->dotPosition(to));
      QVERIFY(settled(view));
      const QString id = QStringLiteral("%") + QString::number(node);
      const QString shift = QStringLiteral("shift ") + id + QStringLiteral(" by %1 along t").arg(drag.to[drag.to.size() - 1] - drag.from[drag.from.size() - 1]);
      if (*drag.broken == '\0') {
        QVERIFY2(view.violations().isEmpty(), qPrintable(view.violations().join('\n')));
        QCOMPARE(view.transformBar()->applied(), QStringList{shift});
        QCOMPARE(space->space()->brokenArrows(), 0);
      } else {
        QVERIFY(view.transformBar()->applied().isEmpty());
        QCOMPARE(view.violations().size(), drag.count);
        QVERIFY2(view.violations().join('\n').contains(QString::fromLatin1(drag.broken).replace(QStringLiteral("%H"), id)),
                 qPrintable(view.violations().join('\n')));
        QVERIFY(space->space()->brokenArrows() > 0);
      }
    }
  }

  void aRightClickOffersTheStatementsTransforms() {
    ScheduleView view;
    IterationSpaceView* space = showWavefront(view);
    QVERIFY(space);
    const IterationSpace& s = *space->space();
    NodeId a = -1;
    for (const IterationStatement& st : s.statements)
      if (view.compiled()->graph.node(st.node).name == "a" && st.domain.size() == 2) a = st.node;
    const int dot = s.findDot(a, {1, 1});
    QVERIFY(dot >= 0);
    const QString node = QStringLiteral("%") + QString::number(a);
    const QStringList offered = space->dotTransforms(dot);
    QCOMPARE(offered, (QStringList{QStringLiteral("interchange j, i"), QStringLiteral("skew j by i"), QStringLiteral("skew i by j"),
                                   "interchange j, i in " + node, "reverse j in " + node, "shift " + node + " by 1 along j",
                                   "shift " + node + " by -1 along j", "reverse i in " + node, "shift " + node + " by 1 along i",
                                   "shift " + node + " by -1 along i"}));
    // Pick "reverse j in %a" from the menu a right click opens: it is tried, found illegal and not applied.
    QTimer::singleShot(0, [&] {
      auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
      QVERIFY(menu);
      for (QAction* action : menu->actions())
        if (action->text() == "reverse j in " + node) action->trigger();
      menu->close();
    });
    IterationCanvas* canvas = space->canvas();
    QContextMenuEvent event(QContextMenuEvent::Mouse, canvas->dotPosition(dot), canvas->mapToGlobal(canvas->dotPosition(dot)));
    QApplication::sendEvent(canvas, &event);
    QVERIFY(settled(view));
    QVERIFY(!view.violations().isEmpty());
    QVERIFY(view.transformBar()->applied().isEmpty());
  }
};

QTEST_MAIN(ScheduleTransformViewTest)
#include "ScheduleTransformViewTest.moc"
