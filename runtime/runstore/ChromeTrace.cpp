#include "runstore/ChromeTrace.h"

#include <nlohmann/json.hpp>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

namespace tempo {

namespace {

/// Nanoseconds as microseconds with three decimals (exact).
std::string micros(int64_t ns) {
  char buf[40];
  const char* sign = ns < 0 ? "-" : "";
  const int64_t a = ns < 0 ? -ns : ns;
  std::snprintf(buf, sizeof buf, "%s%" PRId64 ".%03" PRId64, sign, a / 1000, a % 1000);
  return buf;
}

/// `t=3, b=1` from a node's dims (`b, t`) and the span's first coordinates.
std::string coordinates(const std::string& dims, const StoredSpan& s) {
  std::vector<std::string> names;
  std::stringstream in(dims);
  for (std::string name; std::getline(in, name, ',');) {
    size_t first = name.find_first_not_of(' ');
    if (first != std::string::npos) names.push_back(name.substr(first));
  }
  const int32_t c[3] = {s.c0, s.c1, s.c2};
  std::string text;
  for (size_t i = 0; i < names.size() && i < 3; ++i) text += (i ? ", " : "") + names[i] + "=" + std::to_string(c[i]);
  return text;
}

class EventWriter {
public:
  explicit EventWriter(std::ostream& out) : out_(out) {}
  /// `json` is an event object whose "ts"/"dur" are filled from ns separately.
  void write(nlohmann::json event, int64_t tsNs = -1, int64_t durNs = -1) {
    std::string text = event.dump();
    text.pop_back();  // the closing brace: ts and dur are appended as exact decimals
    if (tsNs >= 0) text += std::string(text.size() > 1 ? "," : "") + "\"ts\":" + micros(tsNs);
    if (durNs >= 0) text += ",\"dur\":" + micros(durNs);
    out_ << (first_ ? "\n" : ",\n") << text << "}";
    first_ = false;
  }

private:
  std::ostream& out_;
  bool first_ = true;
};

}  // namespace

void writeChromeTrace(RunStore& store, int64_t runId, std::ostream& out) {
  std::optional<StoredRun> run = store.run(runId);
  if (!run) throw RunStoreError("no run " + std::to_string(runId) + " in " + store.path());
  std::map<int, StoredNode> nodes;
  for (StoredNode& n : store.nodes(runId)) nodes[n.node] = std::move(n);
  const std::string file = std::filesystem::path(run->header.programPath).filename().string();

  out << "{\"displayTimeUnit\":\"ns\",\"metadata\":"
      << nlohmann::json{{"tempo-run", runId},
                        {"program", run->header.programPath},
                        {"bounds", nlohmann::json::parse(run->header.boundsJson, nullptr, false)},
                        {"status", run->status},
                        {"started", run->startedAt},
                        {"label", run->header.label}}
             .dump()
      << ",\"traceEvents\":[";
  EventWriter w(out);
  const std::string process = "tempo run " + std::to_string(runId) + ": " + file;
  w.write({{"ph", "M"}, {"cat", "__metadata"}, {"name", "process_name"}, {"pid", 1}, {"tid", 1}, {"args", {{"name", process}}}});
  w.write({{"ph", "M"}, {"cat", "__metadata"}, {"name", "thread_name"}, {"pid", 1}, {"tid", 1}, {"args", {{"name", "executor"}}}});
  const std::vector<StoredStep> steps = store.steps(runId);
  if (!steps.empty())
    w.write({{"ph", "M"}, {"cat", "__metadata"}, {"name", "thread_name"}, {"pid", 1}, {"tid", 2},
             {"args", {{"name", "top-level loop iterations"}}}});
  for (const StoredStep& s : steps) {  // one loop's iterations follow each other: strictly nested on their track
    const std::string var = s.loopVar.empty() ? "loop " + std::to_string(s.loop) : s.loopVar;
    const std::string name = s.iterations == 1 ? var + " = " + std::to_string(s.firstValue)
                                               : var + " from " + std::to_string(s.firstValue) + " (" +
                                                     std::to_string(s.iterations) + " iterations)";
    w.write({{"ph", "X"}, {"cat", "step"}, {"name", name}, {"pid", 1}, {"tid", 2},
             {"args", {{"loop", s.loop}, {"iterations", s.iterations}, {"instances", s.instances}}}},
            s.startNs, std::max<int64_t>(0, s.endNs - s.startNs));
  }
  int64_t end = run->wallNs;
  const std::vector<StoredSpan> spans = store.spans(runId);
  for (const StoredSpan& s : spans) end = std::max(end, s.startNs + s.durationNs);
  w.write({{"ph", "X"}, {"cat", "run"}, {"name", "run"}, {"pid", 1}, {"tid", 1},
           {"args", {{"status", run->status}, {"instances", run->instances}}}},
          0, end);
  for (const StoredSpan& s : spans) {
    auto it = nodes.find(s.node);
    const StoredNode* n = it == nodes.end() ? nullptr : &it->second;
    nlohmann::json args = {{"node", s.node}, {"statement", s.statement}, {"generated", s.generated}};
    if (n) {
      args["coordinates"] = coordinates(n->dims, s);
      if (n->line > 0) args["source"] = file + ":" + std::to_string(n->line) + ":" + std::to_string(n->col);
      if (!n->kernel.empty()) args["kernel"] = n->kernel;
    }
    w.write({{"ph", "X"}, {"cat", s.generated ? "generated" : "statement"},
             {"name", n ? n->label : "%" + std::to_string(s.node)}, {"pid", 1}, {"tid", 1}, {"args", args}},
            s.startNs, s.durationNs);
    if (s.kernelNs > 0)  // inside it, the generated kernel's own time (nested: within the statement's slice)
      w.write({{"ph", "X"}, {"cat", "kernel"}, {"name", n && !n->kernel.empty() ? n->kernel.substr(0, n->kernel.find(' ')) : "generated code"},
               {"pid", 1}, {"tid", 1}, {"args", {{"node", s.node}, {"statement", s.statement}}}},
              s.kernelStartNs, s.kernelNs);
  }
  // A value written by one span and read by another: a flow from the producer's slice to the consumer's.
  int64_t flowId = 0;
  for (const StoredFlow& f : store.flows(runId)) {
    ++flowId;
    w.write({{"ph", "s"}, {"cat", "flow"}, {"name", "value"}, {"id", flowId}, {"pid", 1}, {"tid", 1}}, f.producerStartNs);
    w.write({{"ph", "f"}, {"bp", "e"}, {"cat", "flow"}, {"name", "value"}, {"id", flowId}, {"pid", 1}, {"tid", 1}},
            f.consumerStartNs);
  }
  for (const StoredMemoryEvent& e : store.memoryEvents(runId)) {
    if (e.timeNs < 0) continue;
    w.write({{"ph", "C"}, {"cat", "memory"}, {"name", "live bytes (measured)"}, {"pid", 1}, {"args", {{"bytes", e.live}}}},
            e.timeNs);
    if (e.predictedLive)
      w.write({{"ph", "C"}, {"cat", "memory"}, {"name", "live bytes (predicted)"}, {"pid", 1},
               {"args", {{"bytes", *e.predictedLive}}}},
              e.timeNs);
  }
  out << "\n]}\n";
}

}  // namespace tempo
