// The pass stepper (views/passes): on every example it lists the input and
// every pass of defaultPipeline(), marks exactly the passes that changed the
// graph and hides exactly the others on request; branch lowering on the RNN
// shows its diff and marks the rewritten merge node; Up/Down step; clicking
// a node re-emits its source range; setting a program while a run is in
// flight shows only the latest. Also writes pictures (light and dark) of
// gpt_decode with branch-lowering (and CSE) selected to $TEMPO_SCREENSHOT_DIR (default:
// a temp dir).
#include "GraphViewTestUtil.h"

#include "common/ExampleCatalog.h"
#include "graph/GraphCanvas.h"
#include "graph/GraphNodeItem.h"
#include "graph/GraphPrinter.h"
#include "ops/Op.h"
#include "lowering/Lowering.h"
#include "pass/PassRegistry.h"
#include "passes/DiffView.h"
#include "passes/PassComparison.h"
#include "passes/PassList.h"
#include "passes/PassStepper.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QImage>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTreeWidget>

#include <set>

using namespace tempo;
using namespace tempo::views;
using namespace tempo::views::test;

namespace {

std::shared_ptr<const FrontendResult> compileProgram(const QString& path) {
  auto r = std::make_shared<FrontendResult>(compileFile(path.toStdString()));
  if (!r->ok()) qFatal("%s", r->renderedDiagnostics().c_str());
  return r;
}

QString examplePath(const QString& relative) {
  return QDir(QStringLiteral(TEMPO_SOURCE_DIR "/resources/examples")).filePath(relative);
}

bool isGreyed(QTreeWidgetItem* item) { return item->data(0, Qt::ForegroundRole).isValid(); }

}  // namespace

class PassStepperTest : public QObject {
  Q_OBJECT

private:
  std::unique_ptr<PassStepper> stepper_;

  QTreeWidget* tree() { return stepper_->passList()->tree(); }
  PassComparison* comparison() { return stepper_->comparison(); }

  /// Shows `path` and waits for its pipeline run to be on screen.
  void open(const QString& path) {
    QSignalSpy shown(stepper_.get(), &PassStepper::pipelineShown);
    stepper_->setProgram(compileProgram(path));
    QVERIFY(shown.wait(60000));
    QVERIFY(!stepper_->isRunning());
    QVERIFY(stepper_->currentRun());
    QVERIFY2(stepper_->currentRun()->error.isEmpty(), qPrintable(stepper_->currentRun()->error));
  }

  void waitForGraphs() {
    QVERIFY(waitForLayout(*comparison()->afterView()));
    if (comparison()->beforeView()->isVisible()) QVERIFY(waitForLayout(*comparison()->beforeView()));
  }

  void shoot(const QString& name) {
    QString dir = qEnvironmentVariable("TEMPO_SCREENSHOT_DIR", QDir::temp().filePath("tempo-pass-shots"));
    QVERIFY(QDir().mkpath(dir));
    QString path = QDir(dir).filePath(name + ".png");
    QImage image = stepper_->grab().toImage();
    QVERIFY2(image.save(path), qPrintable(path));
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
      for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
    qInfo("%s: %dx%d, %zu colours", qPrintable(path), image.width(), image.height(), colours.size());
    QVERIFY(colours.size() > 20);
  }

private Q_SLOTS:
  void init() {
    stepper_ = std::make_unique<PassStepper>();
    stepper_->resize(1600, 1000);
    stepper_->show();
    QVERIFY(QTest::qWaitForWindowExposed(stepper_.get()));
  }
  void cleanup() { stepper_.reset(); }

  void listsEveryPassAndMarksTheChangedOnes_data() {
    QTest::addColumn<QString>("path");
    QString dir = findExamplesDir(defaultExampleDirs(QStringLiteral(TEMPO_SOURCE_DIR)));
    int count = 0;
    for (const ExampleGroup& group : listExamples(dir))
      for (const QString& file : group.files) {
        QTest::newRow(qPrintable(QDir(dir).relativeFilePath(file))) << file;
        ++count;
      }
    QVERIFY(count >= 6);
  }
  void listsEveryPassAndMarksTheChangedOnes() {
    QFETCH(QString, path);
    open(path);
    // The truth, from the engine directly.
    Graph g = compileProgram(path)->graph;
    std::vector<PassSnapshot> snapshots = defaultPipeline().run(g);
    std::vector<std::string> names = defaultPassNames();
    QCOMPARE(snapshots.size(), names.size());
    const int stages = static_cast<int>(loweringStages().size());  // after the passes
    QCOMPARE(tree()->topLevelItemCount(), static_cast<int>(names.size()) + 1 + stages);
    for (int i = 0; i < stages; ++i)
      QCOMPARE(tree()->topLevelItem(static_cast<int>(names.size()) + 1 + i)->text(0),
               QString::fromStdString(loweringStages()[static_cast<size_t>(i)].name));
    QCOMPARE(tree()->topLevelItem(0)->text(0), QStringLiteral("input (after lowering)"));
    QVERIFY(!isGreyed(tree()->topLevelItem(0)));
    for (size_t i = 0; i < names.size(); ++i) {
      QTreeWidgetItem* item = tree()->topLevelItem(static_cast<int>(i) + 1);
      QCOMPARE(item->text(0), QString::fromStdString(names[i]));
      QCOMPARE(isGreyed(item), !snapshots[i].changed);
      QVERIFY(item->toolTip(0).contains(QString::fromStdString(snapshots[i].description).toHtmlEscaped()));
      QVERIFY(!item->text(2).isEmpty());
    }

    // The hide toggle hides exactly the unchanged passes, and brings them back.
    stepper_->passList()->hideUnchangedBox()->setChecked(true);
    QVERIFY(!tree()->topLevelItem(0)->isHidden());
    for (size_t i = 0; i < names.size(); ++i)
      QCOMPARE(tree()->topLevelItem(static_cast<int>(i) + 1)->isHidden(), !snapshots[i].changed);
    stepper_->passList()->hideUnchangedBox()->setChecked(false);
    for (int i = 0; i < tree()->topLevelItemCount(); ++i) QVERIFY(!tree()->topLevelItem(i)->isHidden());
  }

  void branchLoweringOnTheRnnShowsADiffAndMarksTheMerge() {
    open(examplePath("rnn.tpo"));
    QVERIFY(stepper_->selectPass("branch-lowering"));
    QCOMPARE(stepper_->passList()->currentStep(), 1);
    waitForGraphs();
    const QString diff = comparison()->diffView()->toPlainText();
    QVERIFY(diff.startsWith("--- input"));
    QVERIFY(diff.contains("\n+++ branch-lowering"));
    QVERIFY(comparison()->diffView()->addedLines() > 0);
    QVERIFY(comparison()->diffView()->removedLines() > 0);
    QVERIFY(comparison()->tabs()->tabText(0).startsWith("Diff (+"));
    QVERIFY(comparison()->headerText().contains("branch-lowering"));

    const Graph& after = stepper_->currentRun()->graphAt(1);
    NodeId merge = nodeNamed(after, "h");
    QCOMPARE(after.node(merge).op, OpKind::Merge);
    QCOMPARE(comparison()->afterMarks().at(merge), QStringLiteral("rewritten"));
    GraphNodeItem* item = comparison()->afterView()->graphScene()->itemForNode(merge);
    QVERIFY(item && item->markColor());
    QCOMPARE(*item->markColor(), GraphView::markColor("rewritten"));
    QVERIFY(comparison()->beforeView()->isVisible());
  }

  void upAndDownStepThroughThePasses() {
    open(examplePath("rnn.tpo"));
    QCOMPARE(stepper_->passList()->currentStep(), 0);
    QVERIFY(!comparison()->beforeView()->isVisible());  // the input has no "before"
    stepper_->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(stepper_.get()));
    stepper_->setFocus();
    QVERIFY(tree()->hasFocus());
    QTest::keyClick(tree(), Qt::Key_Down);
    QCOMPARE(stepper_->passList()->currentStep(), 1);
    QTest::keyClick(tree(), Qt::Key_Down);
    QCOMPARE(stepper_->passList()->currentStep(), 2);
    QTest::keyClick(tree(), Qt::Key_Up);
    QCOMPARE(stepper_->passList()->currentStep(), 1);
    // With unchanged passes hidden, Down skips them.
    stepper_->passList()->hideUnchangedBox()->setChecked(true);
    const auto& run = *stepper_->currentRun();
    int expected = 2;
    while (expected < run.stepCount() && run.snapshotAt(expected) && !run.snapshotAt(expected)->changed) ++expected;
    QTest::keyClick(tree(), Qt::Key_Down);
    if (expected < run.stepCount()) QCOMPARE(stepper_->passList()->currentStep(), expected);
  }

  void loweringStagesShowTheProgramAfterThem() {
    open(examplePath("rnn.tpo"));
    QVERIFY(stepper_->selectPass("schedule"));
    QVERIFY(comparison()->headerText().contains("lowering stage 1 of 7"));
    QVERIFY(!comparison()->afterView()->isVisible());  // no graphs to compare
    QCOMPARE(comparison()->tabs()->currentWidget(), comparison()->programView()->parentWidget());
    QVERIFY(!comparison()->kernelPicker()->isVisibleTo(comparison()));  // no kernels to pick before codegen
    QVERIFY(comparison()->programView()->toPlainText().contains("for c0 in 0..T:"));
    QVERIFY(!comparison()->programView()->toPlainText().contains("alloc %"));
    QVERIFY(stepper_->selectPass("memory-placement"));
    QVERIFY(comparison()->programView()->toPlainText().contains("alloc %"));
    QVERIFY(comparison()->diffView()->toPlainText().startsWith("--- schedule"));
    QVERIFY(comparison()->diffView()->addedLines() > 0);
    QCOMPARE(comparison()->diffView()->removedLines(), 0);  // placement only adds memory statements
    QVERIFY(stepper_->selectPass("storage-plan"));
    QVERIFY(comparison()->programView()->toPlainText().contains("circular"));
    QVERIFY(stepper_->selectPass("kernel-formation"));
    QVERIFY(comparison()->programView()->toPlainText().contains(" generated  %"));
    // The codegen stages: the whole module, or one kernel's function picked by name.
    QVERIFY(stepper_->selectPass("llvm-ir"));
    QComboBox* picker = comparison()->kernelPicker();
    QVERIFY(picker->isVisibleTo(comparison()));
    QVERIFY(picker->count() >= 2);
    QVERIFY(comparison()->programView()->toPlainText().contains("optimised at -O3"));
    picker->setCurrentIndex(1);
    const QString kernel = picker->itemText(1);
    QVERIFY(comparison()->programView()->toPlainText().startsWith("define void @" + kernel + "("));
    QVERIFY(stepper_->selectPass("machine-code"));
    QCOMPARE(comparison()->kernelPicker()->currentIndex(), 0);
    comparison()->kernelPicker()->setCurrentIndex(1);
    QVERIFY(comparison()->programView()->toPlainText().startsWith(kernel + ":"));
    QVERIFY(stepper_->selectPass("cuda"));  // the same kernel as CUDA C++
    comparison()->kernelPicker()->setCurrentIndex(1);
    QVERIFY(comparison()->programView()->toPlainText().contains("__global__ void __launch_bounds__(256) "));
    QVERIFY(stepper_->selectPass("branch-lowering"));  // back to a pass: the graphs again
    QVERIFY(comparison()->afterView()->isVisible());
    QVERIFY(comparison()->tabs()->currentWidget() != comparison()->programView()->parentWidget());
  }

  void clickingANodeInEitherGraphEmitsItsSourceRange() {
    open(examplePath("rnn.tpo"));
    QVERIFY(stepper_->selectPass("branch-lowering"));
    waitForGraphs();
    for (GraphView* view : {comparison()->beforeView(), comparison()->afterView()}) {
      const Graph& g = stepper_->currentRun()->graphAt(view == comparison()->beforeView() ? 0 : 1);
      NodeId id = nodeNamed(g, "h");
      GraphNodeItem* item = view->graphScene()->itemForNode(id);
      QVERIFY(item);
      view->canvas()->centerOn(item);
      QSignalSpy spy(stepper_.get(), &PassStepper::nodeActivated);
      QTest::mouseClick(view->canvas()->viewport(), Qt::LeftButton, {},
                        view->canvas()->mapFromScene(item->frame().center()));
      QCOMPARE(spy.count(), 1);
      QList<QVariant> args = spy.takeFirst();
      QCOMPARE(args[0].toInt(), id);
      QCOMPARE(args[1].toInt(), g.node(id).loc.begin.line);
      QCOMPARE(args[3].toInt(), g.node(id).loc.end.line);
    }
  }

  void fitsALaptopScreenBesideTheEditor() {
    open(examplePath(QStringLiteral("gpt_decode.tpo")));
    tree()->setCurrentItem(tree()->topLevelItem(1));
    waitForGraphs();
    // The studio docks the stepper beside the editor: it must not force the window wide.
    QVERIFY2(stepper_->minimumSizeHint().width() <= 800,
             qPrintable(QStringLiteral("minimum width %1").arg(stepper_->minimumSizeHint().width())));
  }

  void settingAProgramDuringARunKeepsOnlyTheLatest() {
    QSignalSpy shown(stepper_.get(), &PassStepper::pipelineShown);
    stepper_->setProgram(compileProgram(examplePath("gpt_decode.tpo")));
    stepper_->setProgram(compileProgram(examplePath("attention_causal.tpo")));
    auto rnn = compileProgram(examplePath("rnn.tpo"));
    stepper_->setProgram(rnn);
    QVERIFY(stepper_->isRunning());
    QVERIFY(QTest::qWaitFor([&] { return !stepper_->isBusy(); }, 60000));
    QTest::qWait(50);  // any stale result would arrive now
    QCOMPARE(shown.count(), 1);
    QCOMPARE(printGraph(stepper_->currentRun()->input), printGraph(rnn->graph));
    QCOMPARE(comparison()->afterView()->isVisible(), true);
  }

  void aProgramWithErrorsKeepsTheLastRun() {
    open(examplePath("rnn.tpo"));
    auto previous = stepper_->currentRun();
    auto broken = std::make_shared<FrontendResult>(compileSource("dim t < T\nx = nope[t]\n", "broken.tpo", "."));
    QVERIFY(!broken->ok());
    stepper_->setProgram(broken);
    QVERIFY(!stepper_->isRunning());
    QVERIFY(stepper_->currentRun() == previous);
    stepper_->setProgram(nullptr);
    QVERIFY(!stepper_->currentRun());
    QCOMPARE(tree()->topLevelItemCount(), 0);
  }

  void screenshots() {
    open(examplePath("gpt_decode.tpo"));
    QVERIFY(stepper_->selectPass("branch-lowering"));
    waitForGraphs();
    shoot("passes_gpt_decode_branch_lowering");
    QVERIFY(stepper_->selectPass("common-subexpression-elimination"));
    waitForGraphs();
    shoot("passes_gpt_decode_cse");
    QVERIFY(stepper_->selectPass("branch-lowering"));

    QPalette dark = QApplication::palette();
    dark.setColor(QPalette::Window, QColor(45, 45, 48));
    dark.setColor(QPalette::WindowText, QColor(220, 220, 220));
    dark.setColor(QPalette::Base, QColor(30, 30, 30));
    dark.setColor(QPalette::AlternateBase, QColor(40, 40, 42));
    dark.setColor(QPalette::Text, QColor(220, 220, 220));
    dark.setColor(QPalette::Button, QColor(50, 50, 52));
    dark.setColor(QPalette::ButtonText, QColor(220, 220, 220));
    stepper_->setPalette(dark);
    stepper_->selectPass("input");
    QVERIFY(stepper_->selectPass("branch-lowering"));  // the graphs pick their theme at layout time
    waitForGraphs();
    shoot("passes_gpt_decode_branch_lowering_dark");
  }
};

QTEST_MAIN(PassStepperTest)
#include "PassStepperTest.moc"
