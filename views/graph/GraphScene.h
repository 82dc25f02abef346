// GraphScene: a laid-out SDG as QGraphicsItems.
//
// Built once per layout: a GraphNodeItem per box, a GraphEdgeItem per edge
// and a GraphClusterItem per expanded group, in scene coordinates equal to
// the layout's points. Finds the box that draws an SDG node (its group's box
// when collapsed) and the boxes matching a search; emphasises the edges of
// the picked boxes. The view decides what is marked, highlighted or picked.
#pragma once

#include "graph/GraphClusterItem.h"
#include "graph/GraphEdgeItem.h"
#include "graph/GraphNodeItem.h"
#include "graph/GraphTheme.h"
#include "layout/GraphLayout.h"

#include <QGraphicsScene>

#include <vector>

namespace tempo::views {

class GraphScene : public QGraphicsScene {
  Q_OBJECT

public:
  GraphScene(GraphLayout layout, const GraphTheme& theme, QObject* parent = nullptr);

  const GraphLayout& layout() const { return layout_; }
  const std::vector<GraphNodeItem*>& nodeItems() const { return nodes_; }
  const std::vector<GraphEdgeItem*>& edgeItems() const { return edges_; }
  const std::vector<GraphClusterItem*>& clusterItems() const { return clusters_; }
  /// The box drawing SDG node `id`, or nullptr.
  GraphNodeItem* itemForNode(NodeId id) const;
  /// Emphasises the edges touching the picked boxes.
  void updateEdgeEmphasis();
  /// United frames of `items` (null rect if none).
  static QRectF unitedFrame(const std::vector<GraphNodeItem*>& items);

private:
  GraphLayout layout_;
  std::vector<GraphNodeItem*> nodes_;
  std::vector<GraphEdgeItem*> edges_;
  std::vector<GraphClusterItem*> clusters_;
};

}  // namespace tempo::views
