// cpu::evalOp: picks a fast kernel by op class, else the reference; see CpuKernels.h.
#include "kernels/cpu/CpuKernels.h"

#include "kernels/ReferenceKernels.h"
#include "kernels/cpu/Elementwise.h"
#include "kernels/cpu/Fused.h"
#include "kernels/cpu/Matmul.h"
#include "kernels/cpu/Movement.h"
#include "kernels/cpu/Reduce.h"

#include <algorithm>
#include <optional>

namespace tempo::cpu {
namespace {

std::optional<Tensor> fast(OpKind op, const OpAttrs& attrs, const std::vector<Tensor>& in, DType outDType,
                           const std::vector<int64_t>& outShape, const KernelOptions& options) {
  int arity = opArity(op);
  if (arity >= 0 && in.size() != static_cast<size_t>(arity)) return std::nullopt;
  switch (opClass(op)) {
    case OpClass::Unary: return unary(op, in[0]);
    case OpClass::Binary: return binary(op, in[0], in[1]);
    case OpClass::Ternary: return where(in[0], in[1], in[2]);
    case OpClass::MatMul:  // an operand read through a permutation is a view the GEMM reads in place
      return matmul(attrs.permA.empty() ? in[0] : in[0].permutedView(attrs.permA),
                    attrs.permB.empty() ? in[1] : in[1].permutedView(attrs.permB), options.matmul);
    case OpClass::Reduce: return reduce(op, in[0], attrs.axes, attrs.keepDims);
    case OpClass::Identity: return in[0];
    case OpClass::Fused: return fused(attrs.program, in, outDType, outShape);
    case OpClass::Movement:
      if (op == OpKind::Permute) return permute(in[0], attrs.perm);
      if (op == OpKind::Expand) return expand(in[0], outShape);
      if (op == OpKind::Reshape && shapeNumel(outShape) == in[0].numel()) return in[0].reshaped(outShape);
      if (op == OpKind::Slice) {
        std::optional<int64_t> start = attrs.start.constantValue(), stop = attrs.stop.constantValue();
        if (start && stop) return sliceWindow(in[0], attrs.axis, *start, *stop);
      }
      return std::nullopt;
    default: return std::nullopt;  // cast, sources, merge: the reference
  }
}

std::vector<Tensor> contiguousAll(const std::vector<Tensor>& inputs) {
  std::vector<Tensor> out;
  out.reserve(inputs.size());
  for (const Tensor& t : inputs) out.push_back(t.contiguous());
  return out;
}

}  // namespace

Tensor evalOp(OpKind op, const OpAttrs& attrs, const std::vector<Tensor>& inputs, DType outDType,
              const std::vector<int64_t>& outShape, const KernelOptions& options) {
  const bool strided = std::any_of(inputs.begin(), inputs.end(), [](const Tensor& t) { return !t.isContiguous(); });
  if (strided && !readsStridedViews(op)) return evalOp(op, attrs, contiguousAll(inputs), outDType, outShape, options);
  std::optional<Tensor> result;
  for (int64_t d : outShape)
    if (d < 0) return ref::evalOp(op, attrs, strided ? contiguousAll(inputs) : inputs, outDType, outShape);
  result = fast(op, attrs, inputs, outDType, outShape, options);
  // Anything unspecialised or not matching the declared type: the reference computes it or throws its error.
  if (!result || result->dtype() != outDType || result->shape() != outShape)
    return ref::evalOp(op, attrs, strided ? contiguousAll(inputs) : inputs, outDType, outShape);
  return std::move(*result);
}

Tensor evalOp(OpKind op, const OpAttrs& attrs, const std::vector<Tensor>& inputs, DType outDType,
              const std::vector<int64_t>& outShape) {
  return evalOp(op, attrs, inputs, outDType, outShape, KernelOptions{});
}

}  // namespace tempo::cpu
