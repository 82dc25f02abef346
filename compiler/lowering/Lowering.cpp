#include "lowering/Lowering.h"

#include "schedule/UntilLoops.h"

#include "codegen/CudaKernels.h"
#include "kernels/KernelFormation.h"
#include "memory/MemoryPlacement.h"
#include "memory/StoragePlanner.h"

#include <chrono>
#include <future>

namespace tempo {

namespace {

/// The nodes of `kernels`' generated kernels, in order.
std::vector<NodeId> generatedNodes(const KernelProgram& kernels) {
  std::vector<NodeId> nodes;
  for (const Kernel& k : kernels.kernels)
    if (k.kind == KernelKind::Generated) nodes.push_back(k.node);
  return nodes;
}

std::vector<NodeId> nodesOf(const NativeModule& native) {
  std::vector<NodeId> nodes;
  for (const NativeKernel& k : native.kernels()) nodes.push_back(k.node);
  return nodes;
}

}  // namespace

LoweredProgram lowerProgram(const Graph& g, IslContext& isl, const LoweringOptions& options) {
  LoweredProgram out;
  // A node's kernel depends on the graph alone, so without snapshots the generated kernels are
  // compiled on another core while the program is scheduled, for every node; the module is kept
  // when the loops run exactly those kernels' nodes (they run every node unless a node is never
  // executed), else the kernels are compiled again below. (With snapshots the stages run in order,
  // so each stage's time and text are its own.)
  std::future<std::shared_ptr<const NativeModule>> early;
  if (options.codegen && !options.snapshots)
    early = std::async(std::launch::async, [&g] {
      return NativeModule::compile(formKernelsOfEveryNode(g), CodegenOptions{false, false, std::nullopt, true});
    });
  const std::vector<LoweringStage>& stages = loweringStages();
  auto start = std::chrono::steady_clock::now();
  // Records the stage just run, with its snapshot text when asked for.
  auto finish = [&](size_t stage, auto text) {
    auto now = std::chrono::steady_clock::now();
    LoweringSnapshot s{stages[stage].name, stages[stage].description, "",
                       std::chrono::duration<double>(now - start).count(), {}};
    if (options.snapshots) s.text = text();
    out.snapshots.push_back(std::move(s));
    start = std::chrono::steady_clock::now();  // printing is not the stage's time
  };
  out.schedule = computeSchedule(g, isl, options.schedule);
  out.phases = out.schedule.phases;
  finish(0, [&] { return printLoopProgram(g, out.schedule.program); });
  out.stores = chooseStores(g, out.schedule.program);
  finish(1, [&] { return printStoragePlan(g, out.stores); });
  out.phases.emplace_back("storage plan", out.snapshots[1].seconds);
  out.loops = placeMemory(g, out.schedule.program, out.stores);
  out.windowReads = windowReads(g, out.loops, out.stores);
  finish(2, [&] {
    return printLoopProgram(g, out.loops) + printWindowReads(g, out.windowReads) +
           printUntilLoops(planUntilLoops(g, out.loops));
  });
  out.phases.emplace_back("memory placement", out.snapshots[2].seconds);
  out.kernels = formKernels(g, out.loops);
  out.loopKernels = selectLoopKernels(g, out.loops, out.kernels, out.windowReads);
  finish(3, [&] { return printKernelProgram(g, out.kernels) + "\n" + printLoopKernelPlan(g, out.loopKernels); });
  out.phases.emplace_back("kernel formation", out.snapshots[3].seconds);
  if (!options.codegen) return out;
  if (early.valid()) {
    try {
      out.native = early.get();
      if (nodesOf(*out.native) != generatedNodes(out.kernels)) out.native.reset();
    } catch (const std::exception&) {
      out.native.reset();  // compiled again below, where the error (if it is one of these kernels) is reported
    }
  }
  if (!out.native)
    out.native = NativeModule::compile(out.kernels, CodegenOptions{options.snapshots, options.snapshots, std::nullopt, true});
  const NativeModule& native = *out.native;
  // The module compiles in one go; its two stages report their own parts of it.
  auto record = [&](size_t stage, double seconds, std::string text) {
    out.snapshots.push_back({stages[stage].name, stages[stage].description, options.snapshots ? std::move(text) : "", seconds, {}});
    out.phases.emplace_back(stages[stage].name == "llvm-ir" ? "llvm ir" : stages[stage].name == "cuda" ? "cuda c++" : "machine code", seconds);
  };
  std::string count = std::to_string(native.kernels().size()) + " generated kernels in " +
                      std::to_string(native.functionCount()) + " functions";
  bool none = native.kernels().empty();
  record(4, native.optimiseSeconds(),
         none ? "; no generated kernels\n" : "; " + count + ", optimised at -O3 for " + native.cpu() + "\n" + native.ir());
  record(5, native.machineCodeSeconds(),
         none ? "# no generated kernels\n" : "# " + count + ", compiled for " + native.cpu() + "\n" + native.assembly());
  if (options.snapshots)
    for (const NativeKernel& k : native.kernels()) {
      out.snapshots[4].kernels.emplace_back(k.name, native.kernelIr(k.name));
      out.snapshots[5].kernels.emplace_back(k.name, native.kernelAssembly(k.name));
    }
  // The CUDA C++ is text only (cheap): NVRTC compiles it for --device cuda and the device check.
  start = std::chrono::steady_clock::now();
  const CudaSource cuda = emitCudaKernels(out.kernels);
  record(6, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
         none ? "// no generated kernels\n" : "// " + std::to_string(out.kernels.count(KernelKind::Generated)) +
                                                  " generated kernels in " + std::to_string(cuda.functions.size()) +
                                                  " functions, for sm_90 (NVRTC, --fmad=false)\n" + cuda.text);
  if (options.snapshots)
    for (const Kernel& k : out.kernels.kernels) {  // node order, as the other stages
      auto function = cuda.function.find(k.name);
      if (function == cuda.function.end()) continue;
      const std::string& f = function->second;
      out.snapshots[6].kernels.emplace_back(
          k.name, (f == k.name ? "" : "// " + k.name + " shares the code of " + f + "\n") + cuda.functionText.at(f));
    }
  return out;
}

}  // namespace tempo
