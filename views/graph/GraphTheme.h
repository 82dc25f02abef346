// GraphTheme: fonts and colours of the graph view that follow the palette.
//
// Node fills are the op-class colours of GraphStyle.h (light, with dark
// text) in either palette; what changes with a dark palette is the scene
// background, the edges, edge labels and bare text (output sinks, frame
// titles). Fonts are sized in scene units, which are Graphviz points, so
// the text matches the sizes Graphviz measured when it laid out the boxes.
#pragma once

#include <QColor>
#include <QFont>
#include <QPalette>

namespace tempo::views {

struct GraphTheme {
  QFont nodeFont;
  QFont edgeFont;
  QColor background;
  QColor ink;  ///< edges, edge labels, bare text

  static GraphTheme fromPalette(const QPalette& palette);
};

}  // namespace tempo::views
