// Reduce: fast CPU reduce_sum and reduce_max over any sorted axis list.
//
// The input's axes are merged into alternating runs of kept and reduced
// axes (size-1 axes dropped). If the innermost run is kept, every output
// element is updated by a contiguous vectorised pass per outer position and
// the columns are split across cores; if it is reduced, each contiguous row
// is folded with 8 independent lanes, and rows are split across cores when
// no outer run is reduced. Numerics: f32/f64 sums accumulate in double and
// round once, like the reference; the order differs only inside a reduced
// innermost run (8 lanes, then the tail), which changes a result by at most
// one rounding of the f64 sum, i.e. the f32 result equals the reference's
// except at near-ties. Integer sums wrap (exact). Max is exact, NaN
// propagates, an empty axis gives -inf / the lowest integer (only the sign
// of a zero maximum may differ when +0 and -0 tie). Returns nullopt (the
// caller falls back to the reference, which reports the error) on bad axes
// or reduce_sum over bool.
#pragma once

#include "ops/Op.h"
#include "tensor/Tensor.h"

#include <optional>
#include <vector>

namespace tempo::cpu {

std::optional<Tensor> reduce(OpKind op, const Tensor& x, const std::vector<int64_t>& axes, bool keepDims);

}  // namespace tempo::cpu
