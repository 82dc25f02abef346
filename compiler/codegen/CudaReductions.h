// CudaReductions: reduce_sum, reduce_max and argmax as CUDA kernels (issue 13).
//
// A reduction that kernel formation gives the library (Kernel.h; its axes and
// keepDims) becomes one `extern "C" __global__` function with the elementwise
// kernels' parameter list, except that `d` are the *input's* sizes and n the
// output's element count: one block per output element (a grid-stride loop
// over them), each thread folding a strided share of the reduced elements,
// then a tree in `__shared__` memory with `__syncthreads` between its levels
// (blockDim a power of two up to 256). Float sums accumulate in double and
// round once, as the CPU kernel does, in another order; integer sums wrap;
// maximum propagates NaN and starts from -inf or the lowest integer; argmax
// keeps a (value, index) pair, the first NaN or the first maximum winning as
// in the reference's scan, so its result is exact. Its host
// entry runs each block's threads as host threads meeting at a barrier
// (cudaHostShim). emitCudaKernels (CudaKernels.h) calls these.
#pragma once

#include "kernels/Kernel.h"

#include <string>

namespace tempo {

/// True when `k` (a library kernel) is a reduction the CUDA backend emits: reduce_sum or
/// reduce_max of an f32, f64, i32 or i64 tensor over one or more of its axes, or its
/// argmax along one axis (i64 indices).
bool cudaReduces(const Kernel& k);

/// Everything a reduction's code depends on: equal keys, one function.
std::string cudaReductionKey(const Kernel& k);
/// The reduction `k` as the function `name`.
std::string emitCudaReduction(const Kernel& k, const std::string& name);
/// Its host entry (cudaHostEntryName(name)): blocks one by one, a block's threads as host threads.
std::string emitCudaReductionHostEntry(const Kernel& k, const std::string& name);

}  // namespace tempo
