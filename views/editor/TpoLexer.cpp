#include "editor/TpoLexer.h"

#include "common/Palette.h"
#include "frontend/Builtins.h"
#include "frontend/Lexer.h"
#include "types/DType.h"

#include "editor/QsciIncludes.h"

#include <QFontDatabase>

#include <vector>

namespace tempo::views {

TpoLexer::TpoLexer(QObject* parent) : QsciLexerCustom(parent) {
  for (const std::string& name : builtinNames()) builtins_.insert(QByteArray::fromStdString(name));
}

QString TpoLexer::description(int style) const {
  switch (style) {
  case Default: return tr("Default");
  case Comment: return tr("Comment");
  case Keyword: return tr("Keyword");
  case DTypeName: return tr("Data type");
  case Builtin: return tr("Built-in function");
  case Number: return tr("Number");
  case String: return tr("String");
  case Operator: return tr("Operator");
  default: return {};
  }
}

void TpoLexer::applyPalette(const QPalette& palette) {
  QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  QFont bold = font;
  bold.setBold(true);
  setDefaultFont(font);
  setDefaultColor(palette.color(QPalette::Text));
  setDefaultPaper(palette.color(QPalette::Base));
  const ThemeColor roles[] = {ThemeColor::Operator, ThemeColor::Comment, ThemeColor::Keyword, ThemeColor::DType,
                              ThemeColor::Builtin,  ThemeColor::Number,  ThemeColor::String,  ThemeColor::Operator};
  for (int style = 0; style < StyleCount; ++style) {
    setColor(style == Default ? palette.color(QPalette::Text) : themeColor(roles[style], palette), style);
    setPaper(palette.color(QPalette::Base), style);
    setFont(style == Keyword ? bold : font, style);
  }
  QFont italic = font;
  italic.setItalic(true);
  setFont(italic, Comment);
}

int TpoLexer::identifierStyle(const QByteArray& word) const {
  if (parseDType(std::string_view(word.constData(), word.size()))) return DTypeName;
  return builtins_.contains(word) ? Builtin : Default;
}

void TpoLexer::styleText(int start, int end) {
  if (!editor() || end <= start) return;
  QByteArray text = editor()->bytes(start, end);
  text.chop(1);  // bytes() appends a NUL
  // Offsets of the chunk's line starts, to turn token line:col into offsets.
  std::vector<int> lineStart{0};
  for (int i = 0; i < text.size(); ++i)
    if (text[i] == '\n') lineStart.push_back(i + 1);
  auto offsetOf = [&](const SourceLoc& loc) {
    if (loc.line < 1 || loc.line > static_cast<int>(lineStart.size())) return static_cast<int>(text.size());
    return std::min<int>(lineStart[loc.line - 1] + loc.col - 1, text.size());
  };

  DiagnosticBag ignored;  // the checker reports problems; here they only matter as Error tokens
  std::vector<Token> tokens = lex(std::string_view(text.constData(), text.size()), "", ignored);
  startStyling(start);
  int pos = 0;
  // Styles the gap before `until`: blanks, and a comment from a '#' to the line end.
  auto styleGap = [&](int until) {
    while (pos < until) {
      int hash = text.indexOf('#', pos);
      if (hash < 0 || hash >= until) {
        setStyling(until - pos, Default);
        pos = until;
        break;
      }
      if (hash > pos) setStyling(hash - pos, Default);
      int eol = text.indexOf('\n', hash);
      int stop = std::min(eol < 0 ? static_cast<int>(text.size()) : eol, until);
      setStyling(stop - hash, Comment);
      pos = stop;
    }
  };
  for (const Token& token : tokens) {
    if (token.is(TokenKind::End)) break;
    if (token.is(TokenKind::Newline)) continue;
    int begin = offsetOf(token.range.begin), stop = offsetOf(token.range.end);
    if (begin < pos || stop <= begin) continue;
    styleGap(begin);
    int style = Operator;
    switch (token.kind) {
    case TokenKind::Ident: style = identifierStyle(QByteArray(text.constData() + begin, stop - begin)); break;
    case TokenKind::Int:
    case TokenKind::Float: style = Number; break;
    case TokenKind::String: style = String; break;
    case TokenKind::Error: style = Default; break;
    default: style = token.kind >= TokenKind::KwDim && token.kind <= TokenKind::KwNot ? Keyword : Operator;
    }
    setStyling(stop - begin, style);
    pos = stop;
  }
  styleGap(static_cast<int>(text.size()));
}

}  // namespace tempo::views
