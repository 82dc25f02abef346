// IndexLowering: AST expressions that must be integers known symbolically.
//
// Indices (`t-1`, `max(0, t-W+1)`), slice bounds and shape sizes are lowered
// to IndexExprs: affine in the dimensions allowed at that place, the bounds
// and integer constants, with min, max, `//` and `%` by positive constants.
// Anything else (a tensor, a float, a product of two dimensions) is reported
// with the reason. Compile-time numbers (`const D = E / NH`, `sqrt(D)`) are
// folded here too.
#pragma once

#include "frontend/Ast.h"
#include "frontend/LoweringContext.h"

#include <optional>
#include <string>
#include <vector>

namespace tempo {

/// Lowers `e` to an IndexExpr. Dimensions must be in `allowedDims`; `what`
/// names the place for messages ("index", "shape size", "slice bound").
std::optional<IndexExpr> lowerIndexExpr(LoweringContext& cx, const ast::Expr& e,
                                        const std::vector<std::string>& allowedDims, const std::string& what);

/// Folds a compile-time number made of literals, constants and arithmetic.
/// Reports an error (unless `report` is false) and returns nullopt otherwise.
std::optional<ConstNumber> foldConstant(LoweringContext& cx, const ast::Expr& e, bool report = true);

/// Applies a numeric unary function by name ("sqrt", "exp", ...) to a constant; nullopt if unknown.
std::optional<double> applyConstFunction(const std::string& name, double x);

}  // namespace tempo
