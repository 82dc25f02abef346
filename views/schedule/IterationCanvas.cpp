#include "schedule/IterationCanvas.h"

#include <QCoreApplication>
#include <QMouseEvent>
#include <QPainter>
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
  setMinimumSize(renderer() && renderer()->isValid() ? renderer()->defaultSize() * 0.8 : QSize(0, 0));
  update();
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
  if (renderer() && renderer()->isValid()) renderer()->render(&painter, target());
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
