// CudaRuntime: the GPU as the runtime sees it, through CUDA's runtime API (issue 13).
//
// Owned objects, no globals: `probeCuda` says whether a GPU can be used and,
// when not, why (no toolkit in this build, no driver, no device), in words a
// user can act on; a `CudaDevice` is one GPU made current with its own stream;
// `DeviceBuffer` is device memory freed with its owner; `CudaModule` is a CUBIN
// loaded into the process (cudaLibraryLoadData: no link against the driver,
// which only exists beside a GPU) whose kernels are launched on a stream;
// `CudaTimer` brackets work with events. Every CUDA error becomes a
// `CudaError` naming the call. This layer knows nothing of Tempo's tensors or
// kernels: the device check (bench/gpu) builds on it alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace tempo::cuda {

struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct DeviceInfo {
  int index = 0;
  std::string name;          ///< "NVIDIA H200"
  int major = 0, minor = 0;  ///< compute capability: 9.0 for Hopper
  int multiprocessors = 0;
  size_t memoryBytes = 0;
  int memoryBusBits = 0;
  std::string arch() const { return "sm_" + std::to_string(major) + std::to_string(minor); }
};

struct CudaProbe {
  bool usable = false;
  std::string reason;  ///< why not, when not usable
  int runtimeVersion = 0, driverVersion = 0;
  std::vector<DeviceInfo> devices;
};

/// Whether this build has CUDA and this machine a GPU; never throws.
CudaProbe probeCuda();

/// Device memory, freed on destruction.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  void* data() const { return data_; }
  size_t bytes() const { return bytes_; }
  void upload(const void* host, size_t bytes);
  void download(void* host, size_t bytes) const;
  void fill(int byte);
  /// Copies `other`'s bytes (as many as both hold) on `stream` (a cudaStream_t), asynchronously.
  void copyFrom(const DeviceBuffer& other, void* stream);

private:
  void* data_ = nullptr;
  size_t bytes_ = 0;
};

/// One GPU, made current, with a stream of its own.
class CudaDevice {
public:
  explicit CudaDevice(int index);  ///< throws CudaError when there is no such device
  ~CudaDevice();
  CudaDevice(const CudaDevice&) = delete;
  CudaDevice& operator=(const CudaDevice&) = delete;
  const DeviceInfo& info() const { return info_; }
  void* stream() const { return stream_; }  ///< a cudaStream_t
  void synchronize() const;

private:
  DeviceInfo info_;
  void* stream_ = nullptr;
};

/// A CUBIN loaded into the current device; its kernels launched by name.
class CudaModule {
public:
  explicit CudaModule(const std::vector<char>& cubin);
  ~CudaModule();
  CudaModule(const CudaModule&) = delete;
  CudaModule& operator=(const CudaModule&) = delete;
  /// Launches kernel `name` with `args` (pointers to each argument's value) on `stream`.
  void launch(const std::string& name, unsigned blocks, unsigned threads, void** args, void* stream) const;

private:
  void* library_ = nullptr;  ///< a cudaLibrary_t
  mutable std::map<std::string, void*> kernels_;  ///< name -> cudaKernel_t, looked up once
};

/// Elapsed device time between two events recorded on a stream.
class CudaTimer {
public:
  explicit CudaTimer(void* stream);
  ~CudaTimer();
  void start();
  double stopMilliseconds();  ///< waits for the stream

private:
  void* stream_;
  void* begin_ = nullptr;
  void* end_ = nullptr;
};

}  // namespace tempo::cuda
