// CudaKernels: CUDA C++ for the generated kernels of a KernelProgram (issue 13).
//
// The same kernels the LLVM backend compiles (Kernel.h: elementwise nodes and
// fused elementwise groups) become `extern "C" __global__` functions of one
// CUDA C++ translation unit, one function per distinct code (kernelCodeKey),
// named after the first kernel with it. Every function has one parameter list:
//   (OutT* out, const In0T* in0, ..., int64 d0, ..., int64 d{rank-1}, int64 n)
// `d` are the output's sizes at this run's bounds and n their product. A
// grid-stride loop maps each thread to output elements, in 32-bit indices
// below 2^30 elements (integer division is several times cheaper) and 64-bit
// above; an input's offset is the element's index where it is not broadcast,
// else recomputed from the coordinates with stride 0 along its broadcast
// dimensions. Numerics follow the CPU kernels operation for operation (the
// helpers of cudaDevicePrelude, built with NVRTC's --fmad=false so nothing is
// contracted into an FMA): f32 exp, sigmoid and tanh bit for bit; log, sin,
// cos, pow and the f64 transcendentals use CUDA's double-precision functions,
// within an ulp or two of glibc's. Beside the source come host entries, one
// per function, that run its grid as loops: the same text compiled for the
// CPU after cudaHostShim() is tested against the reference kernels on every
// commit (host emulation).
#pragma once

#include "kernels/Kernel.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace tempo {

/// The CUDA source of a program's generated kernels.
struct CudaSource {
  std::string text;                            ///< the prelude, then every distinct function
  std::string hostEntries;                     ///< host emulation: one entry per function (cudaHostEntryName)
  std::map<std::string, std::string> function; ///< kernel name -> the function that runs it
  std::vector<std::string> functions;          ///< the distinct functions, in order
  /// The text of one function (`function.at(kernel)`), without the prelude.
  std::map<std::string, std::string> functionText;
  /// The functions that are reductions (CudaReductions.h): launched one block per output
  /// element, with the input's sizes as `d` and n the output's element count.
  std::set<std::string> reductions;
};

/// CUDA C++ for every generated kernel and every reduction (cudaReduces) of `kernels`;
/// function names get `prefix`
/// (so several programs can share one translation unit).
CudaSource emitCudaKernels(const KernelProgram& kernels, const std::string& prefix = "");

/// The device helpers every emitted translation unit starts with (types, exp, tanh, casts).
const std::string& cudaDevicePrelude();

/// A header that lets the emitted source compile as host C++ (C++20, -pthread):
/// __global__ and friends defined away, blockIdx/threadIdx as thread-local
/// variables, CUDA's bit-cast intrinsics as their host equivalents, __shared__
/// as static storage and __syncthreads as a barrier of the block's host threads.
const std::string& cudaHostShim();

/// The uniform host entry of an emitted function (CudaSource::hostEntries):
///   void <function>_host(void* out, const void* const* in, const int64_t* dims, int blocks, int threads)
std::string cudaHostEntryName(const std::string& function);

}  // namespace tempo
