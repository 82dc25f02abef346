// Fast permute and expand; see Movement.h.
#include "kernels/cpu/Movement.h"

#include "kernels/Broadcast.h"
#include "kernels/cpu/Parallel.h"
#include "kernels/cpu/Strided.h"

#include <cstring>

namespace tempo::cpu {
namespace {

template <class W>
void gatherWords(const W* in, W* out, const StridedLoop<2>& loop) {
  int64_t s = loop.innerStrides()[1];
  parallelFor(loop.size(), 1, [&](int64_t begin, int64_t end) {
    loop.forSpans(begin, end, [&](const StridedLoop<2>::Offsets& off, int64_t n) {
      W* o = out + off[0];
      const W* p = in + off[1];
      if (s == 1) {
        std::memcpy(o, p, n * sizeof(W));
      } else if (s == 0) {
        W v = *p;
#pragma omp simd
        for (int64_t i = 0; i < n; ++i) o[i] = v;
      } else {
        for (int64_t i = 0; i < n; ++i) o[i] = p[i * s];
      }
    });
  });
}

/// out[i] = x[offset(i)] where `strides` maps out's C-order positions into x.
Tensor gather(const Tensor& x, const std::vector<int64_t>& outShape, const std::vector<int64_t>& strides) {
  Tensor out = Tensor::uninitialized(x.dtype(), outShape);
  StridedLoop<2> loop(outShape, {ref::contiguousStrides(outShape), strides});
  switch (dtypeSize(x.dtype())) {
    case 1: gatherWords(static_cast<const uint8_t*>(x.raw()), static_cast<uint8_t*>(out.raw()), loop); break;
    case 4: gatherWords(static_cast<const uint32_t*>(x.raw()), static_cast<uint32_t*>(out.raw()), loop); break;
    default: gatherWords(static_cast<const uint64_t*>(x.raw()), static_cast<uint64_t*>(out.raw()), loop); break;
  }
  return out;
}

}  // namespace

std::optional<Tensor> permute(const Tensor& x, const std::vector<int64_t>& perm) {
  if (perm.size() != static_cast<size_t>(x.rank())) return std::nullopt;
  std::vector<bool> used(x.rank(), false);
  std::vector<int64_t> inStrides = ref::contiguousStrides(x.shape()), outShape, strides;
  for (int64_t p : perm) {
    if (p < 0 || p >= x.rank() || used[p]) return std::nullopt;
    used[p] = true;
    outShape.push_back(x.shape()[p]);
    strides.push_back(inStrides[p]);
  }
  return gather(x, outShape, strides);
}

std::optional<Tensor> expand(const Tensor& x, const std::vector<int64_t>& outShape) {
  if (outShape.size() < x.shape().size()) return std::nullopt;
  size_t lead = outShape.size() - x.shape().size();
  for (size_t i = 0; i < x.shape().size(); ++i)
    if (x.shape()[i] != outShape[lead + i] && x.shape()[i] != 1) return std::nullopt;
  for (int64_t d : outShape)
    if (d < 0) return std::nullopt;
  return gather(x, outShape, ref::broadcastStrides(x.shape(), outShape));
}

std::optional<Tensor> sliceWindow(const Tensor& x, int64_t axis, int64_t start, int64_t stop) {
  if (axis < 0 || axis >= x.rank() || start < 0 || start > stop || stop > x.shape()[axis]) return std::nullopt;
  for (int64_t a = 0; a < axis; ++a)
    if (x.shape()[a] != 1) return std::nullopt;  // the slice is several runs: the reference copies them
  int64_t inner = 1;
  for (int64_t a = axis + 1; a < x.rank(); ++a) inner *= x.shape()[a];
  std::vector<int64_t> shape = x.shape();
  shape[axis] = stop - start;
  return x.window(start * inner, std::move(shape));
}

}  // namespace tempo::cpu
