#include "lowering/Lowering.h"

#include "memory/MemoryPlacement.h"
#include "memory/StoragePlanner.h"

#include <chrono>

namespace tempo {

LoweredProgram lowerProgram(const Graph& g, IslContext& isl, const LoweringOptions& options) {
  LoweredProgram out;
  const std::vector<LoweringStage>& stages = loweringStages();
  auto start = std::chrono::steady_clock::now();
  // Records the stage just run, with its snapshot text when asked for.
  auto finish = [&](size_t stage, auto text) {
    auto now = std::chrono::steady_clock::now();
    LoweringSnapshot s{stages[stage].name, stages[stage].description, "",
                       std::chrono::duration<double>(now - start).count()};
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
  finish(2, [&] { return printLoopProgram(g, out.loops); });
  out.phases.emplace_back("memory placement", out.snapshots[2].seconds);
  return out;
}

}  // namespace tempo
