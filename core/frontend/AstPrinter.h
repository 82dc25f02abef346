// AstPrinter: the stable textual form of an ast::Program.
//
// `printAst` writes one S-expression per statement, one statement per line,
// e.g. `(branch h [b (- t 1)] (call tanh (@ (index x [b 0]) W)))`. Literals
// print canonically (floats always with a `.` or exponent, strings quoted with
// escapes), slices as `(: lo hi)` with `_` for an omitted bound, named index
// items and keyword arguments as `name=value`, unary minus as `(neg e)`.
// Source ranges are not printed. Golden tests compare against this form, so
// change it only together with the golden files.
#pragma once

#include <string>

#include "frontend/Ast.h"

namespace tempo {

/// The whole program, one statement per line, each line ending in '\n'.
std::string printAst(const ast::Program& program);

/// One statement, without a newline.
std::string printStmt(const ast::Stmt& stmt);

/// One expression.
std::string printExpr(const ast::Expr& expr);

}  // namespace tempo
