// Reference movement kernels: permute, expand, slice and cat. They copy
// elements without arithmetic, so they are dtype-agnostic (byte copies).
#include "kernels/Broadcast.h"
#include "kernels/KernelParts.h"

#include <cstring>
#include <stdexcept>

namespace tempo::ref::detail {
namespace {

const std::byte* bytesOf(const Tensor& t) { return static_cast<const std::byte*>(t.raw()); }
std::byte* bytesOf(Tensor& t) { return static_cast<std::byte*>(t.raw()); }

/// out[i] = in[offset(i)] element by element, for a gather described by strides over `out`'s shape.
void gather(const Tensor& in, Tensor& out, const std::vector<int64_t>& strides) {
  size_t size = dtypeSize(in.dtype());
  for (int64_t i = 0; i < out.numel(); ++i)
    std::memcpy(bytesOf(out) + i * size, bytesOf(in) + stridedOffset(i, out.shape(), strides) * size, size);
}

/// Product of shape[from, to).
int64_t extent(const std::vector<int64_t>& shape, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t i = from; i < to; ++i) n *= shape[i];
  return n;
}

/// Same dtype and rank, same sizes on every axis but `axis`.
bool sameExceptAxis(const Tensor& a, const Tensor& b, int64_t axis) {
  if (a.dtype() != b.dtype() || a.rank() != b.rank()) return false;
  for (int d = 0; d < a.rank(); ++d)
    if (d != axis && a.shape()[d] != b.shape()[d]) return false;
  return true;
}

void checkAxis(OpKind op, int64_t axis, int rank) {
  if (axis < 0 || axis >= rank)
    throw std::invalid_argument(errorPrefix(op) + "axis " + std::to_string(axis) + " out of range for rank " +
                                std::to_string(rank));
}

}  // namespace

Tensor evalPermute(const Tensor& x, const std::vector<int64_t>& perm) {
  std::vector<bool> used(x.rank(), false);
  bool valid = perm.size() == static_cast<size_t>(x.rank());
  for (size_t i = 0; valid && i < perm.size(); ++i) {
    valid = perm[i] >= 0 && perm[i] < x.rank() && !used[perm[i]];
    if (valid) used[perm[i]] = true;
  }
  if (!valid) throw std::invalid_argument("permute: " + shapeString(perm) + " is not a permutation of rank " +
                                          std::to_string(x.rank()));
  std::vector<int64_t> inStrides = contiguousStrides(x.shape()), outShape, strides;
  for (int64_t p : perm) {
    outShape.push_back(x.shape()[p]);
    strides.push_back(inStrides[p]);
  }
  Tensor out(x.dtype(), outShape);
  gather(x, out, strides);
  return out;
}

Tensor evalExpand(const Tensor& x, const std::vector<int64_t>& outShape) {
  std::vector<int64_t> strides = broadcastStrides(x.shape(), outShape);
  Tensor out(x.dtype(), outShape);
  gather(x, out, strides);
  return out;
}

Tensor evalSlice(const Tensor& x, int64_t axis, int64_t start, int64_t stop) {
  checkAxis(OpKind::Slice, axis, x.rank());
  int64_t size = x.shape()[axis];
  if (start < 0 || start > stop || stop > size)
    throw std::invalid_argument("slice: [" + std::to_string(start) + ", " + std::to_string(stop) +
                                ") is not within axis " + std::to_string(axis) + " of size " + std::to_string(size));
  std::vector<int64_t> outShape = x.shape();
  outShape[axis] = stop - start;
  Tensor out(x.dtype(), outShape);
  size_t inner = extent(x.shape(), axis + 1, x.rank()) * dtypeSize(x.dtype());
  int64_t outer = extent(x.shape(), 0, axis);
  if (out.nbytes() == 0) return out;
  for (int64_t o = 0; o < outer; ++o)
    std::memcpy(bytesOf(out) + o * (stop - start) * inner, bytesOf(x) + (o * size + start) * inner,
                (stop - start) * inner);
  return out;
}

Tensor evalCat(const std::vector<Tensor>& parts, int64_t axis) {
  const Tensor& first = parts.front();
  checkAxis(OpKind::Cat, axis, first.rank());
  std::vector<int64_t> outShape = first.shape();
  outShape[axis] = 0;
  for (const Tensor& p : parts) {
    if (!sameExceptAxis(p, first, axis))
      throw std::invalid_argument("cat: cannot concatenate " + std::string(dtypeName(first.dtype())) +
                                  shapeString(first.shape()) + " and " + std::string(dtypeName(p.dtype())) +
                                  shapeString(p.shape()) + " along axis " + std::to_string(axis));
    outShape[axis] += p.shape()[axis];
  }
  Tensor out(first.dtype(), outShape);
  size_t inner = extent(outShape, axis + 1, outShape.size()) * dtypeSize(first.dtype());
  int64_t outer = extent(outShape, 0, axis);
  std::byte* dst = bytesOf(out);
  for (int64_t o = 0; o < outer; ++o)
    for (const Tensor& p : parts) {
      size_t chunk = p.shape()[axis] * inner;
      if (chunk == 0) continue;
      std::memcpy(dst, bytesOf(p) + o * chunk, chunk);
      dst += chunk;
    }
  return out;
}

}  // namespace tempo::ref::detail
