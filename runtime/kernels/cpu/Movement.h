// Movement: fast CPU permute, expand and slice (dtype-agnostic).
//
// Both are gathers described by strides over the output shape (a permuted
// or broadcast view of the contiguous input); StridedLoop merges what it
// can, so an expand along leading axes or a permute that keeps the last axis
// copies whole rows with memcpy, a broadcast innermost axis is a fill, and
// only a true transpose walks a strided inner loop. Copies move 1, 4 or 8
// byte words and split across cores above the Parallel.h threshold.
// A slice that is one contiguous run of the input (every axis before the
// sliced one has size 1, e.g. a vectorised value's batch position [1, ...]
// out of [B, ...]) is a Tensor::window: no copy, no allocation; vectorised
// programs read such slices at every point (the RNN's per-step rows of the
// hoisted x @ W). Other slices and cat are the reference's memcpy loops, and
// reshape/identity share the input buffer (see CpuKernels.h). Returns nullopt
// (reference fallback, which copies or reports the error) for an invalid
// permutation, an expand to a shape the input does not broadcast to, or a
// slice that is not one run or not inside the input.
#pragma once

#include "tensor/Tensor.h"

#include <optional>
#include <vector>

namespace tempo::cpu {

std::optional<Tensor> permute(const Tensor& x, const std::vector<int64_t>& perm);
std::optional<Tensor> expand(const Tensor& x, const std::vector<int64_t>& outShape);
std::optional<Tensor> sliceWindow(const Tensor& x, int64_t axis, int64_t start, int64_t stop);

}  // namespace tempo::cpu
