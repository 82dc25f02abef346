#include "frontend/Parser.h"

#include <optional>
#include <vector>

#include "frontend/Lexer.h"

namespace tempo {
namespace {

using namespace ast;

bool isClosingBracket(TokenKind k) { return k == TokenKind::RParen || k == TokenKind::RBracket; }

std::optional<BinaryOp> comparisonOp(TokenKind k) {
  switch (k) {
    case TokenKind::Less: return BinaryOp::Lt;
    case TokenKind::LessEq: return BinaryOp::Le;
    case TokenKind::Greater: return BinaryOp::Gt;
    case TokenKind::GreaterEq: return BinaryOp::Ge;
    case TokenKind::EqEq: return BinaryOp::Eq;
    case TokenKind::NotEq: return BinaryOp::Ne;
    default: return std::nullopt;
  }
}

std::optional<BinaryOp> orOp(TokenKind k) {
  if (k == TokenKind::KwOr) return BinaryOp::Or;
  return std::nullopt;
}

std::optional<BinaryOp> andOp(TokenKind k) {
  if (k == TokenKind::KwAnd) return BinaryOp::And;
  return std::nullopt;
}

std::optional<BinaryOp> additiveOp(TokenKind k) {
  if (k == TokenKind::Plus) return BinaryOp::Add;
  if (k == TokenKind::Minus) return BinaryOp::Sub;
  return std::nullopt;
}

std::optional<BinaryOp> multiplicativeOp(TokenKind k) {
  switch (k) {
    case TokenKind::Star: return BinaryOp::Mul;
    case TokenKind::Slash: return BinaryOp::Div;
    case TokenKind::SlashSlash: return BinaryOp::FloorDiv;
    case TokenKind::Percent: return BinaryOp::Mod;
    case TokenKind::At: return BinaryOp::MatMul;
    default: return std::nullopt;
  }
}

/// True for tokens that cannot begin a statement but can continue an
/// expression broken across lines.
bool continuesExpression(TokenKind k) {
  return isClosingBracket(k) || k == TokenKind::Comma || k == TokenKind::Colon || comparisonOp(k) ||
         additiveOp(k) || multiplicativeOp(k);
}

/// Parser state for one file. Each parse function returns null (or false)
/// after reporting an error; the statement loop then resynchronises.
class Parser {
public:
  Parser(std::vector<Token> tokens, const std::string& fileName, DiagnosticBag& diags)
      : tokens_(std::move(tokens)), file_(fileName), diags_(diags) {}

  Program run() {
    Program program;
    program.fileName = file_;
    while (true) {
      while (at(TokenKind::Newline)) take();
      if (at(TokenKind::End)) break;
      std::optional<Stmt> stmt = parseStatement();
      if (stmt && !failed_) expectEndOfStatement();
      if (failed_) {
        synchronize();
      } else if (stmt) {
        program.stmts.push_back(std::move(*stmt));
      }
    }
    return program;
  }

private:
  // ---- Tokens ------------------------------------------------------------

  /// The current token; inside brackets, newlines are skipped.
  const Token& cur() {
    if (nesting_ > 0)
      while (tokens_[pos_].kind == TokenKind::Newline) ++pos_;
    return tokens_[pos_];
  }

  /// The token after the current one, skipping newlines inside brackets.
  const Token& next() {
    cur();
    size_t i = pos_;
    if (tokens_[i].kind == TokenKind::End) return tokens_[i];
    ++i;
    if (nesting_ > 0)
      while (tokens_[i].kind == TokenKind::Newline) ++i;
    return tokens_[i];
  }

  bool at(TokenKind k) { return cur().kind == k; }

  const Token& take() {
    const Token& t = cur();
    if (t.kind != TokenKind::End) ++pos_;
    lastEnd_ = t.range.end;
    return t;
  }

  bool accept(TokenKind k) {
    if (!at(k)) return false;
    take();
    return true;
  }

  /// Consumes a token of kind `k`, or reports `expected <what>, found ...`.
  bool expect(TokenKind k, std::string_view what) {
    if (accept(k)) return true;
    failExpected(what);
    return false;
  }

  std::optional<Ident> expectIdent(std::string_view what) {
    if (!at(TokenKind::Ident)) {
      failExpected(what);
      return std::nullopt;
    }
    const Token& t = take();
    return Ident{std::string(t.text), t.range};
  }

  void openBracket() { ++nesting_; }
  void closeBracket() { --nesting_; }

  // ---- Errors ------------------------------------------------------------

  /// Reports `message` at `range` unless this statement already failed.
  void failAt(SourceRange range, std::string message) {
    if (!failed_) diags_.error(file_, range, std::move(message));
    failed_ = true;
  }

  /// Reports `expected <what>, found <current token>`. Inside brackets, when
  /// the current token begins a new line, the bracket was most likely never
  /// closed: the error goes at the line break and recovery restarts there.
  void failExpected(std::string_view what) {
    const Token& found = cur();
    if (found.kind == TokenKind::Error) {  // the lexer has reported it
      failed_ = true;
      return;
    }
    size_t i = pos_;
    if (nesting_ > 0 && i > 0 && tokens_[i - 1].kind == TokenKind::Newline) {
      while (i > 0 && tokens_[i - 1].kind == TokenKind::Newline) --i;
      if (!failed_) resyncAt_ = i;
      failAt(tokens_[i].range, "expected " + std::string(what) + ", found newline");
      return;
    }
    failAt(found.range, "expected " + std::string(what) + ", found " + describeToken(found));
  }

  /// Skips the rest of a failed statement, ready for the next one. Brackets
  /// opened on the failed line are followed to their close, unless a line
  /// starting with a statement keyword comes first.
  void synchronize() {
    bool atLineBreak = resyncAt_.has_value();
    int depth = nesting_;
    if (resyncAt_) {
      pos_ = *resyncAt_;
      depth = 0;
    }
    skipToLineEnd(depth);
    if (atLineBreak) {
      while (continuesExpression(tokens_[pos_].kind)) skipToLineEnd(0);
    }
    nesting_ = 0;
    depth_ = 0;
    failed_ = false;
    resyncAt_.reset();
  }

  /// Skips raw tokens through the next newline at bracket depth 0, starting
  /// at `depth`. Inside brackets, a line that looks like a new statement (it
  /// starts with a statement keyword, or in column 1 with a token that cannot
  /// continue an expression) also ends the skip.
  void skipToLineEnd(int depth) {
    while (tokens_[pos_].kind != TokenKind::End) {
      const Token& t = tokens_[pos_++];
      if (t.kind == TokenKind::LParen || t.kind == TokenKind::LBracket) ++depth;
      if (isClosingBracket(t.kind) && depth > 0) --depth;
      if (t.kind == TokenKind::Newline && (depth == 0 || looksLikeStatementStart(tokens_[pos_]))) return;
    }
  }

  static bool looksLikeStatementStart(const Token& t) {
    if (t.isStatementKeyword()) return true;
    return t.range.begin.col == 1 && t.kind != TokenKind::Newline && t.kind != TokenKind::End &&
           !continuesExpression(t.kind);
  }

  /// Counts one level of expression nesting; false (after reporting) when too deep.
  bool enterNesting() {
    if (++depth_ <= kMaxNesting) return true;
    failAt(cur().range, "expression nests too deeply (more than " + std::to_string(kMaxNesting) + " levels)");
    return false;
  }

  // ---- Statements --------------------------------------------------------

  std::optional<Stmt> parseStatement() {
    const Token& first = cur();
    SourceLoc begin = first.range.begin;
    std::optional<StmtNode> node;
    switch (first.kind) {
      case TokenKind::KwDim: node = parseDim(); break;
      case TokenKind::KwSet: node = parseSet(); break;
      case TokenKind::KwConst: node = parseConst(); break;
      case TokenKind::KwInput:
      case TokenKind::KwParam: node = parseSource(); break;
      case TokenKind::KwOut: node = parseOut(); break;
      case TokenKind::KwOptimize: node = parseOptimize(); break;
      case TokenKind::Ident: node = parseNamedStatement(); break;
      default:
        if (isClosingBracket(first.kind))
          failAt(first.range, "unmatched " + describeToken(first));
        else
          failExpected("a statement");
        return std::nullopt;
    }
    if (!node) return std::nullopt;
    return Stmt{{begin, lastEnd_}, std::move(*node)};
  }

  void expectEndOfStatement() {
    if (accept(TokenKind::Newline) || at(TokenKind::End)) return;
    const Token& t = cur();
    if (isClosingBracket(t.kind))
      failAt(t.range, "unmatched " + describeToken(t));
    else
      failExpected("end of line");
  }

  std::optional<StmtNode> parseDim() {
    take();  // dim
    auto name = expectIdent("dimension name after 'dim'");
    if (!name) return std::nullopt;
    if (!expect(TokenKind::Less, "'<' after dimension name '" + name->name + "'")) return std::nullopt;
    auto bound = expectIdent("bound name after '<'");
    if (!bound) return std::nullopt;
    std::optional<Ident> until;
    if (at(TokenKind::Ident) && cur().text == "until") {  // a contextual keyword: `until` stays a usable name
      take();
      until = expectIdent("the name of a bool tensor after 'until'");
      if (!until) return std::nullopt;
    }
    return DimDecl{std::move(*name), std::move(*bound), std::move(until)};
  }

  std::optional<StmtNode> parseSet() {
    take();  // set
    SetStmt set;
    do {
      auto name = expectIdent("bound name");
      if (!name) return std::nullopt;
      if (!expect(TokenKind::Assign, "'=' after '" + name->name + "'")) return std::nullopt;
      if (!at(TokenKind::Int)) {
        failExpected("integer value for '" + name->name + "'");
        return std::nullopt;
      }
      const Token& value = take();
      set.items.push_back({std::move(*name), value.intValue, value.range});
    } while (accept(TokenKind::Comma));
    return set;
  }

  std::optional<StmtNode> parseConst() {
    take();  // const
    ConstDecl decl;
    do {
      auto name = expectIdent("constant name");
      if (!name) return std::nullopt;
      if (!expect(TokenKind::Assign, "'=' after '" + name->name + "'")) return std::nullopt;
      ExprPtr value = parseExpr();
      if (!value) return std::nullopt;
      decl.items.push_back({std::move(*name), std::move(value)});
    } while (accept(TokenKind::Comma));
    return decl;
  }

  std::optional<StmtNode> parseSource() {
    const Token& kw = take();
    SourceDecl decl;
    decl.kind = kw.kind == TokenKind::KwInput ? SourceKind::Input : SourceKind::Param;
    auto name = expectIdent("tensor name after '" + std::string(kw.text) + "'");
    if (!name) return std::nullopt;
    decl.name = std::move(*name);
    if (!expect(TokenKind::Colon, "':' and a type after '" + decl.name.name + "'")) return std::nullopt;
    auto type = parseType();
    if (!type) return std::nullopt;
    decl.type = std::move(*type);
    if (at(TokenKind::KwOver) && !parseDomain(decl.domain)) return std::nullopt;
    if (!expect(TokenKind::Assign, "'=' and an initializer for '" + decl.name.name + "'")) return std::nullopt;
    decl.init = parseExpr();
    if (!decl.init) return std::nullopt;
    if (!decl.init->is<Call>()) {
      failAt(decl.init->range, "the initializer of '" + decl.name.name +
                                   "' must be a call such as load(\"x.npy\") or normal(seed=1, std=0.1)");
      return std::nullopt;
    }
    return decl;
  }

  std::optional<StmtNode> parseOut() {
    take();  // out
    Out out;
    auto name = expectIdent("tensor name after 'out'");
    if (!name) return std::nullopt;
    out.name = std::move(*name);
    if (accept(TokenKind::Assign)) {
      out.value = parseExpr();
      if (!out.value) return std::nullopt;
    }
    return out;
  }

  /// `optimize LOSS over DIM with OPTIMISER(...)`.
  std::optional<StmtNode> parseOptimize() {
    take();  // optimize
    Optimize opt;
    auto loss = expectIdent("the name of the loss after 'optimize'");
    if (!loss) return std::nullopt;
    opt.loss = std::move(*loss);
    if (!expect(TokenKind::KwOver, "'over' and the iteration dimension after '" + opt.loss.name + "'"))
      return std::nullopt;
    auto dim = expectIdent("the iteration dimension after 'over'");
    if (!dim) return std::nullopt;
    opt.dim = std::move(*dim);
    if (!(at(TokenKind::Ident) && cur().text == "with")) {
      failExpected("'with' and an optimiser such as adam(lr=1e-3)");
      return std::nullopt;
    }
    take();  // with
    opt.optimizer = parseExpr();
    if (!opt.optimizer) return std::nullopt;
    if (!opt.optimizer->is<Call>()) {
      failAt(opt.optimizer->range, "expected an optimiser call: sgd(lr=...), adam(...) or adamw(...)");
      return std::nullopt;
    }
    return opt;
  }

  /// A statement starting with a name: `h : type` (a tensor declaration),
  /// `h[...] = e` (a branch) or `s = e` (a let-binding).
  std::optional<StmtNode> parseNamedStatement() {
    const Token& t = take();
    Ident name{std::string(t.text), t.range};
    if (accept(TokenKind::Colon)) {
      TensorDecl decl;
      decl.name = std::move(name);
      auto type = parseType();
      if (!type) return std::nullopt;
      decl.type = std::move(*type);
      if (at(TokenKind::KwOver) && !parseDomain(decl.domain)) return std::nullopt;
      return decl;
    }
    if (at(TokenKind::LBracket)) {
      Branch branch;
      branch.target = std::move(name);
      if (!parseIndexList(branch.indices)) return std::nullopt;
      if (!expect(TokenKind::Assign, "'=' after the index list of '" + branch.target.name + "'"))
        return std::nullopt;
      branch.value = parseExpr();
      if (!branch.value) return std::nullopt;
      return branch;
    }
    if (accept(TokenKind::Assign)) {
      ExprPtr value = parseExpr();
      if (!value) return std::nullopt;
      return Let{std::move(name), std::move(value)};
    }
    failExpected("':', '[' or '=' after '" + name.name + "'");
    return std::nullopt;
  }

  /// `f32[e, ...]`, `f32[]` or `f32`.
  std::optional<TypeExpr> parseType() {
    auto dtype = expectIdent("a type such as f32[8]");
    if (!dtype) return std::nullopt;
    TypeExpr type;
    type.dtype = std::move(*dtype);
    if (at(TokenKind::LBracket)) {
      take();
      openBracket();
      if (!at(TokenKind::RBracket)) {
        do {
          ExprPtr size = parseExpr();
          if (!size) return std::nullopt;
          type.shape.push_back(std::move(size));
        } while (accept(TokenKind::Comma));
      }
      if (!expect(TokenKind::RBracket, "']' to close the shape")) return std::nullopt;
      closeBracket();
    }
    type.range = {type.dtype.range.begin, lastEnd_};
    return type;
  }

  /// `over (b, t)`, `over ()` or `over t`.
  bool parseDomain(std::vector<Ident>& dims) {
    take();  // over
    if (!at(TokenKind::LParen)) {
      auto dim = expectIdent("'(' and dimension names after 'over'");
      if (!dim) return false;
      dims.push_back(std::move(*dim));
      return true;
    }
    take();
    openBracket();
    if (!at(TokenKind::RParen)) {
      do {
        if (at(TokenKind::RParen)) break;  // trailing comma
        auto dim = expectIdent("dimension name");
        if (!dim) return false;
        dims.push_back(std::move(*dim));
      } while (accept(TokenKind::Comma));
    }
    if (!expect(TokenKind::RParen, "')' to close the dimension list")) return false;
    closeBracket();
    return true;
  }

  // ---- Index lists -------------------------------------------------------

  /// `[item, ...]`, at least one item.
  /// `[items]`; with `spatial`, also `[items; spatial]` and `[; spatial]`.
  bool parseIndexList(std::vector<IndexItem>& items, std::vector<IndexItem>* spatial = nullptr,
                      bool* hasSpatial = nullptr) {
    take();  // [
    openBracket();
    if (!(spatial && at(TokenKind::Semicolon))) {
      do {
        auto item = parseIndexItem();
        if (!item) return false;
        items.push_back(std::move(*item));
      } while (accept(TokenKind::Comma));
    }
    if (at(TokenKind::Semicolon)) {
      if (!spatial) {
        failAt(cur().range, "spatial indices (after ';') cannot appear here: a branch names domain points only");
        return false;
      }
      take();
      *hasSpatial = true;
      if (!at(TokenKind::RBracket)) {
        do {
          auto item = parseIndexItem();
          if (!item) return false;
          if (item->dim) {
            failAt(item->dim->range, "a spatial index is positional: '" + item->dim->name + "=' names a domain dimension");
            return false;
          }
          spatial->push_back(std::move(*item));
        } while (accept(TokenKind::Comma));
      }
    }
    if (!expect(TokenKind::RBracket, "']' to close index list")) return false;
    closeBracket();
    return true;
  }

  bool atSliceEnd() { return at(TokenKind::Comma) || at(TokenKind::RBracket) || at(TokenKind::Semicolon); }

  /// `e`, `lo:hi` (either side optional), each optionally as `t=...`.
  std::optional<IndexItem> parseIndexItem() {
    IndexItem item;
    SourceLoc begin = cur().range.begin;
    if (at(TokenKind::Ident) && next().kind == TokenKind::Assign) {
      const Token& t = take();
      item.dim = Ident{std::string(t.text), t.range};
      take();  // =
    }
    if (!at(TokenKind::Colon)) {
      ExprPtr e = parseExpr();
      if (!e) return std::nullopt;
      if (!at(TokenKind::Colon)) {
        item.point = std::move(e);
        item.range = {begin, lastEnd_};
        return item;
      }
      item.lo = std::move(e);
    }
    take();  // :
    item.kind = IndexItem::Kind::Slice;
    if (!atSliceEnd()) {
      item.hi = parseExpr();
      if (!item.hi) return std::nullopt;
    }
    item.range = {begin, lastEnd_};
    return item;
  }

  // ---- Expressions -------------------------------------------------------

  ExprPtr parseExpr() {
    ExprPtr e = enterNesting() ? parseOr() : nullptr;
    --depth_;
    return e;
  }

  static ExprPtr makeBinary(BinaryOp op, SourceRange opRange, ExprPtr lhs, ExprPtr rhs) {
    SourceRange range = SourceRange::cover(lhs->range, rhs->range);
    return makeExpr(range, Binary{op, opRange, std::move(lhs), std::move(rhs)});
  }

  /// Logical operators bind looser than comparisons, as in Python: `or` below `and`
  /// below `not`, so `not a < b and c` is `(not (a < b)) and c`.
  ExprPtr parseOr() { return parseLeftAssoc(&Parser::parseAnd, orOp); }
  ExprPtr parseAnd() { return parseLeftAssoc(&Parser::parseNot, andOp); }

  ExprPtr parseNot() { return parsePrefix(TokenKind::KwNot, UnaryOp::Not, &Parser::parseNot, &Parser::parseComparison); }

  /// `prefix operand` (the operand again by `self`, so prefixes repeat), else `next`.
  ExprPtr parsePrefix(TokenKind prefix, UnaryOp op, ExprPtr (Parser::*self)(), ExprPtr (Parser::*next)()) {
    if (!at(prefix)) return (this->*next)();
    SourceLoc begin = cur().range.begin;
    ExprPtr operand;
    if (enterNesting()) {
      take();
      operand = (this->*self)();
    }
    --depth_;
    if (!operand) return nullptr;
    SourceRange range{begin, operand->range.end};
    return makeExpr(range, Unary{op, std::move(operand)});
  }

  /// Comparisons do not chain: `a < b < c` is an error.
  ExprPtr parseComparison() {
    ExprPtr lhs = parseAdditive();
    if (!lhs) return nullptr;
    auto op = comparisonOp(cur().kind);
    if (!op) return lhs;
    SourceRange opRange = take().range;
    ExprPtr rhs = parseAdditive();
    if (!rhs) return nullptr;
    if (comparisonOp(cur().kind)) {
      failAt(cur().range, "comparison operators cannot be chained; use parentheses");
      return nullptr;
    }
    return makeBinary(*op, opRange, std::move(lhs), std::move(rhs));
  }

  /// A left-associative level: operands from `operand`, operators from `opFor`.
  template <class Operand, class OpFor>
  ExprPtr parseLeftAssoc(Operand operand, OpFor opFor) {
    ExprPtr lhs = (this->*operand)();
    if (!lhs) return nullptr;
    int levels = 0;
    while (auto op = opFor(cur().kind)) {
      ++levels;
      if (!enterNesting()) break;
      SourceRange opRange = take().range;
      ExprPtr rhs = (this->*operand)();
      if (!rhs) break;
      lhs = makeBinary(*op, opRange, std::move(lhs), std::move(rhs));
    }
    depth_ -= levels;
    return failed_ ? nullptr : std::move(lhs);
  }

  ExprPtr parseAdditive() { return parseLeftAssoc(&Parser::parseMultiplicative, additiveOp); }
  ExprPtr parseMultiplicative() { return parseLeftAssoc(&Parser::parseUnary, multiplicativeOp); }

  ExprPtr parseUnary() { return parsePrefix(TokenKind::Minus, UnaryOp::Neg, &Parser::parseUnary, &Parser::parsePostfix); }

  /// A primary followed by any number of `[...]` and, after a name, `(...)`.
  ExprPtr parsePostfix() {
    ExprPtr e = parsePrimary();
    if (!e) return nullptr;
    int levels = 0;
    while (e && (at(TokenKind::LBracket) || at(TokenKind::LParen))) {
      ++levels;
      if (!enterNesting()) e = nullptr;
      else if (at(TokenKind::LBracket)) e = parseIndex(std::move(e));
      else e = parseCall(std::move(e));
    }
    depth_ -= levels;
    return e;
  }

  ExprPtr parseIndex(ExprPtr base) {
    Index index;
    if (!parseIndexList(index.items, &index.spatial, &index.hasSpatial)) return nullptr;
    SourceRange range{base->range.begin, lastEnd_};
    index.base = std::move(base);
    return makeExpr(range, std::move(index));
  }

  ExprPtr parseCall(ExprPtr callee) {
    const Name* name = callee->as<Name>();
    if (!name) {
      failAt(cur().range, "only a named function can be called");
      return nullptr;
    }
    Call call;
    call.callee = Ident{name->name, callee->range};
    take();  // (
    openBracket();
    while (!at(TokenKind::RParen)) {
      if (!parseArgument(call)) return nullptr;
      if (!accept(TokenKind::Comma)) break;
    }
    if (!expect(TokenKind::RParen, "')' to close the arguments of '" + call.callee.name + "'")) return nullptr;
    closeBracket();
    SourceRange range{callee->range.begin, lastEnd_};
    return makeExpr(range, std::move(call));
  }

  /// One positional `e` or keyword `name=e` argument. Keywords may be spelt
  /// like statement keywords (`dim=0`).
  bool parseArgument(Call& call) {
    bool nameLike = at(TokenKind::Ident) || cur().isStatementKeyword();
    if (nameLike && next().kind == TokenKind::Assign) {
      const Token& t = take();
      Ident name{std::string(t.text), t.range};
      take();  // =
      for (const KeywordArg& kw : call.kwargs) {
        if (kw.name.name == name.name) {
          failAt(name.range, "duplicate keyword argument '" + name.name + "'");
          return false;
        }
      }
      ExprPtr value = parseExpr();
      if (!value) return false;
      call.kwargs.push_back({std::move(name), std::move(value)});
      return true;
    }
    ExprPtr value = parseExpr();
    if (!value) return false;
    if (!call.kwargs.empty()) {
      failAt(value->range, "positional argument follows keyword argument");
      return false;
    }
    call.args.push_back(std::move(value));
    return true;
  }

  ExprPtr parsePrimary() {
    const Token& t = cur();
    switch (t.kind) {
      case TokenKind::Int: take(); return makeExpr(t.range, IntLit{t.intValue});
      case TokenKind::Float: take(); return makeExpr(t.range, FloatLit{t.floatValue});
      case TokenKind::String: take(); return makeExpr(t.range, StringLit{t.stringValue});
      case TokenKind::KwTrue: take(); return makeExpr(t.range, BoolLit{true});
      case TokenKind::KwFalse: take(); return makeExpr(t.range, BoolLit{false});
      case TokenKind::Ident: take(); return makeExpr(t.range, Name{std::string(t.text)});
      case TokenKind::LParen: return parseParenthesised();
      default: failExpected("expression"); return nullptr;
    }
  }

  /// `(e)`, `()`, `(e,)` or `(e1, e2, ...)`.
  ExprPtr parseParenthesised() {
    SourceLoc begin = take().range.begin;
    openBracket();
    std::vector<ExprPtr> elems;
    bool isTuple = at(TokenKind::RParen);
    while (!at(TokenKind::RParen)) {
      ExprPtr e = parseExpr();
      if (!e) return nullptr;
      elems.push_back(std::move(e));
      if (!accept(TokenKind::Comma)) break;
      isTuple = true;
    }
    const char* what = isTuple ? "')' to close the tuple" : "')' to close the parenthesised expression";
    if (!expect(TokenKind::RParen, what)) return nullptr;
    closeBracket();
    SourceRange range{begin, lastEnd_};
    if (!isTuple) {
      elems.front()->range = range;
      return std::move(elems.front());
    }
    return makeExpr(range, Tuple{std::move(elems)});
  }

  std::vector<Token> tokens_;
  const std::string& file_;
  DiagnosticBag& diags_;
  size_t pos_ = 0;
  SourceLoc lastEnd_{1, 1};
  int nesting_ = 0;   ///< open brackets in the current statement
  int depth_ = 0;     ///< expression nesting, bounded by kMaxNesting
  bool failed_ = false;  ///< the current statement has an error
  std::optional<size_t> resyncAt_;  ///< a line break to resume after
};

}  // namespace

ast::Program parseProgram(std::string_view source, const std::string& fileName, DiagnosticBag& diags) {
  return Parser(lex(source, fileName, diags), fileName, diags).run();
}

}  // namespace tempo
