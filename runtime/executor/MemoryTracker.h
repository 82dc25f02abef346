// MemoryTracker: live and peak bytes of the executor's tensor stores.
//
// Stores report the values they start or stop holding (hold / drop), tagged
// with their node; the tracker counts *buffers*, not values: a buffer's bytes
// are live from the first holder's hold to the last holder's drop, however
// many stores hold it (a merge holding its branch's value, a reshape, the
// windows of a source array or of a block store's block all share one
// buffer). That is what the process really holds: the sum over the distinct
// buffers kept by stores. The bytes are charged to one of the nodes holding
// the buffer: an output if one holds it, else the holder with the smallest
// id (the charge moves when that holder lets go: a merge keeps its branch's
// values after the branch's store is freed). It keeps the live total, the peak of that total over the run,
// and the same two numbers per node. Values moved out by SwapOut whose buffer
// no store holds any more count apart as swapped (host memory, not live).
// Nodes marked as graph outputs are also left out of a second peak, the peak
// of everything else (what a streaming program keeps bounded while its outputs
// grow). Dropping a value nobody holds is a logic error.
#pragma once

#include "tensor/Tensor.h"

#include <cstdint>
#include <map>
#include <set>
#include <unordered_map>
#include <vector>

namespace tempo {

class MemoryTracker {
public:
  /// `node` starts holding `value` (its buffer counts from the first holder on).
  void hold(int node, const Tensor& value);
  /// `node` stops holding `value`; the last holder releases its buffer.
  void drop(int node, const Tensor& value);
  /// `node` moves `value` to the swap area: a buffer no store holds live any more moves live -> swapped.
  void swapOut(int node, const Tensor& value);
  /// `node` takes `value` back from the swap area.
  void swapIn(int node, const Tensor& value);
  /// A swapped-out value is dropped without coming back.
  void dropSwapped(const Tensor& value);

  /// Counts `node` as an output: left out of peakNonOutputBytes. Call before it allocates.
  void markOutput(int node) { perNode(node).output = true; }

  /// True when `value`'s buffer is live (some store holds it in memory).
  bool holdsLive(const Tensor& value) const;
  /// The bytes taking `values` back from the swap area would add: their distinct buffers not live now.
  int64_t bytesComingBack(const std::vector<const Tensor*>& values) const;

  int64_t liveBytes() const { return live_; }
  int64_t peakNonOutputBytes() const { return peakNonOutput_; }
  int64_t peakSwappedBytes() const { return peakSwapped_; }
  int64_t peakBytes() const { return peak_; }
  int64_t swappedBytes() const { return swapped_; }
  int64_t nodeBytes(int node) const;
  int64_t nodePeakBytes(int node) const;
  /// Per node: its peak bytes over the run.
  std::map<int, int64_t> nodePeaks() const;
  /// The most live bytes since the previous call (or the start); starts the next window at the live bytes now.
  int64_t takeWindowPeak();

private:
  /// Node -> how many of its values hold a buffer live, in ascending node
  /// order; the first two inline (a buffer rarely has more holders), so
  /// holding a fresh buffer allocates nothing here.
  class HolderCounts {
  public:
    bool empty() const { return size_ == 0; }
    void add(int node);
    /// False when `node` holds nothing.
    bool remove(int node);
    template <class F> void forEach(F f) const {
      for (int i = 0; i < size_; ++i) f(i < 2 ? inline_[i] : rest_[i - 2]);
    }
    int first() const { return inline_[0].first; }

  private:
    std::pair<int, int>& at(int i) { return i < 2 ? inline_[i] : rest_[i - 2]; }
    std::pair<int, int> inline_[2];
    std::vector<std::pair<int, int>> rest_;
    int size_ = 0;
  };
  struct Buffer {
    int64_t bytes = 0;
    int node = -1;         ///< the node charged while it is live
    HolderCounts holders;  ///< the nodes whose values hold it live
    int swapped = 0;       ///< holders whose value is in the swap area
  };
  /// Per node: the bytes charged to it now and at most, whether it is an output.
  struct NodeBytes {
    int64_t live = 0, peak = 0;
    bool charged = false;  ///< ever charged (listed by nodePeaks)
    bool output = false;
  };
  NodeBytes& perNode(int node);
  bool isOutput(int node) const { return node >= 0 && node < static_cast<int>(nodes_.size()) && nodes_[node].output; }
  void allocate(int node, int64_t bytes);
  void release(int node, int64_t bytes);
  /// Applies a change of `b`'s holders: the live and swapped totals and the node charged.
  void update(const void* id, Buffer& b, bool wasLive, bool wasSwapped);
  Buffer& find(const Tensor& value, const char* what);

  std::unordered_map<const void*, Buffer> buffers_;
  int64_t live_ = 0, peak_ = 0, swapped_ = 0, peakSwapped_ = 0, nonOutput_ = 0, peakNonOutput_ = 0, window_ = 0;
  std::vector<NodeBytes> nodes_;  ///< by node id
};

}  // namespace tempo
