// ProcessMemory: the resident memory of this process, as the peers measure it.
//
// The PyTorch peers report ru_maxrss (the process's peak resident set) and
// the RSS after start-up; the driver reports the same two numbers so peak
// memory can be compared process to process, next to the executor's own
// logical count (MemoryTracker), which excludes the process's code and heap.
#pragma once

namespace tempo::bench {

double peakRssMiB();     ///< getrusage ru_maxrss, in MiB
double currentRssMiB();  ///< VmRSS from /proc/self/status, in MiB (NaN if unreadable)

}  // namespace tempo::bench
