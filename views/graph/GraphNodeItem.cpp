#include "graph/GraphNodeItem.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>

namespace tempo::views {

namespace {

constexpr double kBox3dDepth = 4;

QPolygonF polygon(std::initializer_list<QPointF> points) { return QPolygonF(QList<QPointF>(points)); }

}  // namespace

GraphNodeItem::GraphNodeItem(const LayoutNode& node, int layoutIndex, const GraphTheme& theme)
    : node_(node), layoutIndex_(layoutIndex), font_(theme.nodeFont), ink_(theme.ink) {
  QRectF r(node.center.x - node.width / 2, node.center.y - node.height / 2, node.width, node.height);
  frame_ = r;
  setZValue(node.kind == LayoutNodeKind::Group ? 2 : 1);
  setAcceptHoverEvents(false);
}

QRectF GraphNodeItem::boundingRect() const { return frame_.adjusted(-4, -4, 4, 4); }

QPainterPath GraphNodeItem::shape() const {
  QPainterPath p;
  p.addRect(frame_);
  return p;
}

QPainterPath GraphNodeItem::outline() const {
  const QRectF r = frame_;
  QPainterPath p;
  p.setFillRule(Qt::WindingFill);
  if (node_.kind == LayoutNodeKind::Group) {
    p.addRoundedRect(r, 6, 6);
    return p;
  }
  switch (node_.shape) {
    case NodeShape::Box: p.addRect(r); break;
    case NodeShape::Ellipse: p.addEllipse(r); break;
    case NodeShape::Box3d: {
      const double d = kBox3dDepth;
      p.addRect(r.adjusted(0, d, -d, 0));
      p.addPolygon(polygon({r.bottomRight() + QPointF(0, -d), r.topRight(), r.topLeft() + QPointF(d, 0),
                            r.topLeft() + QPointF(0, d), r.topRight() + QPointF(-d, d),
                            r.bottomRight() + QPointF(-d, 0), r.bottomRight() + QPointF(0, -d)}));
      p.moveTo(r.topRight() + QPointF(-d, d));
      p.lineTo(r.topRight());
      break;
    }
    case NodeShape::InvTrapezium: {
      const double d = std::min(r.width() * 0.2, r.height() * 0.6);
      p.addPolygon(polygon({r.topLeft(), r.topRight(), r.bottomRight() - QPointF(d, 0),
                            r.bottomLeft() + QPointF(d, 0), r.topLeft()}));
      break;
    }
    case NodeShape::Cds: {
      const double d = std::min(r.height() * 0.35, r.width() * 0.2);
      p.addPolygon(polygon({r.topLeft(), r.topRight() - QPointF(d, 0), QPointF(r.right(), r.center().y()),
                            r.bottomRight() - QPointF(d, 0), r.bottomLeft(), r.topLeft()}));
      break;
    }
    case NodeShape::Diamond:
      p.addPolygon(polygon({QPointF(r.center().x(), r.top()), QPointF(r.right(), r.center().y()),
                            QPointF(r.center().x(), r.bottom()), QPointF(r.left(), r.center().y()),
                            QPointF(r.center().x(), r.top())}));
      break;
    case NodeShape::Plain: break;
  }
  return p;
}

QColor GraphNodeItem::fillColor() const {
  if (overlay_) return *overlay_;
  return node_.fill.empty() ? QColor(Qt::transparent) : QColor(QString::fromStdString(node_.fill));
}

void GraphNodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
  painter->setRenderHint(QPainter::Antialiasing);
  painter->setOpacity(dimmed_ ? 0.25 : 1.0);
  const QPainterPath path = outline();
  const bool plain = node_.kind == LayoutNodeKind::Output;
  QColor fill = fillColor();
  QColor text = fill.alpha() > 0 && fill.lightnessF() < 0.5 ? QColor(Qt::white) : QColor(0x11, 0x18, 0x27);
  if (plain) text = ink_;
  if (!plain) {
    if (highlighted_ || picked_) {
      QColor halo = highlighted_ ? QColor(0x25, 0x63, 0xeb, 90) : QColor(0xf5, 0x9e, 0x0b, 110);
      painter->setPen(QPen(halo, 7, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
      painter->setBrush(Qt::NoBrush);
      painter->drawPath(path);
    }
    QPen pen(QColor(0x47, 0x55, 0x69), 1);
    if (mark_) pen = QPen(*mark_, 2.5);
    else if (picked_) pen = QPen(QColor(0xb4, 0x53, 0x09), 2);
    else if (highlighted_) pen = QPen(QColor(0x1d, 0x4e, 0xd8), 2);
    pen.setJoinStyle(Qt::RoundJoin);
    painter->setPen(pen);
    painter->setBrush(fill);
    painter->drawPath(path);
    if (node_.kind == LayoutNodeKind::Group) {
      painter->setBrush(Qt::NoBrush);
      painter->drawRoundedRect(frame_.adjusted(2.5, 2.5, -2.5, -2.5), 4.5, 4.5);
    }
  }
  painter->setFont(font_);
  painter->setPen(text);
  const double lineHeight = QFontMetricsF(font_).height();
  const double top = frame_.center().y() - lineHeight * node_.label.size() / 2;
  for (size_t i = 0; i < node_.label.size(); ++i) {
    QRectF line(frame_.left() - 20, top + lineHeight * i, frame_.width() + 40, lineHeight);
    painter->drawText(line, Qt::AlignCenter, QString::fromStdString(node_.label[i]));
  }
}

void GraphNodeItem::setMarkColor(std::optional<QColor> c) {
  mark_ = c;
  update();
}

void GraphNodeItem::setOverlayColor(std::optional<QColor> c) {
  overlay_ = c;
  update();
}

void GraphNodeItem::setHighlighted(bool on) {
  highlighted_ = on;
  update();
}

void GraphNodeItem::setPicked(bool on) {
  picked_ = on;
  update();
}

void GraphNodeItem::setDimmed(bool on) {
  dimmed_ = on;
  update();
}

}  // namespace tempo::views
