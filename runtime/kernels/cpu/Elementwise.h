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
// uses the reference kernel, which also produces the error message. The
// *Span functions run the same element functions over one span of raw
// elements (operand strides 0 or 1) for the fused kernel (Fused.h); they
// return false where the Tensor functions would return nullopt.
#pragma once

#include "ops/Op.h"
#include "tensor/Tensor.h"

#include <optional>

namespace tempo::cpu {

std::optional<Tensor> unary(OpKind op, const Tensor& x);
std::optional<Tensor> binary(OpKind op, const Tensor& a, const Tensor& b);
std::optional<Tensor> where(const Tensor& cond, const Tensor& a, const Tensor& b);

/// o[i] = op(x[i * sx]) for i < n; x and o hold `dt` elements.
bool unarySpan(OpKind op, DType dt, const void* x, int64_t sx, void* o, int64_t n);
/// o[i] = op(a[i * sa], b[i * sb]) for i < n; a and b hold `dt`, o the op's result dtype.
bool binarySpan(OpKind op, DType dt, const void* a, int64_t sa, const void* b, int64_t sb, void* o, int64_t n);
/// o[i] = c[i * sc] ? a[i * sa] : b[i * sb] for i < n; a, b and o hold `dt`.
void whereSpan(DType dt, const bool* c, int64_t sc, const void* a, int64_t sa, const void* b, int64_t sb, void* o,
               int64_t n);
/// o[i] = cast(x[i * sx]) from `from` to `to`, like Tensor::converted.
void castSpan(DType from, DType to, const void* x, int64_t sx, void* o, int64_t n);

}  // namespace tempo::cpu
