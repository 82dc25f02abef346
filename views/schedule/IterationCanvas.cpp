#include "schedule/IterationCanvas.h"

#include <QContextMenuEvent>
#include <QCoreApplication>
#include <QMouseEvent>
#include <QPainter>
#include <QPolygonF>
#include <QToolTip>

#include <cmath>

namespace tempo::views {

IterationCanvas::IterationCanvas(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

IterationPicture drawIterationPicture(const IterationSpace& space, const IterationSvgOptions& options) {
  IterationPicture picture;
  picture.svg = QByteArray::fromStdString(renderIterationSpaceSvg(space, options));
  picture.renderer = std::make_shared<QSvgRenderer>(picture.svg);
  if (QCoreApplication* app = QCoreApplication::instance()) picture.renderer->moveToThread(app->thread());
  return picture;
}

void IterationCanvas::setPicture(const IterationSpace* space, const IterationSvgOptions& options, IterationPicture picture) {
  space_ = space;
  options_ = options;
  if (space_) options_.scale = iterationSvgScale(*space_, options);
  picture_ = std::move(picture);
  if (!space_ || selectedDot_ >= static_cast<int>(space_->dots.size())) selectedDot_ = -1;
  base_ = layer_ = QImage();  // rendered again at the next paint
  layerCount_ = 0;
  setMinimumSize(renderer() && renderer()->isValid() ? renderer()->defaultSize() * 0.8 : QSize(0, 0));
  update();
}

void IterationCanvas::setExecuted(const std::vector<int>* order, int current) {
  executed_ = order;
  current_ = current;
  update();
}

double IterationCanvas::svgToWidget() const { return target().width() / renderer()->defaultSize().width(); }

void IterationCanvas::ensureImages(const QRectF& t) {
  const qreal dpr = devicePixelRatioF();
  const QSize size = (t.size() * dpr).toSize();
  if (base_.size() == size && !base_.isNull()) return;
  base_ = QImage(size, QImage::Format_ARGB32_Premultiplied);
  base_.setDevicePixelRatio(dpr);
  base_.fill(Qt::transparent);
  QPainter painter(&base_);
  renderer()->render(&painter, QRectF(QPointF(0, 0), t.size()));
  ++renders_;
  layer_ = QImage();
  layerCount_ = 0;
}

void IterationCanvas::setSelection(int dot, int node) {
  selectedDot_ = space_ && dot >= 0 && static_cast<size_t>(dot) < space_->dots.size() ? dot : -1;
  highlightNode_ = node;
  update();
}

QPointF IterationCanvas::dotCentre(int dot) const {
  const IterationDot& d = space_->dots[static_cast<size_t>(dot)];
  const double k = svgToWidget();
  return {d.x * options_.scale * k, (iterationSvgTop(options_) + d.y * options_.scale) * k};
}

void IterationCanvas::paintSelection(QPainter& painter) const {
  const double k = svgToWidget(), r = space_->dotRadius * options_.scale * k;
  painter.setBrush(Qt::NoBrush);
  if (highlightNode_ >= 0) {
    painter.setPen(QPen(Qt::black, 3 * k));
    for (size_t i = 0; i < space_->dots.size(); ++i)
      if (space_->statements[space_->dots[i].statement].node == highlightNode_) painter.drawEllipse(dotCentre(static_cast<int>(i)), r, r);
  }
  if (selectedDot_ < 0) return;
  const QColor red(0xd6, 0x27, 0x28);
  for (const IterationArrow& a : space_->arrows) {  // its dependences, red, as the SVG draws a selection
    if (a.from != selectedDot_ && a.to != selectedDot_) continue;
    const QPointF p = dotCentre(a.from), c = dotCentre(a.to), along = c - p;
    const double length = std::hypot(along.x(), along.y());
    if (length <= 2 * r + 1) continue;
    const QPointF u = along / length, n(-u.y(), u.x()), tip = c - u * (r + 1);
    painter.setPen(QPen(red, 2 * k));
    painter.drawLine(p + u * r, tip - u * 4 * k);
    painter.setPen(Qt::NoPen);
    painter.setBrush(red);
    painter.drawPolygon(QPolygonF{tip, tip - u * 7 * k + n * 3.5 * k, tip - u * 7 * k - n * 3.5 * k});
    painter.setBrush(Qt::NoBrush);
  }
  painter.setPen(QPen(Qt::black, 3 * k));
  painter.drawEllipse(dotCentre(selectedDot_), r, r);
}

void IterationCanvas::paintExecutedDot(QPainter& painter, int dot, bool current) const {
  const IterationDot& d = space_->dots[static_cast<size_t>(dot)];
  const IterationStatement& st = space_->statements[d.statement];
  const double k = svgToWidget();
  const QPointF centre = dotCentre(dot);
  const bool ringed = current || dot == selectedDot_ || st.node == highlightNode_;
  const QColor color(QString::fromStdString(st.color));
  painter.setBrush(color);
  painter.setPen(QPen(ringed ? QColor(Qt::black) : color, (ringed ? 3 : 1.5) * k));
  const double r = space_->dotRadius * options_.scale * k;
  painter.drawEllipse(centre, r, r);
}

QRectF IterationCanvas::target() const {
  QSizeF size = renderer() ? renderer()->defaultSize() : QSizeF();
  if (size.isEmpty()) return {};
  QSizeF fitted = size.scaled(QSizeF(width() - 8, height() - 8), Qt::KeepAspectRatio);
  if (fitted.width() > size.width() * 1.6) fitted = size * 1.6;  // do not blow small pictures up
  return QRectF(QPointF((width() - fitted.width()) / 2, 4), fitted);  // centred across, at the top
}

QPointF IterationCanvas::toLayout(const QPointF& pos) const {
  QRectF t = target();
  double k = t.width() / renderer()->defaultSize().width();
  QPointF svg = (pos - t.topLeft()) / k;
  return {svg.x() / options_.scale, (svg.y() - iterationSvgTop(options_)) / options_.scale};
}

int IterationCanvas::dotAt(const QPoint& pos) const {
  if (!space_ || target().isEmpty()) return -1;
  QPointF p = toLayout(pos);
  int best = -1;
  double bestDistance = space_->dotRadius * 1.6;
  for (size_t i = 0; i < space_->dots.size(); ++i) {
    double d = std::hypot(space_->dots[i].x - p.x(), space_->dots[i].y - p.y());
    if (d < bestDistance) {
      bestDistance = d;
      best = static_cast<int>(i);
    }
  }
  return best;
}

QPoint IterationCanvas::dotPosition(int dot) const {
  if (!space_ || !renderer() || dot < 0 || static_cast<size_t>(dot) >= space_->dots.size()) return {};
  QRectF t = target();
  double k = t.width() / renderer()->defaultSize().width();
  const IterationDot& d = space_->dots[dot];
  QPointF svg(d.x * options_.scale, iterationSvgTop(options_) + d.y * options_.scale);
  return (t.topLeft() + svg * k).toPoint();
}

void IterationCanvas::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), palette().color(QPalette::Base));
  const QRectF t = target();
  if (!renderer() || !renderer()->isValid() || t.isEmpty()) return;
  ensureImages(t);
  painter.setRenderHint(QPainter::Antialiasing);
  if (!executed_ || !space_) {
    painter.drawImage(t.topLeft(), base_);
    if (space_) painter.translate(t.topLeft()), paintSelection(painter);
    return;
  }
  // Replay: the dots executed since the last paint are added to the cached layer; a reset starts it again.
  const size_t count = executed_->size();
  if (layer_.isNull() || layerCount_ > count) layer_ = base_, layerCount_ = 0;
  if (layerCount_ < count) {
    QPainter layer(&layer_);
    layer.setRenderHint(QPainter::Antialiasing);
    for (size_t i = layerCount_; i < count; ++i) paintExecutedDot(layer, (*executed_)[i], false);
    layerCount_ = count;
  }
  painter.drawImage(t.topLeft(), layer_);
  painter.translate(t.topLeft());
  paintSelection(painter);
  if (current_ >= 0) paintExecutedDot(painter, current_, true);
}

void IterationCanvas::contextMenuEvent(QContextMenuEvent* event) {
  const int dot = dotAt(event->pos());
  if (dot >= 0) Q_EMIT dotMenuRequested(dot, event->globalPos());
}

void IterationCanvas::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  pressedDot_ = dotAt(event->pos());
  Q_EMIT dotClicked(pressedDot_);
}

void IterationCanvas::mouseReleaseEvent(QMouseEvent* event) {
  const int dot = pressedDot_;
  pressedDot_ = -1;
  if (event->button() != Qt::LeftButton || dot < 0 || !space_ || target().isEmpty()) return;
  const QPointF to = toLayout(event->position());
  const IterationDot& d = space_->dots[static_cast<size_t>(dot)];
  const int cellsX = static_cast<int>(std::lround(to.x() - d.x));
  const int cellsY = static_cast<int>(std::lround(d.y - to.y()));  // layout y points down, the axis up
  if (cellsX != 0 || cellsY != 0) Q_EMIT dotDragged(dot, cellsX, cellsY);
}

void IterationCanvas::mouseMoveEvent(QMouseEvent* event) {
  int dot = dotAt(event->pos());
  setCursor(dot >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
  if (dot >= 0) QToolTip::showText(event->globalPosition().toPoint(), QString::fromStdString(space_->describeDot(dot)), this);
  else QToolTip::hideText();
}

}  // namespace tempo::views
