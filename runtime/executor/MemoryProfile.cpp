#include "executor/MemoryProfile.h"

#include "memory/StoragePlanner.h"

#include <algorithm>

namespace tempo {

nlohmann::json memoryProfileJson(const CompiledProgram& program, const SymbolEnv& bounds, const CompiledRunResult& run) {
  const Graph& g = program.graph;
  nlohmann::json j;
  j["version"] = 1;
  j["program"] = g.file;
  j["bounds"] = nlohmann::json::object();
  for (const auto& [name, value] : bounds) j["bounds"][name] = value;
  j["peak"] = {{"measured", run.stats.peakBytes},
               {"predicted", run.predictedBytes},
               {"measuredNonOutput", run.stats.peakNonOutputBytes}};
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& [id, spec] : program.stores) {
    const Node& n = g.node(id);
    std::string store = storeSpecName(spec, n.domain);
    auto measured = run.nodePeakBytes.find(id);
    nodes.push_back({{"node", id},
                     {"name", n.name},
                     {"op", opName(n.op)},
                     {"store", store},
                     {"predictedBytes", predictStoreBytes(g, n, spec, bounds)},
                     {"measuredPeakBytes", measured == run.nodePeakBytes.end() ? 0 : measured->second}});
  }
  j["nodes"] = std::move(nodes);
  const std::vector<MemoryEvent>& measured = run.measuredTimeline.events();
  const std::vector<MemoryEvent>& predicted = run.predictedTimeline.events();
  j["statements"] = run.measuredTimeline.statements();
  if (run.paging) {
    j["budget"] = {{"bytes", run.paging->budget},
                   {"pageOuts", run.paging->pageOuts()},
                   {"bytesPagedOut", run.paging->bytesOut()},
                   {"statementsOverBudget", run.paging->overBudget}};
    if (run.swapPlan) j["budget"]["planMeetsIt"] = run.swapPlan->met();
  }
  const int64_t aligned = run.measuredTimeline.firstPageStatement();  // the prediction has no page events
  nlohmann::json events = nlohmann::json::array();
  for (size_t i = 0; i < measured.size(); ++i) {
    const MemoryEvent& m = measured[i];
    nlohmann::json e = {{"statement", m.statement},
                        {"count", m.count},
                        {"kind", memoryEventKindName(m.kind)},
                        {"node", m.node},
                        {"measured", {{"live", m.liveBytes}, {"peak", m.peakBytes}}}};
    if (i < predicted.size() && predicted[i].statement == m.statement && (aligned < 0 || m.statement < aligned))
      e["predicted"] = {{"live", predicted[i].liveBytes}};
    events.push_back(std::move(e));
  }
  j["events"] = std::move(events);
  return j;
}

}  // namespace tempo
