// CompiledEngine: the compiled path from a checked graph to outputs.
//
// `compileProgram` runs the pass pipeline and the lowering stages (the
// parametric isl schedule, the store choice, the memory placement, kernel
// formation and the generated kernels' machine code, compiler/lowering) once; `runCompiled` executes the result at any bound values (no
// recompilation: the schedule's bounds and sizes are symbolic), with the
// planner's stores, optionally under a memory budget (SwapPlacement's plan,
// then the MemoryPager at run time for what the plan leaves over), and
// reports the outputs, the executor's statistics (measured peak) and the
// predicted peak (MemoryPrediction over the placed memory statements). This is
// what `tempo run` (its default engine), the studio and the differential tests call.
#pragma once

#include "codegen/NativeModule.h"
#include "executor/Executor.h"
#include "kernels/Kernel.h"
#include "kernels/LoopKernel.h"
#include "memory/SwapPlacement.h"
#include "pass/PhaseClock.h"
#include "pass/Pipeline.h"
#include "schedule/LoopAst.h"
#include "schedule/Scheduler.h"
#include "schedule/StatementClusters.h"
#include "schedule/UntilLoops.h"

#include <atomic>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tempo {

struct CompiledProgram {
  Graph graph;                        ///< after the pass pipeline
  LoopProgram loops;                  ///< the parametric schedule of `graph`, with Alloc / Free placed
  StoragePlan stores;                 ///< the store kind of each node (predicted bytes filled per run)
  std::vector<WindowRead> windowReads;  ///< slices that keep a window of their producer's buffer (WindowReads)
  std::vector<PassSnapshot> passes;   ///< one per pass that ran
  PhaseSeconds compilePhases;         ///< seconds per compile phase, in order (passes, scheduling, storage)
  ScheduleOptions::Algorithm scheduler = ScheduleOptions::Algorithm::Fusion;  ///< the method that made the schedule
  std::string fusionFailure;          ///< why the fusion schedule could not order the program ("" if it could)
  StatementClusters clusters;         ///< the same-point chains isl scheduled as one statement each (isl only)
  KernelProgram kernels;              ///< a kernel per executed node (the kernel-formation stage)
  LoopKernelPlan loopKernels;         ///< the loops that qualify for native code (not yet compiled)
  std::shared_ptr<const NativeModule> native;  ///< the generated kernels' machine code (null: none compiled)
};

struct CompiledRunOptions {
  /// False: every node keeps all its points and nothing is freed (the baseline).
  bool planStorage = true;
  /// Keep the live bytes under this many: planned SwapOut / SwapIn and recomputes, then run-time paging.
  std::optional<int64_t> memoryBudget;
  /// Stop the run (ExecCancelled) when this reads true; checked every 256 statements.
  const std::atomic<bool>* cancel = nullptr;
  /// Exec statements run so far, for a progress display.
  std::atomic<size_t>* progress = nullptr;
  /// f32 matmul accumulation: F32 (sgemm, the default) or F64 (the reference's numerics, slower).
  cpu::MatmulAccumulation matmul = cpu::MatmulAccumulation::F32;
  /// Run the generated kernels where they exist (false: the library kernels only, as before codegen).
  bool generatedKernels = true;
  /// When set, receives every exec statement instance of the run (see TraceCollector.h).
  TraceCollector* trace = nullptr;
  /// Arrays of whole-array sources (load, hash, random) built by the caller, by node: used, not rebuilt.
  const std::map<NodeId, Tensor>* sourceArrays = nullptr;
  /// False: no memory prediction (a walk of every statement instance at these bounds, as long as a
  /// fifth of a small program's run); predictedBytes stays 0 and predictedTimeline empty. A caller
  /// that runs one program many times at the same bounds (the bench) predicts once, predictRunPeak.
  bool predictMemory = true;
};

struct CompiledRunResult {
  std::vector<std::pair<std::string, Tensor>> outputs;  ///< in graph output order
  ExecStats stats;
  int64_t predictedBytes = 0;        ///< the predicted peak live bytes at these bounds
  std::optional<SwapPlan> swapPlan;  ///< under a memory budget: the planned swaps and whether the plan meets it
  std::optional<PagingReport> paging;  ///< under a memory budget: what the run-time pager moved
  MemoryTimeline measuredTimeline;   ///< live bytes after every memory statement, as run
  MemoryTimeline predictedTimeline;  ///< the same from the prediction (event for event)
  std::map<int, int64_t> nodePeakBytes;  ///< measured: per node, the most bytes charged to it at once
  std::vector<NodeId> execStatements;    ///< the node of each exec statement, by number (for traces)
  /// Per `until` dimension, in graph order: the steps it ran (its bound was bound to them).
  std::vector<ReachedExtent> reached;
  /// 1; 2 or more where an until dimension's loop could not stop early (UntilLoop::whyNot): the
  /// program ran at the bound, then again at the steps its condition allowed.
  int runs = 1;
};

/// Optimises `source` with `pipeline`, schedules it and places its memory
/// statements. Throws PassError or std::runtime_error (scheduling failure) with a message.
CompiledProgram compileProgram(const Graph& source, const Pipeline& pipeline);
/// The same with the passes' options and bound hints (e.g. "block-size"); option "schedule-transform"
/// (ScheduleTransform text: throws ScheduleTransformError, IllegalScheduleError); option "scheduler"
/// (fusion, isl, fallback) picks the scheduling method (std::invalid_argument for another name).
CompiledProgram compileProgram(const Graph& source, const Pipeline& pipeline, PassContext& context);

/// Runs `program` at `bounds`; an `until` dimension runs to the step its condition first holds at
/// (docs/language.md, 4.13). Throws ExecError.
CompiledRunResult runCompiled(const CompiledProgram& program, const SymbolEnv& bounds,
                              const CompiledRunOptions& options);
/// With `planStorage` false every node keeps all its points (the baseline).
CompiledRunResult runCompiled(const CompiledProgram& program, const SymbolEnv& bounds, bool planStorage = true);

/// The peak live bytes runCompiled predicts for `program` at `bounds` with its planned stores
/// and no memory budget (its predictedBytes), without running it.
int64_t predictRunPeak(const CompiledProgram& program, const SymbolEnv& bounds);

}  // namespace tempo
