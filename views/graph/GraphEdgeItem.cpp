#include "graph/GraphEdgeItem.h"

#include "graph/GraphStyle.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPathStroker>

#include <cmath>

namespace tempo::views {

namespace {

QPointF qp(const LayoutPoint& p) { return {p.x, p.y}; }

/// A triangle from `base` to `tip`.
QPolygonF arrowHead(QPointF base, QPointF tip) {
  QPointF d = tip - base;
  double len = std::hypot(d.x(), d.y());
  if (len < 1e-6) return {};
  QPointF n(-d.y() / len, d.x() / len);
  double half = std::max(2.5, len * 0.35);
  return QPolygonF({tip, base + n * half, base - n * half, tip});
}

}  // namespace

GraphEdgeItem::GraphEdgeItem(const LayoutEdge& edge, const GraphTheme& theme)
    : edge_(edge), font_(theme.edgeFont) {
  color_ = edge.conditional ? QColor(QString::fromLatin1(kConditionalEdgeColor)) : theme.ink;
  if (!edge.spline.empty()) {
    path_.moveTo(qp(edge.spline[0]));
    for (size_t i = 1; i + 2 < edge.spline.size(); i += 3)
      path_.cubicTo(qp(edge.spline[i]), qp(edge.spline[i + 1]), qp(edge.spline[i + 2]));
  }
  if (edge.hasArrow && !edge.spline.empty()) arrow_ = arrowHead(qp(edge.spline.back()), qp(edge.arrowTip));
  bounds_ = path_.boundingRect().united(arrow_.boundingRect());
  if (!edge.label.empty()) {
    QFontMetricsF fm(font_);
    double w = 0;
    for (const std::string& line : edge.label) w = std::max(w, fm.horizontalAdvance(QString::fromStdString(line)));
    double h = fm.height() * edge.label.size();
    labelRect_ = QRectF(edge.labelCenter.x - w / 2, edge.labelCenter.y - h / 2, w, h);
    bounds_ = bounds_.united(labelRect_);
  }
  bounds_.adjust(-3, -3, 3, 3);
  QPainterPathStroker stroker;
  stroker.setWidth(6);
  hitShape_ = stroker.createStroke(path_);
  hitShape_.addPolygon(arrow_);
  if (!labelRect_.isNull()) hitShape_.addRect(labelRect_);
  setZValue(0);
}

void GraphEdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
  painter->setRenderHint(QPainter::Antialiasing);
  QPen pen(color_, emphasized_ ? 2.2 : 1.0);
  if (edge_.temporal) pen.setDashPattern({5, 3});
  painter->setPen(pen);
  painter->setBrush(Qt::NoBrush);
  painter->drawPath(path_);
  if (!arrow_.isEmpty()) {
    painter->setPen(QPen(color_, 1.0));
    painter->setBrush(color_);
    painter->drawPolygon(arrow_);
  }
  if (!edge_.label.empty()) {
    painter->setFont(font_);
    painter->setPen(color_);
    const double lh = QFontMetricsF(font_).height();
    for (size_t i = 0; i < edge_.label.size(); ++i) {
      QRectF line(labelRect_.left() - 10, labelRect_.top() + lh * i, labelRect_.width() + 20, lh);
      painter->drawText(line, Qt::AlignCenter, QString::fromStdString(edge_.label[i]));
    }
  }
}

void GraphEdgeItem::setEmphasized(bool on) {
  emphasized_ = on;
  update();
}

}  // namespace tempo::views
