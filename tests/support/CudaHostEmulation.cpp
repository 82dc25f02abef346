// Host emulation of the generated CUDA kernels; see CudaHostEmulation.h.
#include "support/CudaHostEmulation.h"

#include <dlfcn.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace tempo::testing {

namespace {

using HostEntry = void (*)(void*, const void* const*, const int64_t*, int, int);

/// Runs `command`, returning its exit status and its output (stdout and stderr).
int runCommand(const std::string& command, std::string& output) {
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run " + command);
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) output.append(buf, n);
  return ::pclose(pipe);
}

}  // namespace

EmulatedCuda::EmulatedCuda(const CudaSource& source, const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / "emulated.cpp", library = dir / "emulated.so";
  {
    std::ofstream out(file);
    out << cudaHostShim() << source.text << "\n" << source.hostEntries;
  }
  std::string output;
  const std::string command = std::string(TEMPO_HOST_CXX) + " -std=c++20 -pthread -O1 -ffp-contract=off -fPIC -shared -w -o " +
                              library.string() + " " + file.string();
  if (runCommand(command, output) != 0) throw std::runtime_error("the emulated CUDA source does not compile:\n" + output);
  handle_ = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) throw std::runtime_error(std::string("cannot load the emulated kernels: ") + ::dlerror());
}

EmulatedCuda::~EmulatedCuda() {
  if (handle_) ::dlclose(handle_);
}

namespace {

/// Runs `function`'s host entry in `handle` on contiguous copies of `inputs` with these
/// sizes as the kernel's `d`, into a fresh output of `dtype` and `shape`.
Tensor runEntry(void* handle, const std::string& function, DType dtype, const std::vector<int64_t>& shape,
                const std::vector<Tensor>& inputs, const std::vector<int64_t>& dims, int blocks, int threads) {
  auto entry = reinterpret_cast<HostEntry>(::dlsym(handle, cudaHostEntryName(function).c_str()));
  if (!entry) throw std::runtime_error("no emulated kernel " + function);
  Tensor out(dtype, shape);
  std::vector<Tensor> contiguous;
  std::vector<const void*> pointers;
  for (const Tensor& t : inputs) contiguous.push_back(t.contiguous());
  for (const Tensor& t : contiguous) pointers.push_back(t.raw());
  entry(out.raw(), pointers.data(), dims.data(), blocks, threads);
  return out;
}

}  // namespace

Tensor EmulatedCuda::run(const std::string& function, DType dtype, const std::vector<int64_t>& shape,
                         const std::vector<Tensor>& inputs, int blocks, int threads) const {
  return runEntry(handle_, function, dtype, shape, inputs, shape, blocks, threads);
}

Tensor EmulatedCuda::runReduction(const std::string& function, DType dtype, const std::vector<int64_t>& shape,
                                  const Tensor& input, int blocks, int threads) const {
  return runEntry(handle_, function, dtype, shape, {input}, input.shape(), blocks, threads);  // the input's sizes
}

Tensor EmulatedCuda::runKernel(const CudaSource& source, const Kernel& k, const std::vector<int64_t>& shape,
                               const std::vector<Tensor>& inputs, int reductionThreads) const {
  const std::string& function = source.function.at(k.name);
  return source.reductions.count(function) ? runReduction(function, k.dtype, shape, inputs.at(0), 3, reductionThreads)
                                           : run(function, k.dtype, shape, inputs);
}

}  // namespace tempo::testing
