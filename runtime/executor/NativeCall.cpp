#include "executor/NativeCall.h"

#include "kernels/cpu/Parallel.h"

#include <array>

namespace tempo {

bool nativeCallFits(const NativeKernel& kernel, const std::vector<Tensor>& args, const std::vector<int64_t>& shape) {
  if (args.size() != kernel.inputDTypes.size() || shape.size() != kernel.rank) return false;
  for (size_t i = 0; i < args.size(); ++i) {
    const Tensor& a = args[i];
    const std::vector<bool>& broadcast = kernel.broadcast[i];
    if (a.dtype() != kernel.inputDTypes[i] || a.shape().size() > shape.size() || !a.isContiguous()) return false;
    size_t lead = shape.size() - a.shape().size();
    for (size_t j = 0; j < shape.size(); ++j) {
      if (j < lead) {
        if (!broadcast[j]) return false;
        continue;
      }
      int64_t size = a.shape()[j - lead];
      if (size != (broadcast[j] ? 1 : shape[j])) return false;
    }
  }
  return true;
}

std::optional<Tensor> callNative(const NativeKernel& kernel, const std::vector<Tensor>& args,
                                 const std::vector<int64_t>& shape) {
  if (!nativeCallFits(kernel, args, shape)) return std::nullopt;
  Tensor out = Tensor::uninitialized(kernel.dtype, shape);
  if (out.numel() == 0) return out;
  // The input addresses on the stack for the usual few inputs (a heap vector was a malloc per call).
  constexpr size_t kInline = 16;
  std::array<const void*, kInline> inlineInputs;
  std::vector<const void*> heapInputs;
  const void** inputs = inlineInputs.data();
  if (args.size() > kInline) heapInputs.resize(args.size()), inputs = heapInputs.data();
  for (size_t i = 0; i < args.size(); ++i) inputs[i] = args[i].raw();
  void* result = out.raw();
  if (shape.empty()) {
    kernel.fn(result, inputs, shape.data(), 0, 1);
    return out;
  }
  int64_t row = out.numel() / shape[0];
  cpu::parallelFor(shape[0], row * kernel.stepsPerElement,
                   [&](int64_t begin, int64_t end) { kernel.fn(result, inputs, shape.data(), begin, end); });
  return out;
}

}  // namespace tempo
