#include "tiling/BlockSizeModel.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace tempo {

double tilingCost(int64_t blockSize, const BlockSizeInputs& in, const BlockSizeModelParams& p) {
  const double perBlock = in.statementsPerBlock * p.nsPerStatement;
  const double cache = blockSize * in.bytesPerPosition <= p.cacheBytes ? 1.0 : 2.0;
  const double perPosition = in.bytesPerPosition * p.nsPerByte * cache;
  double total = 0;
  for (int64_t n : in.windowSizes) {
    int64_t blocks = (std::max<int64_t>(n, 1) + blockSize - 1) / blockSize;
    total += blocks * (perBlock + blockSize * perPosition);
  }
  return total;
}

int64_t chooseBlockSize(const BlockSizeInputs& in, const BlockSizeModelParams& p) {
  int64_t largest = 1;
  for (int64_t n : in.windowSizes) largest = std::max(largest, n);
  std::vector<double> cost(static_cast<size_t>(largest) + 1);
  double bestCost = std::numeric_limits<double>::infinity();
  for (int64_t bs = 1; bs <= largest; ++bs) bestCost = std::min(bestCost, cost[static_cast<size_t>(bs)] = tilingCost(bs, in, p));
  // Among the sizes within costSlack of the least cost, the one whose blocks waste the fewest
  // positions at the largest window (a block store holds whole blocks), then the cheapest.
  auto padding = [&](int64_t bs) { return (largest + bs - 1) / bs * bs - largest; };
  int64_t best = 0;
  for (int64_t bs = 1; bs <= largest; ++bs) {
    const double c = cost[static_cast<size_t>(bs)];
    if (c > bestCost * (1 + p.costSlack)) continue;
    if (best == 0 || padding(bs) < padding(best) || (padding(bs) == padding(best) && c < cost[static_cast<size_t>(best)]))
      best = bs;
  }
  return best;
}

}  // namespace tempo
