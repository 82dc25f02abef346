// CudaHostEmulation: the generated CUDA kernels run on the CPU (issue 13).
//
// The emitted CUDA C++ (codegen/CudaKernels.h) is compiled by the host C++
// compiler after cudaHostShim(), with the host entries that run each kernel's
// grid as loops over blocks and threads, into a shared library that is then
// loaded. Tests run a kernel this way on the same inputs as the CPU or
// reference kernels and compare, so the GPU kernels' text and numerics are
// checked on every commit without a GPU. Compiled without contraction
// (-ffp-contract=off), as NVRTC compiles them (--fmad=false).
#pragma once

#include "codegen/CudaKernels.h"
#include "tensor/Tensor.h"

#include <filesystem>
#include <string>
#include <vector>

namespace tempo::testing {

class EmulatedCuda {
public:
  /// Compiles `source` into `dir`/emulated.so and loads it; throws std::runtime_error
  /// with the compiler's messages when it does not compile.
  EmulatedCuda(const CudaSource& source, const std::filesystem::path& dir);
  ~EmulatedCuda();
  EmulatedCuda(const EmulatedCuda&) = delete;
  EmulatedCuda& operator=(const EmulatedCuda&) = delete;

  /// Runs `function` over a grid of `blocks` x `threads` with outputs of `dtype`
  /// and `shape`; inputs are contiguous and laid out as the kernel reads them.
  Tensor run(const std::string& function, DType dtype, const std::vector<int64_t>& shape,
             const std::vector<Tensor>& inputs, int blocks = 3, int threads = 64) const;
  /// Runs the reduction `function` (CudaSource::reductions) of `input` into an output of
  /// `dtype` and `shape`: the kernel takes the input's sizes. `threads`, a power of two,
  /// run as host threads meeting at each __syncthreads.
  Tensor runReduction(const std::string& function, DType dtype, const std::vector<int64_t>& shape,
                      const Tensor& input, int blocks = 3, int threads = 8) const;

  /// The kernel `k` of `source` on `inputs`, either kind: an elementwise kernel over the
  /// output `shape`, or a reduction of inputs[0] with `reductionThreads` per block (each
  /// __syncthreads wakes them all: 2 keeps the many reductions of whole programs cheap
  /// while still running the tree and its barriers).
  Tensor runKernel(const CudaSource& source, const Kernel& k, const std::vector<int64_t>& shape,
                   const std::vector<Tensor>& inputs, int reductionThreads = 2) const;

private:
  void* handle_ = nullptr;
};

}  // namespace tempo::testing
