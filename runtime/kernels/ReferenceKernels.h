// ReferenceKernels: plain, obviously-correct kernels for every computing op.
//
// This is the oracle the optimised engines are checked against, so it is
// written as simple loops with exactly stated numerics:
//
// - Inputs of an op share one dtype (the checker guarantees it; a mismatch
//   throws). Comparisons (lt le gt ge eq ne) yield bool; and/or/not take bool.
// - Elementwise ops follow NumPy broadcasting (add..or, where).
// - f32 elementwise ops round to float after every op: + - * / are done in
//   float; exp, log, sqrt, tanh, sigmoid and pow are evaluated in double and
//   rounded to float once (the correctly rounded result for basic arithmetic,
//   the most accurate one for the others). maximum/minimum propagate NaN;
//   relu(x) = x < 0 ? 0 : x (NaN stays NaN).
// - Reductions accumulate in f64 in index order and round once: matmul and
//   reduce_sum on f32/f64 sum in double over increasing k / increasing input
//   flat index and round to the dtype at the end.
// - Integer dtypes (i32, i64) use two's-complement wrap-around for + - * and
//   accumulation; div is floor division like Python's // (division by zero
//   throws std::domain_error); pow needs a non-negative exponent (else
//   std::domain_error); abs and neg of the minimum value wrap to itself.
//   exp, log, sqrt, tanh, sigmoid are not defined on integers.
// - bool: maximum = or, minimum = and; matmul on bool is OR of ANDs;
//   arithmetic and reduce_sum on bool are rejected.
// - cast: see Tensor::converted (float -> int truncates toward zero, NaN -> 0,
//   out-of-range saturates; int -> int wraps; anything -> bool is != 0).
// - matmul follows numpy.matmul: 1-D operands are promoted (K -> [1, K] on
//   the left, [K, 1] on the right) and the promoted axis is removed from the
//   result; leading batch dimensions broadcast.
// - reduce_sum/reduce_max reduce attrs.axes (strictly increasing, in range),
//   keeping them as size 1 when attrs.keepDims; reduce_max over an empty axis
//   gives -inf (the lowest integer for integer dtypes), reduce_sum gives 0. reshape and identity return a tensor sharing the input's buffer.
// - slice takes [start, stop) of attrs.axis (constant IndexExprs with
//   0 <= start <= stop <= size); cat concatenates along attrs.axis.
// - fused runs attrs.program step by step with the kernels above (each step
//   rounds exactly like the op it replaced); literals are scalars of their dtype.
//
// Every result is checked against the node's declared dtype and shape;
// malformed inputs or attributes throw std::invalid_argument.
#pragma once

#include "ops/Op.h"
#include "tensor/Tensor.h"

#include <vector>

namespace tempo::ref {

/// Evaluates a non-source, non-merge op on concrete inputs. outDType/outShape are the node's
/// result type (already evaluated at the point). Throws std::invalid_argument on shape mismatch.
Tensor evalOp(OpKind op, const OpAttrs& attrs, const std::vector<Tensor>& inputs, DType outDType,
              const std::vector<int64_t>& outShape);

}  // namespace tempo::ref
