// Lowering: the compiler's stages after the graph passes, as one linear sequence.
//
// The optimised SDG is lowered in named stages, each a step of its own with a
// snapshot of the program after it, the way the graph passes are (and the way
// Halide's Lower.cpp logs after each step): `schedule` (isl's parametric
// schedule to a loop program, Scheduler), `storage-plan` (a store kind per
// node, StoragePlanner), `memory-placement` (alloc / free in the loops with
// symbolic sizes, MemoryPlacement; and the slices whose windows may stay
// windows, WindowReads), `kernel-formation` (a kernel per executed
// node, KernelFormation; and which loops qualify for native code, LoopKernel), `llvm-ir` (the generated kernels as one LLVM module,
// optimised at -O3), `machine-code` (that module compiled for the host
// CPU, linked by lld into a shared library and loaded, NativeModule;
// docs/codegen.md) and `cuda` (the same kernels as CUDA C++, CudaKernels;
// docs/cuda.md). Budget swaps and recomputes come later, at run time's
// bounds (SwapPlacement), since a budget is a number of bytes.
// `tempo compile --print-after STAGE` prints a stage's snapshot; the compiled
// engine, the CLI and the studio all lower through `lowerProgram`. Without
// snapshots the llvm-ir and machine-code stages start first, on another core,
// for every node's kernel (a kernel depends on the graph alone), while the
// schedule runs; their module is kept when the loops run exactly those
// kernels' nodes.
#pragma once

#include "codegen/NativeModule.h"
#include "kernels/Kernel.h"
#include "kernels/LoopKernel.h"
#include "lowering/LoweringStages.h"
#include "memory/StoragePlan.h"
#include "memory/WindowReads.h"
#include "pass/PhaseClock.h"
#include "schedule/LoopAst.h"
#include "schedule/Scheduler.h"
#include "symbolic/PointSet.h"

#include <string>
#include <vector>

namespace tempo {

struct LoweringOptions {
  ScheduleOptions schedule;
  /// Print the program after each stage into LoweringSnapshot::text (costs a print per stage).
  bool snapshots = false;
  /// Run the llvm-ir and machine-code stages (false: stop after kernel formation, no JIT).
  bool codegen = true;
};

struct LoweredProgram {
  ScheduleResult schedule;  ///< isl's result; `schedule.program` is the loops before any memory statement
  StoragePlan stores;       ///< the store kind of each node
  LoopProgram loops;        ///< the loops with Alloc / Free placed
  std::vector<WindowRead> windowReads;  ///< slices that keep a window of their producer (no copy)
  KernelProgram kernels;    ///< a kernel per executed node
  LoopKernelPlan loopKernels;  ///< which loops could run as one native function (not yet used)
  std::shared_ptr<const NativeModule> native;  ///< the generated kernels as machine code (null without codegen)
  PhaseSeconds phases;      ///< the schedule's phases, then one per later stage
  std::vector<LoweringSnapshot> snapshots;  ///< one per stage, in order (text empty unless asked for)
};

/// Lowers the optimised graph `g`. Throws what computeSchedule throws (IslError,
/// std::invalid_argument) when the graph cannot be scheduled.
LoweredProgram lowerProgram(const Graph& g, IslContext& isl, const LoweringOptions& options = {});

}  // namespace tempo
