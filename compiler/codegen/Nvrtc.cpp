// NVRTC behind a small interface; see Nvrtc.h.
#include "codegen/Nvrtc.h"

#include <stdexcept>

#ifdef TEMPO_HAVE_CUDA
#include <nvrtc.h>
#endif

namespace tempo {

#ifdef TEMPO_HAVE_CUDA

namespace {

void check(nvrtcResult r, const char* what) {
  if (r != NVRTC_SUCCESS) throw std::runtime_error(std::string("NVRTC: ") + what + ": " + nvrtcGetErrorString(r));
}

/// Owns an nvrtcProgram.
struct Program {
  nvrtcProgram handle = nullptr;
  ~Program() {
    if (handle) nvrtcDestroyProgram(&handle);
  }
};

}  // namespace

bool nvrtcAvailable() { return true; }

std::string nvrtcVersion() {
  int major = 0, minor = 0;
  if (::nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "unknown";
  return std::to_string(major) + "." + std::to_string(minor);
}

NvrtcOutput compileCuda(const std::string& source, const std::string& name, const NvrtcOptions& options) {
  Program program;
  check(nvrtcCreateProgram(&program.handle, source.c_str(), name.c_str(), 0, nullptr, nullptr), "create program");
  // A real architecture (sm_) gives a CUBIN; PTX is produced for its virtual twin either way.
  const std::string arch = "--gpu-architecture=" + options.arch;
  std::vector<const char*> args{arch.c_str(), "--fmad=false", "--prec-div=true", "--prec-sqrt=true", "-std=c++17"};
  if (options.lineInfo) args.push_back("-lineinfo");
  nvrtcResult compiled = nvrtcCompileProgram(program.handle, static_cast<int>(args.size()), args.data());
  NvrtcOutput out;
  size_t logSize = 0;
  check(nvrtcGetProgramLogSize(program.handle, &logSize), "log size");
  if (logSize > 1) {
    out.log.resize(logSize);
    check(nvrtcGetProgramLog(program.handle, out.log.data()), "log");
    out.log.resize(logSize - 1);  // the terminating NUL
  }
  if (compiled != NVRTC_SUCCESS)
    throw std::runtime_error("NVRTC could not compile " + name + " for " + options.arch + ":\n" + out.log);
  size_t ptxSize = 0;
  check(nvrtcGetPTXSize(program.handle, &ptxSize), "PTX size");
  out.ptx.resize(ptxSize);
  check(nvrtcGetPTX(program.handle, out.ptx.data()), "PTX");
  if (!out.ptx.empty() && out.ptx.back() == '\0') out.ptx.pop_back();
  if (options.cubin) {
    size_t cubinSize = 0;
    check(nvrtcGetCUBINSize(program.handle, &cubinSize), "CUBIN size");
    out.cubin.resize(cubinSize);
    check(nvrtcGetCUBIN(program.handle, out.cubin.data()), "CUBIN");
  }
  return out;
}

#else

bool nvrtcAvailable() { return false; }
std::string nvrtcVersion() { return "none"; }

NvrtcOutput compileCuda(const std::string&, const std::string& name, const NvrtcOptions&) {
  throw std::runtime_error("cannot compile " + name + " for the GPU: this build of Tempo has no CUDA toolkit "
                           "(install CUDA 13 at /usr/local/cuda and reconfigure)");
}

#endif

}  // namespace tempo
