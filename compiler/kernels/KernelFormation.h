// KernelFormation: the lowering stage that gives every executed node a kernel.
//
// `formKernels` walks the loop program, counts the exec statements of each
// node and forms one Kernel per executed node (Kernel.h): elementwise nodes and
// fused elementwise groups become `generated` kernels when their steps have an
// LLVM lowering for their dtypes (codegen/LlvmKernels.h says which) and their
// shapes depend only on bounds, never on a domain dimension, so one compiled
// kernel serves every point and every `--set`; each input gets its broadcast
// pattern against the output, derived symbolically (equal sizes, or a size of
// 1 repeated). Everything else is a `library` or `runtime` kernel with the
// reason printed. The loop program itself is unchanged by this stage.
#pragma once

#include "graph/Graph.h"
#include "kernels/Kernel.h"
#include "schedule/LoopAst.h"

namespace tempo {

KernelProgram formKernels(const Graph& g, const LoopProgram& loops);

/// The kernels of every node of `g`, before any schedule says which run (no exec counts): a
/// node's kernel depends on the graph alone, so their code can be generated while the program
/// is scheduled (lowerProgram), and matches formKernels' where the loops run every node.
KernelProgram formKernelsOfEveryNode(const Graph& g);

}  // namespace tempo
