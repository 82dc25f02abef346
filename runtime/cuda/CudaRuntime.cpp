// CUDA's runtime API behind owned objects; see CudaRuntime.h. Without the
// toolkit (TEMPO_HAVE_CUDA undefined) the probe says so and every object throws.
#include "cuda/CudaRuntime.h"

#include <algorithm>

#ifdef TEMPO_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace tempo::cuda {

#ifdef TEMPO_HAVE_CUDA

namespace {

void check(cudaError_t r, const char* call) {
  if (r != cudaSuccess) {
    cudaGetLastError();  // clear it, so the next call does not report it again
    throw CudaError(std::string(call) + " failed: " + cudaGetErrorName(r) + " (" + cudaGetErrorString(r) + ")");
  }
}

}  // namespace

CudaProbe probeCuda() {
  CudaProbe probe;
  cudaRuntimeGetVersion(&probe.runtimeVersion);
  cudaError_t driver = cudaDriverGetVersion(&probe.driverVersion);
  int count = 0;
  cudaError_t r = cudaGetDeviceCount(&count);
  if (r != cudaSuccess || count == 0) {
    cudaGetLastError();
    if (driver != cudaSuccess || probe.driverVersion == 0)
      probe.reason = "no NVIDIA driver on this machine (libcuda.so.1 not found): there is no GPU to run on";
    else if (r == cudaErrorInsufficientDriver)
      probe.reason = "the NVIDIA driver (" + std::to_string(probe.driverVersion) + ") is older than CUDA " +
                     std::to_string(probe.runtimeVersion) + " needs";
    else if (r != cudaSuccess)
      probe.reason = std::string("no usable GPU: ") + cudaGetErrorName(r) + " (" + cudaGetErrorString(r) + ")";
    else
      probe.reason = "the NVIDIA driver sees no GPU";
    return probe;
  }
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
    probe.devices.push_back({i, p.name, p.major, p.minor, p.multiProcessorCount, p.totalGlobalMem, p.memoryBusWidth});
  }
  probe.usable = !probe.devices.empty();
  if (!probe.usable) probe.reason = "the GPUs' properties could not be read";
  return probe;
}

DeviceBuffer::DeviceBuffer(size_t bytes) : bytes_(bytes) {
  check(cudaMalloc(&data_, bytes == 0 ? 1 : bytes), "cudaMalloc");
}
DeviceBuffer::~DeviceBuffer() {
  if (data_) cudaFree(data_);
}
DeviceBuffer::DeviceBuffer(DeviceBuffer&& o) noexcept : data_(o.data_), bytes_(o.bytes_) { o.data_ = nullptr, o.bytes_ = 0; }
DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  if (this != &o) {
    if (data_) cudaFree(data_);
    data_ = o.data_, bytes_ = o.bytes_;
    o.data_ = nullptr, o.bytes_ = 0;
  }
  return *this;
}
void DeviceBuffer::upload(const void* host, size_t bytes) { check(cudaMemcpy(data_, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (to the GPU)"); }
void DeviceBuffer::download(void* host, size_t bytes) const { check(cudaMemcpy(host, data_, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy (from the GPU)"); }
void DeviceBuffer::fill(int byte) { check(cudaMemset(data_, byte, bytes_), "cudaMemset"); }
void DeviceBuffer::copyFrom(const DeviceBuffer& other, void* stream) {
  check(cudaMemcpyAsync(data_, other.data_, std::min(bytes_, other.bytes_), cudaMemcpyDeviceToDevice,
                        static_cast<cudaStream_t>(stream)),
        "cudaMemcpyAsync (on the GPU)");
}

CudaDevice::CudaDevice(int index) {
  CudaProbe probe = probeCuda();
  if (!probe.usable) throw CudaError(probe.reason);
  if (index < 0 || index >= static_cast<int>(probe.devices.size()))
    throw CudaError("no GPU cuda:" + std::to_string(index) + ": this machine has " + std::to_string(probe.devices.size()));
  info_ = probe.devices[index];
  check(cudaSetDevice(index), "cudaSetDevice");
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  stream_ = s;
}
CudaDevice::~CudaDevice() {
  if (stream_) cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
}
void CudaDevice::synchronize() const { check(cudaStreamSynchronize(static_cast<cudaStream_t>(stream_)), "cudaStreamSynchronize"); }

CudaModule::CudaModule(const std::vector<char>& cubin) {
  cudaLibrary_t library = nullptr;
  check(cudaLibraryLoadData(&library, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0), "cudaLibraryLoadData");
  library_ = library;
}
CudaModule::~CudaModule() {
  if (library_) cudaLibraryUnload(static_cast<cudaLibrary_t>(library_));
}
void CudaModule::launch(const std::string& name, unsigned blocks, unsigned threads, void** args, void* stream) const {
  auto found = kernels_.find(name);
  if (found == kernels_.end()) {
    cudaKernel_t k = nullptr;
    check(cudaLibraryGetKernel(&k, static_cast<cudaLibrary_t>(library_), name.c_str()), ("cudaLibraryGetKernel " + name).c_str());
    found = kernels_.emplace(name, k).first;
  }
  auto kernel = static_cast<cudaKernel_t>(found->second);
  check(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(blocks), dim3(threads), args, 0,
                         static_cast<cudaStream_t>(stream)),
        ("cudaLaunchKernel " + name).c_str());
}

CudaTimer::CudaTimer(void* stream) : stream_(stream) {
  cudaEvent_t b = nullptr, e = nullptr;
  check(cudaEventCreate(&b), "cudaEventCreate");
  check(cudaEventCreate(&e), "cudaEventCreate");
  begin_ = b, end_ = e;
}
CudaTimer::~CudaTimer() {
  cudaEventDestroy(static_cast<cudaEvent_t>(begin_));
  cudaEventDestroy(static_cast<cudaEvent_t>(end_));
}
void CudaTimer::start() { check(cudaEventRecord(static_cast<cudaEvent_t>(begin_), static_cast<cudaStream_t>(stream_)), "cudaEventRecord"); }
double CudaTimer::stopMilliseconds() {
  check(cudaEventRecord(static_cast<cudaEvent_t>(end_), static_cast<cudaStream_t>(stream_)), "cudaEventRecord");
  check(cudaEventSynchronize(static_cast<cudaEvent_t>(end_)), "cudaEventSynchronize");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(begin_), static_cast<cudaEvent_t>(end_)), "cudaEventElapsedTime");
  return ms;
}

#else

namespace {
[[noreturn]] void noCuda() { throw CudaError("this build of Tempo has no CUDA toolkit (install CUDA 13 at /usr/local/cuda and reconfigure)"); }
}  // namespace

CudaProbe probeCuda() {
  CudaProbe probe;
  probe.reason = "this build of Tempo has no CUDA toolkit (install CUDA 13 at /usr/local/cuda and reconfigure)";
  return probe;
}
DeviceBuffer::DeviceBuffer(size_t) { noCuda(); }
DeviceBuffer::~DeviceBuffer() = default;
DeviceBuffer::DeviceBuffer(DeviceBuffer&&) noexcept = default;
DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&&) noexcept = default;
void DeviceBuffer::upload(const void*, size_t) { noCuda(); }
void DeviceBuffer::download(void*, size_t) const { noCuda(); }
void DeviceBuffer::fill(int) { noCuda(); }
void DeviceBuffer::copyFrom(const DeviceBuffer&, void*) { noCuda(); }
CudaDevice::CudaDevice(int) { noCuda(); }
CudaDevice::~CudaDevice() = default;
void CudaDevice::synchronize() const { noCuda(); }
CudaModule::CudaModule(const std::vector<char>&) { noCuda(); }
CudaModule::~CudaModule() = default;
void CudaModule::launch(const std::string&, unsigned, unsigned, void**, void*) const { noCuda(); }
CudaTimer::CudaTimer(void* stream) : stream_(stream) { noCuda(); }
CudaTimer::~CudaTimer() = default;
void CudaTimer::start() { noCuda(); }
double CudaTimer::stopMilliseconds() { noCuda(); }

#endif

}  // namespace tempo::cuda
