#include "kernels/Broadcast.h"

#include "tensor/Tensor.h"

#include <algorithm>
#include <stdexcept>

namespace tempo::ref {

std::vector<int64_t> broadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      throw std::invalid_argument("shapes " + shapeString(a) + " and " + shapeString(b) + " do not broadcast");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::vector<int64_t> contiguousStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s *= shape[i];
  }
  return strides;
}

std::vector<int64_t> broadcastStrides(const std::vector<int64_t>& inShape, const std::vector<int64_t>& outShape) {
  if (inShape.size() > outShape.size())
    throw std::invalid_argument("cannot broadcast " + shapeString(inShape) + " to " + shapeString(outShape));
  size_t lead = outShape.size() - inShape.size();
  std::vector<int64_t> inStrides = contiguousStrides(inShape);
  std::vector<int64_t> strides(outShape.size(), 0);
  for (size_t i = 0; i < inShape.size(); ++i) {
    if (inShape[i] == outShape[lead + i]) strides[lead + i] = inShape[i] == 1 ? 0 : inStrides[i];
    else if (inShape[i] != 1)
      throw std::invalid_argument("cannot broadcast " + shapeString(inShape) + " to " + shapeString(outShape));
  }
  return strides;
}

int64_t stridedOffset(int64_t flat, const std::vector<int64_t>& outShape, const std::vector<int64_t>& strides) {
  int64_t offset = 0;
  for (size_t i = outShape.size(); i-- > 0;) {
    offset += (flat % outShape[i]) * strides[i];
    flat /= outShape[i];
  }
  return offset;
}

}  // namespace tempo::ref
