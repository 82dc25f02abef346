// The dependence graph view (views/graph): clicking a box reports its source
// range, the editor's line highlights the boxes it made, search finds and
// picks nodes, the bytes overlay and pass marks recolour, groups collapse
// and expand, and layout runs off the UI thread.
#include "GraphViewTestUtil.h"

#include "graph/GraphCanvas.h"
#include "layout/PredictedBytes.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>

using namespace tempo;
using namespace tempo::views;
using namespace tempo::views::test;

class GraphViewTest : public QObject {
  Q_OBJECT

private:
  Graph g_;
  std::unique_ptr<GraphView> view_;

  GraphScene* scene() { return view_->graphScene(); }
  /// Clicks the box drawing `id` (scrolled into view first).
  void clickNode(NodeId id, bool twice = false) {
    GraphNodeItem* item = scene()->itemForNode(id);
    QVERIFY(item);
    view_->canvas()->centerOn(item);
    QPoint pos = view_->canvas()->mapFromScene(item->frame().center());
    if (twice) QTest::mouseDClick(view_->canvas()->viewport(), Qt::LeftButton, {}, pos);
    else QTest::mouseClick(view_->canvas()->viewport(), Qt::LeftButton, {}, pos);
  }

private Q_SLOTS:
  void init() {
    g_ = compileExample("gpt_decode.tpo");
    view_ = std::make_unique<GraphView>();
    view_->resize(1200, 800);
    view_->show();
    QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
    view_->setGraph(g_);
    QVERIFY(waitForLayout(*view_));
  }
  void cleanup() { view_.reset(); }

  void drawsEveryNodeEdgeAndOutput() {
    QCOMPARE(scene()->nodeItems().size(), g_.nodes().size() + g_.outputs.size());
    QCOMPARE(scene()->edgeItems().size(), g_.edges().size() + g_.outputs.size());
    int dashed = 0, coloured = 0;
    for (GraphEdgeItem* e : scene()->edgeItems()) {
      dashed += e->edge().temporal;
      coloured += e->color() == QColor(QString::fromLatin1(kConditionalEdgeColor));
    }
    QVERIFY(dashed > 0);
    QVERIFY(coloured > 0);
  }

  void clickingANodeEmitsItsSourceRange() {
    for (const char* name : {"n1", "scores", "K", "x", "y", "Wq"}) {
      NodeId id = nodeNamed(g_, name);
      QSignalSpy spy(view_.get(), &GraphView::nodeActivated);
      clickNode(id);
      QCOMPARE(spy.count(), 1);
      const SourceRange& loc = g_.node(id).loc;
      QList<QVariant> args = spy.takeFirst();
      QCOMPARE(args[0].toInt(), id);
      QCOMPARE(args[1].toInt(), loc.begin.line);
      QCOMPARE(args[2].toInt(), loc.begin.col);
      QCOMPARE(args[3].toInt(), loc.end.line);
      QCOMPARE(args[4].toInt(), loc.end.col);
      QVERIFY(scene()->itemForNode(id)->isPicked());
    }
  }

  void clickingEmptySpaceClearsThePick() {
    NodeId id = nodeNamed(g_, "n1");
    clickNode(id);
    QVERIFY(scene()->itemForNode(id)->isPicked());
    QPoint empty(-1, -1);
    QWidget* vp = view_->canvas()->viewport();
    for (int y = 5; y < vp->height() && empty.x() < 0; y += 7)
      for (int x = 5; x < vp->width() && empty.x() < 0; x += 7)
        if (view_->canvas()->items(QPoint(x, y)).isEmpty()) empty = QPoint(x, y);
    QVERIFY(empty.x() >= 0);
    QSignalSpy spy(view_.get(), &GraphView::nodeActivated);
    QTest::mouseClick(vp, Qt::LeftButton, {}, empty);
    QCOMPARE(spy.count(), 0);
    QVERIFY(!scene()->itemForNode(id)->isPicked());
  }

  void highlightSourceLineMarksTheNodesOfThatLine() {
    const int line = 27;  // n1 = xc1 / sqrt(var1 + 1e-5) * g1[l]: five nodes
    view_->highlightSourceLine(line);
    int highlighted = 0;
    for (const auto& [id, n] : g_.nodes()) {
      bool covers = n.loc.begin.line <= line && line <= n.loc.end.line;
      QCOMPARE(scene()->itemForNode(id)->isHighlighted(), covers);
      highlighted += covers;
    }
    QCOMPARE(highlighted, 5);
    QPointF centre = view_->canvas()->mapToScene(view_->canvas()->viewport()->rect().center());
    QVERIFY(scene()->itemForNode(nodeNamed(g_, "n1"))->frame().adjusted(-300, -300, 300, 300).contains(centre));
    view_->highlightSourceLine(0);
    for (GraphNodeItem* item : scene()->nodeItems()) QVERIFY(!item->isHighlighted());
  }

  void searchFindsANodeByNameAndZoomsToIt() {
    auto* search = view_->findChild<QLineEdit*>("graphSearch");
    QVERIFY(search);
    QTest::keyClicks(search, "scores");
    NodeId id = nodeNamed(g_, "scores");
    QVERIFY(!scene()->itemForNode(id)->isDimmed());
    QVERIFY(scene()->itemForNode(nodeNamed(g_, "n1"))->isDimmed());
    QTest::keyClick(search, Qt::Key_Return);
    QVERIFY(scene()->itemForNode(id)->isPicked());
    QVERIFY(view_->findChildren<QLabel*>().size() > 0);
    bool counted = false;
    for (QLabel* l : view_->findChildren<QLabel*>()) counted = counted || l->text() == "1 match";
    QVERIFY(counted);
    QVERIFY(view_->canvas()->mapToScene(view_->canvas()->viewport()->rect()).boundingRect().contains(
        scene()->itemForNode(id)->frame()));
    QVERIFY(view_->canvas()->zoom() > 1.0);  // zoomed in on one box
    int picked = 0;
    for (GraphNodeItem* item : scene()->nodeItems()) picked += item->isPicked();
    QCOMPARE(picked, 1);
  }

  void searchByOpFindsEveryMatmul() {
    auto* search = view_->findChild<QLineEdit*>("graphSearch");
    search->setText("MATMUL");
    QTest::keyClick(search, Qt::Key_Return);
    for (const auto& [id, n] : g_.nodes())
      QCOMPARE(scene()->itemForNode(id)->isPicked(), n.op == OpKind::MatMul);
    search->clear();
    for (GraphNodeItem* item : scene()->nodeItems()) QVERIFY(!item->isDimmed());
  }

  void bytesOverlayRecolours() {
    std::map<int, double> bytes = predictedBytesAtDefaults(g_);
    std::map<int, QColor> before;
    for (const auto& [id, n] : g_.nodes()) before[id] = scene()->itemForNode(id)->fillColor();
    view_->setBytesOverlay(bytes);
    QVERIFY(view_->findChild<QCheckBox*>("graphBytesOverlay")->isChecked());
    GraphNodeItem* big = scene()->itemForNode(nodeNamed(g_, "K"));     // f32[t + 1, 2, 8] over (l, t)
    GraphNodeItem* small = scene()->itemForNode(nodeNamed(g_, "mu1"));  // f32[] over (l, t)
    QVERIFY(big->overlayColor() && small->overlayColor());
    QVERIFY(big->fillColor() != small->fillColor());
    QVERIFY(big->fillColor().lightnessF() < small->fillColor().lightnessF());  // more bytes, darker
    int changed = 0;
    for (const auto& [id, n] : g_.nodes()) changed += scene()->itemForNode(id)->fillColor() != before[id];
    QVERIFY(changed > static_cast<int>(g_.nodes().size()) / 2);
    view_->findChild<QCheckBox*>("graphBytesOverlay")->setChecked(false);
    for (const auto& [id, n] : g_.nodes()) QCOMPARE(scene()->itemForNode(id)->fillColor(), before[id]);
  }

  void nodeMarksOutline() {
    NodeId added = nodeNamed(g_, "q"), removed = nodeNamed(g_, "k");
    view_->setNodeMarks({{added, "added"}, {removed, "removed"}});
    QCOMPARE(*scene()->itemForNode(added)->markColor(), GraphView::markColor("added"));
    QCOMPARE(*scene()->itemForNode(removed)->markColor(), GraphView::markColor("removed"));
    QVERIFY(!scene()->itemForNode(nodeNamed(g_, "v"))->markColor());
    QVERIFY(GraphView::markColor("added") != GraphView::markColor("rewritten"));
  }

  void groupsCollapseAndExpand() {
    const size_t ungrouped = scene()->nodeItems().size();
    auto* groups = view_->findChild<QComboBox*>("graphGroups");
    QVERIFY(groups);
    groups->setCurrentIndex(groups->findData(static_cast<int>(GroupMode::SourceLine)));
    QVERIFY(waitForLayout(*view_));
    QCOMPARE(view_->groupMode(), GroupMode::SourceLine);
    QVERIFY(scene()->nodeItems().size() < ungrouped);
    NodeId n1 = nodeNamed(g_, "n1");
    GraphNodeItem* box = scene()->itemForNode(n1);
    QCOMPARE(box->node().kind, LayoutNodeKind::Group);
    // Clicking a group selects the whole line.
    QSignalSpy spy(view_.get(), &GraphView::nodeActivated);
    clickNode(n1);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.first()[0].toInt(), n1);
    QCOMPARE(spy.first()[1].toInt(), 27);
    // Double-click expands it into a frame around its five nodes.
    clickNode(n1, true);
    QVERIFY(waitForLayout(*view_));
    QCOMPARE(scene()->clusterItems().size(), size_t(1));
    QCOMPARE(scene()->itemForNode(n1)->node().kind, LayoutNodeKind::Op);
    // Double-clicking the frame collapses it again.
    GraphClusterItem* frame = scene()->clusterItems()[0];
    QRectF r = frame->boundingRect();
    QTest::mouseDClick(view_->canvas()->viewport(), Qt::LeftButton, {},
                       view_->canvas()->mapFromScene(r.topLeft() + QPointF(6, 6)));
    QVERIFY(waitForLayout(*view_));
    QCOMPARE(scene()->clusterItems().size(), size_t(0));
    QCOMPARE(scene()->itemForNode(n1)->node().kind, LayoutNodeKind::Group);
  }

  void callerGroupsReplaceLineGroups() {
    NodeGroups groups;
    groups.groupOf[nodeNamed(g_, "q")] = 1;
    groups.groupOf[nodeNamed(g_, "k")] = 1;
    groups.groupOf[nodeNamed(g_, "v")] = 1;
    groups.labels[1] = "fused qkv";
    view_->setGroups(groups);
    QVERIFY(waitForLayout(*view_));
    GraphNodeItem* box = scene()->itemForNode(nodeNamed(g_, "k"));
    QCOMPARE(box->node().kind, LayoutNodeKind::Group);
    QCOMPARE(box->node().label[0], std::string("fused qkv"));
    QCOMPARE(scene()->nodeItems().size(), g_.nodes().size() + g_.outputs.size() - 2);
  }

  void layoutRunsOffTheUiThreadAndKeepsTheOldScene() {
    GraphScene* old = scene();
    Graph rnn = compileExample("rnn.tpo");
    QElapsedTimer timer;
    timer.start();
    view_->setGraph(rnn);
    const qint64 blockedMs = timer.elapsed();
    qInfo("setGraph returned after %lld ms (layout runs in the background)", blockedMs);
    QVERIFY(view_->layoutPending());
    QCOMPARE(scene(), old);
    QSignalSpy ready(view_.get(), &GraphView::layoutReady);
    QVERIFY(ready.wait(20000));
    qInfo("layout of rnn ready after %lld ms", timer.elapsed());
    QVERIFY(scene() != old);
    QVERIFY(blockedMs < 50);
    timer.restart();
    view_->setGraph(g_);
    QVERIFY(ready.wait(20000));
    qInfo("layout of gpt_decode (%zu nodes) on screen after %lld ms", g_.nodes().size(), timer.elapsed());
  }

  void rapidUpdatesShowTheLastGraph() {
    Graph rnn = compileExample("rnn.tpo");
    view_->setGraph(rnn);
    view_->setGraph(g_);
    view_->setGraph(rnn);
    QVERIFY(waitForLayout(*view_));
    QCOMPARE(scene()->nodeItems().size(), rnn.nodes().size() + rnn.outputs.size());
  }

  void emptyGraphShowsNothing() {
    view_->setGraph(Graph{});
    QVERIFY(waitForLayout(*view_));
    QCOMPARE(scene()->nodeItems().size(), size_t(0));
    view_->highlightSourceLine(3);  // nothing to highlight, no crash
  }
};

QTEST_MAIN(GraphViewTest)
#include "GraphViewTest.moc"
