#include "graph/GraphScene.h"

namespace tempo::views {

GraphScene::GraphScene(GraphLayout layout, const GraphTheme& theme, QObject* parent)
    : QGraphicsScene(parent), layout_(std::move(layout)) {
  setBackgroundBrush(theme.background);
  for (const LayoutCluster& c : layout_.clusters) {
    clusters_.push_back(new GraphClusterItem(c, theme));
    addItem(clusters_.back());
  }
  for (size_t i = 0; i < layout_.nodes.size(); ++i) {
    nodes_.push_back(new GraphNodeItem(layout_.nodes[i], static_cast<int>(i), theme));
    addItem(nodes_.back());
  }
  for (const LayoutEdge& e : layout_.edges) {
    edges_.push_back(new GraphEdgeItem(e, theme));
    addItem(edges_.back());
  }
  setSceneRect(QRectF(0, 0, layout_.width, layout_.height).adjusted(-40, -40, 40, 40));
}

GraphNodeItem* GraphScene::itemForNode(NodeId id) const {
  int i = layout_.indexOfNode(id);
  return i < 0 ? nullptr : nodes_[i];
}

void GraphScene::updateEdgeEmphasis() {
  for (GraphEdgeItem* e : edges_)
    e->setEmphasized(nodes_[e->edge().from]->isPicked() || nodes_[e->edge().to]->isPicked());
}

QRectF GraphScene::unitedFrame(const std::vector<GraphNodeItem*>& items) {
  QRectF r;
  for (GraphNodeItem* it : items) r = r.isNull() ? it->frame() : r.united(it->frame());
  return r;
}

}  // namespace tempo::views
