// Kernel: one node's computation at one point, as the code generators see it.
//
// Kernel formation (KernelFormation.h) gives every node the loop program
// executes a Kernel: its name (`k7_h`), the node id and source range it came
// from (so generated code and profiles point back at the program), its element
// type with sizes symbolic in the bounds, and per input the dtype, the shape
// read and its broadcast pattern against the output (which output dimensions
// the input is repeated along). Its kind says who runs it: `generated` (an
// elementwise node or fused elementwise group lowered to LLVM IR: `program`
// holds its steps), `library` (matmul, reductions, movement, or an elementwise
// node codegen does not cover, with the reason) or `runtime` (what the
// executor does itself: sources, merges, identities and reshapes). A
// KernelProgram prints itself as a table, one kernel a few lines, in node order.
#pragma once

#include "diag/Diagnostics.h"
#include "graph/Graph.h"
#include "ops/Op.h"
#include "symbolic/IndexExpr.h"
#include "types/DType.h"

#include <string>
#include <vector>

namespace tempo {

enum class KernelKind { Generated, Library, Runtime };
std::string_view kernelKindName(KernelKind kind);  ///< "generated", "library", "runtime"

struct KernelInput {
  NodeId producer = -1;
  DType dtype = DType::F32;
  std::vector<IndexExpr> shape;  ///< the value read: slice sizes, then the producer's element shape
  /// Per output dimension: true where the input is repeated along it (its
  /// aligned size is 1, or it has no such dimension). Generated kernels only.
  std::vector<bool> broadcast;
};

struct Kernel {
  std::string name;  ///< `k7_h`: unique in its program, a valid symbol name
  NodeId node = -1;
  OpKind op = OpKind::Identity;
  SourceRange loc;
  KernelKind kind = KernelKind::Runtime;
  std::string reason;  ///< for library and runtime kernels: why not generated
  DType dtype = DType::F32;
  std::vector<IndexExpr> shape;  ///< the output's element shape
  std::vector<KernelInput> inputs;
  std::vector<FusedStep> program;  ///< Generated: the elementwise steps (one for a single op)
  std::vector<int64_t> axes;       ///< reductions: the input's axes reduced (sorted)
  bool keepDims = false;           ///< reductions: reduced axes kept with size 1
  std::vector<int64_t> permA, permB;  ///< matmul: operands read through these permutations (empty: as they lie)
  int execs = 0;                   ///< exec statements of the loop program that run it (not instances)
};

struct KernelProgram {
  std::vector<Kernel> kernels;  ///< in node id order
  /// The kernel named `name`, or of node `%N` / `N`; nullptr if none.
  const Kernel* find(const std::string& nameOrNode) const;
  const Kernel* forNode(NodeId node) const;
  int count(KernelKind kind) const;
};

/// Everything the generated code of `k` depends on (dtypes, rank, broadcast patterns,
/// steps and literals, not its name or shape's sizes): equal keys, equal code. The
/// code generators compile one function per distinct key.
std::string kernelCodeKey(const Kernel& k);

/// One kernel:
///   kernel k7_h  generated  %7 'h' (fused) at rnn.tpo:18:10  f32[B, H]  (1 exec statement)
///     in0 f32[B, H] from %5 (matmul)
///     in1 f32[H] from %3 'bias', broadcast along dim 0
///     = tanh(in0 + in1)
std::string printKernel(const Graph& g, const Kernel& k);
/// A summary line (`12 kernels: 5 generated, 4 library, 3 runtime`), then every kernel.
std::string printKernelProgram(const Graph& g, const KernelProgram& p);

}  // namespace tempo
