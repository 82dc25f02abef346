// Fused groups in the graph view (views/graph): before fusion, the chains the
// fusion pass merges are groups (framed by default, one box each once
// collapsed); after fusion, each fused node opens into its program's steps.
// Collapsing hides exactly (members - 1) boxes per group (steps - 1 per fused
// node), expanding restores them, a collapsed box still selects its source
// range, and search finds nodes inside a collapsed box by opening it. The
// groups are checked against the real pipeline: on the graph just before the
// fusion pass they are exactly the nodes each fused node replaced.
#include "GraphViewTestUtil.h"

#include "graph/FusionGroups.h"
#include "graph/GraphCanvas.h"
#include "passes/PipelineRun.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

using namespace tempo;
using namespace tempo::views;
using namespace tempo::views::test;

class GraphGroupsTest : public QObject {
  Q_OBJECT

private:
  Graph input_;                      ///< gpt_decode as lowered
  std::unique_ptr<PipelineRun> run_;
  std::unique_ptr<GraphView> view_;

  GraphScene* scene() { return view_->graphScene(); }
  const PassSnapshot& fusionStep() {
    for (const PassSnapshot& s : run_->snapshots)
      if (s.passName == "fusion") return s;
    qFatal("no fusion pass");
    return run_->snapshots.front();
  }
  /// The graph the fusion pass started from.
  const Graph& beforeFusion() {
    for (size_t i = 0; i < run_->snapshots.size(); ++i)
      if (run_->snapshots[i].passName == "fusion") return run_->graphAt(static_cast<int>(i));
    qFatal("no fusion pass");
    return input_;
  }
  void show(const Graph& g) {
    view_->setGraph(g);
    QVERIFY(waitForLayout(*view_));
  }
  void clickAt(GraphNodeItem* item, bool twice = false) {
    view_->canvas()->centerOn(item);
    QPoint pos = view_->canvas()->mapFromScene(item->frame().center());
    if (twice) QTest::mouseDClick(view_->canvas()->viewport(), Qt::LeftButton, {}, pos);
    else QTest::mouseClick(view_->canvas()->viewport(), Qt::LeftButton, {}, pos);
  }
  static size_t hiddenWhenCollapsed(const NodeGroups& groups) {
    std::map<int, size_t> sizes;
    for (const auto& [node, group] : groups.groupOf) ++sizes[group];
    size_t hidden = 0;
    for (const auto& [group, size] : sizes) hidden += size - 1;
    return hidden;
  }
  static std::vector<NodeId> fusedNodes(const Graph& g) {
    std::vector<NodeId> out;
    for (const auto& [id, n] : g.nodes())
      if (n.op == OpKind::Fused) out.push_back(id);
    return out;
  }

private Q_SLOTS:
  void initTestCase() {
    input_ = compileExample("gpt_decode.tpo");
    run_ = std::make_unique<PipelineRun>(runDefaultPipeline(input_));
    QVERIFY(run_->error.isEmpty());
    QVERIFY(!fusionStep().change.added.empty());
  }
  void init() {
    view_ = std::make_unique<GraphView>();
    view_->resize(1200, 800);
    view_->show();
    QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
  }
  void cleanup() { view_.reset(); }

  void fusionGroupsAreWhatTheFusionPassFuses() {
    NodeGroups groups = fusionGroups(beforeFusion());
    std::map<int, std::set<NodeId>> members;
    for (const auto& [node, group] : groups.groupOf) members[group].insert(node);
    std::set<std::set<NodeId>> expected;
    for (NodeId id : fusionStep().change.added) {
      const std::vector<int>& from = fusionStep().graph.node(id).attrs.fusedFrom;
      expected.insert(std::set<NodeId>(from.begin(), from.end()));
    }
    std::set<std::set<NodeId>> actual;
    for (const auto& [group, nodes] : members) actual.insert(nodes);
    QCOMPARE(actual, expected);
    QVERIFY(fusionGroups(fusionStep().graph).empty());  // nothing left to fuse
  }

  void beforeFusionGroupsAreFramedThenCollapseAndExpand() {
    const Graph& g = beforeFusion();
    show(g);
    const NodeGroups groups = fusionGroups(g);
    std::set<int> ids;
    for (const auto& [node, group] : groups.groupOf) ids.insert(group);
    const size_t all = g.nodes().size() + g.outputs.size();
    QCOMPARE(view_->groupMode(), GroupMode::Fusion);
    QCOMPARE(scene()->nodeItems().size(), all);  // framed: every node visible
    QCOMPARE(scene()->clusterItems().size(), ids.size());

    view_->findChild<QToolButton*>("graphCollapseGroups")->click();
    QVERIFY(waitForLayout(*view_));
    QCOMPARE(scene()->nodeItems().size(), all - hiddenWhenCollapsed(groups));
    QCOMPARE(scene()->clusterItems().size(), size_t(0));
    for (const auto& [node, group] : groups.groupOf) {
      QCOMPARE(scene()->itemForNode(node)->node().kind, LayoutNodeKind::Group);
      QCOMPARE(scene()->itemForNode(node)->node().id, group);
    }

    view_->findChild<QToolButton*>("graphExpandAll")->click();
    QVERIFY(waitForLayout(*view_));
    QCOMPARE(scene()->nodeItems().size(), all);
    QCOMPARE(scene()->clusterItems().size(), ids.size());
  }

  void doubleClickTogglesOneGroup() {
    const Graph& g = beforeFusion();
    show(g);
    view_->collapseAll();
    QVERIFY(waitForLayout(*view_));
    const size_t collapsed = scene()->nodeItems().size();
    NodeId n1 = nodeNamed(g, "n1");
    const size_t size = view_->graphScene()->itemForNode(n1)->node().members.size();
    QVERIFY(size >= 3);  // the layer norm: div, add, sqrt, div, mul
    clickAt(scene()->itemForNode(n1), true);
    QVERIFY(waitForLayout(*view_));
    QCOMPARE(scene()->nodeItems().size(), collapsed + size - 1);
    QCOMPARE(scene()->itemForNode(n1)->node().kind, LayoutNodeKind::Op);
    QCOMPARE(scene()->clusterItems().size(), size_t(1));
    GraphClusterItem* frame = scene()->clusterItems()[0];
    QTest::mouseDClick(view_->canvas()->viewport(), Qt::LeftButton, {},
                       view_->canvas()->mapFromScene(frame->boundingRect().topLeft() + QPointF(6, 6)));
    QVERIFY(waitForLayout(*view_));
    QCOMPARE(scene()->nodeItems().size(), collapsed);
  }

  void clickingACollapsedGroupSelectsItsSourceRange() {
    const Graph& g = beforeFusion();
    show(g);
    view_->collapseAll();
    QVERIFY(waitForLayout(*view_));
    GraphNodeItem* box = scene()->itemForNode(nodeNamed(g, "n1"));
    QCOMPARE(box->node().kind, LayoutNodeKind::Group);
    SourceRange expected;
    for (NodeId m : box->node().members) {
      const SourceRange& loc = g.node(m).loc;
      if (loc.valid()) expected = expected.valid() ? SourceRange::cover(expected, loc) : loc;
    }
    QSignalSpy spy(view_.get(), &GraphView::nodeActivated);
    clickAt(box);
    QCOMPARE(spy.count(), 1);
    QList<QVariant> args = spy.takeFirst();
    QCOMPARE(args[1].toInt(), expected.begin.line);
    QCOMPARE(args[2].toInt(), expected.begin.col);
    QCOMPARE(args[3].toInt(), expected.end.line);
    QCOMPARE(args[4].toInt(), expected.end.col);
    QCOMPARE(args[1].toInt(), 26);  // var1 = mean(...)'s division by 16 ...
    QCOMPARE(args[3].toInt(), 27);  // ... through n1 = xc1 / sqrt(var1 + 1e-5) * g1[l]
    QVERIFY(box->isPicked());
  }

  void searchOpensACollapsedGroupToShowTheMatch() {
    const Graph& g = beforeFusion();
    show(g);
    view_->collapseAll();
    QVERIFY(waitForLayout(*view_));
    NodeId sqrtNode = -1;
    for (const auto& [id, n] : g.nodes())
      if (n.op == OpKind::Sqrt && n.loc.begin.line == 27) sqrtNode = id;
    QVERIFY(sqrtNode >= 0);
    QCOMPARE(scene()->itemForNode(sqrtNode)->node().kind, LayoutNodeKind::Group);
    auto* search = view_->findChild<QLineEdit*>("graphSearch");
    search->setText("sqrt");
    QVERIFY(!scene()->itemForNode(sqrtNode)->isDimmed());  // the closed box matches through its member
    QTest::keyClick(search, Qt::Key_Return);
    QVERIFY(QTest::qWaitFor([&] { return !view_->layoutPending() &&
                                         scene()->itemForNode(sqrtNode)->node().kind == LayoutNodeKind::Op; }, 20000));
    QVERIFY(QTest::qWaitFor([&] { return scene()->itemForNode(sqrtNode)->isPicked(); }, 5000));
    QVERIFY(view_->canvas()->mapToScene(view_->canvas()->viewport()->rect()).boundingRect().contains(
        scene()->itemForNode(sqrtNode)->frame()));
    for (GraphNodeItem* item : scene()->nodeItems())
      if (item->node().kind == LayoutNodeKind::Op && g.node(item->node().id).op == OpKind::Sqrt)
        QVERIFY(item->isPicked());
  }

  void fusedNodesOpenIntoTheirSteps() {
    const Graph& g = fusionStep().graph;
    show(g);
    const size_t all = g.nodes().size() + g.outputs.size();
    QCOMPARE(scene()->nodeItems().size(), all);  // fused nodes start as one box
    QCOMPARE(scene()->clusterItems().size(), size_t(0));
    NodeId n1 = nodeNamed(g, "n1");
    const Node& fused = g.node(n1);
    QCOMPARE(fused.op, OpKind::Fused);
    const size_t steps = fused.attrs.program.size();
    QCOMPARE(steps, fused.attrs.fusedFrom.size());  // one step per node it replaced

    clickAt(scene()->itemForNode(n1), true);
    QVERIFY(waitForLayout(*view_));
    QCOMPARE(scene()->nodeItems().size(), all + steps - 1);
    QCOMPARE(scene()->clusterItems().size(), size_t(1));
    QCOMPARE(scene()->clusterItems()[0]->cluster().fused, n1);
    int stepBoxes = 0;
    for (GraphNodeItem* item : scene()->nodeItems())
      if (item->node().kind == LayoutNodeKind::FusedStep) {
        ++stepBoxes;
        QCOMPARE(item->node().id, n1);
      }
    QCOMPARE(stepBoxes, static_cast<int>(steps));
    GraphNodeItem* result = scene()->itemForNode(n1);  // the last step stands for the node
    QCOMPARE(result->node().kind, LayoutNodeKind::FusedStep);
    QCOMPARE(result->node().step, static_cast<int>(steps) - 1);
    QVERIFY(QString::fromStdString(result->node().label[0]).startsWith("n1 = "));
    // Every input of the fused node enters the steps that read it, labelled in<k>.
    int inputEdges = 0;
    for (GraphEdgeItem* e : scene()->edgeItems())
      if (e->edge().id >= 0 && g.edge(e->edge().id).consumer == n1) {
        ++inputEdges;
        QVERIFY(QString::fromStdString(e->edge().label.at(0)).startsWith("in"));
      }
    QVERIFY(inputEdges >= static_cast<int>(g.inputs(n1).size()));
    // Clicking a step selects the fused node's source.
    QSignalSpy spy(view_.get(), &GraphView::nodeActivated);
    clickAt(result);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.first()[0].toInt(), n1);
    QCOMPARE(spy.first()[1].toInt(), fused.loc.begin.line);

    view_->collapseAll();
    QVERIFY(waitForLayout(*view_));
    QCOMPARE(scene()->nodeItems().size(), all);
    view_->expandAll();
    QVERIFY(waitForLayout(*view_));
    size_t expected = all;
    for (NodeId id : fusedNodes(g)) expected += g.node(id).attrs.program.size() - 1;
    QCOMPARE(scene()->nodeItems().size(), expected);
    QCOMPARE(scene()->clusterItems().size(), fusedNodes(g).size());
  }

  void searchOpensAFusedNodeToShowAStep() {
    const Graph& g = fusionStep().graph;
    show(g);
    NodeId n1 = nodeNamed(g, "n1");
    auto* search = view_->findChild<QLineEdit*>("graphSearch");
    search->setText("sqrt");
    QVERIFY(!scene()->itemForNode(n1)->isDimmed());
    QTest::keyClick(search, Qt::Key_Return);
    QVERIFY(QTest::qWaitFor([&] { return !view_->layoutPending() && scene()->itemForNode(n1)->node().kind ==
                                                                        LayoutNodeKind::FusedStep; }, 20000));
    QVERIFY(QTest::qWaitFor([&] {
      for (GraphNodeItem* item : scene()->nodeItems())
        if (item->node().kind == LayoutNodeKind::FusedStep && item->node().id == n1 && item->isPicked())
          return g.node(n1).attrs.program.at(static_cast<size_t>(item->node().step)).op == OpKind::Sqrt;
      return false;
    }, 5000));
  }

  void noGroupsModeDrawsEveryNode() {
    const Graph& g = beforeFusion();
    show(g);
    view_->setGroupMode(GroupMode::None);
    QVERIFY(waitForLayout(*view_));
    view_->collapseAll();
    QVERIFY(waitForLayout(*view_));
    QCOMPARE(scene()->nodeItems().size(), g.nodes().size() + g.outputs.size());
    QCOMPARE(scene()->clusterItems().size(), size_t(0));
  }
};

QTEST_MAIN(GraphGroupsTest)
#include "GraphGroupsTest.moc"
