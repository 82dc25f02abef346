#include "graph/GraphCanvas.h"

#include "graph/GraphClusterItem.h"
#include "graph/GraphNodeItem.h"

#include <QMouseEvent>
#include <QShortcut>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace tempo::views {

namespace {
constexpr double kMinZoom = 0.05, kMaxZoom = 8.0, kMaxFitZoom = 1.5;
constexpr int kClickSlop = 4;  ///< pixels a click may move and still be a click
}  // namespace

GraphCanvas::GraphCanvas(QWidget* parent) : QGraphicsView(parent) {
  setDragMode(QGraphicsView::ScrollHandDrag);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setResizeAnchor(QGraphicsView::AnchorViewCenter);
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
  setFocusPolicy(Qt::StrongFocus);
  auto* zoomIn = new QShortcut(QKeySequence::ZoomIn, this);
  auto* zoomIn2 = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Equal), this);
  auto* zoomOut = new QShortcut(QKeySequence::ZoomOut, this);
  auto* fit = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_0), this);
  for (QShortcut* s : {zoomIn, zoomIn2, zoomOut, fit}) s->setContext(Qt::WidgetWithChildrenShortcut);
  connect(zoomIn, &QShortcut::activated, this, [this] { zoomBy(1.25); });
  connect(zoomIn2, &QShortcut::activated, this, [this] { zoomBy(1.25); });
  connect(zoomOut, &QShortcut::activated, this, [this] { zoomBy(0.8); });
  connect(fit, &QShortcut::activated, this, &GraphCanvas::fitAll);
}

void GraphCanvas::zoomBy(double factor) {
  double target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
  double f = target / zoom();
  if (std::abs(f - 1) > 1e-9) scale(f, f);
}

void GraphCanvas::fitRect(const QRectF& sceneRect) {
  if (sceneRect.isEmpty() && sceneRect.isNull()) return;
  fitInView(sceneRect.adjusted(-20, -20, 20, 20), Qt::KeepAspectRatio);
  if (zoom() > kMaxFitZoom) zoomBy(kMaxFitZoom / zoom());
  if (zoom() < kMinZoom) zoomBy(kMinZoom / zoom());
  centerOn(sceneRect.center());
}

void GraphCanvas::fitAll() {
  if (scene()) fitRect(scene()->itemsBoundingRect());
}

void GraphCanvas::showTop() {
  if (!scene()) return;
  const QRectF r = scene()->itemsBoundingRect().adjusted(-20, -20, 20, 20);
  if (r.isEmpty()) return;
  const double z = std::clamp(viewport()->width() / r.width(), kMinZoom, 1.0);
  resetTransform();
  scale(z, z);
  centerOn(r.center().x(), r.top() + viewport()->height() / (2 * z));
}

void GraphCanvas::wheelEvent(QWheelEvent* event) {
  double steps = event->angleDelta().y() / 120.0;
  if (steps == 0) return QGraphicsView::wheelEvent(event);
  zoomBy(std::pow(1.15, steps));
  event->accept();
}

QGraphicsItem* GraphCanvas::pickableAt(const QPoint& viewportPos) const {
  for (QGraphicsItem* item : items(viewportPos))
    if (item->type() == GraphNodeItem::Type || item->type() == GraphClusterItem::Type) return item;
  return nullptr;
}

void GraphCanvas::mousePressEvent(QMouseEvent* event) {
  pressed_ = event->button() == Qt::LeftButton;
  pressPos_ = event->position().toPoint();
  QGraphicsView::mousePressEvent(event);
}

void GraphCanvas::mouseReleaseEvent(QMouseEvent* event) {
  QGraphicsView::mouseReleaseEvent(event);
  if (!pressed_ || event->button() != Qt::LeftButton) return;
  pressed_ = false;
  QPoint pos = event->position().toPoint();
  if ((pos - pressPos_).manhattanLength() <= kClickSlop) Q_EMIT itemClicked(pickableAt(pos));
}

void GraphCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) {
    Q_EMIT itemDoubleClicked(pickableAt(event->position().toPoint()));
    event->accept();
    return;
  }
  QGraphicsView::mouseDoubleClickEvent(event);
}

}  // namespace tempo::views
