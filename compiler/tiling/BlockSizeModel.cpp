#include "tiling/BlockSizeModel.h"

#include <algorithm>

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
  int64_t best = 1;
  double bestCost = tilingCost(1, in, p);
  for (int64_t bs = 2; bs <= largest; ++bs) {
    double c = tilingCost(bs, in, p);
    if (c < bestCost) best = bs, bestCost = c;
  }
  return best;
}

}  // namespace tempo
