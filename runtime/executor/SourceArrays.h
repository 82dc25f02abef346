// SourceArrays: the whole-domain arrays behind loaded and initialised sources.
//
// A load(), random or hash_init node is defined over its whole domain at once
// (an .npy file holds every point; initialisers are defined by flat index over
// the domain box followed by the element shape), so, exactly like the
// reference interpreter, the executor builds the array once, on the node's
// first exec; a point's value is a window of it (no copy). The arrays count
// as memory of their node in the MemoryTracker until the node's store is
// freed (release); the windows in the node's store share the array's buffer.
// A caller may hand over arrays it built itself (an application's data, or a
// benchmark that makes its inputs before timing, as the peers do): they are
// used as they are, after a check of their shape and dtype, and never rebuilt.
#pragma once

#include "executor/MemoryTracker.h"
#include "graph/Graph.h"
#include "init/SourceArray.h"
#include "tensor/Tensor.h"

#include <map>

namespace tempo {

class SourceArrays {
public:
  /// `given`: arrays built by the caller, by node (may be null); they must outlive this.
  explicit SourceArrays(MemoryTracker* tracker, const std::map<NodeId, Tensor>* given = nullptr)
      : tracker_(tracker), given_(given) {}
  /// The array of `n` over the box `domainBounds` x its element shape at `bounds`;
  /// ExecError when a file is missing or has the wrong shape or dtype.
  const Tensor& get(const Node& n, const std::vector<int64_t>& domainBounds, const SymbolEnv& bounds,
                    const std::string& label);

  /// Drops the array of node `id` (its store was freed); a later get() builds it again.
  void release(NodeId id);
  /// Moves the array of `id` to the swap area and back (with its store's SwapOut / SwapIn).
  void swapOut(NodeId id);
  void swapIn(NodeId id);

  /// The array of node `id` if it was built already, else nullptr.
  const Tensor* find(NodeId id) const {
    auto it = arrays_.find(id);
    return it == arrays_.end() ? nullptr : &it->second;
  }

  /// The array of node `id` if it is in the swap area, else nullptr.
  const Tensor* findSwapped(NodeId id) const {
    auto it = swapped_.find(id);
    return it == swapped_.end() ? nullptr : &it->second;
  }

private:
  MemoryTracker* tracker_;
  const std::map<NodeId, Tensor>* given_;
  std::map<NodeId, Tensor> arrays_;
  std::map<NodeId, Tensor> swapped_;  ///< arrays swapped out with their node's store
};

}  // namespace tempo
