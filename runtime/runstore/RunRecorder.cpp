#include "runstore/RunRecorder.h"

#include "device/DeviceSupport.h"
#include "npy/Npy.h"
#include "runstore/SpanFlows.h"
#include "trace/ProfileSummary.h"

#include <sys/utsname.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

namespace tempo {

namespace {

std::string absolutePath(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(path), ec);
  return ec ? path : p.string();
}

/// The text of `range` in `source` (up to the end of its first line), what identifies a node across edits.
std::string sourceText(const std::string& source, const SourceRange& range) {
  if (!range.valid()) return "";
  size_t start = 0;
  for (int i = 1; i < range.begin.line; ++i) {
    start = source.find('\n', start);
    if (start == std::string::npos) return "";
    ++start;
  }
  const size_t lineEnd = std::min(source.find('\n', start), source.size());
  const size_t from = start + static_cast<size_t>(std::max(range.begin.col - 1, 0));
  size_t to = range.end.line == range.begin.line ? start + static_cast<size_t>(std::max(range.end.col - 1, 0)) : lineEnd;
  if (from >= lineEnd) return "";
  if (to <= from || to > lineEnd) to = lineEnd;
  return source.substr(from, to - from);
}

std::string joined(const std::vector<std::string>& parts) {
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : ", ") + p;
  return s;
}

nlohmann::json compileSummary(const CompiledProgram& program) {
  nlohmann::json passes = nlohmann::json::array();
  for (const PassSnapshot& p : program.passes)
    passes.push_back({{"pass", p.passName}, {"changed", p.changed}, {"ms", p.duration.count() / 1e6}});
  nlohmann::json phases = nlohmann::json::array();
  for (const auto& [phase, seconds] : program.compilePhases) phases.push_back({{"phase", phase}, {"s", seconds}});
  return {{"passes", passes},
          {"phases", phases},
          {"nodes", program.graph.nodes().size()},
          {"clusters", program.clusters.clusters.size()},
          {"kernels",
           {{"generated", program.kernels.count(KernelKind::Generated)},
            {"library", program.kernels.count(KernelKind::Library)},
            {"runtime", program.kernels.count(KernelKind::Runtime)}}}};
}

}  // namespace

std::string machineDescription() {
  utsname u{};
  std::string host = ::uname(&u) == 0 ? std::string(u.nodename) + " " + u.machine : "unknown host";
  return host + ", " + std::to_string(std::thread::hardware_concurrency()) + " cores, " + hostCpuModel();
}

RunHeader runHeader(const std::string& programPath, const std::string& source, const SymbolEnv& bounds,
                    const std::string& label, const nlohmann::json& options) {
  RunHeader h;
  h.programPath = absolutePath(programPath);
  h.programText = source;
  h.programHash = fnv1aHex(source.data(), source.size());
  h.label = label;
  h.optionsJson = options.dump();
  nlohmann::json b = nlohmann::json::object();
  for (const auto& [name, value] : bounds) b[name] = value;
  h.boundsJson = b.dump();
  h.machine = machineDescription();
  h.build = std::string("tempo ") + TEMPO_VERSION + ", " +
#if defined(__clang__)
            "clang " + __clang_version__
#elif defined(__GNUC__)
            "gcc " + __VERSION__
#else
            "unknown compiler"
#endif
#ifdef NDEBUG
            + ", optimised";
#else
            + ", debug";
#endif
  return h;
}

RunRecord recordRun(const CompiledProgram& program, const SymbolEnv& bounds, const CompiledRunResult& result,
                    const TraceCollector& trace, const std::string& source, bool keepOutputs) {
  const Graph& g = program.graph;
  RunRecord r;
  ProfileSummary summary = summariseProfile(g, trace, &program.kernels);
  r.wallNs = trace.runNs();
  double compileSeconds = 0;
  for (const auto& [phase, seconds] : program.compilePhases) compileSeconds += seconds;
  r.compileNs = static_cast<int64_t>(compileSeconds * 1e9);
  r.instances = trace.instances();
  r.droppedSpans = trace.droppedSpans();
  r.peakMeasured = result.stats.peakBytes;
  r.peakPredicted = result.predictedBytes;
  r.compileSummaryJson = compileSummary(program).dump();
  for (const NodeProfile& p : summary.nodes) {
    StoredNode n;
    n.node = p.node;
    n.label = p.label;
    n.kernel = p.kernel;
    n.line = p.loc.begin.line, n.col = p.loc.begin.col, n.endLine = p.loc.end.line, n.endCol = p.loc.end.col;
    n.calls = p.calls, n.totalNs = p.totalNs, n.minNs = p.minNs, n.maxNs = p.maxNs;
    n.generatedCalls = p.generatedCalls, n.bytes = p.bytes, n.kernelNs = p.kernelNs;
    if (g.hasNode(p.node)) {
      const Node& node = g.node(p.node);
      n.op = std::string(opName(node.op));
      n.dims = joined(node.domain);
      n.matchKey = n.op + " '" + node.name + "' `" + sourceText(source, node.loc) + "`";
    } else {
      n.matchKey = p.label;
    }
    auto peak = result.nodePeakBytes.find(p.node);
    n.peakBytes = peak == result.nodePeakBytes.end() ? 0 : peak->second;
    r.nodes.push_back(std::move(n));
  }
  for (const LineProfile& l : summary.lines)
    r.lines.push_back({l.line, sourceLineText(source, l.line), l.calls, l.totalNs, l.bytes});
  r.spans.reserve(trace.spans().size());
  for (const TraceSpan& s : trace.spans())
    r.spans.push_back({s.startNs, s.durationNs, s.statement, s.node, 0, s.coords[0], s.coords[1], s.coords[2], s.generated,
                       s.kernelStartNs, s.kernelNs});
  const auto& measured = result.measuredTimeline.events();
  const auto& predicted = result.predictedTimeline.events();
  const int64_t firstPage = result.measuredTimeline.firstPageStatement();
  for (size_t i = 0; i < measured.size(); ++i) {
    const MemoryEvent& m = measured[i];
    StoredMemoryEvent e;
    e.seq = static_cast<int64_t>(i);
    e.kind = memoryEventKindName(m.kind);
    e.node = m.node, e.statement = m.statement, e.count = m.count, e.timeNs = m.timeNs;
    e.live = m.liveBytes, e.peak = m.peakBytes;
    const bool linedUp = firstPage < 0 || m.statement < firstPage;
    if (linedUp && i < predicted.size() && predicted[i].statement == m.statement) e.predictedLive = predicted[i].liveBytes;
    r.memory.push_back(std::move(e));
  }
  std::vector<std::string> loopVars;
  topLevelLoopVars(program.loops.body, loopVars);
  for (size_t i = 0; i < trace.steps().size(); ++i) {
    const StepProfile& s = trace.steps()[i];
    const std::string var = s.loop >= 0 && static_cast<size_t>(s.loop) < loopVars.size() ? loopVars[static_cast<size_t>(s.loop)] : "";
    r.steps.push_back({static_cast<int64_t>(i), s.loop, var, s.firstValue, s.iterations, s.startNs, s.endNs, s.instances});
  }
  for (const StepStatement& s : trace.stepStatements())
    r.stepStatements.push_back({s.step, s.statement, s.node, s.calls, s.totalNs});
  SymbolEnv values = bounds;  // the passes may derive bounds (static tiling)
  for (const auto& [name, value] : g.boundDefaults) values.emplace(name, value);
  try {
    values = g.withDerivedBounds(values);
  } catch (const std::out_of_range&) {
    // a derived bound without its inputs: the flows' indices that need it are skipped
  }
  SpanFlowList flows = spanFlows(g, values, trace.spans());
  r.flows = std::move(flows.flows);
  r.flowsTruncated = flows.truncated || trace.droppedSpans() > 0;
  for (const auto& [name, value] : result.outputs) {
    StoredOutput o;
    o.name = name;
    o.dtype = std::string(dtypeName(value.dtype()));
    o.shape = shapeString(value.shape());
    o.checksum = fnv1aHex(value.raw(), value.nbytes());
    for (int64_t i = 0; i < value.numel(); ++i) o.valueSum += value.at(i);
    if (keepOutputs) o.npy = serializeNpy(value);
    r.outputs.push_back(std::move(o));
  }
  return r;
}

}  // namespace tempo
