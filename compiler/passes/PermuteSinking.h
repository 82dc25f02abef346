// PermuteSinking: move permutes past the matmuls and slices that read them, until they
// only move axes of size 1 and become reshapes (views).
//
// Vectorisation batches a dimension as a leading axis and hoists a product out of a
// loop as one matmul over a stacked window (`x[0:T, 0:B]` permuted to [B, T, H]),
// then every step slices its own row out of the product along the middle axis: a
// copy of the whole input and, per step, a copy of a strided slice. Three exact
// rewrites undo that layout: a matmul whose left operand is a permute that keeps the
// contracted (last) axis in place is the same permute of the matmul of the unpermuted
// operand; a slice of a permute is the permute of the slice along the axis the
// permute takes it from; and a permute that keeps every axis of size other than 1 in
// order moves no element, so it is a reshape. A reshape of a reshape reads the first
// one's input directly, and a view left at its input's own shape is bypassed
// (AlgebraicSimplification's identityViewRules). The numbers are bit for bit the same.
#pragma once

#include "pass/Pass.h"

namespace tempo {

class PermuteSinking : public Pass {
public:
  std::string name() const override { return "permute-sinking"; }
  std::string description() const override;
  void run(Graph& graph, PassContext& context) override;
};

}  // namespace tempo
