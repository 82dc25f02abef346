// ViewSelection: mark the permutes and expands whose values can be strided views.
//
// A permute moves no element a later kernel could not read in place, and an expand
// repeats elements a reader could read with a stride of 0: the executor can hand
// such a value on as a strided view of its input's buffer (Tensor::permutedView,
// expandedView) instead of a copy, so the bytes are held once. This pass marks a
// permute or expand `view` when every reader takes it as it is: each reads it at a
// point (a stacked slice would copy it anyway) with a kernel that walks strides
// (elementwise, where, fused, reduce_sum / reduce_max: `readsStridedViews`), it
// is not an output, and the buffer it views stays put while it holds it: the fresh
// stack of a slice read (rnn_train's `permute(h[i, 0:T])`), or a whole-array source's
// array — not one point of a computed store, which drops that point at its next
// write while the view still holds it (both live at once, where the prediction
// would count one). An expand is marked only when it reads its input at a point
// whose shape does not move with the input's dimensions, so its store holds the
// input's bytes (MemoryPlacement sizes it so). The numbers are the same bit for bit
// (the kernels read a view in the order they read a copy); BufferSharing counts a
// view's buffer once with its input's, as for a reshape. First, permutes read by a
// matmul are folded into it: when the operand is a permute, or a chain of them, of a
// value whose last (unit-stride) axis lands on one of the operand's two matrix axes, the
// edge reads that value and the operand's permutation (`permA` / `permB`) is set, so the
// GEMM reads it in place with its trans flag and leading dimension at any batch strides
// (decode's K and V, per head out of a block of the KV cache) and the copies and their
// stores disappear (each permute goes when nothing else reads it).
#pragma once

#include "pass/Pass.h"

namespace tempo {

class ViewSelection : public Pass {
public:
  std::string name() const override { return "view-selection"; }
  std::string description() const override;
  void run(Graph& graph, PassContext& context) override;
};

}  // namespace tempo
