// TpoLexer: syntax highlighting of `.tpo` text in a QsciScintilla editor.
//
// A QsciLexerCustom that styles text with the engine's own lexer
// (tempo::lex), so highlighting can never disagree with what the compiler
// reads: keywords, dtype names, built-in function names (from
// tempo::builtinNames), numbers, strings, operators and `#` comments (the
// text the lexer skips from a `#` to the end of the line). Tokens never span
// lines, so any range starting at a line start can be styled on its own.
// Colours come from the application palette (views/common/Palette).
#pragma once

#include "editor/QsciIncludes.h"

#include <QSet>
#include <QString>

namespace tempo::views {

class TpoLexer : public QsciLexerCustom {
  Q_OBJECT
public:
  enum Style { Default = 0, Comment, Keyword, DTypeName, Builtin, Number, String, Operator, StyleCount };

  explicit TpoLexer(QObject* parent = nullptr);

  const char* language() const override { return "Tempo"; }
  QString description(int style) const override;
  void styleText(int start, int end) override;

  /// Re-derives every style's colours and font from `palette`.
  void applyPalette(const QPalette& palette);

private:
  int identifierStyle(const QByteArray& word) const;

  QSet<QByteArray> builtins_;
};

}  // namespace tempo::views
