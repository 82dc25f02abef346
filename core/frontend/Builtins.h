// Builtins: the language's built-in functions, lowered to primitive ops.
//
// Elementwise functions (exp, tanh, pow, maximum, where, ...) map to one
// primitive; reductions (sum, mean, max) take `dim=` (an int or a tuple,
// negative counting from the end) and `keepdim=`; softmax and log_softmax
// are compositions of reduce_max, sub, exp, reduce_sum and div, so later
// passes see through them; movement functions (reshape, transpose, permute,
// cat, expand) and cast map to movement primitives. Each function checks its
// arguments and reports misuse at the call.
#pragma once

#include "frontend/Ast.h"
#include "frontend/ExprLowering.h"

#include <string>
#include <vector>

namespace tempo {

Value lowerCall(ExprLowering& lowering, const ast::Call& call, SourceRange range);

/// softmax (or log_softmax) of `x` over the normalised `axes`, as primitives:
/// reduce_max, sub, exp, reduce_sum, then div (or log and sub).
Value lowerSoftmax(ExprLowering& lowering, const Value& x, const std::vector<int64_t>& axes, bool logarithm,
                   SourceRange range);

/// The names of every built-in function (for docs and "did you mean").
std::vector<std::string> builtinNames();

}  // namespace tempo
