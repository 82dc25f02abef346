#include "frontend/Lexer.h"

#include <charconv>
#include <cstdio>

namespace tempo {

std::string_view tokenKindName(TokenKind k) {
  switch (k) {
    case TokenKind::End: return "end of file";
    case TokenKind::Newline: return "newline";
    case TokenKind::Error: return "invalid token";
    case TokenKind::Ident: return "identifier";
    case TokenKind::Int: return "integer";
    case TokenKind::Float: return "float";
    case TokenKind::String: return "string";
    case TokenKind::KwDim: return "dim";
    case TokenKind::KwSet: return "set";
    case TokenKind::KwConst: return "const";
    case TokenKind::KwInput: return "input";
    case TokenKind::KwParam: return "param";
    case TokenKind::KwOut: return "out";
    case TokenKind::KwOptimize: return "optimize";
    case TokenKind::KwOver: return "over";
    case TokenKind::KwTrue: return "true";
    case TokenKind::KwFalse: return "false";
    case TokenKind::KwAnd: return "and";
    case TokenKind::KwOr: return "or";
    case TokenKind::KwNot: return "not";
    case TokenKind::LParen: return "(";
    case TokenKind::RParen: return ")";
    case TokenKind::LBracket: return "[";
    case TokenKind::RBracket: return "]";
    case TokenKind::Comma: return ",";
    case TokenKind::Colon: return ":";
    case TokenKind::Semicolon: return ";";
    case TokenKind::Assign: return "=";
    case TokenKind::Plus: return "+";
    case TokenKind::Minus: return "-";
    case TokenKind::Star: return "*";
    case TokenKind::Slash: return "/";
    case TokenKind::SlashSlash: return "//";
    case TokenKind::Percent: return "%";
    case TokenKind::At: return "@";
    case TokenKind::Less: return "<";
    case TokenKind::LessEq: return "<=";
    case TokenKind::Greater: return ">";
    case TokenKind::GreaterEq: return ">=";
    case TokenKind::EqEq: return "==";
    case TokenKind::NotEq: return "!=";
  }
  return "token";
}

/// Shows bytes the way a diagnostic quotes them: printable ASCII as is, other
/// bytes as \xNN, at most `limit` bytes followed by "...".
static std::string escapeForMessage(std::string_view text, size_t limit = 24) {
  std::string out;
  for (size_t i = 0; i < text.size() && i < limit; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  if (text.size() > limit) out += "...";
  return out;
}

std::string describeToken(const Token& t) {
  if (t.kind == TokenKind::End || t.kind == TokenKind::Newline) return std::string(tokenKindName(t.kind));
  return "'" + escapeForMessage(t.text) + "'";
}

namespace {

bool isIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }

TokenKind keywordKind(std::string_view word) {
  static constexpr std::pair<std::string_view, TokenKind> kKeywords[] = {
      {"dim", TokenKind::KwDim},     {"set", TokenKind::KwSet},     {"const", TokenKind::KwConst},
      {"input", TokenKind::KwInput}, {"param", TokenKind::KwParam}, {"out", TokenKind::KwOut},
      {"optimize", TokenKind::KwOptimize},
      {"over", TokenKind::KwOver},   {"true", TokenKind::KwTrue},   {"false", TokenKind::KwFalse},
      {"and", TokenKind::KwAnd},     {"or", TokenKind::KwOr},       {"not", TokenKind::KwNot},
  };
  for (const auto& [spelling, kind] : kKeywords)
    if (spelling == word) return kind;
  return TokenKind::Ident;
}

/// The lexer's cursor over the source, with its tokens and diagnostics.
class Lexer {
public:
  Lexer(std::string_view source, const std::string& fileName, DiagnosticBag& diags)
      : src_(source), file_(fileName), diags_(diags) {}

  std::vector<Token> run() {
    while (true) {
      skipBlanksAndComments();
      if (atEnd()) break;
      lexToken();
    }
    Token end;
    end.kind = TokenKind::End;
    end.text = src_.substr(src_.size());
    end.range = {here(), here()};
    tokens_.push_back(std::move(end));
    return std::move(tokens_);
  }

private:
  bool atEnd() const { return pos_ >= src_.size(); }
  char peek(size_t ahead = 0) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }
  SourceLoc here() const { return {line_, col_}; }

  void advance() {
    if (src_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }

  void skipBlanksAndComments() {
    while (!atEnd()) {
      char c = peek();
      if (c == ' ' || c == '\t' || c == '\r') {
        advance();
      } else if (c == '#') {
        while (!atEnd() && peek() != '\n') advance();
      } else if (c == '\\' && continuationFollows()) {
        while (peek() != '\n' && !atEnd()) advance();
        if (!atEnd()) advance();
      } else {
        return;
      }
    }
  }

  /// True when the backslash at pos_ is followed only by blanks up to a line break or the end.
  bool continuationFollows() const {
    size_t i = pos_ + 1;
    while (i < src_.size() && (src_[i] == ' ' || src_[i] == '\t' || src_[i] == '\r')) ++i;
    return i >= src_.size() || src_[i] == '\n';
  }

  Token& emit(TokenKind kind, size_t startPos, SourceLoc start) {
    Token t;
    t.kind = kind;
    t.text = src_.substr(startPos, pos_ - startPos);
    t.range = {start, here()};
    tokens_.push_back(std::move(t));
    return tokens_.back();
  }

  void error(SourceRange range, std::string message) { diags_.error(file_, range, std::move(message)); }

  void lexToken() {
    size_t startPos = pos_;
    SourceLoc start = here();
    char c = peek();
    if (c == '\n') {
      advance();
      emit(TokenKind::Newline, startPos, start).range.end = {start.line, start.col + 1};
    } else if (isIdentStart(c)) {
      while (isIdentChar(peek())) advance();
      emit(keywordKind(src_.substr(startPos, pos_ - startPos)), startPos, start);
    } else if (isDigit(c) || (c == '.' && isDigit(peek(1)))) {
      lexNumber(startPos, start);
    } else if (c == '"') {
      lexString(startPos, start);
    } else if (TokenKind kind; lexPunctuation(kind)) {
      emit(kind, startPos, start);
    } else {
      lexBadCharacters(startPos, start);
    }
  }

  /// Consumes an operator or bracket at pos_ and sets `kind`; false if none starts here.
  bool lexPunctuation(TokenKind& kind) {
    char c = peek();
    char next = peek(1);
    auto two = [&](TokenKind k) { advance(); advance(); kind = k; return true; };
    auto one = [&](TokenKind k) { advance(); kind = k; return true; };
    switch (c) {
      case '(': return one(TokenKind::LParen);
      case ')': return one(TokenKind::RParen);
      case '[': return one(TokenKind::LBracket);
      case ']': return one(TokenKind::RBracket);
      case ',': return one(TokenKind::Comma);
      case ':': return one(TokenKind::Colon);
      case ';': return one(TokenKind::Semicolon);
      case '+': return one(TokenKind::Plus);
      case '-': return one(TokenKind::Minus);
      case '*': return one(TokenKind::Star);
      case '%': return one(TokenKind::Percent);
      case '@': return one(TokenKind::At);
      case '/': return next == '/' ? two(TokenKind::SlashSlash) : one(TokenKind::Slash);
      case '<': return next == '=' ? two(TokenKind::LessEq) : one(TokenKind::Less);
      case '>': return next == '=' ? two(TokenKind::GreaterEq) : one(TokenKind::Greater);
      case '=': return next == '=' ? two(TokenKind::EqEq) : one(TokenKind::Assign);
      case '!': return next == '=' ? two(TokenKind::NotEq) : false;
      default: return false;
    }
  }

  /// True when a token (or blank, comment, newline) can start at pos_.
  bool tokenStartsHere() {
    char c = peek();
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '#' || c == '"') return true;
    if (isIdentStart(c) || isDigit(c) || (c == '.' && isDigit(peek(1)))) return true;
    if (c == '\\') return true;
    if (c == '!') return peek(1) == '=';
    switch (c) {
      case '(': case ')': case '[': case ']': case ',': case ':': case ';': case '+': case '-': case '*':
      case '%': case '@': case '/': case '<': case '>': case '=':
        return true;
      default:
        return false;
    }
  }

  /// Reports a run of bytes that start no token (including a misplaced backslash) as one error.
  void lexBadCharacters(size_t startPos, SourceLoc start) {
    if (peek() == '\\') {
      advance();
      Token& t = emit(TokenKind::Error, startPos, start);
      error(t.range, "unexpected '\\': a line continuation must end the line");
      return;
    }
    advance();
    while (!atEnd() && !tokenStartsHere()) advance();
    Token& t = emit(TokenKind::Error, startPos, start);
    const char* noun = t.text.size() == 1 ? "character" : "characters";
    error(t.range, std::string("unexpected ") + noun + " '" + escapeForMessage(t.text) + "'");
  }

  void lexNumber(size_t startPos, SourceLoc start) {
    bool isFloat = false;
    while (isDigit(peek())) advance();
    if (peek() == '.') {
      isFloat = true;
      advance();
      while (isDigit(peek())) advance();
    }
    bool malformed = false;
    if (peek() == 'e' || peek() == 'E') {
      isFloat = true;
      advance();
      if (peek() == '+' || peek() == '-') advance();
      if (!isDigit(peek())) malformed = true;
      while (isDigit(peek())) advance();
    }
    if (isIdentChar(peek()) || peek() == '.') {
      malformed = true;
      while (isIdentChar(peek()) || peek() == '.') advance();
    }
    if (malformed) {
      Token& t = emit(TokenKind::Error, startPos, start);
      error(t.range, "malformed number '" + escapeForMessage(t.text) + "'");
      return;
    }
    std::string_view text = src_.substr(startPos, pos_ - startPos);
    if (isFloat) {
      double value = 0;
      auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (ec != std::errc() || ptr != text.data() + text.size()) {
        Token& t = emit(TokenKind::Error, startPos, start);
        error(t.range, "float literal '" + escapeForMessage(t.text) + "' is out of range");
        return;
      }
      emit(TokenKind::Float, startPos, start).floatValue = value;
    } else {
      int64_t value = 0;
      auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (ec != std::errc() || ptr != text.data() + text.size()) {
        Token& t = emit(TokenKind::Error, startPos, start);
        error(t.range, "integer literal '" + escapeForMessage(t.text) + "' is too large");
        return;
      }
      emit(TokenKind::Int, startPos, start).intValue = value;
    }
  }

  void lexString(size_t startPos, SourceLoc start) {
    advance();  // opening quote
    std::string value;
    bool bad = false;
    while (true) {
      if (atEnd() || peek() == '\n') {
        Token& t = emit(TokenKind::Error, startPos, start);
        error(t.range, "unterminated string literal");
        return;
      }
      char c = peek();
      if (c == '"') {
        advance();
        break;
      }
      if (c != '\\') {
        value += c;
        advance();
        continue;
      }
      SourceLoc escStart = here();
      advance();
      char e = peek();
      if (atEnd() || e == '\n') continue;  // reported as unterminated on the next turn
      advance();
      if (e == '"' || e == '\\') {
        value += e;
      } else if (e == 'n') {
        value += '\n';
      } else if (e == 't') {
        value += '\t';
      } else {
        bad = true;
        error({escStart, here()}, "unknown escape sequence '\\" + escapeForMessage(std::string_view(&e, 1)) +
                                      "' in string literal");
      }
    }
    Token& t = emit(bad ? TokenKind::Error : TokenKind::String, startPos, start);
    t.stringValue = std::move(value);
  }

  std::string_view src_;
  const std::string& file_;
  DiagnosticBag& diags_;
  size_t pos_ = 0;
  int line_ = 1;
  int col_ = 1;
  std::vector<Token> tokens_;
};

}  // namespace

std::vector<Token> lex(std::string_view source, const std::string& fileName, DiagnosticBag& diags) {
  return Lexer(source, fileName, diags).run();
}

}  // namespace tempo
