// ScheduleView (views/schedule): shows the compiled program's loops as the
// very text of printLoopProgram (compileProgram with the default pipeline,
// like `tempo run --engine compiled`), with store/bytes notes on exec lines;
// clicking an exec line emits that node's source range; a program with
// errors keeps the last schedule; the block size box recompiles and the
// iteration space shades ceil(T / BS) static tiles. Pictures of the whole view for rnn and
// gpt_decode go to $TEMPO_SCREENSHOT_DIR when it is set.
#include "executor/CompiledEngine.h"
#include "iteration/BlockTilings.h"
#include "pass/PassRegistry.h"
#include "schedule/IterationCanvas.h"
#include "schedule/IterationSpaceView.h"
#include "schedule/LoopCodeEdit.h"
#include "schedule/ScheduleView.h"

#include <QDir>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTextBlock>
#include <QTextCursor>
#include <QtTest/QtTest>

#include <filesystem>

using namespace tempo;
using namespace tempo::views;

namespace {

std::shared_ptr<const FrontendResult> checkedExample(const std::string& name) {
  auto path = std::filesystem::path(TEMPO_SOURCE_DIR) / "resources" / "examples" / name;
  auto r = std::make_shared<FrontendResult>(compileFile(path.string()));
  if (!r->ok()) qFatal("%s", r->renderedDiagnostics().c_str());
  return r;
}

bool waitForSchedule(ScheduleView& view) {
  return QTest::qWaitFor([&] { return !view.isCompiling() && view.compiled(); }, 60000);
}

}  // namespace

class ScheduleViewTest : public QObject {
  Q_OBJECT

private Q_SLOTS:
  void showsTheTextOfPrintLoopProgram() {
    auto program = checkedExample("rnn.tpo");
    ScheduleView view;
    view.setProgram(program);
    QVERIFY(waitForSchedule(view));
    CompiledProgram expected = compileProgram(program->graph, defaultPipeline());
    QCOMPARE(view.loopText(), QString::fromStdString(printLoopProgram(expected.graph, expected.loops)));
    QVERIFY(view.iterationView()->space());
    bool anyNote = false;
    QStringList lines = view.loopText().split('\n');
    for (int i = 0; i < lines.size(); ++i)
      if (lines[i].trimmed().startsWith("exec")) anyNote = anyNote || view.noteAt(i).contains(" B");
    QVERIFY(anyNote);
    // The status says which method made the schedule.
    auto* status = view.findChild<QLabel*>("scheduleStatus");
    QVERIFY(status);
    QCOMPARE(expected.scheduler, ScheduleOptions::Algorithm::Fusion);
    QVERIFY2(status->text().contains(QStringLiteral("loops fused along the dependences")), qPrintable(status->text()));
  }

  void clickingAnExecLineEmitsItsSourceRange() {
    auto program = checkedExample("rnn.tpo");
    ScheduleView view;
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setProgram(program);
    QVERIFY(waitForSchedule(view));
    const Graph& g = view.compiled()->graph;
    QStringList lines = view.loopText().split('\n');
    int line = -1;
    NodeId h = -1;
    for (const auto& [id, n] : g.nodes())
      if (n.name == "h") h = id;
    for (int i = 0; i < lines.size() && line < 0; ++i)
      if (lines[i].trimmed().startsWith(QStringLiteral("exec %%1 h").arg(h))) line = i;
    QVERIFY2(line >= 0, qPrintable(view.loopText()));
    QSignalSpy spy(&view, &ScheduleView::nodeActivated);
    // The loops with their alloc / free lines are longer than the view: scroll the line into sight first.
    view.codeView()->setTextCursor(QTextCursor(view.codeView()->document()->findBlockByNumber(line)));
    view.codeView()->ensureCursorVisible();
    QTest::mouseClick(view.codeView()->viewport(), Qt::LeftButton, {}, view.codeView()->linePosition(line));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy[0][0].toInt(), h);
    QCOMPARE(spy[0][1].toInt(), g.node(h).loc.begin.line);
    QCOMPARE(spy[0][3].toInt(), g.node(h).loc.end.line);
  }

  void errorsKeepTheLastSchedule() {
    ScheduleView view;
    view.setProgram(checkedExample("rnn.tpo"));
    QVERIFY(waitForSchedule(view));
    QString before = view.loopText();
    view.setProgram(std::make_shared<FrontendResult>(compileSource("dim t < T\nx = nope[t]\n", "bad.tpo", ".")));
    QVERIFY(!view.isCompiling());
    QCOMPARE(view.loopText(), before);
  }

  void blockSizeRecompilesAndTheIterationSpaceShadesItsTiles() {
    ScheduleView view;
    view.resize(1000, 1100);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setProgram(checkedExample("gpt_decode.tpo"));
    QVERIFY(waitForSchedule(view));
    IterationSpaceView* iteration = view.iterationView();
    QVERIFY(!iteration->findChild<QSpinBox*>("iterationBound_DS"));  // derived from T: no box
    QVERIFY(iteration->findChild<QSpinBox*>("iterationBound_T"));
    for (int bs : {2, 3, 4}) {
      auto before = view.compiled();
      view.findChild<QSpinBox*>("scheduleBlockSize")->setValue(bs);
      QVERIFY(QTest::qWaitFor([&] { return !view.isCompiling() && view.compiled() != before; }, 60000));
      iteration->setBound("T", 8);
      iteration->setBound("L", 2);
      iteration->setDimensions("t", "l");
      QVERIFY(QTest::qWaitFor([&] { return !iteration->isBuilding(); }, 60000));
      QVERIFY(iteration->space());
      const size_t tiles = static_cast<size_t>((8 + bs - 1) / bs);  // blocks of bs positions of t
      QCOMPARE(iteration->space()->tiles.size(), tiles);
      QCOMPARE(static_cast<size_t>(iteration->canvas()->svg().count("<rect class=\"tile\"")), tiles);
      QVERIFY(iteration->infoText().contains(QStringLiteral("%1 tiles of BS = %2").arg(tiles).arg(bs)));
      std::vector<BlockTiling> tilings = blockTilings(view.compiled()->graph);  // recompiled with that block size
      QCOMPARE(tilings.size(), size_t(1));
      QCOMPARE(tilings[0].blockSize, int64_t(bs));
      if (QString dir = qEnvironmentVariable("TEMPO_SCREENSHOT_DIR"); !dir.isEmpty()) {
        QDir().mkpath(dir);
        QVERIFY(view.grab().save(QDir(dir).filePath(QStringLiteral("schedule_gpt_decode_bs%1.png").arg(bs))));
      }
    }
    view.setBlockSize(0);  // auto: the cost model's block size
    QVERIFY(QTest::qWaitFor([&] { return !view.isCompiling(); }, 60000));
    QCOMPARE(view.blockSize(), 0);
  }

  void screenshots() {
    QString dir = qEnvironmentVariable("TEMPO_SCREENSHOT_DIR");
    if (dir.isEmpty()) QSKIP("set TEMPO_SCREENSHOT_DIR to write pictures");
    QDir().mkpath(dir);
    for (const char* name : {"rnn", "gpt_decode"}) {
      ScheduleView view;
      view.resize(1000, 1100);
      view.show();
      QVERIFY(QTest::qWaitForWindowExposed(&view));
      view.setProgram(checkedExample(std::string(name) + ".tpo"));
      QVERIFY(waitForSchedule(view));
      for (int i = 0; i < 30; ++i) view.iterationView()->step();
      QVERIFY(view.grab().save(QDir(dir).filePath(QStringLiteral("schedule_%1.png").arg(name))));
    }
  }
};

QTEST_MAIN(ScheduleViewTest)
#include "ScheduleViewTest.moc"
