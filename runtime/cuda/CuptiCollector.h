// CuptiCollector: what the GPU did, from CUPTI's Activity API (issue 13).
//
// Between start() and stop() CUPTI records every kernel (with its name,
// stream, grid and correlation id: the id of the host-side launch, which maps
// a record back to the statement that launched it), every memcpy and every
// memset, with device timestamps in nanoseconds. CUPTI hands its buffers back
// through callbacks that take no user data, so one collector at a time is
// active in a process (a second start() says so). When another CUPTI client
// holds the device (a program run under Nsight Systems), start() returns false
// with that reason and the run goes on without GPU timings; the same without a
// GPU or without CUDA in this build.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tempo::cuda {

struct GpuActivity {
  enum class Kind { Kernel, Memcpy, Memset };
  Kind kind = Kind::Kernel;
  std::string name;  ///< the kernel's function; "memcpy HtoD" etc. for copies
  uint64_t startNs = 0, endNs = 0;
  uint32_t device = 0, stream = 0, correlation = 0;
  uint64_t bytes = 0;  ///< memcpy / memset
  int32_t gridX = 0, blockX = 0;  ///< kernels
};

class CuptiCollector {
public:
  CuptiCollector() = default;
  ~CuptiCollector();
  CuptiCollector(const CuptiCollector&) = delete;
  CuptiCollector& operator=(const CuptiCollector&) = delete;

  /// Starts recording; false with `why` set when CUPTI cannot record here.
  bool start(std::string& why);
  /// Stops, flushes CUPTI's buffers and returns the records in start order.
  std::vector<GpuActivity> stop();
  bool active() const { return active_; }

private:
  bool active_ = false;
};

/// The records as a Chrome trace (Perfetto, chrome://tracing): a track per device and
/// stream, times in microseconds from the first record.
std::string gpuActivityChromeTrace(const std::vector<GpuActivity>& records, const std::string& deviceName);

}  // namespace tempo::cuda
