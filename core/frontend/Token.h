// Token: the lexical units of the `.tpo` language.
//
// The lexer turns source text into a flat list of Tokens, each with its kind,
// the exact source text it covers (a view into the source, which must outlive
// the tokens), its SourceRange, and for literals the decoded value. Newlines
// are tokens because statements end at a newline; the parser, not the lexer,
// ignores them inside brackets. An Error token stands for text the lexer
// already reported (bad character, unterminated string, malformed number), so
// the parser can skip it without reporting a second error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "diag/Diagnostics.h"

namespace tempo {

enum class TokenKind {
  End,      ///< end of file
  Newline,  ///< end of a logical line
  Error,    ///< text the lexer could not read; already reported
  Ident,
  Int,
  Float,
  String,
  // Keywords.
  KwDim, KwSet, KwConst, KwInput, KwParam, KwOut, KwOptimize, KwOver, KwTrue, KwFalse, KwAnd, KwOr, KwNot,
  // Brackets and separators.
  LParen, RParen, LBracket, RBracket, Comma, Colon, Semicolon, Assign,
  // Operators.
  Plus, Minus, Star, Slash, SlashSlash, Percent, At,
  Less, LessEq, Greater, GreaterEq, EqEq, NotEq,
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;  ///< the source text of the token
  SourceRange range;
  int64_t intValue = 0;   ///< for Int
  double floatValue = 0;  ///< for Float
  std::string stringValue;  ///< for String: the contents with escapes decoded

  bool is(TokenKind k) const { return kind == k; }
  /// True for the keywords dim, set, const, input, param, out, optimize, over.
  bool isStatementKeyword() const { return kind >= TokenKind::KwDim && kind <= TokenKind::KwOver; }
};

/// The spelling of a fixed token kind ("dim", "(", "//"), or a word for the
/// others ("identifier", "newline", "end of file").
std::string_view tokenKindName(TokenKind k);

/// How a diagnostic quotes a token: `'x'`, `']'`, `newline`, `end of file`;
/// long token text is shortened.
std::string describeToken(const Token& t);

}  // namespace tempo
