#include "lowering/LoweringStages.h"

#include <algorithm>

namespace tempo {

const std::vector<LoweringStage>& loweringStages() {
  static const std::vector<LoweringStage> stages{
      {"schedule", "the parametric schedule of the statement instances (fusion, or isl's scheduler), as a loop program"},
      {"storage-plan", "a store per node: whole, point, circular window or blocks, from its reads"},
      {"memory-placement", "alloc and free in the loops around each store's uses, sizes symbolic in the bounds"},
      {"kernel-formation", "a kernel per executed node: generated (elementwise, fused), library (gemm, reductions) or runtime; the loops that could run as one native function"},
      {"llvm-ir", "the generated kernels as one LLVM module, optimised at -O3 for the host CPU"},
      {"machine-code", "the module compiled to machine code, linked into a shared library and loaded; its assembly"},
      {"cuda", "the same kernels as CUDA C++ for NVIDIA GPUs, as NVRTC compiles them for sm_90 (--device cuda)"},
  };
  return stages;
}

bool isLoweringStage(const std::string& name) {
  const auto& stages = loweringStages();
  return std::any_of(stages.begin(), stages.end(), [&](const LoweringStage& s) { return s.name == name; });
}

}  // namespace tempo
