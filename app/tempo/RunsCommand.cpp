#include "tempo/RunsCommand.h"

#include "runstore/ChromeTrace.h"
#include "runstore/RunDiff.h"
#include "runstore/RunRecorder.h"
#include "runstore/RunStore.h"
#include "tempo/Cli.h"
#include "trace/ProfileSummary.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>

namespace tempo::cli {

namespace {

std::string storePath(const RunsOptions& o) {
  if (!o.db.empty()) return o.db;
  if (!o.program.empty()) return defaultRunStorePath(o.program);
  return (std::filesystem::path(".tempo") / "runs.db").string();
}

/// `5%` or `0.05` -> 0.05.
std::optional<double> parseThreshold(const std::string& text) {
  try {
    size_t used = 0;
    double v = std::stod(text, &used);
    if (used < text.size() && text.substr(used) == "%") v /= 100.0, ++used;
    if (used != text.size() || v < 0) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

/// `1ms`, `500us`, `2s`, `100ns` -> nanoseconds.
std::optional<int64_t> parseDuration(const std::string& text) {
  try {
    size_t used = 0;
    double v = std::stod(text, &used);
    const std::string unit = text.substr(used);
    double scale = unit == "ns" ? 1 : unit == "us" ? 1e3 : unit == "ms" ? 1e6 : unit == "s" ? 1e9 : -1;
    if (scale < 0 || v < 0) return std::nullopt;
    return static_cast<int64_t>(v * scale);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string fileName(const std::string& path) { return std::filesystem::path(path).filename().string(); }

std::string pad(const std::string& s, size_t width) { return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' '); }

int listRuns(RunStore& store, const RunsOptions& o, std::ostream& out) {
  std::string program;
  if (!o.program.empty()) {
    std::error_code ec;
    program = std::filesystem::weakly_canonical(std::filesystem::absolute(o.program), ec).string();
  }
  std::vector<StoredRun> runs = store.list(program);
  if (runs.empty()) {
    out << "no runs in " << store.path() << "\n";
    return kExitOk;
  }
  out << pad("id", 6) << pad("started (UTC)", 22) << pad("status", 11) << pad("wall", 11) << pad("peak", 11)
      << pad("program", 24) << pad("bounds", 20) << "label\n";
  for (const StoredRun& r : runs)
    out << pad(std::to_string(r.id), 6) << pad(r.startedAt, 22) << pad(r.status, 11)
        << pad(r.status == "ok" ? formatDuration(r.wallNs) : "-", 11)
        << pad(r.status == "ok" ? formatBytes(r.peakMeasured) : "-", 11) << pad(fileName(r.header.programPath), 24)
        << pad(boundsSummary(r.header.boundsJson), 20) << r.header.label << "\n";
  return kExitOk;
}

int showRun(RunStore& store, const RunsOptions& o, std::ostream& out, std::ostream& err) {
  std::optional<StoredRun> r = store.run(o.id);
  if (!r) {
    err << "tempo runs show: no run " << o.id << " in " << store.path() << "\n";
    return kExitRuntime;
  }
  out << "run " << r->id << ": " << r->header.programPath << (r->header.label.empty() ? "" : "  [" + r->header.label + "]")
      << "\n  status   " << r->status << (r->error.empty() ? "" : ": " + r->error) << "\n  started  " << r->startedAt
      << (r->endedAt.empty() ? "" : ", ended " + r->endedAt) << "\n  bounds   " << boundsSummary(r->header.boundsJson)
      << "\n  engine   " << r->header.engine << " " << r->header.optionsJson << "\n  program  hash " << r->header.programHash
      << "\n  machine  " << r->header.machine << "\n  build    " << r->header.build << "\n";
  if (r->status != "ok") return kExitOk;
  nlohmann::json summary = nlohmann::json::parse(r->compileSummaryJson, nullptr, false);
  out << "  compile  " << formatDuration(r->compileNs);
  if (summary.is_object() && summary.contains("kernels"))
    out << ", " << summary["nodes"] << " nodes, " << summary["kernels"]["generated"] << " generated / "
        << summary["kernels"]["library"] << " library kernels";
  out << "\n  memory   measured peak " << formatBytes(r->peakMeasured) << ", predicted " << formatBytes(r->peakPredicted)
      << ", " << store.memoryEvents(r->id).size() << " memory events stored\n\n";
  ProfileSummary p;
  p.runNs = r->wallNs;
  p.instances = r->instances;
  p.droppedSpans = r->droppedSpans;
  for (const StoredNode& n : store.nodes(r->id)) {
    NodeProfile np;
    np.node = n.node, np.label = n.label, np.kernel = n.kernel;
    np.loc = SourceRange{{n.line, n.col}, {n.endLine, n.endCol}};
    np.calls = n.calls, np.totalNs = n.totalNs, np.minNs = n.minNs, np.maxNs = n.maxNs;
    np.generatedCalls = n.generatedCalls, np.bytes = n.bytes, np.kernelNs = n.kernelNs;
    p.statementNs += n.totalNs;
    p.kernelNs += n.kernelNs;
    p.nodes.push_back(np);
  }
  for (const StoredLine& l : store.lines(r->id)) p.lines.push_back({l.line, l.calls, l.totalNs, l.bytes});
  out << printProfileSummary(p, r->header.programText, fileName(r->header.programPath), o.top);
  std::vector<StepProfile> steps;
  std::vector<std::string> loopVars;
  for (const StoredStep& s : store.steps(r->id)) {
    steps.push_back({s.loop, s.firstValue, s.iterations, s.startNs, s.endNs, s.instances});
    if (s.loop >= 0 && static_cast<size_t>(s.loop) >= loopVars.size()) loopVars.resize(static_cast<size_t>(s.loop) + 1);
    if (s.loop >= 0) loopVars[static_cast<size_t>(s.loop)] = s.loopVar;
  }
  out << printStepSummary(summariseSteps(steps, loopVars), r->wallNs);
  out << "\noutputs:\n";
  for (const StoredOutput& x : store.outputs(r->id)) {
    char sum[32];
    std::snprintf(sum, sizeof sum, "%.9g", x.valueSum);
    out << "  " << x.name << " : " << x.dtype << x.shape << "  fnv1a " << x.checksum << "  sum " << sum
        << (x.npy.empty() ? "" : "  (.npy stored)") << "\n";
  }
  return kExitOk;
}

int diffTwo(RunStore& store, const RunsOptions& o, std::ostream& out, std::ostream& err) {
  RunDiffOptions d;
  std::optional<double> threshold = parseThreshold(o.threshold);
  std::optional<int64_t> minTime = parseDuration(o.minTime);
  if (!threshold || !minTime) {
    err << "tempo runs diff: " << (!threshold ? "--threshold wants 5% or 0.05, not '" + o.threshold + "'"
                                              : "--min-time wants e.g. 1ms, 500us or 2s, not '" + o.minTime + "'")
        << "\n";
    return kExitUsage;
  }
  d.threshold = *threshold;
  d.minTimeNs = *minTime;
  RunDiff diff = diffRuns(store, o.id, o.other, d);
  out << printRunDiff(diff, d, o.top);
  return diff.regressed() ? 1 : kExitOk;
}

int exportRun(RunStore& store, const RunsOptions& o, std::ostream& out, std::ostream& err) {
  if (o.output.empty() || o.output == "-") {
    writeChromeTrace(store, o.id, out);
    return kExitOk;
  }
  std::ofstream file(o.output, std::ios::binary);
  if (!file) {
    err << "tempo runs export: cannot write '" << o.output << "'\n";
    return kExitRuntime;
  }
  writeChromeTrace(store, o.id, file);
  if (!file.flush()) {
    err << "tempo runs export: cannot write '" << o.output << "'\n";
    return kExitRuntime;
  }
  err << "wrote run " << o.id << " as a Chrome trace to " << o.output << "\n";
  return kExitOk;
}

}  // namespace

CLI::App* addRunsCommand(CLI::App& app, RunsOptions& o) {
  CLI::App* cmd = app.add_subcommand("runs", "The profiled runs in the run store: list, show, rm, diff, export");
  cmd->require_subcommand(1);
  auto common = [&](CLI::App* sub) {
    sub->add_option("--db", o.db, "The run store (default: .tempo/runs.db here, or next to --program)");
    return sub;
  };
  o.list = common(cmd->add_subcommand("list", "The stored runs, newest first"));
  o.list->add_option("--program", o.program, "Only the runs of this program (and its default store)");
  o.show = common(cmd->add_subcommand("show", "One run: header, compile summary, profile tables, outputs"));
  o.show->add_option("ID", o.id, "The run's id")->required();
  o.show->add_option("--top", o.top, "Rows of the node table")->check(CLI::PositiveNumber)->capture_default_str();
  o.rm = common(cmd->add_subcommand("rm", "Delete a run and everything recorded with it"));
  o.rm->add_option("ID", o.id, "The run's id")->required();
  o.diff = common(cmd->add_subcommand("diff", "Time and memory deltas from run A to run B; exit 1 when B regressed"));
  o.diff->add_option("A", o.id, "The baseline run")->required();
  o.diff->add_option("B", o.other, "The run compared with it")->required();
  o.diff->add_option("--threshold", o.threshold, "Relative growth that counts as a regression (5% or 0.05)")
      ->capture_default_str();
  o.diff->add_option("--min-time", o.minTime, "Least absolute time growth that counts (ns, us, ms, s)")
      ->capture_default_str();
  o.diff->add_option("--top", o.top, "Rows per table (regressions are always shown)")->check(CLI::PositiveNumber)
      ->capture_default_str();
  o.exportTrace = common(cmd->add_subcommand("export", "Write a run's trace for another tool"));
  o.exportTrace->add_option("ID", o.id, "The run's id")->required();
  o.exportTrace->add_option("--format", o.format, "chrome: Chrome trace JSON (Perfetto, chrome://tracing)")
      ->check(CLI::IsMember({"chrome"}))
      ->capture_default_str();
  o.exportTrace->add_option("-o,--output", o.output, "The file to write (default: standard output)");
  for (CLI::App* sub : {o.list, o.show, o.rm, o.diff, o.exportTrace})
    if (sub != o.list) sub->add_option("--program", o.program, "Use the store next to this program");
  return cmd;
}

int runRuns(const RunsOptions& o, std::ostream& out, std::ostream& err) {
  const std::string path = storePath(o);
  if (!std::filesystem::exists(path)) {
    err << "tempo runs: no run store at " << path << " (tempo profile FILE records one; --db PATH names another)\n";
    return kExitRuntime;
  }
  try {
    RunStore store(path);
    if (o.list->parsed()) return listRuns(store, o, out);
    if (o.show->parsed()) return showRun(store, o, out, err);
    if (o.rm->parsed()) {
      if (!store.remove(o.id)) {
        err << "tempo runs rm: no run " << o.id << " in " << store.path() << "\n";
        return kExitRuntime;
      }
      out << "removed run " << o.id << " from " << store.path() << "\n";
      return kExitOk;
    }
    if (o.diff->parsed()) return diffTwo(store, o, out, err);
    if (o.exportTrace->parsed()) return exportRun(store, o, out, err);
  } catch (const std::exception& e) {
    err << "tempo runs: " << e.what() << "\n";
    return kExitRuntime;
  }
  err << "tempo runs: no subcommand given (list, show, rm, diff, export)\n";
  return kExitUsage;
}

}  // namespace tempo::cli
