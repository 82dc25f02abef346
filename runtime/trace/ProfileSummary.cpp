#include "trace/ProfileSummary.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace tempo {
namespace {

std::string percent(int64_t part, int64_t whole) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f", whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return buf;
}

std::string cell(const std::string& s, size_t width, bool right = true) {
  if (s.size() >= width) return s;
  return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

}  // namespace

std::string profileNodeLabel(const Graph& g, NodeId id) {
  if (!g.hasNode(id)) return "%" + std::to_string(id);
  const Node& n = g.node(id);
  std::string s = "%" + std::to_string(id) + " ";
  return s + (n.name.empty() ? std::string(opName(n.op)) : "'" + n.name + "' (" + std::string(opName(n.op)) + ")");
}

std::string formatDuration(int64_t ns) {
  char buf[32];
  if (ns >= 10'000'000 || ns <= -10'000'000) std::snprintf(buf, sizeof buf, "%.1f ms", ns / 1e6);
  else if (ns >= 10'000 || ns <= -10'000) std::snprintf(buf, sizeof buf, "%.1f us", ns / 1e3);
  else std::snprintf(buf, sizeof buf, "%lld ns", static_cast<long long>(ns));
  return buf;
}

std::string formatBytes(int64_t b) {
  char buf[32];
  const int64_t a = b < 0 ? -b : b;
  if (a >= 10ll << 20) std::snprintf(buf, sizeof buf, "%.1f MiB", b / 1048576.0);
  else if (a >= 10ll << 10) std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024.0);
  else std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(b));
  return buf;
}

std::string sourceLineText(const std::string& source, int line) {
  if (line <= 0) return "";
  std::istringstream in(source);
  std::string text;
  for (int i = 1; std::getline(in, text); ++i)
    if (i == line) {
      size_t first = text.find_first_not_of(" \t");
      return first == std::string::npos ? "" : text.substr(first);
    }
  return "";
}

ProfileSummary summariseProfile(const Graph& g, const TraceCollector& trace, const KernelProgram* kernels) {
  ProfileSummary out;
  out.runNs = trace.runNs();
  out.instances = trace.instances();
  out.droppedSpans = trace.droppedSpans();
  std::map<NodeId, NodeProfile> nodes;
  for (const StatementProfile& s : trace.statements()) {
    auto [it, fresh] = nodes.try_emplace(s.node);
    NodeProfile& n = it->second;
    if (fresh) {
      n.node = s.node;
      n.label = profileNodeLabel(g, s.node);
      n.loc = g.hasNode(s.node) ? g.node(s.node).loc : SourceRange{};
      n.minNs = s.minNs;
      n.maxNs = s.maxNs;
      if (kernels)
        if (const Kernel* k = kernels->forNode(s.node)) n.kernel = k->name + " " + std::string(kernelKindName(k->kind));
    }
    n.calls += s.calls;
    n.totalNs += s.totalNs;
    n.minNs = std::min(n.minNs, s.minNs);
    n.maxNs = std::max(n.maxNs, s.maxNs);
    n.generatedCalls += s.generatedCalls;
    n.bytes += s.bytes;
    n.kernelNs += s.kernelNs;
    out.statementNs += s.totalNs;
    out.kernelNs += s.kernelNs;
  }
  std::map<int, LineProfile> lines;
  for (auto& [id, n] : nodes) {
    LineProfile& l = lines[n.loc.valid() ? n.loc.begin.line : 0];
    l.line = n.loc.valid() ? n.loc.begin.line : 0;
    l.calls += n.calls;
    l.totalNs += n.totalNs;
    l.bytes += n.bytes;
    out.nodes.push_back(std::move(n));
  }
  for (auto& [line, l] : lines) out.lines.push_back(l);
  auto byTime = [](const auto& a, const auto& b) { return a.totalNs > b.totalNs; };
  std::stable_sort(out.nodes.begin(), out.nodes.end(), byTime);
  std::stable_sort(out.lines.begin(), out.lines.end(), byTime);
  return out;
}

std::string printProfileSummary(const ProfileSummary& p, const std::string& source, const std::string& file,
                                size_t top) {
  std::string s;
  s += "run: " + formatDuration(p.runNs) + " wall, " + std::to_string(p.instances) + " statement instances (" +
       percent(p.statementNs, p.runNs) + "% of the time in them)";
  if (p.droppedSpans) s += ", " + std::to_string(p.droppedSpans) + " spans beyond the trace's cap (aggregates exact)";
  if (p.kernelNs > 0)
    s += "\n     " + formatDuration(p.kernelNs) + " of them inside generated code (" + percent(p.kernelNs, p.statementNs) +
         "% of the statements' time; `in code` below)";
  s += "\n\nby node:\n";
  s += cell("time(%)", 8) + cell("total", 11) + cell("calls", 9) + cell("mean", 11) + cell("min", 11) +
       cell("max", 11) + cell("generated", 10) + cell("in code", 11) + cell("bytes", 11) + "  " + cell("node", 30, false) +
       cell("kernel", 24, false) + "source\n";
  size_t shown = 0;
  for (const NodeProfile& n : p.nodes) {
    if (shown++ == top) {
      s += "  ... " + std::to_string(p.nodes.size() - top) + " more nodes\n";
      break;
    }
    std::string where = n.loc.valid() ? file + ":" + std::to_string(n.loc.begin.line) + ":" + std::to_string(n.loc.begin.col) : "";
    s += cell(percent(n.totalNs, p.runNs), 8) + cell(formatDuration(n.totalNs), 11) + cell(std::to_string(n.calls), 9) +
         cell(formatDuration(n.calls ? n.totalNs / n.calls : 0), 11) + cell(formatDuration(n.minNs), 11) + cell(formatDuration(n.maxNs), 11) +
         cell(std::to_string(n.generatedCalls), 10) + cell(n.kernelNs ? formatDuration(n.kernelNs) : "-", 11) +
         cell(formatBytes(n.bytes), 11) + "  " + cell(n.label, 30, false) +
         cell(n.kernel, 24, false) + where + "\n";
  }
  const int64_t other = std::max<int64_t>(0, p.runNs - p.statementNs);
  s += cell(percent(other, p.runNs), 8) + cell(formatDuration(other), 11) + "  (loops, memory statements and the executor between statements)\n";
  s += "\nby source line:\n" + cell("time(%)", 8) + cell("total", 11) + cell("calls", 9) + cell("bytes", 11) + "  line\n";
  for (const LineProfile& l : p.lines) {
    std::string text = l.line ? file + ":" + std::to_string(l.line) + "  " + sourceLineText(source, l.line) : "(no source range)";
    s += cell(percent(l.totalNs, p.runNs), 8) + cell(formatDuration(l.totalNs), 11) + cell(std::to_string(l.calls), 9) +
         cell(formatBytes(l.bytes), 11) + "  " + text + "\n";
  }
  return s;
}

std::vector<LoopStepSummary> summariseSteps(const std::vector<StepProfile>& steps, const std::vector<std::string>& vars) {
  std::map<int, LoopStepSummary> loops;
  for (const StepProfile& s : steps) {
    auto [it, fresh] = loops.try_emplace(s.loop);
    LoopStepSummary& l = it->second;
    const int64_t ns = s.endNs - s.startNs, perIteration = s.iterations > 0 ? ns / s.iterations : ns;
    if (fresh) {
      l.loop = s.loop;
      l.var = s.loop >= 0 && static_cast<size_t>(s.loop) < vars.size() ? vars[static_cast<size_t>(s.loop)] : "";
      l.minNs = l.maxNs = perIteration;
      l.slowestValue = s.firstValue;
    }
    l.iterations += s.iterations;
    l.totalNs += ns;
    l.instances += s.instances;
    l.minNs = std::min(l.minNs, perIteration);
    if (perIteration > l.maxNs) l.maxNs = perIteration, l.slowestValue = s.firstValue;
  }
  std::vector<LoopStepSummary> out;
  for (auto& [loop, l] : loops) out.push_back(l);
  return out;
}

std::string printStepSummary(const std::vector<LoopStepSummary>& loops, int64_t runNs) {
  if (loops.empty()) return "";
  std::string s = "\nby step (iterations of the top-level loops):\n";
  for (const LoopStepSummary& l : loops) {
    const std::string var = l.var.empty() ? "loop " + std::to_string(l.loop) : l.var;
    s += "  loop " + std::to_string(l.loop) + (l.var.empty() ? "" : " (for " + l.var + ")") + ": " +
         std::to_string(l.iterations) + " iterations, " + formatDuration(l.totalNs) + " (" + percent(l.totalNs, runNs) +
         "% of the run), " + std::to_string(l.instances) + " statement instances; per iteration mean " +
         formatDuration(l.iterations ? l.totalNs / l.iterations : 0) + ", min " + formatDuration(l.minNs) + ", max " +
         formatDuration(l.maxNs) + " (" + var + " = " + std::to_string(l.slowestValue) + ")\n";
  }
  return s;
}

}  // namespace tempo
