// ProcessMemory: the resident memory of this process, as the peers measure it.
//
// The PyTorch peers report ru_maxrss (the process's peak resident set) and
// the RSS after start-up; the driver reports the same two numbers so peak
// memory can be compared process to process, next to the executor's own
// logical count (MemoryTracker), which excludes the process's code and heap.
// A compile's transient memory (isl, pass snapshots) sits in ru_maxrss too, so
// the peak of the runs alone is measured as well, from a reset mark.
#pragma once

namespace tempo::bench {

double peakRssMiB();     ///< getrusage ru_maxrss, in MiB
double currentRssMiB();  ///< VmRSS from /proc/self/status, in MiB (NaN if unreadable)

/// Returns freed heap and cached mappings to the system (malloc_trim,
/// releaseCachedBuffers) and resets the kernel's
/// peak-RSS mark (/proc/self/clear_refs), so that peakRssSinceResetMiB()
/// measures what follows alone (the run after the compile). False if the
/// mark could not be reset.
bool resetPeakRss();
double peakRssSinceResetMiB();  ///< VmHWM from /proc/self/status, in MiB (NaN if unreadable)

}  // namespace tempo::bench
