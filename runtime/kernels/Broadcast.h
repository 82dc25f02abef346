// Broadcast: NumPy broadcasting and strided index arithmetic for the reference kernels.
//
// Shapes are aligned on their trailing dimensions; a dimension of size 1 (or
// a missing leading dimension) stretches to the other size. The kernels walk
// the output in C order and map each output flat index to an input element
// offset through "broadcast strides" (the input's contiguous strides, 0 on
// stretched dimensions) — one obvious division per dimension, no cleverness.
#pragma once

#include <cstdint>
#include <vector>

namespace tempo::ref {

/// NumPy's broadcast of two shapes; throws std::invalid_argument if incompatible.
std::vector<int64_t> broadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b);
/// Row-major strides (in elements) of a contiguous tensor of `shape`.
std::vector<int64_t> contiguousStrides(const std::vector<int64_t>& shape);
/// Strides of a contiguous `inShape` tensor viewed as broadcast to `outShape`
/// (one entry per out dim, 0 where stretched or missing); throws
/// std::invalid_argument unless `inShape` broadcasts to `outShape`.
std::vector<int64_t> broadcastStrides(const std::vector<int64_t>& inShape, const std::vector<int64_t>& outShape);
/// Element offset of the output element at `flat` (C order over `outShape`) under `strides`.
int64_t stridedOffset(int64_t flat, const std::vector<int64_t>& outShape, const std::vector<int64_t>& strides);

}  // namespace tempo::ref
