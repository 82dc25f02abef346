// WeightPanels: a matrix that a few rows multiply again and again is laid out once as
// column panels, so each product reads it front to back.
//
// A decoder step multiplies B = 8 rows by each layer's weights (512 x 2048: 4 MiB,
// 50 MB over four layers, more than the L3 cache): the step streams the weights
// from memory and its time is their bytes over the bandwidth. A GEMM library reads
// a row-major K x N matrix column block by column block, K rows far apart, and
// packs each block before it multiplies: on this machine that reaches 9-13 GB/s
// of weights, against 18-23 GB/s when the same bytes lie as panels of 64 columns,
// each panel K x 64 contiguous, multiplied panel by panel (bench/kernels,
// MatmulStreamed; docs/performance.md). This pass rewrites such a product
// x @ W (W a constant-shape f32 matrix of at least 1 MiB whose width is a multiple
// of 64, each value read at least 16 times along dimensions it does not vary with,
// x at most 32 rows at the bound hints: fewer reads do not pay for the copy) into x @ P, with P = permute(reshape(W, [K, N/64, 64]), (1, 0, 2))
// made once per value of W (a copy, over W's own domain), and the product's
// [N/64, rows, 64] result put back in order by a permute and a reshape. It runs
// after view-selection, so the panel copy stays a copy. Each output element is the
// same K-long dot product; the GEMM may sum it in another order (float rounding).
#pragma once

#include "pass/Pass.h"

namespace tempo {

class WeightPanels : public Pass {
public:
  std::string name() const override { return "weight-panels"; }
  std::string description() const override;
  void run(Graph& graph, PassContext& context) override;
};

}  // namespace tempo
