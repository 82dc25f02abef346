// GraphCanvas: the zoomable, pannable QGraphicsView under the graph view.
//
// Wheel zooms around the cursor, Ctrl + / Ctrl - zoom around the centre,
// Ctrl 0 fits the whole scene; dragging with the left button pans. A press
// and release without movement is a click: it reports the topmost node,
// cluster or nothing under the cursor; a double-click does the same. Zoom
// is clamped so a fit never magnifies a tiny graph into huge text.
#pragma once

#include <QGraphicsView>

namespace tempo::views {

class GraphCanvas : public QGraphicsView {
  Q_OBJECT

public:
  explicit GraphCanvas(QWidget* parent = nullptr);

  double zoom() const { return transform().m11(); }
  void zoomBy(double factor);
  /// Fits `sceneRect` (with a margin) into the viewport, at most at 1.5x.
  void fitRect(const QRectF& sceneRect);
  void fitAll();
  /// The scene's top at a readable zoom: as wide as the viewport allows, at
  /// most 1:1 (a tall graph is read from its inputs down).
  void showTop();

Q_SIGNALS:
  /// `item` is the node or cluster item under the cursor, or nullptr.
  void itemClicked(QGraphicsItem* item);
  void itemDoubleClicked(QGraphicsItem* item);

protected:
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
  QGraphicsItem* pickableAt(const QPoint& viewportPos) const;

  QPoint pressPos_;
  bool pressed_ = false;
};

}  // namespace tempo::views
