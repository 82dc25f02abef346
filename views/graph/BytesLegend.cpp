#include "graph/BytesLegend.h"

#include <QLinearGradient>
#include <QPainter>

namespace tempo::views {

namespace {
constexpr int kRampWidth = 180, kRampHeight = 10;
}

BytesLegend::BytesLegend(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void BytesLegend::setScale(const BytesColorScale& scale) {
  scale_ = scale;
  update();
}

QSize BytesLegend::sizeHint() const {
  QFontMetrics fm(font());
  return {kRampWidth + 2 * fm.horizontalAdvance("000.0 KiB") + fm.horizontalAdvance("predicted bytes   no data") + 60,
          std::max(fm.height(), kRampHeight) + 8};
}

void BytesLegend::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  QFontMetrics fm(font());
  const int mid = height() / 2;
  int x = 4;
  auto text = [&](const QString& s) {
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(x, 0, fm.horizontalAdvance(s) + 2, height()), Qt::AlignVCenter | Qt::AlignLeft, s);
    x += fm.horizontalAdvance(s) + 8;
  };
  text(tr("predicted bytes"));
  text(scale_.isEmpty() ? QString("-") : formatBytes(scale_.min()));
  QLinearGradient grad(x, 0, x + kRampWidth, 0);
  for (int i = 0; i <= 8; ++i) grad.setColorAt(i / 8.0, BytesColorScale::ramp(i / 8.0));
  QRect ramp(x, mid - kRampHeight / 2, kRampWidth, kRampHeight);
  p.setPen(QPen(palette().color(QPalette::Mid), 1));
  p.setBrush(grad);
  p.drawRect(ramp);
  x += kRampWidth + 8;
  text(scale_.isEmpty() ? QString("-") : formatBytes(scale_.max()));
  x += 8;
  p.setPen(QPen(palette().color(QPalette::Mid), 1));
  p.setBrush(BytesColorScale::noDataColor());
  p.drawRect(QRect(x, mid - kRampHeight / 2, kRampHeight * 2, kRampHeight));
  x += kRampHeight * 2 + 6;
  text(tr("no data"));
}

}  // namespace tempo::views
