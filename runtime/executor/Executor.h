// Executor: runs a LoopProgram on the CPU.
//
// Construction compiles everything once: each For bound, If guard, exec point
// and alloc size against a slot layout of the bounds and loop variables (an
// out-of-scope variable is an ExecError here, before anything runs), and each
// node into a NodeProgram. `run()` walks the loop AST: a For evaluates its
// bounds and iterates its variable, an If its guard, an Exec computes one
// node at one point from its producers' stores and writes its own store (a
// whole-array source's exec only records its point: the value is a window of its array),
// A nest of loops that only records the points of a whole-array source's exec
// records its whole box at once (runArrayBox: REINFORCE's uniforms are B·T such
// execs an iteration). Alloc/Free/SwapOut/SwapIn open, drop and move a node's store (a store the
// program allocates is closed until its first Alloc runs; Free also
// drops a loaded source's whole array; the bytes written in the memory
// statements are the planner's prediction and are not read here: the measured
// bytes are what the stores hold). Each node's
// store is the kind the StoragePlan gives it (a WholeStore without a plan), so
// a wrong plan or schedule shows up as an ExecError naming the node and
// point. `outputs()` assembles every graph output as one Tensor of shape
// [domain bounds..., element shape], the layout of ReferenceInterpreter::
// evaluateOutput. Stats: statements executed, live/peak bytes, time.
#pragma once

#include "codegen/NativeModule.h"
#include "executor/ExecError.h"
#include "executor/MemoryPager.h"
#include "memory/MemoryTimeline.h"
#include "executor/MemoryTracker.h"
#include "executor/NodeProgram.h"
#include "executor/SourceArrays.h"
#include "memory/StoragePlan.h"
#include "memory/WindowReads.h"
#include "executor/TensorStore.h"
#include "interp/UntilExtents.h"
#include "schedule/UntilLoops.h"
#include "graph/Graph.h"
#include "kernels/cpu/CpuKernels.h"
#include "schedule/LoopAst.h"
#include "tensor/Tensor.h"
#include "trace/TraceCollector.h"

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tempo {

struct ExecutorOptions {
  /// Bound values; missing ones fall back to the graph's `boundDefaults`.
  SymbolEnv bounds;
  /// Store kind per node; nullopt (or a node missing from it) means a WholeStore.
  std::optional<StoragePlan> storage;
  /// Checked every 256 exec statements: when it reads true the run stops with ExecCancelled.
  const std::atomic<bool>* cancel = nullptr;
  /// When set, receives the number of exec statements run so far (for progress bars).
  std::atomic<size_t>* progress = nullptr;
  /// The kernels' choices (f32 matmul accumulation).
  cpu::KernelOptions kernels;
  /// When set, a MemoryPager keeps the live bytes under it as the run goes.
  std::optional<int64_t> memoryBudget;
  /// When set, nodes with a generated kernel run it (the library kernel where the inputs do not fit).
  const NativeModule* native = nullptr;
  /// When set, receives every exec statement instance (off and free when null).
  TraceCollector* trace = nullptr;
  /// Slices that keep their result as a window of the producer's buffer (WindowReads); others copy.
  std::vector<WindowRead> windowReads;
  /// Arrays of whole-array sources built by the caller, by node (must outlive the run): used instead of building them.
  const std::map<NodeId, Tensor>* sourceArrays = nullptr;
  /// Until dimensions whose loop stops early (UntilLoop::topStatement >= 0; the others are ignored):
  /// after each step the loop tests the condition and, once it holds, binds the bound to the steps run.
  std::vector<UntilLoop> untilLoops;
};

struct ExecStats {
  int64_t execs = 0;          ///< Exec statements run (node points computed)
  int64_t undefinedExecs = 0; ///< of which undefined (a branch run outside its branch)
  int64_t nativeCalls = 0;    ///< of which computed by a generated kernel
  int64_t boxedExecs = 0;     ///< of which array points recorded a box at a time (runArrayBox)
  int64_t loopIterations = 0;
  int64_t memoryStatements = 0;  ///< Alloc, Free, SwapOut, SwapIn run
  int64_t peakBytes = 0;         ///< measured: the most bytes the stores and source arrays held at once
  int64_t peakNonOutputBytes = 0;  ///< the same without the graph outputs' stores
  int64_t peakSwappedBytes = 0;  ///< the most bytes held in the host swap area at once
  double seconds = 0;
};

class Executor {
public:
  /// `g` and `program` must outlive the executor. Throws ExecError when the
  /// program names an unknown node, uses a variable out of scope, or a bound
  /// has no value.
  Executor(const Graph& g, const LoopProgram& program, ExecutorOptions options);
  ~Executor();

  /// Runs the whole program (again from empty stores if called twice).
  void run();

  /// Every graph output in `g.outputs` order, after run().
  std::vector<std::pair<std::string, Tensor>> outputs() const;
  Tensor output(const GraphOutput& out) const;
  /// The stored value of `node` at `point` (ExecError if the store does not hold it).
  Tensor valueAt(int node, const std::vector<int64_t>& point) const;

  const ExecStats& stats() const { return stats_; }
  const MemoryTracker& memory() const { return *memory_; }
  /// Under a memory budget: what the pager did in the last run.
  std::optional<PagingReport> paging() const {
    return pager_ ? std::optional<PagingReport>(pager_->report()) : std::nullopt;
  }
  /// Live bytes after every memory statement of the last run (bounded; see MemoryTimeline).
  const MemoryTimeline& memoryTimeline() const { return timeline_; }
  const TensorStore& store(int node) const;
  const SymbolEnv& bounds() const { return bounds_; }
  /// The until dimensions the last run stopped early (UntilLoop), with the steps they ran.
  const std::vector<ReachedExtent>& reachedExtents() const { return reached_; }
  /// The node of each exec statement, by its number (TraceSpan::statement).
  const std::vector<NodeId>& execStatements() const { return execStatements_; }

  struct Stmt;  // a compiled statement (Executor.cpp)

private:
  void compile(const LoopBody& body, std::vector<Stmt>& out, std::vector<std::string>& scope);
  void execute(const std::vector<Stmt>& body);
  /// Records every point of an ArrayBox's box at once (a nest of loops that only records the
  /// points of a whole-array source); false where the nest must run point by point: under a
  /// trace or a pager, for an empty box or one leaving the domain, or a store whose slots the
  /// points share.
  bool runArrayBox(const Stmt& s);
  void resetStores();
  /// A NodeProgram per node at bounds_.
  void makePrograms();
  /// Whether until loop `u`'s condition holds everywhere at the step of loop value `v`; if so,
  /// binds its bound to the steps run (bounds_, the loop slots and the node programs, NodeProgram::rebind).
  bool stopsAfter(const UntilLoop& u, int64_t v);
  void recordMemoryStatement(MemoryEvent::Kind kind, int node);
  /// `n` more exec statements run: the progress counter and the cancel check at every 256th.
  void countExecs(int64_t n);
  TensorStore& storeOf(int node, const char* what);

  const Graph& graph_;
  SymbolEnv bounds_;
  SymbolEnv givenBounds_;  ///< bounds_ as constructed (a run starts from them; an until loop rebinds bounds_)
  cpu::KernelOptions kernels_;
  const NativeModule* native_ = nullptr;
  std::vector<WindowRead> windowReads_;
  std::vector<UntilLoop> untilLoops_;
  std::vector<ReachedExtent> reached_;
  const LoopBody* topBody_ = nullptr;  ///< the program's body while compiling (until loops are its statements)
  std::optional<StoragePlan> plan_;
  const std::atomic<bool>* cancel_ = nullptr;
  std::atomic<size_t>* progress_ = nullptr;
  SlotLayout loopLayout_;
  std::vector<int64_t> loopSlots_;
  std::vector<Stmt> body_;
  std::vector<std::unique_ptr<NodeProgram>> programs_;  ///< by NodeId
  std::unique_ptr<MemoryTracker> memory_;
  MemoryTimeline timeline_;
  std::unique_ptr<SourceArrays> sources_;
  StoreTable stores_;
  std::optional<int64_t> budget_;
  const std::map<NodeId, Tensor>* givenSources_ = nullptr;
  std::unique_ptr<MemoryPager> pager_;
  std::set<int> allocated_;  ///< nodes the program allocates: their stores start unallocated
  std::vector<int64_t> point_;
  std::vector<int64_t> boxLo_, boxHi_;  ///< runArrayBox's corners, kept for their capacity
  int32_t topLoopCount_ = 0;  ///< loops outside any loop, numbered as compiled
  int64_t nativeCalls_ = 0;  ///< counted by the node programs
  TraceCollector* trace_ = nullptr;
  std::vector<NodeId> execStatements_;
  ExecStats stats_;
};

}  // namespace tempo
