// IterationCanvas: draws an IterationSpace picture and finds dots under the mouse.
//
// The picture is the same SVG the CLI writes (renderIterationSpaceSvg, so
// the studio and `tempo schedule --iteration-space` never disagree), drawn
// with QSvgRenderer scaled to fit the widget, at its top, aspect kept. The
// canvas maps widget positions back to layout units to find the clicked dot
// and emits `dotClicked`. It never shrinks a picture below 80% (dense ones
// scroll instead: the view puts it in a scroll area) (-1 for empty space); `dotPosition` is the inverse,
// for tests and tooltips.
#pragma once

#ifndef Q_MOC_RUN  // moc cannot parse the C++20 library headers these pull in
#include "iteration/IterationSpaceSvg.h"
#endif

#include <QSvgRenderer>
#include <QWidget>

namespace tempo::views {

class IterationCanvas : public QWidget {
  Q_OBJECT
public:
  explicit IterationCanvas(QWidget* parent = nullptr);
  /// Shows `svg`, drawn from `space` with `options`; `space` must outlive the canvas' use of it.
  void setPicture(const tempo::IterationSpace* space, const tempo::IterationSvgOptions& options, const QByteArray& svg);
  int dotAt(const QPoint& pos) const;
  /// The SVG on screen.
  const QByteArray& svg() const { return svg_; }
  QPoint dotPosition(int dot) const;
  QSize sizeHint() const override { return {640, 360}; }

Q_SIGNALS:
  void dotClicked(int dot);

protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;

private:
  QRectF target() const;
  QPointF toLayout(const QPointF& widgetPos) const;

  const tempo::IterationSpace* space_ = nullptr;
  tempo::IterationSvgOptions options_;
  QSvgRenderer renderer_;
  QByteArray svg_;
};

}  // namespace tempo::views
