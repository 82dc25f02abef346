#include "tensor/LaneStack.h"

#include <cstring>
#include <string>

namespace tempo {

Tensor stackInLanes(const std::vector<Tensor>& parts, int64_t offset, int64_t lanes, DType dtype,
                    const std::vector<int64_t>& partShape) {
  const int64_t count = static_cast<int64_t>(parts.size());
  if (offset < 0 || lanes < 0 || (count > 0 && offset + count > lanes))
    throw std::invalid_argument("stackInLanes: " + std::to_string(count) + " values at lane " +
                                std::to_string(offset) + " do not fit in " + std::to_string(lanes) + " lanes");
  std::vector<int64_t> shape{lanes};
  shape.insert(shape.end(), partShape.begin(), partShape.end());
  Tensor out(dtype, shape);
  const size_t partBytes = static_cast<size_t>(shapeNumel(partShape)) * dtypeSize(dtype);
  auto* bytes = static_cast<std::byte*>(out.raw());
  for (int64_t i = 0; i < count; ++i) {
    const Tensor& p = parts[static_cast<size_t>(i)];
    if (p.dtype() != dtype || p.shape() != partShape)
      throw std::invalid_argument("stackInLanes: a value of another dtype or shape than the block's");
    std::memcpy(bytes + static_cast<size_t>(offset + i) * partBytes, p.raw(), partBytes);
  }
  return out;
}

}  // namespace tempo
