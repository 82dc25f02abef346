// NodeProgram: one node of the SDG compiled for execution at any point.
//
// Built once per node: the node's index expressions (element shape, slice /
// reshape / expand attributes, eval_index, and every input edge's atoms and
// condition) compiled against a layout of the bounds and the node's own
// dimensions. `compute(point)` then binds the point, gathers the inputs from
// the producers' stores — a point atom reads one producer point, slice atoms
// read a box of them stacked into new leading dims in atom order, a block
// atom places its slice in static lanes (tensor/LaneStack), a merge
// takes the first input whose condition holds — and applies the reference
// kernel (or the node's generated kernel, useNative), or produces a source value. The semantics are exactly those of the
// ReferenceInterpreter; failures are ExecErrors naming the node and point.
// Schedules run a node over its whole domain box, so a branch node (`c[t-1] + 1`)
// also runs where its merge never takes it (t = 0) and its read leaves the
// producer's domain: such points are undefined, not errors, unless a merge or
// an output actually needs them.
#pragma once

#include "codegen/NativeModule.h"
#include "executor/CompiledIndex.h"
#include "executor/SourceArrays.h"
#include "executor/TensorStore.h"
#include "graph/Graph.h"
#include "kernels/cpu/CpuKernels.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tempo {

using StoreTable = std::vector<std::unique_ptr<TensorStore>>;  ///< indexed by NodeId

/// `%4 'h' (merge)`.
std::string nodeLabel(const Node& n);

class NodeProgram {
public:
  /// `bounds` holds the value of every bound the node uses.
  NodeProgram(const Graph& g, const Node& n, const SymbolEnv& bounds, const cpu::KernelOptions& kernels = {});

  /// Runs `kernel` (a generated kernel of this node) instead of the library kernel
  /// wherever the gathered inputs fit it, counting each such call in `*calls`.
  void useNative(const NativeKernel* kernel, int64_t* calls) { native_ = kernel, nativeCalls_ = calls; }
  /// The result may stay a window of `producer`'s buffer (WindowReads proved
  /// its store outlives this node's values); otherwise a window is copied.
  void keepWindowsOf(NodeId producer) {
    for (Input& in : inputs_) in.keepsWindow = in.keepsWindow || in.edge->producer == producer;
  }
  /// Takes new values for the bounds (the same names as constructed with): an `until`
  /// dimension stopped, and its bound is now the steps run (Executor::stopsAfter).
  void rebind(const SymbolEnv& bounds);
  const Node& node() const { return *node_; }
  const std::vector<int64_t>& domainBounds() const { return domainBounds_; }
  /// The value at `point`; reads producers from `stores`. nullopt when the
  /// node is undefined there: a non-merge node whose read leaves a producer's
  /// domain or meets an undefined producer point (a branch node run outside
  /// its branch); a merge that needs such a value is an ExecError.
  std::optional<Tensor> compute(const std::vector<int64_t>& point, const StoreTable& stores, SourceArrays& sources);
  /// A whole-array source (load, hash, random): its value at a point is the window of its array
  /// there, which its store reads itself (TensorStore::readViewsOf), so an exec only needs the
  /// array to exist: `prepareArrayPoint` checks `point` and builds the array at the first one
  /// (or finds the caller's), as compute would, without making the window; returns its bytes.
  bool isArraySource() const { return arraySource_; }
  int64_t prepareArrayPoint(const std::vector<int64_t>& point, SourceArrays& sources);
  /// `node %4 'h' (merge) at f.tpo:3:1, point (b=0, t=2)`.
  std::string describe(const std::vector<int64_t>& point) const;
  [[noreturn]] void fail(const std::vector<int64_t>& point, const std::string& message) const;

private:
  struct Input {
    const Edge* edge = nullptr;
    const Node* producer = nullptr;
    std::vector<CompiledIndex> lo, hi;  ///< hi only meaningful for slice atoms
    std::vector<bool> isSlice;
    int blockAtom = -1;         ///< the block atom's index (a block read), else -1
    CompiledIndex blockFirst;   ///< the position of its lane 0
    int64_t blockLanes = 0;
    std::vector<int64_t> producerBounds;
    CompiledCondition condition;
    bool keepsWindow = false;  ///< the result may stay a window of this input (keepWindowsOf)
    bool fromSourceArray = false;  ///< the producer is a whole-array source (its values are windows of its array)
    /// The buffer this read stacks its windows of kMappedTensorBytes or more into (stackScratch).
    Tensor stackScratch;
    /// The box read at the current point and its slice extents (gather's, kept for their capacity).
    std::vector<int64_t> readLo, readHi, readLeading;
  };
  /// nullopt when the read is undefined (outside the producer's domain or an undefined point).
  std::optional<Tensor> gather(Input& in, const std::vector<int64_t>& point, const StoreTable& stores);
  /// Where a stack of `parts` goes when it is copied: null for one under kMappedTensorBytes
  /// (a fresh buffer from the heap), else `in`'s scratch buffer, made anew with room for
  /// twice the stack when it is too small or another tensor still holds it (the stack
  /// writes every byte it uses; pages past them are never touched). A window decode
  /// stacks a window of K and of V per layer and token that grows to 4 MiB: a fresh buffer
  /// that large is a fresh mapping each time, ~1,000 page faults.
  const Tensor* stackScratch(Input& in, const std::vector<Tensor>& parts);
  /// Checks `point` against the domain and binds its coordinates to the node's slots.
  void bindPoint(const std::vector<int64_t>& point);
  Tensor source(const std::vector<int64_t>& point, const std::vector<int64_t>& shape, SourceArrays& sources);
  /// The node's attributes with the slice bounds and target shape at the bound point.
  const OpAttrs& attrsHere();

  const Graph* graph_;
  const Node* node_;
  SymbolEnv bounds_;
  cpu::KernelOptions kernels_;
  std::vector<int64_t> domainBounds_;
  bool arraySource_ = false;
  bool copiesSourceWindows_ = false;  ///< a graph output's identity of a source's window: a copy (BufferSharing)
  bool isSource_ = false;
  /// Per-point scratch kept for its capacity: the point's element shape, the gathered inputs
  /// (emptied after each compute) and attrsHere's attributes.
  std::vector<int64_t> shapeHere_;
  std::vector<Tensor> argsHere_;
  OpAttrs attrsHere_;
  std::vector<int64_t> attrValuesHere_;  ///< attrsHere_'s start, stop and shape values (empty: not set yet)
  int firstDimSlot_ = 0;
  std::vector<int64_t> slots_;  ///< bound values, then the point's coordinates
  std::vector<CompiledIndex> shape_;
  CompiledIndex attrStart_, attrStop_, evalIndex_;
  std::vector<CompiledIndex> attrShape_;
  std::vector<Input> inputs_;
  const NativeKernel* native_ = nullptr;
  int64_t* nativeCalls_ = nullptr;
  /// The node's kernel makes a fresh value from its operands (never a view of
  /// them), so a block read may hand it the producer's block buffer itself.
  bool takesBlocksAsStored_ = false;
};

}  // namespace tempo
