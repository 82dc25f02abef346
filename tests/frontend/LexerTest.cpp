// Lexer tests: token kinds, texts, decoded values and source ranges.
#include <gtest/gtest.h>

#include "frontend/Lexer.h"

namespace tempo {
namespace {

std::vector<Token> lexOk(std::string_view src) {
  DiagnosticBag diags;
  std::vector<Token> tokens = lex(src, "t.tpo", diags);
  EXPECT_TRUE(diags.empty()) << renderAll(diags, src);
  return tokens;
}

std::vector<TokenKind> kinds(const std::vector<Token>& tokens) {
  std::vector<TokenKind> out;
  for (const Token& t : tokens) out.push_back(t.kind);
  return out;
}

std::string errors(std::string_view src) {
  DiagnosticBag diags;
  lex(src, "t.tpo", diags);
  return renderAll(diags, src);
}

using K = TokenKind;

TEST(Lexer, DimStatementWithRanges) {
  auto toks = lexOk("dim b < B\n");
  ASSERT_EQ(kinds(toks), (std::vector<K>{K::KwDim, K::Ident, K::Less, K::Ident, K::Newline, K::End}));
  EXPECT_EQ(toks[1].text, "b");
  EXPECT_EQ(toks[0].range, (SourceRange{{1, 1}, {1, 4}}));
  EXPECT_EQ(toks[1].range, (SourceRange{{1, 5}, {1, 6}}));
  EXPECT_EQ(toks[2].range, (SourceRange{{1, 7}, {1, 8}}));
  EXPECT_EQ(toks[3].range, (SourceRange{{1, 9}, {1, 10}}));
  EXPECT_EQ(toks[4].range, (SourceRange{{1, 10}, {1, 11}}));
  EXPECT_EQ(toks[5].range, (SourceRange{{2, 1}, {2, 1}}));
}

TEST(Lexer, AllOperatorsAndBrackets) {
  auto toks = lexOk("( ) [ ] , : = + - * / // % @ < <= > >= == !=");
  EXPECT_EQ(kinds(toks), (std::vector<K>{K::LParen, K::RParen, K::LBracket, K::RBracket, K::Comma, K::Colon,
                                         K::Assign, K::Plus, K::Minus, K::Star, K::Slash, K::SlashSlash,
                                         K::Percent, K::At, K::Less, K::LessEq, K::Greater, K::GreaterEq,
                                         K::EqEq, K::NotEq, K::End}));
  EXPECT_EQ(toks[11].range, (SourceRange{{1, 23}, {1, 25}}));
}

TEST(Lexer, Keywords) {
  auto toks = lexOk("dim set const input param out over true false f32 dims");
  EXPECT_EQ(kinds(toks), (std::vector<K>{K::KwDim, K::KwSet, K::KwConst, K::KwInput, K::KwParam, K::KwOut,
                                         K::KwOver, K::KwTrue, K::KwFalse, K::Ident, K::Ident, K::End}));
}

TEST(Lexer, Numbers) {
  auto toks = lexOk("0 42 0.9 1e-3 1. .5 2E+2 9223372036854775807");
  ASSERT_EQ(kinds(toks), (std::vector<K>{K::Int, K::Int, K::Float, K::Float, K::Float, K::Float, K::Float, K::Int,
                                         K::End}));
  EXPECT_EQ(toks[1].intValue, 42);
  EXPECT_DOUBLE_EQ(toks[2].floatValue, 0.9);
  EXPECT_DOUBLE_EQ(toks[3].floatValue, 1e-3);
  EXPECT_DOUBLE_EQ(toks[4].floatValue, 1.0);
  EXPECT_DOUBLE_EQ(toks[5].floatValue, 0.5);
  EXPECT_DOUBLE_EQ(toks[6].floatValue, 200.0);
  EXPECT_EQ(toks[7].intValue, INT64_MAX);
  EXPECT_EQ(toks[3].text, "1e-3");
  EXPECT_EQ(toks[5].range, (SourceRange{{1, 18}, {1, 20}}));
}

TEST(Lexer, SliceIsNotAFloat) {
  auto toks = lexOk("x[0:T]");
  EXPECT_EQ(kinds(toks), (std::vector<K>{K::Ident, K::LBracket, K::Int, K::Colon, K::Ident, K::RBracket, K::End}));
}

TEST(Lexer, StringsDecodeEscapes) {
  auto toks = lexOk(R"(load("a\"b\\c.npy") "")");
  ASSERT_EQ(kinds(toks), (std::vector<K>{K::Ident, K::LParen, K::String, K::RParen, K::String, K::End}));
  EXPECT_EQ(toks[2].stringValue, "a\"b\\c.npy");
  EXPECT_EQ(toks[2].text, R"("a\"b\\c.npy")");
  EXPECT_EQ(toks[2].range, (SourceRange{{1, 6}, {1, 19}}));
  EXPECT_EQ(toks[4].stringValue, "");
}

TEST(Lexer, CommentsBlankLinesAndCarriageReturns) {
  auto toks = lexOk("# header\n\ndim t < T  # trailing\r\n");
  EXPECT_EQ(kinds(toks), (std::vector<K>{K::Newline, K::Newline, K::KwDim, K::Ident, K::Less, K::Ident, K::Newline,
                                         K::End}));
  EXPECT_EQ(toks[2].range.begin, (SourceLoc{3, 1}));
}

TEST(Lexer, BackslashJoinsLines) {
  auto toks = lexOk("s = a + \\  \n    b\n");
  EXPECT_EQ(kinds(toks), (std::vector<K>{K::Ident, K::Assign, K::Ident, K::Plus, K::Ident, K::Newline, K::End}));
  EXPECT_EQ(toks[4].range, (SourceRange{{2, 5}, {2, 6}}));
}

TEST(Lexer, NewlinesAreTokensEvenInBrackets) {
  // Implicit line joining is the parser's job.
  auto toks = lexOk("f(a,\nb)");
  EXPECT_EQ(kinds(toks), (std::vector<K>{K::Ident, K::LParen, K::Ident, K::Comma, K::Newline, K::Ident, K::RParen,
                                         K::End}));
}

TEST(Lexer, LastLineWithoutNewline) {
  auto toks = lexOk("out h");
  EXPECT_EQ(kinds(toks), (std::vector<K>{K::KwOut, K::Ident, K::End}));
  EXPECT_EQ(toks[2].range.begin, (SourceLoc{1, 6}));
}

TEST(Lexer, BadCharacter) {
  DiagnosticBag diags;
  auto toks = lex("x = $y", "t.tpo", diags);
  EXPECT_EQ(kinds(toks), (std::vector<K>{K::Ident, K::Assign, K::Error, K::Ident, K::End}));
  EXPECT_EQ(renderAll(diags, "x = $y"), "t.tpo:1:5: error: unexpected character '$'\n  x = $y\n      ^\n");
}

TEST(Lexer, RunOfBadBytesIsOneError) {
  std::string src = std::string("a \xc3\xa9\x01 b");
  // The echoed source line shows control bytes as '?'.
  EXPECT_EQ(errors(src), "t.tpo:1:3: error: unexpected characters '\\xc3\\xa9\\x01'\n  a \xc3\xa9? b\n    ^~~\n");
}

TEST(Lexer, NulByte) {
  std::string src("a\0b", 3);
  DiagnosticBag diags;
  auto toks = lex(src, "t.tpo", diags);
  EXPECT_EQ(kinds(toks), (std::vector<K>{K::Ident, K::Error, K::Ident, K::End}));
  EXPECT_EQ(diags.items().at(0).message, "unexpected character '\\x00'");
}

TEST(Lexer, UnterminatedString) {
  EXPECT_EQ(errors("x = load(\"x.npy)\ny = 1"),
            "t.tpo:1:10: error: unterminated string literal\n  x = load(\"x.npy)\n           ^~~~~~~\n");
  EXPECT_EQ(errors("\"abc"), "t.tpo:1:1: error: unterminated string literal\n  \"abc\n  ^~~~\n");
}

TEST(Lexer, UnknownEscape) {
  EXPECT_EQ(errors(R"("a\qb")"), "t.tpo:1:3: error: unknown escape sequence '\\q' in string literal\n"
                                 "  \"a\\qb\"\n    ^~\n");
}

TEST(Lexer, MalformedNumbers) {
  EXPECT_EQ(errors("1e"), "t.tpo:1:1: error: malformed number '1e'\n  1e\n  ^~\n");
  EXPECT_EQ(errors("3x + 1"), "t.tpo:1:1: error: malformed number '3x'\n  3x + 1\n  ^~\n");
  EXPECT_EQ(errors("1.2.3"), "t.tpo:1:1: error: malformed number '1.2.3'\n  1.2.3\n  ^~~~~\n");
  EXPECT_EQ(errors("99999999999999999999"),
            "t.tpo:1:1: error: integer literal '99999999999999999999' is too large\n"
            "  99999999999999999999\n  ^~~~~~~~~~~~~~~~~~~~\n");
  EXPECT_EQ(errors("1e999"), "t.tpo:1:1: error: float literal '1e999' is out of range\n  1e999\n  ^~~~~\n");
}

TEST(Lexer, StrayBackslash) {
  EXPECT_EQ(errors("a \\ b"),
            "t.tpo:1:3: error: unexpected '\\': a line continuation must end the line\n  a \\ b\n    ^\n");
}

TEST(Lexer, DescribeToken) {
  auto toks = lexOk("foo ]\n");
  EXPECT_EQ(describeToken(toks[0]), "'foo'");
  EXPECT_EQ(describeToken(toks[1]), "']'");
  EXPECT_EQ(describeToken(toks[2]), "newline");
  EXPECT_EQ(describeToken(toks[3]), "end of file");
  std::string longName(100, 'a');
  auto longToks = lexOk(longName);
  EXPECT_EQ(describeToken(longToks[0]), "'" + std::string(24, 'a') + "...'");
}

}  // namespace
}  // namespace tempo
