// HeapTrim: the heap's free pages given back to the system as a run's live bytes reach new highs.
//
// A run frees and allocates tensors all the time, and values whose size grows
// with the step (a growing window's scores, a partial block) leave freed
// chunks behind that later, longer-lived values do not fit. glibc keeps such
// holes resident, so the process's memory would follow the heap's history
// rather than what the run holds (decode at S = 1024: ~4 MiB above the live
// bytes). When the executor's tracked live bytes pass the last mark by `step`
// (a new high: the heap is about to grow), HeapTrim calls malloc_trim(0),
// which returns every free page inside the heap (madvise) and its free top;
// the pages come back as zeros when the heap reuses them. A run makes at most
// peak / step calls, each a walk of the free lists (tens of µs), and none once
// its peak is reached (a training loop's later iterations, a decode's steady
// state). docs/memory.md, "Resident memory follows the live bytes".
//
// `keepLargeBuffersOutOfTheHeap` is the other half of the policy, once per
// process: glibc maps a buffer above its mmap threshold on its own, but the
// threshold starts at 128 KiB and rises to the size of any mapped buffer freed
// (up to 32 MiB), so after a run frees one multi-MiB value (decode's per-layer
// weight assembly) every later buffer below that size comes from the heap and
// leaves holes there: +16% resident over the live bytes at T = 16. A fixed
// 1 MiB threshold maps every buffer of 1 MiB and more (returned whole when
// freed) and keeps the smaller, per-step ones in the heap, where reuse is cheap.
#pragma once

#include <cstdint>

namespace tempo {

/// glibc's mmap threshold as keepLargeBuffersOutOfTheHeap fixes it: a buffer this large
/// is a fresh mapping, its pages faulted in on first touch, each time it is allocated.
inline constexpr int64_t kMappedBufferBytes = int64_t(1) << 20;

/// Sets glibc's mmap threshold to 1 MiB, fixed (no longer raised by frees); once per process.
void keepLargeBuffersOutOfTheHeap();

class HeapTrim {
public:
  explicit HeapTrim(int64_t step = int64_t(1) << 20) : step_(step), next_(step) {}

  /// The tracked live bytes now; trims when they reach the next mark.
  void live(int64_t bytes) {
    if (bytes >= next_) trim(bytes);
  }
  int64_t trims() const { return trims_; }  ///< calls so far (for tests and the run's stats)

private:
  void trim(int64_t bytes);

  int64_t step_, next_;
  int64_t trims_ = 0;
};

}  // namespace tempo
