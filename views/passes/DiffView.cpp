#include "passes/DiffView.h"

#include "common/Palette.h"

#include <QEvent>
#include <QFontDatabase>
#include <QTextBlock>

namespace tempo::views {

namespace {

enum class LineKind { Context, Header, Hunk, Added, Removed };

LineKind kindOf(const QString& line) {
  if (line.startsWith(QLatin1String("+++")) || line.startsWith(QLatin1String("---"))) return LineKind::Header;
  if (line.startsWith(QLatin1String("@@"))) return LineKind::Hunk;
  if (line.startsWith(QLatin1Char('+'))) return LineKind::Added;
  if (line.startsWith(QLatin1Char('-'))) return LineKind::Removed;
  return LineKind::Context;
}

}  // namespace

DiffView::DiffView(QWidget* parent) : QPlainTextEdit(parent) {
  setReadOnly(true);
  setLineWrapMode(QPlainTextEdit::NoWrap);
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
}

QColor DiffView::lineBackground(bool added, const QPalette& palette) {
  if (isDarkPalette(palette)) return added ? QColor(0x14, 0x3d, 0x24) : QColor(0x4c, 0x1d, 0x1d);
  return added ? QColor(0xdc, 0xfc, 0xe7) : QColor(0xfe, 0xe2, 0xe2);
}

void DiffView::setDiff(const QString& diff) {
  setPlainText(diff);
  added_ = removed_ = 0;
  for (QTextBlock b = document()->begin(); b.isValid(); b = b.next()) {
    LineKind k = kindOf(b.text());
    added_ += k == LineKind::Added;
    removed_ += k == LineKind::Removed;
  }
  recolour();
}

void DiffView::changeEvent(QEvent* event) {
  QPlainTextEdit::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) recolour();
}

void DiffView::recolour() {
  const QPalette& pal = palette();
  const bool dark = isDarkPalette(pal);
  QList<QTextEdit::ExtraSelection> selections;
  for (QTextBlock b = document()->begin(); b.isValid(); b = b.next()) {
    QTextEdit::ExtraSelection s;
    switch (kindOf(b.text())) {
      case LineKind::Context: continue;
      case LineKind::Header: s.format.setFontWeight(QFont::Bold); break;
      case LineKind::Hunk: s.format.setForeground(themeColor(ThemeColor::Keyword, pal)); break;
      case LineKind::Added:
        s.format.setBackground(lineBackground(true, pal));
        s.format.setForeground(dark ? QColor(0x86, 0xef, 0xac) : QColor(0x16, 0x65, 0x34));
        break;
      case LineKind::Removed:
        s.format.setBackground(lineBackground(false, pal));
        s.format.setForeground(dark ? QColor(0xfc, 0xa5, 0xa5) : QColor(0x99, 0x1b, 0x1b));
        break;
    }
    s.format.setProperty(QTextFormat::FullWidthSelection, true);
    s.cursor = QTextCursor(b);
    s.cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
    selections.append(s);
  }
  setExtraSelections(selections);
}

}  // namespace tempo::views
