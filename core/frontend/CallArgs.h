// CallArgs: the arguments of one built-in function call, checked against what
// the function accepts.
//
// Every built-in (Builtins, SamplingBuiltins) receives its call as a CallArgs:
// `expect` checks the number of positional arguments and the keyword names and
// reports misuse at the call, `kw` finds a keyword argument, `arg` lowers a
// positional one at the call's site. Sharing it keeps the wording of argument
// errors the same for every function.
#pragma once

#include "frontend/Ast.h"
#include "frontend/ExprLowering.h"

#include <set>
#include <string>
#include <vector>

namespace tempo {

class CallArgs {
public:
  CallArgs(ExprLowering& l, const ast::Call& c, SourceRange r) : low(l), call(c), range(r) {}

  /// Reports and returns false unless there are between min and max positional
  /// arguments and every keyword is in `allowed`.
  bool expect(size_t minArgs, size_t maxArgs, const std::set<std::string>& allowed);
  /// The value of keyword argument `name`, or nullptr.
  const ast::Expr* kw(const std::string& name) const;
  /// Positional argument i, lowered at the call's site.
  Value arg(size_t i) { return low.lower(*call.args[i]); }
  /// Reports `message` at the call and returns an error value.
  Value fail(const std::string& message);

  ExprLowering& low;
  const ast::Call& call;
  SourceRange range;
};

/// The elements of a tuple `(a, b)`, or the expression itself when it is not one.
std::vector<const ast::Expr*> tupleItems(const ast::Expr& e);

}  // namespace tempo
