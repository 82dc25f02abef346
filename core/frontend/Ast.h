// Ast: the syntax tree of a `.tpo` program, as the parser builds it.
//
// The tree mirrors the source closely and decides nothing about meaning: the
// checker (which lowers it to the dependence graph) resolves names, dtypes
// and domains. Expressions and statements are each one struct holding a
// SourceRange and a std::variant of node alternatives; children are owned
// through ExprPtr (std::unique_ptr<Expr>). Every node and every name (an
// Ident) carries its source range: begin inclusive, end exclusive. Node
// ranges cover all of their text, parentheses included. Types live in
// namespace tempo::ast so they do not collide with the engine's own
// IndexExpr, Domain or Node.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "diag/Diagnostics.h"

namespace tempo::ast {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

/// A name as written in the source, with its range.
struct Ident {
  std::string name;
  SourceRange range;
};

// ---- Expressions ----------------------------------------------------------

struct IntLit {
  int64_t value = 0;
};

struct FloatLit {
  double value = 0;
};

struct StringLit {
  std::string value;  ///< escapes decoded
};

struct BoolLit {
  bool value = false;
};

/// A bare identifier: a dimension, bound, constant, tensor or dtype name.
struct Name {
  std::string name;
};

enum class UnaryOp { Neg, Not };

struct Unary {
  UnaryOp op = UnaryOp::Neg;
  ExprPtr operand;
};

enum class BinaryOp {
  Add, Sub,                              // + -
  Mul, Div, FloorDiv, Mod, MatMul,       // * / // % @
  Lt, Le, Gt, Ge, Eq, Ne,                // < <= > >= == !=
  And, Or,                               // and or (bool values)
};

/// The operator's spelling: "+", "//", "@", "<=", ...
std::string_view binaryOpSpelling(BinaryOp op);

struct Binary {
  BinaryOp op = BinaryOp::Add;
  SourceRange opRange;  ///< the operator token
  ExprPtr lhs;
  ExprPtr rhs;
};

/// One entry of an index list: a point `e` or a slice `lo:hi` (either bound
/// optional), optionally named by a dimension: `t=e`, `t=lo:hi`.
struct IndexItem {
  enum class Kind { Point, Slice };
  Kind kind = Kind::Point;
  std::optional<Ident> dim;  ///< the `t` of `t=...`, if named
  ExprPtr point;             ///< Point only
  ExprPtr lo;                ///< Slice only; null when omitted
  ExprPtr hi;                ///< Slice only; null when omitted
  SourceRange range;         ///< the whole item, name included
};

/// `base[items...]`, or `base[items...; spatial...]`: after a semicolon, points and
/// slices of the element's leading axes (a point drops its axis).
struct Index {
  ExprPtr base;
  std::vector<IndexItem> items;
  bool hasSpatial = false;           ///< a `;` was written
  std::vector<IndexItem> spatial;    ///< never named
};

/// `name=value` in a call.
struct KeywordArg {
  Ident name;
  ExprPtr value;
};

/// `callee(args..., kwargs...)`: positional arguments come first.
struct Call {
  Ident callee;
  std::vector<ExprPtr> args;
  std::vector<KeywordArg> kwargs;
};

/// `(a, b)` or `(a,)`; `()` is the empty tuple.
struct Tuple {
  std::vector<ExprPtr> elems;
};

using ExprNode = std::variant<IntLit, FloatLit, StringLit, BoolLit, Name, Unary, Binary, Index, Call, Tuple>;

struct Expr {
  SourceRange range;
  ExprNode node;

  template <class T> const T* as() const { return std::get_if<T>(&node); }
  template <class T> T* as() { return std::get_if<T>(&node); }
  template <class T> bool is() const { return std::holds_alternative<T>(node); }
};

template <class T> ExprPtr makeExpr(SourceRange range, T node) {
  return std::make_unique<Expr>(Expr{range, ExprNode(std::move(node))});
}

// ---- Types ---------------------------------------------------------------

/// `f32[H, t+1]`; `f32[]` (or plain `f32`) is a scalar. The dtype is not
/// validated here.
struct TypeExpr {
  Ident dtype;
  std::vector<ExprPtr> shape;
  SourceRange range;
};

// ---- Statements ----------------------------------------------------------

/// `dim t < T`, or `dim t < T until done`: T is then the most steps; the extent is the
/// first t where the bool tensor `done` holds at every other coordinate, plus one.
struct DimDecl {
  Ident name;
  Ident bound;
  std::optional<Ident> until;
};

/// One `B = 4` of a `set` statement.
struct SetItem {
  Ident name;
  int64_t value = 0;
  SourceRange valueRange;
};

/// `set B = 4, T = 16`: default bound values.
struct SetStmt {
  std::vector<SetItem> items;
};

/// One `H = 8` of a `const` statement.
struct ConstItem {
  Ident name;
  ExprPtr value;
};

/// `const E = 512, NH = 8`
struct ConstDecl {
  std::vector<ConstItem> items;
};

enum class SourceKind { Input, Param };

/// `input x : f32[5] over (b, t) = load("x.npy")` or `param W : ... = normal(...)`.
struct SourceDecl {
  SourceKind kind = SourceKind::Input;
  Ident name;
  TypeExpr type;
  std::vector<Ident> domain;  ///< the `over` dimensions; empty without `over`
  ExprPtr init;               ///< always a Call
};

/// `h : f32[8] over (b, t)`: declares a recurrent tensor defined by branches.
struct TensorDecl {
  Ident name;
  TypeExpr type;
  std::vector<Ident> domain;
};

/// `h[b, t] = expr`: one branch of a recurrent tensor.
struct Branch {
  Ident target;
  std::vector<IndexItem> indices;
  ExprPtr value;
};

/// `s = expr`
struct Let {
  Ident name;
  ExprPtr value;
};

/// `out y = expr`, or `out h` naming an existing tensor (value null).
struct Out {
  Ident name;
  ExprPtr value;
};

/// `optimize loss over i with adam(lr=1e-3)`: train every param the loss
/// depends on along the dimension `i` with the optimiser call.
struct Optimize {
  Ident loss;
  Ident dim;
  ExprPtr optimizer;  ///< always a Call
};

using StmtNode = std::variant<DimDecl, SetStmt, ConstDecl, SourceDecl, TensorDecl, Branch, Let, Out, Optimize>;

struct Stmt {
  SourceRange range;  ///< the statement's text, without its newline
  StmtNode node;

  template <class T> const T* as() const { return std::get_if<T>(&node); }
  template <class T> T* as() { return std::get_if<T>(&node); }
  template <class T> bool is() const { return std::holds_alternative<T>(node); }
};

/// A parsed file: its statements in source order. Statements with syntax
/// errors are left out.
struct Program {
  std::string fileName;
  std::vector<Stmt> stmts;
};

}  // namespace tempo::ast
