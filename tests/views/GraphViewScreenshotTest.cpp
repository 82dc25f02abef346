// Pictures of the graph view under the offscreen platform, for looking at
// (and for the README): gpt_decode fitted (fusion groups framed), zoomed on
// the editor's line, with the bytes overlay, with its fusion groups
// collapsed, grouped by line, after the passes with its fused nodes opened
// into their steps, and the RNN. Files go to $TEMPO_SCREENSHOT_DIR (default: a temp dir); the test
// checks each picture has real content (many colours, not blank).
#include "GraphViewTestUtil.h"

#include "graph/GraphCanvas.h"
#include "layout/PredictedBytes.h"
#include "passes/PipelineRun.h"

#include <QCheckBox>
#include <QDir>
#include <QImage>
#include <QLineEdit>

#include <set>

using namespace tempo;
using namespace tempo::views;
using namespace tempo::views::test;

class GraphViewScreenshotTest : public QObject {
  Q_OBJECT

private:
  QDir dir_;

  void shoot(GraphView& view, const QString& name) {
    QImage image = view.grab().toImage();
    QString path = dir_.filePath(name + ".png");
    QVERIFY2(image.save(path), qPrintable(path));
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
      for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
    qInfo("%s: %dx%d, %zu colours", qPrintable(path), image.width(), image.height(), colours.size());
    QVERIFY(colours.size() > 20);
  }

private Q_SLOTS:
  void initTestCase() {
    QString d = qEnvironmentVariable("TEMPO_SCREENSHOT_DIR", QDir::temp().filePath("tempo-graph-shots"));
    QVERIFY(QDir().mkpath(d));
    dir_ = QDir(d);
  }

  // Shows `g` in `view` at the screenshots' size and waits for its first layout.
  static bool showLaidOut(GraphView& view, const Graph& g) {
    view.resize(1400, 900);
    view.show();
    if (!QTest::qWaitForWindowExposed(&view)) return false;
    view.setGraph(g);
    return waitForLayout(view);
  }

  void gptDecode() {
    Graph g = compileExample("gpt_decode.tpo");
    GraphView view;
    QVERIFY(showLaidOut(view, g));
    shoot(view, "graph_gpt_decode_fit");

    view.canvas()->resetTransform();
    view.highlightSourceLine(37);  // scores = ...
    view.setNodeMarks({{nodeNamed(g, "q"), "added"}, {nodeNamed(g, "k"), "rewritten"}});
    shoot(view, "graph_gpt_decode_line37");

    view.setNodeMarks({});
    view.findChild<QLineEdit*>("graphSearch")->setText("matmul");
    QTest::keyClick(view.findChild<QLineEdit*>("graphSearch"), Qt::Key_Return);
    shoot(view, "graph_gpt_decode_search");
    view.findChild<QLineEdit*>("graphSearch")->clear();

    view.setBytesOverlay(predictedBytesAtDefaults(g));
    view.canvas()->fitAll();
    shoot(view, "graph_gpt_decode_bytes");
    view.findChild<QCheckBox*>("graphBytesOverlay")->setChecked(false);

    view.collapseAll();
    QVERIFY(waitForLayout(view));
    shoot(view, "graph_gpt_decode_fusion_collapsed");

    view.setGroupMode(GroupMode::SourceLine);
    QVERIFY(waitForLayout(view));
    shoot(view, "graph_gpt_decode_grouped");
  }

  void gptDecodeFused() {
    Graph g = runDefaultPipeline(compileExample("gpt_decode.tpo")).snapshots.back().graph;
    GraphView view;
    QVERIFY(showLaidOut(view, g));
    shoot(view, "graph_gpt_decode_fused");
    view.expandAll();
    QVERIFY(waitForLayout(view));
    view.canvas()->resetTransform();
    view.canvas()->centerOn(view.graphScene()->itemForNode(nodeNamed(g, "n1")));
    shoot(view, "graph_gpt_decode_fused_expanded");
  }

  void rnn() {
    GraphView view;
    view.resize(1000, 800);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setGraph(compileExample("rnn.tpo"));
    QVERIFY(waitForLayout(view));
    shoot(view, "graph_rnn");
  }
};

QTEST_MAIN(GraphViewScreenshotTest)
#include "GraphViewScreenshotTest.moc"
