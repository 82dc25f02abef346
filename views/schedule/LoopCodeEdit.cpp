#include "schedule/LoopCodeEdit.h"

#include "common/Palette.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

namespace tempo::views {

LoopCodeEdit::LoopCodeEdit(QWidget* parent) : QPlainTextEdit(parent) {
  setReadOnly(true);
  setLineWrapMode(QPlainTextEdit::NoWrap);
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
}

void LoopCodeEdit::setNotes(const QMap<int, QString>& notes, const QMap<int, QString>& tips) {
  notes_ = notes;
  tips_ = tips;
  viewport()->update();
}

void LoopCodeEdit::highlightLine(int line) {
  QList<QTextEdit::ExtraSelection> selections;
  QTextBlock block = document()->findBlockByNumber(line);
  if (block.isValid()) {
    QTextEdit::ExtraSelection s;
    s.format.setBackground(themeColor(ThemeColor::CurrentLine, palette()));
    s.format.setProperty(QTextFormat::FullWidthSelection, true);
    s.cursor = QTextCursor(block);
    selections.append(s);
  }
  setExtraSelections(selections);
}

QPoint LoopCodeEdit::linePosition(int line) const {
  QTextBlock block = document()->findBlockByNumber(line);
  QRectF r = blockBoundingGeometry(block).translated(contentOffset());
  return QPoint(8, static_cast<int>(r.center().y()));
}

void LoopCodeEdit::paintEvent(QPaintEvent* event) {
  QPlainTextEdit::paintEvent(event);
  if (notes_.isEmpty()) return;
  QPainter painter(viewport());
  painter.setFont(font());
  QColor ink = palette().color(QPalette::Disabled, QPalette::Text);
  painter.setPen(ink);
  int right = viewport()->width() - 8;
  for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
    QRectF r = blockBoundingGeometry(block).translated(contentOffset());
    if (r.top() > viewport()->height()) break;
    auto it = notes_.constFind(block.blockNumber());
    if (it == notes_.constEnd()) continue;
    int textEnd = static_cast<int>(fontMetrics().horizontalAdvance(block.text()) + contentOffset().x()) + 24;
    QString note = QStringLiteral("# ") + *it;
    int x = std::max(textEnd, right - fontMetrics().horizontalAdvance(note));
    painter.drawText(QPointF(x, r.top() + fontMetrics().ascent()), note);
  }
}

void LoopCodeEdit::mouseReleaseEvent(QMouseEvent* event) {
  QPlainTextEdit::mouseReleaseEvent(event);
  if (event->button() == Qt::LeftButton && !textCursor().hasSelection())
    Q_EMIT lineClicked(cursorForPosition(event->pos()).blockNumber());
}

bool LoopCodeEdit::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    int line = cursorForPosition(viewport()->mapFrom(this, help->pos())).blockNumber();
    QString tip = tips_.value(line);
    if (tip.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(help->globalPos(), tip, this);
    return true;
  }
  return QPlainTextEdit::event(e);
}

}  // namespace tempo::views
