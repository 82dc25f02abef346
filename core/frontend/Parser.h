// Parser: recursive descent from `.tpo` source text to an ast::Program.
//
// `parseProgram` lexes and parses a whole file. It never throws and never
// crashes: every problem becomes a Diagnostic (`expected X, found Y` at the
// offending token), the parser skips to the end of the statement and goes
// on, so one run reports several errors; statements with errors are left out
// of the Program. Statements end at a newline, except inside () and [] where
// newlines are ignored; a missing closing bracket at the end of a line is
// reported at that newline. Expressions may nest at most kMaxNesting levels
// deep (parentheses, operators, indexing, calls together), which bounds the
// recursion of the parser and of every later walk over the tree.
#pragma once

#include <string>
#include <string_view>

#include "diag/Diagnostics.h"
#include "frontend/Ast.h"

namespace tempo {

/// The deepest expression nesting the parser accepts.
inline constexpr int kMaxNesting = 256;

/// Parses `source` (the text of `fileName`); errors go to `diags`.
ast::Program parseProgram(std::string_view source, const std::string& fileName, DiagnosticBag& diags);

}  // namespace tempo
