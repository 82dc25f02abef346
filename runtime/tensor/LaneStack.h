// LaneStack: the value of a block read (IndexAtom::blockOf) from the producer
// values it reads.
//
// A block read of static tiling reads the positions [lo, hi) of a producer
// dimension that lie in block ds and hands its reader a static block of BS
// lanes: lane i is position `first + i`, so the values read go to lanes
// [lo - first, hi - first) and the other lanes (positions not produced yet,
// or outside the window) are zeros. The reference interpreter and the
// compiled executor both build the block here, so the two agree by
// construction on where every value lands.
#pragma once

#include "tensor/Tensor.h"

#include <cstdint>
#include <vector>

namespace tempo {

/// `parts` (each of `partShape`) stacked at lanes [offset, offset + parts.size())
/// of a new leading axis of `lanes`, zeros elsewhere. Throws std::invalid_argument
/// when the parts do not fit or do not have `dtype` and `partShape`.
Tensor stackInLanes(const std::vector<Tensor>& parts, int64_t offset, int64_t lanes, DType dtype,
                    const std::vector<int64_t>& partShape);

}  // namespace tempo
