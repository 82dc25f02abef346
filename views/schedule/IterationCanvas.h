// IterationCanvas: draws an IterationSpace picture and finds dots under the mouse.
//
// The picture is the same SVG the CLI writes (renderIterationSpaceSvg, so
// the studio and `tempo schedule --iteration-space` never disagree), drawn
// with QSvgRenderer scaled to fit the widget, at its top, aspect kept.
// drawIterationPicture renders and parses it in any thread (the view builds
// large pictures in the background and hands them over ready to paint). The
// canvas maps widget positions back to layout units to find the clicked dot
// and emits `dotClicked`; pressing on a dot and releasing a whole cell or more away
// emits `dotDragged` with the distance in cells (the studio tries it as a shift). It never shrinks a picture below 80% (dense ones
// scroll instead: the view puts it in a scroll area) (-1 for empty space); `dotPosition` is the inverse,
// for tests and tooltips.
//
// Replay is incremental: the picture (drawn hollow, step 0) is rendered once into
// an image at the widget's size, and the dots executed so far (`setExecuted`, in
// order) are painted over it — each only once, onto a cached layer — with the
// current one ringed. A step costs a few circles, not an SVG, at any size: the view
// replays 6,000 instances without re-rendering the picture (`renderCount`). A right
// click on a dot emits `dotMenuRequested` (the view offers transforms of its statement).
// A selected dot (its ring and red dependences) and a highlighted node's rings are
// painted over the picture too (`setSelection`).
#pragma once

#ifndef Q_MOC_RUN  // moc cannot parse the C++20 library headers these pull in
#include "iteration/IterationSpaceSvg.h"
#endif

#include <QImage>
#include <QSvgRenderer>
#include <QWidget>

#include <memory>
#include <vector>

namespace tempo::views {

/// An iteration-space picture ready to paint: its SVG and the parsed renderer.
struct IterationPicture {
  QByteArray svg;
  std::shared_ptr<QSvgRenderer> renderer;  ///< lives in the UI thread, null for no picture
};

/// Renders `space` with `options` and parses the SVG; callable from any thread.
IterationPicture drawIterationPicture(const tempo::IterationSpace& space, const tempo::IterationSvgOptions& options);

class IterationCanvas : public QWidget {
  Q_OBJECT
public:
  explicit IterationCanvas(QWidget* parent = nullptr);
  /// Shows `picture`, drawn from `space` with `options`; `space` must outlive the canvas' use of it.
  void setPicture(const tempo::IterationSpace* space, const tempo::IterationSvgOptions& options, IterationPicture picture);
  int dotAt(const QPoint& pos) const;
  /// The SVG on screen.
  const QByteArray& svg() const { return picture_.svg; }
  QPoint dotPosition(int dot) const;
  QSize sizeHint() const override { return {640, 360}; }
  /// Replay: fill the dots of `order[0..count)` (the picture must be the hollow one) and ring
  /// `current`; `order` must outlive the canvas' use of it. Null: the picture alone.
  void setExecuted(const std::vector<int>* order, int current);
  /// Rings `dot` and draws its dependences red, and rings every instance of `node` (-1: none),
  /// over the picture: a click changes no SVG.
  void setSelection(int dot, int node);
  int selectedDot() const { return selectedDot_; }
  /// How many times the picture was rendered into an image (tests: replay steps render nothing).
  int renderCount() const { return renders_; }

Q_SIGNALS:
  void dotClicked(int dot);
  /// A dot was dragged by whole cells (x right, y up, as the axes count): a shift to try.
  void dotDragged(int dot, int cellsX, int cellsY);
  /// A dot was right-clicked at `globalPos`.
  void dotMenuRequested(int dot, const QPoint& globalPos);

protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;

private:
  QRectF target() const;
  double svgToWidget() const;  ///< widget pixels per SVG unit
  QPointF toLayout(const QPointF& widgetPos) const;
  /// The picture's image at the current target size (rendered again only when that changes).
  void ensureImages(const QRectF& target);
  /// Paints dot `dot` filled (replay) with `painter`, whose origin is the picture's top left.
  void paintExecutedDot(QPainter& painter, int dot, bool current) const;
  /// The selection and the highlighted node's rings, with `painter` at the picture's top left.
  void paintSelection(QPainter& painter) const;
  QPointF dotCentre(int dot) const;  ///< in the picture's pixels

  const tempo::IterationSpace* space_ = nullptr;
  tempo::IterationSvgOptions options_;
  IterationPicture picture_;
  int pressedDot_ = -1;  ///< the dot under the left button's press (-1: none), for a drag
  QImage base_;          ///< the picture rendered at the target size
  QImage layer_;         ///< base_ with the first layerCount_ executed dots filled
  size_t layerCount_ = 0;
  const std::vector<int>* executed_ = nullptr;
  int current_ = -1;
  int selectedDot_ = -1;
  int highlightNode_ = -1;
  int renders_ = 0;
  QSvgRenderer* renderer() const { return picture_.renderer.get(); }
};

}  // namespace tempo::views
