// GraphEdgeItem: one edge of the dependence graph view.
//
// Draws a LayoutEdge's cubic B-spline as a QPainterPath with a filled
// arrowhead at the consumer, dashed when the read is temporal and in the
// conditional colour when it is guarded, with its label (index atoms, `if`
// condition) centred where Graphviz placed it. An edge touching the picked
// node is drawn bolder.
#pragma once

#include "graph/GraphTheme.h"
#include "layout/GraphLayout.h"

#include <QGraphicsItem>
#include <QPainterPath>

namespace tempo::views {

class GraphEdgeItem : public QGraphicsItem {
public:
  enum { Type = UserType + 102 };

  GraphEdgeItem(const LayoutEdge& edge, const GraphTheme& theme);

  int type() const override { return Type; }
  QRectF boundingRect() const override { return bounds_; }
  /// The stroke, arrowhead and label (for hovering, not the whole box).
  QPainterPath shape() const override { return hitShape_; }
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  const LayoutEdge& edge() const { return edge_; }
  QColor color() const { return color_; }
  void setEmphasized(bool on);
  bool isEmphasized() const { return emphasized_; }

private:
  LayoutEdge edge_;
  QFont font_;
  QColor color_;
  QPainterPath path_;
  QPolygonF arrow_;
  QRectF labelRect_;
  QRectF bounds_;
  QPainterPath hitShape_;
  bool emphasized_ = false;
};

}  // namespace tempo::views
