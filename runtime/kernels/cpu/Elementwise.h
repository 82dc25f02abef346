// Elementwise: fast CPU kernels for the unary, binary and where ops.
//
// Same semantics as the reference (kernels/ReferenceKernels.h): NumPy
// broadcasting, f32 + - * / in float, maximum/minimum propagate NaN,
// integers wrap. Operands are walked with StridedLoop, so same-shape,
// scalar-broadcast and row-broadcast operands all become contiguous or
// constant inner spans with `omp simd` loops, split across cores above the
// Parallel.h threshold. f32 exp/tanh/sigmoid use FastMath (equal to the
// reference up to a rare 1-ulp tie), sqrt is exact in float, log runs
// glibc's double log. Each function returns nullopt for what it does not
// specialise — integer div/pow (they can throw), mismatched dtypes, shapes
// that do not broadcast, ops undefined on the dtype — and the caller then
// uses the reference kernel, which also produces the error message.
#pragma once

#include "ops/Op.h"
#include "tensor/Tensor.h"

#include <optional>

namespace tempo::cpu {

std::optional<Tensor> unary(OpKind op, const Tensor& x);
std::optional<Tensor> binary(OpKind op, const Tensor& a, const Tensor& b);
std::optional<Tensor> where(const Tensor& cond, const Tensor& a, const Tensor& b);

}  // namespace tempo::cpu
