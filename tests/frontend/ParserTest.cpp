// Parser tests: golden ASTs for tests/golden/parse/*.tpo, node ranges,
// rendered diagnostics for bad programs, and robustness on random input.
//
// Set TEMPO_UPDATE_GOLDENS=1 to rewrite the .ast files from the current
// parser output; review the diff by eye before committing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "frontend/AstPrinter.h"
#include "frontend/Parser.h"

namespace tempo {
namespace {

namespace fs = std::filesystem;
using namespace ast;

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Compares `actual` with the golden file, or rewrites it when TEMPO_UPDATE_GOLDENS=1.
void expectGolden(const fs::path& path, const std::string& actual) {
  const char* update = std::getenv("TEMPO_UPDATE_GOLDENS");
  if (update && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  ASSERT_TRUE(fs::exists(path)) << "missing golden file " << path << " (run with TEMPO_UPDATE_GOLDENS=1)";
  EXPECT_EQ(readFile(path), actual) << "golden mismatch: " << path;
}

fs::path goldenDir() { return fs::path(TEMPO_SOURCE_DIR) / "tests" / "golden" / "parse"; }

std::vector<fs::path> goldenPrograms() {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(goldenDir()))
    if (entry.path().extension() == ".tpo") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ParserGolden, EveryProgramMatchesItsAst) {
  std::vector<fs::path> programs = goldenPrograms();
  EXPECT_GE(programs.size(), 10u);
  for (const fs::path& path : programs) {
    SCOPED_TRACE(path.filename().string());
    std::string source = readFile(path);
    DiagnosticBag diags;
    Program program = parseProgram(source, path.filename().string(), diags);
    EXPECT_TRUE(diags.empty()) << renderAll(diags, source);
    fs::path expected = path;
    expected.replace_extension(".ast");
    expectGolden(expected, printAst(program));
  }
}

// ---- Structure and ranges ------------------------------------------------

Program parseOk(std::string_view src) {
  DiagnosticBag diags;
  Program p = parseProgram(src, "t.tpo", diags);
  EXPECT_TRUE(diags.empty()) << renderAll(diags, src);
  return p;
}

SourceRange R(int l1, int c1, int l2, int c2) { return {{l1, c1}, {l2, c2}}; }

TEST(Parser, BranchFieldsAndRanges) {
  Program p = parseOk("h[b, t] = tanh(x[b, t] @ W + h[b, t-1] @ U)\n");
  ASSERT_EQ(p.stmts.size(), 1u);
  const Stmt& s = p.stmts[0];
  EXPECT_EQ(s.range, R(1, 1, 1, 44));
  const Branch* b = s.as<Branch>();
  ASSERT_TRUE(b);
  EXPECT_EQ(b->target.name, "h");
  EXPECT_EQ(b->target.range, R(1, 1, 1, 2));
  ASSERT_EQ(b->indices.size(), 2u);
  EXPECT_EQ(b->indices[1].range, R(1, 6, 1, 7));
  const Call* call = b->value->as<Call>();
  ASSERT_TRUE(call);
  EXPECT_EQ(b->value->range, R(1, 11, 1, 44));
  EXPECT_EQ(call->callee.name, "tanh");
  EXPECT_EQ(call->callee.range, R(1, 11, 1, 15));
  ASSERT_EQ(call->args.size(), 1u);
  const Binary* plus = call->args[0]->as<Binary>();
  ASSERT_TRUE(plus);
  EXPECT_EQ(plus->op, BinaryOp::Add);
  EXPECT_EQ(plus->opRange, R(1, 28, 1, 29));
  EXPECT_EQ(call->args[0]->range, R(1, 16, 1, 43));
  const Index* xi = plus->lhs->as<Binary>()->lhs->as<Index>();
  ASSERT_TRUE(xi);
  EXPECT_EQ(plus->lhs->as<Binary>()->lhs->range, R(1, 16, 1, 23));
  EXPECT_EQ(xi->base->as<Name>()->name, "x");
}

TEST(Parser, SourceDeclFields) {
  Program p = parseOk("param V : f32[8, H] over (b) = normal(seed=1, std=0.1)");
  const SourceDecl* d = p.stmts.at(0).as<SourceDecl>();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->kind, SourceKind::Param);
  EXPECT_EQ(d->name.range, R(1, 7, 1, 8));
  EXPECT_EQ(d->type.dtype.name, "f32");
  EXPECT_EQ(d->type.range, R(1, 11, 1, 20));
  ASSERT_EQ(d->type.shape.size(), 2u);
  EXPECT_EQ(d->type.shape[0]->as<IntLit>()->value, 8);
  ASSERT_EQ(d->domain.size(), 1u);
  EXPECT_EQ(d->domain[0].name, "b");
  EXPECT_EQ(d->domain[0].range, R(1, 27, 1, 28));
  const Call* init = d->init->as<Call>();
  ASSERT_TRUE(init);
  ASSERT_EQ(init->kwargs.size(), 2u);
  EXPECT_EQ(init->kwargs[1].name.name, "std");
  EXPECT_EQ(init->kwargs[1].name.range, R(1, 47, 1, 50));
  EXPECT_DOUBLE_EQ(init->kwargs[1].value->as<FloatLit>()->value, 0.1);
  EXPECT_EQ(p.stmts[0].range, R(1, 1, 1, 55));
}

TEST(Parser, DimSetConstOutFields) {
  Program p = parseOk("dim t < T\nset B = 4, T = 16\nconst E = 512, X = 0.5\nout h\nout y = h");
  ASSERT_EQ(p.stmts.size(), 5u);
  const DimDecl* dim = p.stmts[0].as<DimDecl>();
  EXPECT_EQ(dim->bound.name, "T");
  EXPECT_EQ(dim->bound.range, R(1, 9, 1, 10));
  const SetStmt* set = p.stmts[1].as<SetStmt>();
  ASSERT_EQ(set->items.size(), 2u);
  EXPECT_EQ(set->items[1].value, 16);
  EXPECT_EQ(set->items[1].valueRange, R(2, 16, 2, 18));
  const ConstDecl* c = p.stmts[2].as<ConstDecl>();
  ASSERT_EQ(c->items.size(), 2u);
  EXPECT_TRUE(c->items[1].value->is<FloatLit>());
  EXPECT_EQ(p.stmts[3].as<Out>()->value, nullptr);
  EXPECT_TRUE(p.stmts[4].as<Out>()->value->is<Name>());
  EXPECT_EQ(p.fileName, "t.tpo");
}

TEST(Parser, IndexItemKinds) {
  Program p = parseOk("s = h[t=t-1, 0:, :t, :, lo:hi, b]");
  const Index* ix = p.stmts.at(0).as<Let>()->value->as<Index>();
  ASSERT_TRUE(ix);
  ASSERT_EQ(ix->items.size(), 6u);
  EXPECT_EQ(ix->items[0].kind, IndexItem::Kind::Point);
  EXPECT_EQ(ix->items[0].dim->name, "t");
  EXPECT_EQ(ix->items[0].range, R(1, 7, 1, 12));
  EXPECT_EQ(ix->items[1].kind, IndexItem::Kind::Slice);
  EXPECT_TRUE(ix->items[1].lo && !ix->items[1].hi);
  EXPECT_TRUE(!ix->items[2].lo && ix->items[2].hi);
  EXPECT_TRUE(!ix->items[3].lo && !ix->items[3].hi);
  EXPECT_EQ(ix->items[3].range, R(1, 22, 1, 23));
  EXPECT_FALSE(ix->items[5].dim.has_value());
}

TEST(Parser, ParenthesesWidenTheRange) {
  Program p = parseOk("s = (a + b) * c");
  const Binary* mul = p.stmts.at(0).as<Let>()->value->as<Binary>();
  EXPECT_EQ(mul->op, BinaryOp::Mul);
  EXPECT_EQ(mul->lhs->range, R(1, 5, 1, 12));
  EXPECT_EQ(p.stmts[0].as<Let>()->value->range, R(1, 5, 1, 16));
}

TEST(Parser, RangesAcrossJoinedLines) {
  Program p = parseOk("s = f(a,\n      b)\nout s");
  ASSERT_EQ(p.stmts.size(), 2u);
  EXPECT_EQ(p.stmts[0].range, R(1, 1, 2, 9));
  EXPECT_EQ(p.stmts[1].range, R(3, 1, 3, 6));
}

TEST(Parser, EmptyAndCommentOnlyPrograms) {
  EXPECT_TRUE(parseOk("").stmts.empty());
  EXPECT_TRUE(parseOk("\n\n# nothing\n   # more\n").stmts.empty());
}

TEST(Parser, PrintExpr) {
  Program p = parseOk("s = -x[b, 0:T] @ W // 2");
  EXPECT_EQ(printExpr(*p.stmts.at(0).as<Let>()->value), "(// (@ (neg (index x [b (: 0 T)])) W) 2)");
}

TEST(Parser, LogicalOperatorsBindLooserThanComparisons) {
  // As in Python: `or` below `and` below `not` below the comparisons.
  Program p = parseOk("m = not x < 1.0 and y > 0.0 or z");
  EXPECT_EQ(printExpr(*p.stmts.at(0).as<Let>()->value), "(or (and (not (< x 1.0)) (> y 0.0)) z)");
  Program q = parseOk("m = a or b or not not c");
  EXPECT_EQ(printExpr(*q.stmts.at(0).as<Let>()->value), "(or (or a b) (not (not c)))");
}

TEST(Parser, SpatialIndicesFollowASemicolon) {
  Program p = parseOk("q = x[b, t-1; 0:E, 2]");
  EXPECT_EQ(printExpr(*p.stmts.at(0).as<Let>()->value), "(index x [b (- t 1)] ; [(: 0 E) 2])");
  Program q = parseOk("w = W[; -1, :3]");
  EXPECT_EQ(printExpr(*q.stmts.at(0).as<Let>()->value), "(index W [] ; [(neg 1) (: _ 3)])");
}

// ---- Diagnostics -----------------------------------------------------------

std::string diagnose(std::string_view src, size_t* statements = nullptr) {
  DiagnosticBag diags;
  Program p = parseProgram(src, "bad.tpo", diags);
  if (statements) *statements = p.stmts.size();
  return renderAll(diags, src);
}

struct BadProgram {
  const char* name;
  const char* source;
  const char* expected;
};

const BadProgram kBadPrograms[] = {
    {"missing_bracket",
     "s = h[b, 0:T\n"
     "out s\n",
     "bad.tpo:1:13: error: expected ']' to close index list, found newline\n"
     "  s = h[b, 0:T\n"
     "              ^\n"},
    {"bracket_before_equals",
     "h[b, t-1 = 1\n",
     "bad.tpo:1:10: error: expected ']' to close index list, found '='\n"
     "  h[b, t-1 = 1\n"
     "           ^\n"},
    {"missing_equals_let",
     "s h[b]\n",
     "bad.tpo:1:3: error: expected ':', '[' or '=' after 's', found 'h'\n"
     "  s h[b]\n"
     "    ^\n"},
    {"missing_equals_branch",
     "h[b, 0] tanh(x)\n",
     "bad.tpo:1:9: error: expected '=' after the index list of 'h', found 'tanh'\n"
     "  h[b, 0] tanh(x)\n"
     "          ^~~~\n"},
    {"bad_char",
     "x = a $ b\n",
     "bad.tpo:1:7: error: unexpected character '$'\n"
     "  x = a $ b\n"
     "        ^\n"},
    {"unterminated",
     "input x : f32[5] = load(\"x.npy)\n"
     "out x\n",
     "bad.tpo:1:25: error: unterminated string literal\n"
     "  input x : f32[5] = load(\"x.npy)\n"
     "                          ^~~~~~~\n"},
    {"dim_no_bound",
     "dim t <\n"
     "dim b < B\n",
     "bad.tpo:1:8: error: expected bound name after '<', found newline\n"
     "  dim t <\n"
     "         ^\n"},
    {"stray_paren",
     "s = a + b)\n",
     "bad.tpo:1:10: error: unmatched ')'\n"
     "  s = a + b)\n"
     "           ^\n"},
    {"several",
     "dim b < B\n"
     "dim t T\n"
     "set B = 4.5\n"
     "h : f32[8] over (b t)\n"
     "h[b, 0] = tanh(x[b, 0] @ W\n"
     "out h\n",
     "bad.tpo:2:7: error: expected '<' after dimension name 't', found 'T'\n"
     "  dim t T\n"
     "        ^\n"
     "bad.tpo:3:9: error: expected integer value for 'B', found '4.5'\n"
     "  set B = 4.5\n"
     "          ^~~\n"
     "bad.tpo:4:20: error: expected ')' to close the dimension list, found 't'\n"
     "  h : f32[8] over (b t)\n"
     "                     ^\n"
     "bad.tpo:5:27: error: expected ')' to close the arguments of 'tanh', found newline\n"
     "  h[b, 0] = tanh(x[b, 0] @ W\n"
     "                            ^\n"},
    {"init_not_call",
     "param W : f32[5, 8] = 3\n",
     "bad.tpo:1:23: error: the initializer of 'W' must be a call such as load(\"x.npy\") or normal(seed=1, std=0.1)\n"
     "  param W : f32[5, 8] = 3\n"
     "                        ^\n"},
    {"missing_colon",
     "input x f32[5] = load(\"x.npy\")\n",
     "bad.tpo:1:9: error: expected ':' and a type after 'x', found 'f32'\n"
     "  input x f32[5] = load(\"x.npy\")\n"
     "          ^~~\n"},
    {"chained_comparison",
     "c = a < b < c\n",
     "bad.tpo:1:11: error: comparison operators cannot be chained; use parentheses\n"
     "  c = a < b < c\n"
     "            ^\n"},
    {"positional_after_keyword",
     "y = f(x=1, y)\n",
     "bad.tpo:1:12: error: positional argument follows keyword argument\n"
     "  y = f(x=1, y)\n"
     "             ^\n"},
    {"duplicate_keyword",
     "p = normal(seed=1, seed=2)\n",
     "bad.tpo:1:20: error: duplicate keyword argument 'seed'\n"
     "  p = normal(seed=1, seed=2)\n"
     "                     ^~~~\n"},
    {"paren_eof",
     "x = (a + b",
     "bad.tpo:1:11: error: expected ')' to close the parenthesised expression, found end of file\n"
     "  x = (a + b\n"
     "            ^\n"},
    {"call_non_name",
     "x = f(a)(b)\n",
     "bad.tpo:1:9: error: only a named function can be called\n"
     "  x = f(a)(b)\n"
     "          ^\n"},
    {"unmatched_at_start",
     ") = 3\n",
     "bad.tpo:1:1: error: unmatched ')'\n"
     "  ) = 3\n"
     "  ^\n"},
    {"empty_expr",
     "x =\n",
     "bad.tpo:1:4: error: expected expression, found newline\n"
     "  x =\n"
     "     ^\n"},
    {"malformed_number",
     "x = 12abc + 1\n",
     "bad.tpo:1:5: error: malformed number '12abc'\n"
     "  x = 12abc + 1\n"
     "      ^~~~~\n"},
    {"trailing_token",
     "x = a b\n",
     "bad.tpo:1:7: error: expected end of line, found 'b'\n"
     "  x = a b\n"
     "        ^\n"},
    {"keyword_as_name",
     "dim = 3\n",
     "bad.tpo:1:5: error: expected dimension name after 'dim', found '='\n"
     "  dim = 3\n"
     "      ^\n"},
    {"multiline_recovery",
     "y = f(a,\n"
     "      b c,\n"
     "      d)\n"
     "out y\n",
     "bad.tpo:2:9: error: expected ')' to close the arguments of 'f', found 'c'\n"
     "        b c,\n"
     "          ^\n"},
    {"empty_index",
     "s = x[]\n",
     "bad.tpo:1:7: error: expected expression, found ']'\n"
     "  s = x[]\n"
     "        ^\n"},
    {"newline_in_parens",
     "x = (a +\n"
     ")\n"
     "out x\n",
     "bad.tpo:1:9: error: expected expression, found newline\n"
     "  x = (a +\n"
     "          ^\n"},
    {"set_missing_value",
     "set B = 4, T\n",
     "bad.tpo:1:13: error: expected '=' after 'T', found newline\n"
     "  set B = 4, T\n"
     "              ^\n"},
    {"shape_unclosed",
     "h : f32[8 over (b)\n"
     "out h\n",
     "bad.tpo:1:11: error: expected ']' to close the shape, found 'over'\n"
     "  h : f32[8 over (b)\n"
     "            ^~~~\n"},
    {"over_bare",
     "param W : f32[5] over b t = zeros()\n",
     "bad.tpo:1:25: error: expected '=' and an initializer for 'W', found 't'\n"
     "  param W : f32[5] over b t = zeros()\n"
     "                          ^\n"},
    {"out_no_name",
     "out\n"
     "out 3\n",
     "bad.tpo:1:4: error: expected tensor name after 'out', found newline\n"
     "  out\n"
     "     ^\n"
     "bad.tpo:2:5: error: expected tensor name after 'out', found '3'\n"
     "  out 3\n"
     "      ^\n"},
    {"const_no_value",
     "const H = \n",
     "bad.tpo:1:11: error: expected expression, found newline\n"
     "  const H = \n"
     "            ^\n"},
    {"not_a_statement",
     "true = 1\n",
     "bad.tpo:1:1: error: expected a statement, found 'true'\n"
     "  true = 1\n"
     "  ^~~~\n"},
};

TEST(ParserErrors, RenderedDiagnostics) {
  EXPECT_GE(std::size(kBadPrograms), 15u);
  for (const BadProgram& bad : kBadPrograms) {
    SCOPED_TRACE(bad.name);
    EXPECT_EQ(diagnose(bad.source), bad.expected);
  }
}

TEST(ParserErrors, GoodStatementsAroundErrorsAreKept) {
  size_t n = 0;
  diagnose("dim t < T\ns = h[b, 0:T\nout s\nx = $\nout x\n", &n);
  EXPECT_EQ(n, 3u);
}

TEST(ParserErrors, RecoveryInsideBracketsStopsAtTheNextStatement) {
  size_t n = 0;
  std::string_view src = "x = f(\"abc\ny = 2\nout y\n";
  EXPECT_EQ(diagnose(src, &n), "bad.tpo:1:7: error: unterminated string literal\n  x = f(\"abc\n        ^~~~\n");
  EXPECT_EQ(n, 2u);
  diagnose("y = f(a,\n      b c,\n      d)\nout y\n", &n);
  EXPECT_EQ(n, 1u);
  diagnose("x = (a +\n)\nout x\n", &n);
  EXPECT_EQ(n, 1u);
}

TEST(ParserErrors, DeepNestingIsReportedOnce) {
  std::string src = "s = " + std::string(300, '(') + "a" + std::string(300, ')') + "\nout s\n";
  DiagnosticBag diags;
  Program p = parseProgram(src, "deep.tpo", diags);
  ASSERT_EQ(diags.items().size(), 1u);
  EXPECT_EQ(diags.items()[0].message, "expression nests too deeply (more than 256 levels)");
  EXPECT_EQ(p.stmts.size(), 1u);
}

// ---- Robustness ------------------------------------------------------------

/// Parses and prints; the point is that this returns at all.
void parseAnything(const std::string& src) {
  DiagnosticBag diags;
  Program p = parseProgram(src, "fuzz.tpo", diags);
  std::string text = printAst(p);
  renderAll(diags, src);
  EXPECT_EQ(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')), p.stmts.size());
}

TEST(ParserRobustness, RandomBytes) {
  std::mt19937 rng(12345);
  for (int i = 0; i < 3000; ++i) {
    std::string src(rng() % 200, '\0');
    for (char& c : src) c = static_cast<char>(rng() % 256);
    parseAnything(src);
  }
}

TEST(ParserRobustness, RandomTokenSoup) {
  static const char* kTokens[] = {
      "dim", "set", "const", "input", "param", "out", "over", "true", "false", "h", "t", "T", "f32", "tanh",
      "0", "1", "2.5", ".5", "1e-3", "\"s\"", "\"", "(", ")", "[", "]", ",", ":", "=", "+", "-", "*", "/", "//",
      "%", "@", "<", "<=", ">", ">=", "==", "!=", "\n", "\n", "\n", "\\\n", "#c\n", "$", " ", "\t", "\\", "\x80",
  };
  std::mt19937 rng(777);
  for (int i = 0; i < 5000; ++i) {
    std::string src;
    int n = static_cast<int>(rng() % 60);
    for (int k = 0; k < n; ++k) {
      src += kTokens[rng() % std::size(kTokens)];
      if (rng() % 2) src += ' ';
    }
    parseAnything(src);
  }
}

TEST(ParserRobustness, MutatedGoldenPrograms) {
  std::mt19937 rng(4242);
  std::vector<std::string> sources;
  for (const fs::path& path : goldenPrograms()) sources.push_back(readFile(path));
  ASSERT_FALSE(sources.empty());
  for (int i = 0; i < 3000; ++i) {
    std::string src = sources[rng() % sources.size()];
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !src.empty(); ++e) {
      size_t at = rng() % src.size();
      switch (rng() % 3) {
        case 0: src.erase(at, 1 + rng() % 3); break;
        case 1: src.insert(at, 1, "()[],:=\n\"#\\-"[rng() % 13]); break;
        default: src[at] = static_cast<char>(rng() % 256); break;
      }
    }
    parseAnything(src);
  }
}

TEST(ParserRobustness, PathologicalInputs) {
  parseAnything("s = " + std::string(100000, '('));
  parseAnything("s = " + std::string(100000, '['));
  parseAnything("s = " + std::string(100000, '-') + "a");
  parseAnything("s = x" + std::string(100000, '[') + std::string(100000, ']'));
  std::string sum = "s = a";
  for (int i = 0; i < 50000; ++i) sum += " + a";
  parseAnything(sum);
  std::string calls = "s = f";
  for (int i = 0; i < 50000; ++i) calls += "(a)";
  parseAnything(calls);
  std::string indexes = "s = x";
  for (int i = 0; i < 50000; ++i) indexes += "[0]";
  parseAnything(indexes);
  parseAnything("s = " + std::string(1 << 20, 'a'));
  parseAnything(std::string(1 << 20, '\n'));
  parseAnything(std::string(100000, ')'));
  parseAnything(std::string(1000, '\0'));
  parseAnything("s = f(" + std::string(100000, ',') + ")");
}

TEST(ParserRobustness, LongChainsAreBounded) {
  std::string sum = "s = a";
  for (int i = 0; i < 1000; ++i) sum += " + a";
  DiagnosticBag diags;
  parseProgram(sum, "t.tpo", diags);
  ASSERT_EQ(diags.items().size(), 1u);
  EXPECT_EQ(diags.items()[0].message, "expression nests too deeply (more than 256 levels)");
}

}  // namespace
}  // namespace tempo
