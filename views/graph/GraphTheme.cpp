#include "graph/GraphTheme.h"

#include "graph/GraphStyle.h"

namespace tempo::views {

GraphTheme GraphTheme::fromPalette(const QPalette& palette) {
  GraphTheme t;
  t.nodeFont = QFont(QString::fromLatin1(kGraphFontName));
  t.nodeFont.setPixelSize(kNodeFontSize);
  t.edgeFont = QFont(QString::fromLatin1(kGraphFontName));
  t.edgeFont.setPixelSize(kEdgeFontSize);
  t.background = palette.color(QPalette::Base);
  const bool dark = t.background.lightnessF() < 0.5;
  t.ink = dark ? QColor(0xcb, 0xd5, 0xe1) : QColor(0x33, 0x41, 0x55);
  return t;
}

}  // namespace tempo::views
