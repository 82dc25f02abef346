// BlockSizeModel: the default block size of static tiling, from a cost model.
//
// Static tiling cuts a window of dynamic size n into ceil(n / BS) blocks of
// static size BS, and the schedule runs, at each step, only the blocks that
// step reads (the block dimension is guarded). A step whose window holds n
// positions then costs
//
//     cost_n(BS) = ceil(n / BS) * (o + BS * w * c(BS))
//
// where o is the fixed cost of one block (its statements: about one kernel
// launch per tiled node, `statementsPerBlock * nsPerStatement`), w the cost
// of one window position inside a block (`bytesPerPosition * nsPerByte`, the
// bytes every tiled node touches per position), and c(BS) a cache factor: 1
// while one block's working set `BS * bytesPerPosition` fits in `cacheBytes`,
// 2 beyond. Small blocks pay o often (n / BS blocks per step); large ones
// waste the masked tail of the last block (BS / 2 positions per step on
// average) and fall out of the cache. The model sums cost_n over the window
// sizes the steps see at the default bounds (n = 1..T for `0:t+1` with t < T)
// and picks the BS in [1, max n] with the least total (within 5%, the one
// whose blocks pad the largest window least: a block store holds whole
// blocks); for sizes spread evenly up to N this is about BS = sqrt(N * o / w). A window of static
// maximum size W (`max(0, t-W+1):t+1`) mostly has n = W, where one block of
// W is best. `--block-size N` overrides the model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tempo {

struct BlockSizeModelParams {
  double nsPerStatement = 2000;  ///< fixed cost of running one statement (kernel launch, loop step)
  double nsPerByte = 0.25;      ///< cost per byte a kernel touches
  /// The working set one block may have before its positions cost twice. 4 MiB by measurement
  /// (docs/compiler.md): decode_peer (~96 KB a position) ran fastest at BS = 32 (3 MiB), slower at 64;
  /// a block's positions are streamed once per step, so an L2-sized limit (256 KiB, the first
  /// calibration on a decoder of E = 16) chose BS = 2 there, 2.3x slower than 32.
  int64_t cacheBytes = 4 * 1024 * 1024;
  /// Sizes this close to the least modelled cost count as equal; among them the one that pads the
  /// largest window least wins (the KV cache of decode_peer at T = 256: 32, not 23, 2.3 MB less).
  double costSlack = 0.05;
};

struct BlockSizeInputs {
  std::vector<int64_t> windowSizes;  ///< the window size at each step, at the default bounds
  int64_t bytesPerPosition = 4;      ///< bytes all tiled nodes touch per window position
  int statementsPerBlock = 1;        ///< statements one block runs
};

/// The modelled total cost (ns) of all steps with blocks of `blockSize`.
double tilingCost(int64_t blockSize, const BlockSizeInputs& in, const BlockSizeModelParams& p = {});
/// The block size with the least modelled cost, within `costSlack` the one that pads the
/// largest window least (then the cheapest); 1 without sizes.
int64_t chooseBlockSize(const BlockSizeInputs& in, const BlockSizeModelParams& p = {});

}  // namespace tempo
