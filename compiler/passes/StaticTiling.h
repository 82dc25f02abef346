// StaticTiling: static blocks for the dynamically sized windows of a program.
//
// A read such as `k[b, 0:t+1]` gives its readers a value whose leading size
// grows with t, so every kernel between the read and the reduction or matmul
// that eliminates that size sees a new shape at each step. This pass finds
// each such window and its region (WindowRegion), picks a block size BS
// (`--block-size`, PassContext::options["block-size"], or else the cost
// model of BlockSizeModel at the default bounds) and rewrites the region into
// blocks of static size BS over a new guarded block dimension (TileRegion).
// Bounds stay symbolic: the number of blocks is a derived bound of the graph.
// A window it cannot tile stays as it is, and the pass notes say why.
#pragma once

#include "pass/Pass.h"

namespace tempo {

class StaticTiling : public Pass {
public:
  std::string name() const override { return "static-tiling"; }
  std::string description() const override;
  void run(Graph& graph, PassContext& context) override;
};

}  // namespace tempo
