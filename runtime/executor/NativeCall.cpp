#include "executor/NativeCall.h"

#include "kernels/cpu/Parallel.h"

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
  std::vector<const void*> inputs;
  inputs.reserve(args.size());
  for (const Tensor& a : args) inputs.push_back(a.raw());
  void* result = out.raw();
  if (shape.empty()) {
    kernel.fn(result, inputs.data(), shape.data(), 0, 1);
    return out;
  }
  int64_t row = out.numel() / shape[0];
  cpu::parallelFor(shape[0], row * kernel.stepsPerElement,
                   [&](int64_t begin, int64_t end) { kernel.fn(result, inputs.data(), shape.data(), begin, end); });
  return out;
}

}  // namespace tempo
