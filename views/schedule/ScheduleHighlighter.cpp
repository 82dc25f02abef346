#include "schedule/ScheduleHighlighter.h"

#include "common/Palette.h"

#include <QApplication>
#include <QTextDocument>

namespace tempo::views {

namespace {

QTextCharFormat styleOf(ThemeColor role, bool bold = false) {
  QTextCharFormat f;
  f.setForeground(themeColor(role, QApplication::palette()));
  if (bold) f.setFontWeight(QFont::Bold);
  return f;
}

}  // namespace

ScheduleHighlighter::ScheduleHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {}

void ScheduleHighlighter::setLoopText(const QString& text) {
  loopVars_.clear();
  static const QRegularExpression forVar(QStringLiteral("\\bfor (\\w+) in\\b"));
  auto it = forVar.globalMatch(text);
  while (it.hasNext()) loopVars_.insert(it.next().captured(1));
}

void ScheduleHighlighter::highlightBlock(const QString& text) {
  static const QRegularExpression word(QStringLiteral("%\\d+(?: \\w+)?|\\b\\w+\\b|\\(.* bytes\\)"));
  static const QSet<QString> keywords{"for", "in", "if", "else", "exec", "alloc", "free", "swap_out", "swap_in",
                                       "recompute"};
  static const QSet<QString> logical{"and", "or", "true", "false", "step", "min", "max", "floor", "mod"};
  auto it = word.globalMatch(text);
  while (it.hasNext()) {
    QRegularExpressionMatch m = it.next();
    QString w = m.captured(0);
    if (w.startsWith('%')) setFormat(m.capturedStart(), m.capturedLength(), styleOf(ThemeColor::Builtin, true));
    else if (w.startsWith('(')) setFormat(m.capturedStart(), m.capturedLength(), styleOf(ThemeColor::Comment));
    else if (keywords.contains(w)) setFormat(m.capturedStart(), m.capturedLength(), styleOf(ThemeColor::Keyword, true));
    else if (logical.contains(w)) setFormat(m.capturedStart(), m.capturedLength(), styleOf(ThemeColor::Keyword));
    else if (loopVars_.contains(w)) setFormat(m.capturedStart(), m.capturedLength(), styleOf(ThemeColor::DType));
    else if (w.front().isDigit()) setFormat(m.capturedStart(), m.capturedLength(), styleOf(ThemeColor::Number));
    else if (w.front().isUpper()) setFormat(m.capturedStart(), m.capturedLength(), styleOf(ThemeColor::Constant));
  }
}

}  // namespace tempo::views
