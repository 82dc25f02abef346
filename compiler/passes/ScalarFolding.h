// ScalarFolding: the value of an elementwise op on scalar constants, computed at compile time.
//
// Constant folding must give bit for bit what the runtime would compute, and
// the compiler does not depend on the runtime. So the numeric rules of the
// reference kernels are restated here for one scalar: arithmetic in the
// dtype itself (f32 as float, wrap-around for integers), transcendentals in
// double rounded once to the dtype, NaN-propagating maximum/minimum,
// comparisons giving bool. Ops whose result could differ (integer division,
// casts) are not folded.
#pragma once

#include "ops/Op.h"

#include <optional>
#include <vector>

namespace tempo {

/// `op` applied to scalar `inputs` of dtype `inputType`; the result as a
/// double holding the exact value of the result dtype, or nullopt if `op` is
/// not folded for that dtype.
std::optional<double> foldScalar(OpKind op, DType inputType, const std::vector<double>& inputs);

}  // namespace tempo
