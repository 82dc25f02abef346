// MemoryTracker: live and peak bytes of the executor's tensor stores.
//
// Every store reports the bytes it starts or stops holding, tagged with its
// node; the tracker keeps the live total, the peak of that total over the run,
// and the same two numbers per node. Bytes are the logical size of the values
// a store holds (numel * dtype size, as a compiled engine would allocate them),
// not what the host allocator happens to share. Bytes moved out by SwapOut are
// counted apart as swapped (host memory, not live). Nodes marked as graph
// outputs are also left out of a second peak, the peak of everything else
// (what a streaming program keeps bounded while its outputs grow). Releasing
// more than a node holds is a logic error.
#pragma once

#include <cstdint>
#include <map>
#include <set>

namespace tempo {

class MemoryTracker {
public:
  void allocate(int node, int64_t bytes);
  void release(int node, int64_t bytes);
  void swapOut(int node, int64_t bytes);  ///< live -> swapped
  void swapIn(int node, int64_t bytes);   ///< swapped -> live
  void releaseSwapped(int64_t bytes);     ///< a swapped-out store freed without coming back

  /// Counts `node` as an output: left out of peakNonOutputBytes. Call before it allocates.
  void markOutput(int node) { outputs_.insert(node); }

  int64_t liveBytes() const { return live_; }
  int64_t peakNonOutputBytes() const { return peakNonOutput_; }
  int64_t peakSwappedBytes() const { return peakSwapped_; }
  int64_t peakBytes() const { return peak_; }
  int64_t swappedBytes() const { return swapped_; }
  int64_t nodeBytes(int node) const;
  int64_t nodePeakBytes(int node) const;
  /// Per node: its peak bytes over the run.
  const std::map<int, int64_t>& nodePeaks() const { return nodePeak_; }

private:
  int64_t live_ = 0, peak_ = 0, swapped_ = 0, peakSwapped_ = 0, nonOutput_ = 0, peakNonOutput_ = 0;
  std::set<int> outputs_;
  std::map<int, int64_t> nodeLive_, nodePeak_;
};

}  // namespace tempo
