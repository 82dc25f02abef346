// ScheduleHighlighter: syntax colours for printed loop programs.
//
// Colours the pseudo-code of printLoopProgram in the studio's theme
// (common/Palette): the statement keywords (for, in, if, else, exec, alloc,
// free, swap_out, swap_in) and the logical words of guards, the loop
// variables the text declares (`for c0 in ...` makes every later `c0` a
// loop variable), node references `%7` with their names, numbers, and the
// byte counts of memory statements as comments.
#pragma once

#include <QRegularExpression>
#include <QSet>
#include <QSyntaxHighlighter>

namespace tempo::views {

class ScheduleHighlighter : public QSyntaxHighlighter {
  Q_OBJECT
public:
  explicit ScheduleHighlighter(QTextDocument* document);
  /// Reads the loop variables of `text`, the text about to be set on the
  /// document (setting it colours it once, with them).
  void setLoopText(const QString& text);

protected:
  void highlightBlock(const QString& text) override;

private:
  QSet<QString> loopVars_;
};

}  // namespace tempo::views
