// GraphNodeItem: one box of the dependence graph view.
//
// Draws a LayoutNode: the outline of its op class (box, ellipse, 3-D box,
// inverted trapezium, arrow, diamond; a double rounded box for a collapsed
// group; bare text for an output sink) filled with its class colour or, in
// the bytes overlay, with a colour from the scale, and its label lines
// centred. State set by the view changes only the look: a pass-stepper mark
// (outline colour), highlighted (the editor's cursor line), selected (a
// click or a search hit), dimmed (not matching the search).
#pragma once

#include "graph/GraphTheme.h"
#include "layout/GraphLayout.h"

#include <QColor>
#include <QFont>
#include <QGraphicsItem>
#include <QPainterPath>

#include <optional>

namespace tempo::views {

class GraphNodeItem : public QGraphicsItem {
public:
  enum { Type = UserType + 101 };

  GraphNodeItem(const LayoutNode& node, int layoutIndex, const GraphTheme& theme);

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  QPainterPath shape() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  const LayoutNode& node() const { return node_; }
  int layoutIndex() const { return layoutIndex_; }
  /// The box's frame in scene coordinates.
  QRectF frame() const { return frame_; }

  void setMarkColor(std::optional<QColor> c);
  std::optional<QColor> markColor() const { return mark_; }
  void setOverlayColor(std::optional<QColor> c);
  std::optional<QColor> overlayColor() const { return overlay_; }
  /// The colour the box is filled with now.
  QColor fillColor() const;
  void setHighlighted(bool on);
  bool isHighlighted() const { return highlighted_; }
  void setPicked(bool on);
  bool isPicked() const { return picked_; }
  void setDimmed(bool on);
  bool isDimmed() const { return dimmed_; }

private:
  QPainterPath outline() const;

  LayoutNode node_;
  int layoutIndex_;
  QFont font_;
  QColor ink_;
  QRectF frame_;
  std::optional<QColor> mark_, overlay_;
  bool highlighted_ = false, picked_ = false, dimmed_ = false;
};

}  // namespace tempo::views
