// KernelCases: generated kernels to test every backend with (LLVM, CUDA's
// host emulation, the GPU): one single-step kernel per (op, dtype) pair that
// codegen lowers, over inputs that broadcast along either dimension, filled
// with values at the edges (NaN, infinities, signed zeros, values past the
// clamps and the casts' ranges), and a bit-for-bit comparison of results.
#pragma once

#include "kernels/Kernel.h"
#include "tensor/Tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tempo::testing {

extern const DType kKernelDTypes[5];

/// Every elementwise op a generated kernel may hold.
const std::vector<OpKind>& elementwiseOps();

/// Values at the edges first, then random ones of a spread that reaches the clamps.
Tensor edgyTensor(DType dtype, const std::vector<int64_t>& shape, uint32_t seed);

/// Random values of a moderate spread ([-8, 8] for floats, small integers; no edges): for
/// kernels whose order of evaluation differs between backends (sums).
Tensor moderateTensor(DType dtype, const std::vector<int64_t>& shape, uint32_t seed);

/// "" when equal bit for bit (NaNs equal whatever their payload), else the first difference.
std::string firstDifference(const Tensor& want, const Tensor& got);

struct Case {
  OpKind op;
  DType operand;
  DType result;
  std::string label() const;
};

/// Every (op, operand dtype, result dtype) that llvmLowersStep accepts.
std::vector<Case> loweredCases();

/// A one-step kernel over inputs [R, cols], [cols] (broadcast along dim 0) and [R, 1] (along dim 1).
Kernel oneStepKernel(const Case& c, int id, int64_t cols = 37);

/// Inputs for oneStepKernel's kernel `k` at `rows` rows.
std::vector<Tensor> inputsFor(const Kernel& k, int64_t rows, uint32_t seed);

/// A program's kernels, lowered without the CPU's codegen, and its default bounds (with each
/// dimension at its last point, for shapes that vary with it).
struct LoweredKernels {
  KernelProgram kernels;
  SymbolEnv bounds;
};

/// Compiles `text` (named `name`, loads relative to `dir`) through the pass pipeline and
/// the lowering up to kernel formation; throws with the diagnostics on a bad program.
LoweredKernels lowerKernels(const std::string& text, const std::string& name, const std::string& dir);

/// The CPU library's reduction of `x` by the reduction kernel `k`, or the reference
/// kernel's where the library has none (argmax).
Tensor cpuOrReferenceReduce(const Kernel& k, const Tensor& x);

/// `shape` at `env`.
std::vector<int64_t> evaluated(const std::vector<IndexExpr>& shape, const SymbolEnv& env);

}  // namespace tempo::testing
