// Palette: colours derived from the application palette.
//
// The studio never hard-codes a colour that only works on a light
// background: everything that needs a colour (syntax styles, diagnostic
// squiggles, highlights) asks here, and the answer depends on whether the
// current palette's base colour is dark. Severity colours keep their meaning
// (red = error, amber = warning) in both themes.
#pragma once

#include <QColor>
#include <QPalette>

namespace tempo::views {

/// True when the palette's base (text background) colour is dark.
bool isDarkPalette(const QPalette& palette);

/// A colour for one role in the current theme.
enum class ThemeColor {
  Keyword, DType, Builtin, Number, String, Comment, Operator, Constant,
  Error, Warning, Note, CurrentLine, Highlight
};
QColor themeColor(ThemeColor role, const QPalette& palette);

}  // namespace tempo::views
