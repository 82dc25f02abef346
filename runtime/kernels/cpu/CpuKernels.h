// CpuKernels: the compiled executor's kernel library, `cpu::evalOp`.
//
// Same contract as ref::evalOp (kernels/ReferenceKernels.h) — same inputs,
// same result dtype/shape checks, same errors — but fast: elementwise ops
// (Elementwise.h), reductions (Reduce.h) and permute/expand (Movement.h)
// are vectorised loops split over both cores, a slice that is one contiguous
// run shares its input's buffer (Movement.h), a fused node's program runs
// in one chunked pass over its output (Fused.h), f32/f64 matmul is OpenBLAS
// (Matmul.h), reshape and identity share the input buffer. What is not
// specialised runs the reference kernel: cast, other slices and cat (already
// single-pass loops / memcpy), integer div and pow (they can throw),
// integer and bool matmul, and every malformed call, so error messages are
// the reference's. Numerical differences from the reference: f32/f64
// matmul accumulates in the element type (BLAS; KernelOptions::matmul = F64
// widens f32 to double instead, see Matmul.h); sums over an innermost
// reduced run add in 8 lanes (f64, then rounded); f32 exp/tanh/sigmoid may
// differ by 1 ulp at rare near-ties; everything else is bit-identical.
// Strided views (Tensor::permutedView / expandedView) go as they are to the
// kernels that walk strides (`readsStridedViews` in ops/Op.h: elementwise, where, fused,
// reduce_sum / reduce_max, with the same bits as on a copy); any other kernel,
// and the reference, gets them copied to contiguous arrays first.
#pragma once

#include "kernels/cpu/Matmul.h"
#include "ops/Op.h"
#include "tensor/Tensor.h"

#include <vector>

namespace tempo::cpu {

/// The choices the caller (the executor, from CompiledRunOptions) makes for a whole run.
struct KernelOptions {
  MatmulAccumulation matmul = MatmulAccumulation::F32;  ///< f32 matmul: sgemm, or widened to dgemm
};

/// Evaluates a non-source, non-merge op like ref::evalOp, with the fast kernels.
Tensor evalOp(OpKind op, const OpAttrs& attrs, const std::vector<Tensor>& inputs, DType outDType,
              const std::vector<int64_t>& outShape, const KernelOptions& options);
/// The same with the default KernelOptions (the signature of ref::evalOp).
Tensor evalOp(OpKind op, const OpAttrs& attrs, const std::vector<Tensor>& inputs, DType outDType,
              const std::vector<int64_t>& outShape);

}  // namespace tempo::cpu
