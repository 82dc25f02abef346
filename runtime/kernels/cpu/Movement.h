// Movement: fast CPU permute and expand (dtype-agnostic element copies).
//
// Both are gathers described by strides over the output shape (a permuted
// or broadcast view of the contiguous input); StridedLoop merges what it
// can, so an expand along leading axes or a permute that keeps the last axis
// copies whole rows with memcpy, a broadcast innermost axis is a fill, and
// only a true transpose walks a strided inner loop. Copies move 1, 4 or 8
// byte words and split across cores above the Parallel.h threshold.
// reshape/identity share the input buffer and slice/cat are the reference's
// memcpy loops already (see CpuKernels.h). Returns nullopt (reference
// fallback, which reports the error) for an invalid permutation or an
// expand to a shape the input does not broadcast to.
#pragma once

#include "tensor/Tensor.h"

#include <optional>
#include <vector>

namespace tempo::cpu {

std::optional<Tensor> permute(const Tensor& x, const std::vector<int64_t>& perm);
std::optional<Tensor> expand(const Tensor& x, const std::vector<int64_t>& outShape);

}  // namespace tempo::cpu
