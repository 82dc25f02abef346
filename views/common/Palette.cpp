#include "common/Palette.h"

namespace tempo::views {

namespace {
/// `a` moved a fraction `t` of the way towards `b`.
QColor mix(const QColor& a, const QColor& b, float t) {
  return QColor::fromRgbF(a.redF() + t * (b.redF() - a.redF()), a.greenF() + t * (b.greenF() - a.greenF()),
                          a.blueF() + t * (b.blueF() - a.blueF()));
}
}  // namespace

bool isDarkPalette(const QPalette& palette) { return palette.color(QPalette::Base).lightness() < 128; }

QColor themeColor(ThemeColor role, const QPalette& palette) {
  bool dark = isDarkPalette(palette);
  auto pick = [dark](const char* light, const char* darkName) { return QColor(QLatin1String(dark ? darkName : light)); };
  switch (role) {
  case ThemeColor::Keyword: return pick("#8839ef", "#c678dd");
  case ThemeColor::DType: return pick("#0b7285", "#56b6c2");
  case ThemeColor::Builtin: return pick("#1e66f5", "#61afef");
  case ThemeColor::Number: return pick("#c2410c", "#d19a66");
  case ThemeColor::String: return pick("#2f7d32", "#98c379");
  case ThemeColor::Comment: return mix(palette.color(QPalette::Text), palette.color(QPalette::Base), 0.45f);
  case ThemeColor::Operator: return palette.color(QPalette::Text);
  case ThemeColor::Constant: return pick("#a0522d", "#e5c07b");
  case ThemeColor::Error: return pick("#d20f39", "#ff6b6b");
  case ThemeColor::Warning: return pick("#d97706", "#f0b429");
  case ThemeColor::Note: return pick("#4c6ef5", "#74c0fc");
  case ThemeColor::CurrentLine: return mix(palette.color(QPalette::Base), palette.color(QPalette::Highlight), 0.12f);
  case ThemeColor::Highlight: return palette.color(QPalette::Highlight);
  }
  return palette.color(QPalette::Text);
}

}  // namespace tempo::views
