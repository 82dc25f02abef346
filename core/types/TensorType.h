// TensorType: the spatial type of a value at one domain point.
//
// A dtype and a shape whose sizes are IndexExprs, so a size can be a constant
// (8), a bound (T) or depend on the point (t+1 for a growing window). Prints
// as `f32[t + 1, 8]`; `f32[]` is a scalar.
#pragma once

#include "symbolic/IndexExpr.h"
#include "types/DType.h"

#include <string>
#include <vector>

namespace tempo {

struct TensorType {
  DType dtype = DType::F32;
  std::vector<IndexExpr> shape;

  int rank() const { return static_cast<int>(shape.size()); }
  bool isScalar() const { return shape.empty(); }
  /// True when no size depends on a dimension (bounds are allowed).
  bool isStaticOverDims() const;
  /// Concrete sizes at a point; throws std::out_of_range on an unbound symbol.
  std::vector<int64_t> evaluateShape(const SymbolEnv& env) const;
  std::string str() const;
  std::string shapeStr() const;  ///< `[t + 1, 8]`
  bool operator==(const TensorType&) const = default;
};

}  // namespace tempo
