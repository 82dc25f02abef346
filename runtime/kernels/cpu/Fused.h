// Fused: the CPU kernel of a fused node, one pass over the output in chunks.
//
// A fused node (core/ops/FusedProgram.h) runs a small program of elementwise
// steps. Evaluating it op by op would write and re-read one whole
// intermediate tensor per step; this kernel instead walks the output in
// chunks of kFusedChunk elements and, per chunk, gathers each input's
// elements (broadcast through its strides; a same-shape input is read in
// place, a one-element input as a constant) and runs every step over the
// chunk with the vectorised span loops of Elementwise.h, so intermediates
// live in small per-thread buffers that stay in the L1 cache. Every step is
// evaluated at every output element (a step whose own shape is smaller is
// recomputed at each position it broadcasts to, except that a step whose
// operands are all single values is computed once per chunk), with exactly the
// element functions of the unfused kernels, so results equal them bit for
// bit. Returns nullopt for what it does not specialise (a step the span
// loops do not cover, such as integer div; mixed operand dtypes; shapes that
// do not broadcast) and the caller then runs the reference kernel.
#pragma once

#include "ops/Op.h"
#include "tensor/Tensor.h"

#include <optional>
#include <vector>

namespace tempo::cpu {

inline constexpr int64_t kFusedChunk = 256;

std::optional<Tensor> fused(const std::vector<FusedStep>& program, const std::vector<Tensor>& inputs,
                            DType outDType, const std::vector<int64_t>& outShape);

}  // namespace tempo::cpu
