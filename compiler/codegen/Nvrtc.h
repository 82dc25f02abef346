// Nvrtc: CUDA C++ to PTX and CUBIN with NVIDIA's runtime compiler (issue 13).
//
// NVRTC needs no GPU and no driver, so every generated kernel is compiled for
// the target architecture (sm_90, the H200's, unless told otherwise) on any
// machine with the CUDA toolkit, CI included. The options keep the CPU
// kernels' numerics: --fmad=false (no multiply-add contraction), IEEE division
// and square root (no --use_fast_math). A build without the toolkit
// (TEMPO_HAVE_CUDA undefined) still links: `nvrtcAvailable()` is false and
// compiling throws a clear error.
#pragma once

#include <string>
#include <vector>

namespace tempo {

struct NvrtcOptions {
  std::string arch = "sm_90";  ///< the GPU architecture: sm_90 for Hopper (H100, H200)
  bool cubin = true;           ///< also produce the CUBIN (machine code), not only PTX
  bool lineInfo = false;       ///< -lineinfo, for profilers
};

struct NvrtcOutput {
  std::string ptx;
  std::vector<char> cubin;  ///< empty unless NvrtcOptions::cubin
  std::string log;          ///< NVRTC's messages (warnings), even on success
};

/// False when this build has no CUDA toolkit.
bool nvrtcAvailable();
/// NVRTC's version, as "13.0", or "none".
std::string nvrtcVersion();

/// Compiles `source` (named `name` in messages). Throws std::runtime_error with
/// NVRTC's log when the source does not compile.
NvrtcOutput compileCuda(const std::string& source, const std::string& name, const NvrtcOptions& options = {});

}  // namespace tempo
