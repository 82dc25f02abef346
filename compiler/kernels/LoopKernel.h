// LoopKernel: which loops of the placed loop program can become one native function.
//
// The first step of compiling loop nests to machine code (docs/codegen.md, "A loop
// nest as one native function"): `selectLoopKernels` looks at every loop
// of the loop program after memory placement and kernel formation and says whether
// its body is one the loop emitter can take — straight-line exec, alloc and free
// statements whose nodes have a native form (a generated kernel, a GEMM or a
// reduction from a library, a view, a merge, a point of a source's array or a
// value) and element shapes that do not change from one iteration to the next —
// or names the first statement that keeps it interpreted and why. For a loop that
// qualifies it lists what the emitter will need: the stores it allocates and frees
// in each iteration (their memory becomes the loop's arena), and the reads that
// reach another iteration's value (a carried dependence: the iterations run in
// order; without one they may be split across the cores). Nothing runs
// differently yet: the executor still interprets every loop. A loop that holds
// another loop stays interpreted in this first step (its inner loops are examined
// on their own). The plan prints
// itself after the kernel table (`tempo compile --print-after=kernel-formation`).
#pragma once

#include "graph/Graph.h"
#include "kernels/Kernel.h"
#include "memory/WindowReads.h"
#include "schedule/LoopAst.h"

#include <string>
#include <vector>

namespace tempo {

/// What a statement of a candidate loop becomes in native code.
enum class LoopStatementForm { Generated, Gemm, Reduction, View, Copy, Merge, ArrayPoint, Value };
std::string_view loopStatementFormName(LoopStatementForm form);

struct LoopKernelCandidate {
  std::string var;                     ///< the loop's variable (`c1`)
  std::vector<std::string> enclosing;  ///< the variables of the loops around it, outermost first
  IndexExpr lower, upper;              ///< its range
  std::vector<NodeId> execs;           ///< the nodes it executes, in order
  std::vector<LoopStatementForm> forms;  ///< per exec (only as far as the first blocker)
  std::vector<NodeId> arena;           ///< stores allocated and freed in each iteration
  /// Reads of a value another iteration computed: `%4 h[t - 1, b]` in `%27 fused`.
  std::vector<std::string> carried;
  bool qualifies = false;
  NodeId blocker = -1;  ///< the first statement that keeps the loop interpreted (-1: none or not a statement)
  std::string reason;   ///< why it does not qualify
};

struct LoopKernelPlan {
  std::vector<LoopKernelCandidate> loops;  ///< every loop, outer before inner, in program order
  int qualifying() const;
};

/// The plan for `loops` (after memory placement) with `kernels` (kernel formation) and the
/// slices whose results stay windows of their producers (`windows`).
LoopKernelPlan selectLoopKernels(const Graph& g, const LoopProgram& loops, const KernelProgram& kernels,
                                 const std::vector<WindowRead>& windows);

/// `native loops: 2 of 5 loops qualify`, then per loop:
///   loop c0 in 0..T: native, 7 statements (2 generated, 1 gemm, 2 view, 2 merge)
///     arena: %25 slice, %9 matmul, %19 reshape, %27 fused, %17 add
///     carried: %9 matmul reads %4[t - 1]
///   loop c0 in 0..I: interpreted, it holds a loop over c1 (a single loop first: nests come next)
std::string printLoopKernelPlan(const Graph& g, const LoopKernelPlan& plan);

}  // namespace tempo
