// GraphClusterItem: the frame around an expanded group's members.
//
// A dashed rounded rectangle with the group's title at its top-left, drawn
// behind the boxes; double-clicking it collapses the group again.
#pragma once

#include "graph/GraphTheme.h"
#include "layout/GraphLayout.h"

#include <QGraphicsItem>

namespace tempo::views {

class GraphClusterItem : public QGraphicsItem {
public:
  enum { Type = UserType + 103 };

  GraphClusterItem(const LayoutCluster& cluster, const GraphTheme& theme);

  int type() const override { return Type; }
  QRectF boundingRect() const override { return frame_.adjusted(-2, -2, 2, 2); }
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  int group() const { return cluster_.group; }
  const LayoutCluster& cluster() const { return cluster_; }

private:
  LayoutCluster cluster_;
  QRectF frame_;
  QFont font_;
  QColor ink_;
};

}  // namespace tempo::views
