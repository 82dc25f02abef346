// TypeInference: the result type of a primitive op from its input types.
//
// One place states the typing rules of every primitive (NumPy broadcasting for
// elementwise ops, NumPy matmul rules, reductions, movement ops), over symbolic
// shapes. The front end uses it to type programs and report mistakes; the
// graph validator and the passes use it to check that a graph stays well
// typed. Two symbolic sizes match when their canonical forms are equal; a size
// of constant 1 broadcasts.
#pragma once

#include "ops/Op.h"
#include "types/TensorType.h"

#include <string>
#include <variant>
#include <vector>

namespace tempo {

/// Either the result type or an error message written for the user
/// (e.g. "matmul: inner sizes differ: f32[5] @ f32[8, 8] (5 vs 8)").
using TypeResult = std::variant<TensorType, std::string>;

TypeResult inferType(OpKind op, const OpAttrs& attrs, const std::vector<TensorType>& inputs);

/// NumPy broadcasting of two shapes; std::nullopt when they do not broadcast.
std::optional<std::vector<IndexExpr>> broadcastShapes(const std::vector<IndexExpr>& a,
                                                      const std::vector<IndexExpr>& b);

/// Product of all sizes (1 for a scalar); std::nullopt if not affine-representable.
std::optional<IndexExpr> shapeNumel(const std::vector<IndexExpr>& shape);

}  // namespace tempo
