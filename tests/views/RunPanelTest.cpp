// RunPanel: a run of rnn.tpo gives exactly the ReferenceInterpreter's (and so
// `tempo run`'s) numbers; bounds come from `set` and can be changed; a long
// run can be cancelled; the output views show tables and plots.
#include "DocumentTestSupport.h"

#include "executor/CompiledEngine.h"
#include "interp/ReferenceInterpreter.h"
#include "pass/PassRegistry.h"
#include "run/BoundsEditor.h"
#include "run/OutputChart.h"
#include "run/OutputView.h"
#include "run/RunPanel.h"
#include "run/TensorTableModel.h"

#include <QComboBox>
#include <QStandardItemModel>
#include <QListWidget>
#include <QSpinBox>

using namespace tempo;
using namespace tempo::views;
using namespace tempo::views::testing;

namespace {
CheckedProgram compileExample(const QString& name) {
  std::string path = (examplesDir() + QLatin1Char('/') + name).toStdString();
  return std::make_shared<const FrontendResult>(compileFile(path));
}

bool runAndWait(RunPanel& panel) {
  QSignalSpy finished(&panel, &RunPanel::runFinished);
  panel.run();
  return finished.wait(60000) && finished[0][0].toBool();
}

void compareTensors(const Tensor& a, const Tensor& b) {
  QCOMPARE(a.dtype(), b.dtype());
  QCOMPARE(a.shape(), b.shape());
  for (int64_t i = 0; i < a.numel(); ++i) QCOMPARE(a.at(i), b.at(i));  // bit-for-bit
}
}  // namespace

class RunPanelTest : public QObject {
  Q_OBJECT
private Q_SLOTS:
  void rnnMatchesTheReferenceInterpreter() {
    CheckedProgram program = compileExample(QStringLiteral("rnn.tpo"));
    QVERIFY(program->ok());
    RunPanel panel;
    QCOMPARE(panel.settings().memoryBudget, std::nullopt);
    auto* engines = panel.findChild<QComboBox*>(QStringLiteral("runEngine"));
    QCOMPARE(engines->currentData().toInt(), static_cast<int>(Engine::Compiled));  // the default, as for `tempo run`
    panel.setEngine(Engine::Reference);
    panel.setProgram(program);
    QCOMPARE(panel.boundsEditor()->overrides(), (std::map<std::string, int64_t>{{"B", 4}, {"T", 16}}));
    QVERIFY(runAndWait(panel));

    // What `tempo run` computes: the interpreter under the resolved default bounds.
    std::string error;
    SymbolEnv bounds = *resolveBounds(program->graph, {}, error);
    ReferenceInterpreter interp(program->graph, InterpreterOptions{bounds});
    auto expected = interp.evaluateOutputs();
    const RunOutcome& got = panel.lastOutcome();
    QCOMPARE(got.outputs.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      QCOMPARE(got.outputs[i].first, expected[i].first);
      compareTensors(got.outputs[i].second, expected[i].second);
    }
    QCOMPARE(got.outputs[0].second.summary(), expected[0].second.summary());  // the line `tempo run` prints
    QCOMPARE(panel.outputList()->count(), 2);
    QVERIFY(got.seconds > 0);
  }

  void compiledEngineMatchesTheCli() {
    CheckedProgram program = compileExample(QStringLiteral("rnn.tpo"));
    RunPanel panel;
    panel.setProgram(program);
    panel.setEngine(Engine::Compiled);
    QVERIFY(runAndWait(panel));
    const RunOutcome& got = panel.lastOutcome();
    QCOMPARE(got.engine, Engine::Compiled);
    QVERIFY(got.peakBytes && *got.peakBytes > 0);
    QVERIFY(got.predictedBytes.has_value());
    // What `tempo run --engine compiled` computes.
    std::string error;
    SymbolEnv bounds = *resolveBounds(program->graph, {}, error);
    CompiledRunResult expected = runCompiled(compileProgram(program->graph, defaultPipeline()), bounds);
    QCOMPARE(got.outputs.size(), expected.outputs.size());
    for (size_t i = 0; i < expected.outputs.size(); ++i) compareTensors(got.outputs[i].second, expected.outputs[i].second);
    // And, within float tolerance, what the oracle computes.
    ReferenceInterpreter interp(program->graph, InterpreterOptions{bounds});
    auto oracle = interp.evaluateOutputs();
    for (size_t i = 0; i < oracle.size(); ++i)
      for (int64_t j = 0; j < oracle[i].second.numel(); ++j)
        QVERIFY(std::abs(got.outputs[i].second.at(j) - oracle[i].second.at(j)) <= 1e-5 * (1 + std::abs(oracle[i].second.at(j))));
  }

  void boundsOverridesReachTheRun() {
    CheckedProgram program = compileExample(QStringLiteral("small/counter.tpo"));
    RunPanel panel;
    panel.setProgram(program);
    QVERIFY(panel.boundsEditor()->setValue("T", 7));
    QVERIFY(runAndWait(panel));
    const Tensor& c = panel.lastOutcome().outputs.at(0).second;
    QCOMPARE(c.shape(), std::vector<int64_t>{7});
    QCOMPARE(c.at(6), 7.0);
    // A re-check keeps the edited value.
    panel.setProgram(compileExample(QStringLiteral("small/counter.tpo")));
    QCOMPARE(panel.boundsEditor()->spinBox("T")->value(), 7);
  }

  void aLongRunCanBeCancelled_data() {
    QTest::addColumn<int>("engine");
    QTest::newRow("reference") << static_cast<int>(Engine::Reference);
    QTest::newRow("compiled") << static_cast<int>(Engine::Compiled);
  }
  void aLongRunCanBeCancelled() {
    QFETCH(int, engine);
    auto program = std::make_shared<const FrontendResult>(compileSource(
        "dim t < T\nset T = 1000000\nc : f32[] over (t)\nc[0] = 1.0\nc[t] = c[t-1] + 1.0\nout c\n", "long.tpo", "."));
    QVERIFY(program->ok());
    RunPanel panel;
    panel.setProgram(program);
    auto* engines = panel.findChild<QComboBox*>(QStringLiteral("runEngine"));
    QVERIFY(engines);
    engines->setCurrentIndex(engines->findData(engine));
    QSignalSpy finished(&panel, &RunPanel::runFinished);
    panel.run();
    QVERIFY(panel.isRunning());
    QTest::qWait(150);
    panel.cancel();
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished[0][0].toBool(), false);
    QVERIFY(panel.lastOutcome().cancelled);
  }

  void theDeviceSelectorOffersTheCpuAndSaysWhyNotTheGpu() {
    RunPanel panel;
    auto* devices = panel.findChild<QComboBox*>(QStringLiteral("runDevice"));
    QVERIFY(devices);
    QVERIFY(devices->count() >= 2);
    QCOMPARE(devices->itemData(0).toString(), QStringLiteral("cpu"));
    QCOMPARE(devices->currentIndex(), 0);
    auto* model = qobject_cast<QStandardItemModel*>(devices->model());
    QVERIFY(model);
    QVERIFY(model->item(0)->isEnabled());
    for (int row = 1; row < devices->count(); ++row) {
      QVERIFY(devices->itemData(row).toString().startsWith(QStringLiteral("cuda:")));
      QVERIFY(!model->item(row)->isEnabled());  // no GPU engine yet: never selectable
      QVERIFY(!devices->itemData(row, Qt::ToolTipRole).toString().isEmpty());
    }
  }

  void outputViewSlicesAndPlots() {
    CheckedProgram program = compileExample(QStringLiteral("rnn.tpo"));
    RunPanel panel;
    panel.setProgram(program);
    QVERIFY(runAndWait(panel));
    panel.outputList()->setCurrentRow(1);  // h : f32[4, 16, 8]
    const Tensor& h = panel.lastOutcome().outputs[1].second;
    TensorTableModel* model = panel.outputView()->tableModel();
    QCOMPARE(model->rowCount(), 16);
    QCOMPARE(model->columnCount(), 8);
    QCOMPARE(model->data(model->index(3, 5), Qt::DisplayRole).toString(), formatValue(h, 0 * 128 + 3 * 8 + 5));
    model->setLeadingIndex(0, 2);
    QCOMPARE(model->data(model->index(3, 5), Qt::DisplayRole).toString(), formatValue(h, 2 * 128 + 3 * 8 + 5));
    QCOMPARE(model->headerData(3, Qt::Vertical, Qt::DisplayRole).toString(), QStringLiteral("t=3"));
    // Plotted along t, one line per hidden unit.
    QCOMPARE(panel.outputView()->chart()->seriesCount(), 8);
    if (qEnvironmentVariableIsSet("TEMPO_TEST_SHOT_DIR")) {  // for looking at it
      panel.resize(1100, 420);
      panel.outputView()->showPlot(true);
      panel.show();
      QVERIFY(QTest::qWaitForWindowExposed(&panel));
      panel.grab().save(qEnvironmentVariable("TEMPO_TEST_SHOT_DIR") + QStringLiteral("/run-plot.png"));
    }
  }
};

QTEST_MAIN(RunPanelTest)
#include "RunPanelTest.moc"
