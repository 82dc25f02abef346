// NativeCall: running one generated kernel (codegen/NativeModule.h) on tensors.
//
// `callNative` checks the gathered inputs against what the kernel was formed
// for — their count, dtypes and ranks, and that each size is the output's
// where the input is not broadcast and 1 where it is — allocates the output
// and calls the kernel's function on raw pointers, split over the cores along
// the output's first dimension (kernels/cpu/Parallel.h). A mismatch returns
// nullopt and the caller runs the library kernel, so a generated kernel never
// produces a value of a shape it was not formed for.
#pragma once

#include "codegen/NativeModule.h"
#include "tensor/Tensor.h"

#include <optional>
#include <vector>

namespace tempo {

/// True when `args` and the output `shape` are what `kernel` was formed for.
bool nativeCallFits(const NativeKernel& kernel, const std::vector<Tensor>& args, const std::vector<int64_t>& shape);
/// The kernel's value over `args`, or nullopt when they do not fit it.
std::optional<Tensor> callNative(const NativeKernel& kernel, const std::vector<Tensor>& args,
                                 const std::vector<int64_t>& shape);

}  // namespace tempo
