#include "driver/ProcessMemory.h"

#include "tensor/MappedBufferCache.h"

#include <malloc.h>
#include <sys/resource.h>

#include <fstream>
#include <limits>
#include <string>

namespace tempo::bench {

double peakRssMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // KiB on Linux
}

namespace {

/// A field of /proc/self/status (`VmRSS:`, `VmHWM:`) in MiB, or NaN.
double statusMiB(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == field) {
      double kib = 0;
      status >> kib;
      return kib / 1024.0;
    }
    status.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

double currentRssMiB() { return statusMiB("VmRSS:"); }

bool resetPeakRss() {
  releaseCachedBuffers();
  malloc_trim(0);
  return static_cast<bool>(std::ofstream("/proc/self/clear_refs") << "5");
}

double peakRssSinceResetMiB() { return statusMiB("VmHWM:"); }

}  // namespace tempo::bench
