#include "runstore/RunStore.h"

#include "runstore/RunSchema.h"

#include <nlohmann/json.hpp>

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <filesystem>

namespace tempo {

namespace {

std::string utcNow() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

std::string openPath(const std::string& path) {
  std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  return path;
}

bool processAlive(int64_t pid) {
  if (pid <= 0) return false;
  if (pid == ::getpid()) return true;
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

const char* const kRunColumns =
    "id, program_path, program_text, program_hash, label, engine, options, bounds, machine, build, started_at, "
    "COALESCE(ended_at, ''), status, COALESCE(error, ''), pid, COALESCE(wall_ns, 0), COALESCE(compile_ns, 0), "
    "COALESCE(instances, 0), COALESCE(dropped_spans, 0), COALESCE(peak_measured, 0), COALESCE(peak_predicted, 0), "
    "compile_summary";

}  // namespace

std::string fnv1aHex(const void* bytes, size_t size) {
  uint64_t h = 1469598103934665603ull;
  const auto* p = static_cast<const unsigned char*>(bytes);
  for (size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 1099511628211ull;
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

std::string boundsSummary(const std::string& boundsJson) {
  nlohmann::json j = nlohmann::json::parse(boundsJson, nullptr, false);
  std::string s;
  if (j.is_object())
    for (const auto& [name, value] : j.items()) s += (s.empty() ? "" : " ") + name + "=" + value.dump();
  return s;
}

std::string defaultRunStorePath(const std::string& programPath) {
  std::filesystem::path dir = std::filesystem::path(programPath).parent_path();
  return (dir / ".tempo" / "runs.db").string();
}

RunStore::RunStore(const std::string& path) : db_(openPath(path)) { migrateRunStore(db_); }

int64_t RunStore::beginRun(const RunHeader& h) {
  SqliteTransaction tx(db_);
  db_.prepare(
         "INSERT INTO runs (program_path, program_text, program_hash, label, engine, options, bounds, machine, build, "
         "started_at, status, pid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?)")
      .bind(1, h.programPath)
      .bind(2, h.programText)
      .bind(3, h.programHash)
      .bind(4, h.label)
      .bind(5, h.engine)
      .bind(6, h.optionsJson)
      .bind(7, h.boundsJson)
      .bind(8, h.machine)
      .bind(9, h.build)
      .bind(10, utcNow())
      .bind(11, static_cast<int64_t>(::getpid()))
      .run();
  const int64_t id = db_.lastInsertId();
  tx.commit();
  return id;
}

void RunStore::finishRun(int64_t id, const RunRecord& r) {
  SqliteTransaction tx(db_);
  SqliteStatement node = db_.prepare(
      "INSERT INTO run_nodes (run_id, node, label, op, match_key, kernel, dims, line, col, end_line, end_col, calls, "
      "total_ns, min_ns, max_ns, generated_calls, bytes, peak_bytes, kernel_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
      "?, ?, ?, ?, ?, ?, ?, ?)");
  for (const StoredNode& n : r.nodes)
    node.bind(1, id).bind(2, int64_t{n.node}).bind(3, n.label).bind(4, n.op).bind(5, n.matchKey).bind(6, n.kernel)
        .bind(7, n.dims).bind(8, int64_t{n.line}).bind(9, int64_t{n.col}).bind(10, int64_t{n.endLine})
        .bind(11, int64_t{n.endCol}).bind(12, n.calls).bind(13, n.totalNs).bind(14, n.minNs).bind(15, n.maxNs)
        .bind(16, n.generatedCalls).bind(17, n.bytes).bind(18, n.peakBytes).bind(19, n.kernelNs).run();
  SqliteStatement line =
      db_.prepare("INSERT INTO run_lines (run_id, line, text, calls, total_ns, bytes) VALUES (?, ?, ?, ?, ?, ?)");
  for (const StoredLine& l : r.lines)
    line.bind(1, id).bind(2, int64_t{l.line}).bind(3, l.text).bind(4, l.calls).bind(5, l.totalNs).bind(6, l.bytes).run();
  SqliteStatement span = db_.prepare(
      "INSERT INTO spans (run_id, start_ns, duration_ns, statement, node, thread, c0, c1, c2, generated, "
      "kernel_start_ns, kernel_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  for (const StoredSpan& s : r.spans)
    span.bind(1, id).bind(2, s.startNs).bind(3, s.durationNs).bind(4, int64_t{s.statement}).bind(5, int64_t{s.node})
        .bind(6, int64_t{s.thread}).bind(7, int64_t{s.c0}).bind(8, int64_t{s.c1}).bind(9, int64_t{s.c2})
        .bind(10, int64_t{s.generated}).bind(11, s.kernelStartNs).bind(12, s.kernelNs).run();
  SqliteStatement event = db_.prepare(
      "INSERT INTO memory_events (run_id, seq, kind, node, statement, count, time_ns, live, peak, predicted_live) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  for (const StoredMemoryEvent& e : r.memory) {
    event.bind(1, id).bind(2, e.seq).bind(3, e.kind).bind(4, int64_t{e.node}).bind(5, e.statement).bind(6, e.count)
        .bind(7, e.timeNs).bind(8, e.live).bind(9, e.peak);
    if (e.predictedLive) event.bind(10, *e.predictedLive);
    else event.bindNull(10);
    event.run();
  }
  SqliteStatement output = db_.prepare(
      "INSERT INTO outputs (run_id, name, dtype, shape, checksum, value_sum, npy) VALUES (?, ?, ?, ?, ?, ?, ?)");
  for (const StoredOutput& o : r.outputs) {
    output.bind(1, id).bind(2, o.name).bind(3, o.dtype).bind(4, o.shape).bind(5, o.checksum).bind(6, o.valueSum);
    if (o.npy.empty()) output.bindNull(7);
    else output.bindBlob(7, o.npy);
    output.run();
  }
  SqliteStatement step = db_.prepare(
      "INSERT INTO steps (run_id, seq, loop, loop_var, first_value, iterations, start_ns, end_ns, instances) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  for (const StoredStep& s : r.steps)
    step.bind(1, id).bind(2, s.seq).bind(3, int64_t{s.loop}).bind(4, s.loopVar).bind(5, s.firstValue).bind(6, s.iterations)
        .bind(7, s.startNs).bind(8, s.endNs).bind(9, s.instances).run();
  SqliteStatement stepStatement = db_.prepare(
      "INSERT INTO step_statements (run_id, step, statement, node, calls, total_ns) VALUES (?, ?, ?, ?, ?, ?)");
  for (const StoredStepStatement& s : r.stepStatements)
    stepStatement.bind(1, id).bind(2, s.step).bind(3, int64_t{s.statement}).bind(4, int64_t{s.node}).bind(5, s.calls)
        .bind(6, s.totalNs).run();
  SqliteStatement flow = db_.prepare(
      "INSERT INTO flows (run_id, producer_node, producer_start_ns, consumer_node, consumer_start_ns) VALUES (?, ?, ?, ?, ?)");
  for (const StoredFlow& f : r.flows)
    flow.bind(1, id).bind(2, int64_t{f.producerNode}).bind(3, f.producerStartNs).bind(4, int64_t{f.consumerNode})
        .bind(5, f.consumerStartNs).run();
  db_.prepare("UPDATE runs SET flows_truncated = ? WHERE id = ?").bind(1, int64_t{r.flowsTruncated}).bind(2, id).run();
  db_.prepare(
         "UPDATE runs SET status = 'ok', ended_at = ?, wall_ns = ?, compile_ns = ?, instances = ?, dropped_spans = ?, "
         "peak_measured = ?, peak_predicted = ?, compile_summary = ? WHERE id = ?")
      .bind(1, utcNow())
      .bind(2, r.wallNs)
      .bind(3, r.compileNs)
      .bind(4, r.instances)
      .bind(5, r.droppedSpans)
      .bind(6, r.peakMeasured)
      .bind(7, r.peakPredicted)
      .bind(8, r.compileSummaryJson)
      .bind(9, id)
      .run();
  tx.commit();
}

void RunStore::failRun(int64_t id, const std::string& error) {
  SqliteTransaction tx(db_);
  db_.prepare("UPDATE runs SET status = 'failed', ended_at = ?, error = ? WHERE id = ?")
      .bind(1, utcNow())
      .bind(2, error)
      .bind(3, id)
      .run();
  tx.commit();
}

std::vector<StoredRun> RunStore::selectRuns(const std::string& where, int64_t key, const std::string& text) {
  SqliteStatement s = db_.prepare(std::string("SELECT ") + kRunColumns + " FROM runs " + where + " ORDER BY id DESC");
  if (where.find("id = ?") != std::string::npos) s.bind(1, key);
  else if (!where.empty()) s.bind(1, text);
  std::vector<StoredRun> runs;
  while (s.step()) {
    StoredRun r;
    r.id = s.columnInt(0);
    r.header.programPath = s.columnText(1);
    r.header.programText = s.columnText(2);
    r.header.programHash = s.columnText(3);
    r.header.label = s.columnText(4);
    r.header.engine = s.columnText(5);
    r.header.optionsJson = s.columnText(6);
    r.header.boundsJson = s.columnText(7);
    r.header.machine = s.columnText(8);
    r.header.build = s.columnText(9);
    r.startedAt = s.columnText(10);
    r.endedAt = s.columnText(11);
    r.status = s.columnText(12);
    r.error = s.columnText(13);
    r.pid = s.columnInt(14);
    r.wallNs = s.columnInt(15);
    r.compileNs = s.columnInt(16);
    r.instances = s.columnInt(17);
    r.droppedSpans = s.columnInt(18);
    r.peakMeasured = s.columnInt(19);
    r.peakPredicted = s.columnInt(20);
    r.compileSummaryJson = s.columnText(21);
    if (r.status == "running" && !processAlive(r.pid)) r.status = "incomplete";
    runs.push_back(std::move(r));
  }
  return runs;
}

std::vector<StoredRun> RunStore::list(const std::string& programPath) {
  return programPath.empty() ? selectRuns("", 0, "") : selectRuns("WHERE program_path = ?", 0, programPath);
}

std::optional<StoredRun> RunStore::run(int64_t id) {
  std::vector<StoredRun> runs = selectRuns("WHERE id = ?", id, "");
  if (runs.empty()) return std::nullopt;
  return runs.front();
}

std::vector<StoredNode> RunStore::nodes(int64_t id) {
  SqliteStatement s = db_.prepare(
      "SELECT node, label, op, match_key, kernel, dims, line, col, end_line, end_col, calls, total_ns, min_ns, max_ns, "
      "generated_calls, bytes, peak_bytes, kernel_ns FROM run_nodes WHERE run_id = ? ORDER BY total_ns DESC, node");
  s.bind(1, id);
  std::vector<StoredNode> out;
  while (s.step()) {
    StoredNode n;
    n.node = static_cast<int>(s.columnInt(0));
    n.label = s.columnText(1);
    n.op = s.columnText(2);
    n.matchKey = s.columnText(3);
    n.kernel = s.columnText(4);
    n.dims = s.columnText(5);
    n.line = static_cast<int>(s.columnInt(6));
    n.col = static_cast<int>(s.columnInt(7));
    n.endLine = static_cast<int>(s.columnInt(8));
    n.endCol = static_cast<int>(s.columnInt(9));
    n.calls = s.columnInt(10);
    n.totalNs = s.columnInt(11);
    n.minNs = s.columnInt(12);
    n.maxNs = s.columnInt(13);
    n.generatedCalls = s.columnInt(14);
    n.bytes = s.columnInt(15);
    n.peakBytes = s.columnInt(16);
    n.kernelNs = s.columnInt(17);
    out.push_back(std::move(n));
  }
  return out;
}

std::vector<StoredLine> RunStore::lines(int64_t id) {
  SqliteStatement s =
      db_.prepare("SELECT line, text, calls, total_ns, bytes FROM run_lines WHERE run_id = ? ORDER BY total_ns DESC, line");
  s.bind(1, id);
  std::vector<StoredLine> out;
  while (s.step())
    out.push_back({static_cast<int>(s.columnInt(0)), s.columnText(1), s.columnInt(2), s.columnInt(3), s.columnInt(4)});
  return out;
}

const char* RunStore::spanColumns() {
  return "start_ns, duration_ns, statement, node, thread, c0, c1, c2, generated, kernel_start_ns, kernel_ns";
}

StoredSpan RunStore::readSpanRow(const SqliteStatement& s) {
  StoredSpan span;
  span.startNs = s.columnInt(0);
  span.durationNs = s.columnInt(1);
  span.statement = static_cast<int32_t>(s.columnInt(2));
  span.node = static_cast<int32_t>(s.columnInt(3));
  span.thread = static_cast<int32_t>(s.columnInt(4));
  span.c0 = static_cast<int32_t>(s.columnInt(5));
  span.c1 = static_cast<int32_t>(s.columnInt(6));
  span.c2 = static_cast<int32_t>(s.columnInt(7));
  span.generated = s.columnInt(8) != 0;
  span.kernelStartNs = s.columnInt(9);
  span.kernelNs = s.columnInt(10);
  return span;
}

std::vector<StoredSpan> RunStore::spans(int64_t id, int64_t fromNs, int64_t toNs) {
  SqliteStatement s = db_.prepare(std::string("SELECT ") + spanColumns() +
                                  " FROM spans WHERE run_id = ? AND start_ns >= ? AND start_ns < ? ORDER BY start_ns");
  s.bind(1, id).bind(2, fromNs).bind(3, toNs);
  std::vector<StoredSpan> out;
  while (s.step()) out.push_back(readSpanRow(s));
  return out;
}

std::vector<StoredMemoryEvent> RunStore::memoryEvents(int64_t id) {
  SqliteStatement s = db_.prepare(
      "SELECT seq, kind, node, statement, count, time_ns, live, peak, predicted_live FROM memory_events "
      "WHERE run_id = ? ORDER BY seq");
  s.bind(1, id);
  std::vector<StoredMemoryEvent> out;
  while (s.step()) {
    StoredMemoryEvent e;
    e.seq = s.columnInt(0);
    e.kind = s.columnText(1);
    e.node = static_cast<int>(s.columnInt(2));
    e.statement = s.columnInt(3);
    e.count = s.columnInt(4);
    e.timeNs = s.columnInt(5);
    e.live = s.columnInt(6);
    e.peak = s.columnInt(7);
    if (!s.columnIsNull(8)) e.predictedLive = s.columnInt(8);
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<StoredOutput> RunStore::outputs(int64_t id) {
  SqliteStatement s = db_.prepare(
      "SELECT name, dtype, shape, checksum, value_sum, COALESCE(npy, '') FROM outputs WHERE run_id = ? ORDER BY rowid");
  s.bind(1, id);
  std::vector<StoredOutput> out;
  while (s.step())
    out.push_back({s.columnText(0), s.columnText(1), s.columnText(2), s.columnText(3), s.columnDouble(4), s.columnText(5)});
  return out;
}

std::vector<StoredStep> RunStore::steps(int64_t id) {
  SqliteStatement s = db_.prepare(
      "SELECT seq, loop, loop_var, first_value, iterations, start_ns, end_ns, instances FROM steps WHERE run_id = ? ORDER BY seq");
  s.bind(1, id);
  std::vector<StoredStep> out;
  while (s.step())
    out.push_back({s.columnInt(0), static_cast<int>(s.columnInt(1)), s.columnText(2), s.columnInt(3), s.columnInt(4),
                   s.columnInt(5), s.columnInt(6), s.columnInt(7)});
  return out;
}

std::vector<StoredStepStatement> RunStore::stepStatements(int64_t id) {
  SqliteStatement s = db_.prepare(
      "SELECT step, statement, node, calls, total_ns FROM step_statements WHERE run_id = ? ORDER BY step, statement");
  s.bind(1, id);
  std::vector<StoredStepStatement> out;
  while (s.step())
    out.push_back({s.columnInt(0), static_cast<int>(s.columnInt(1)), static_cast<int>(s.columnInt(2)), s.columnInt(3),
                   s.columnInt(4)});
  return out;
}

std::vector<StoredFlow> RunStore::flows(int64_t id, int node, int64_t startNs) {
  const char* const columns = "SELECT producer_node, producer_start_ns, consumer_node, consumer_start_ns FROM flows WHERE run_id = ?";
  SqliteStatement s = db_.prepare(node < 0 ? std::string(columns) + " ORDER BY consumer_start_ns, producer_start_ns"
                                           : std::string(columns) +
                                                 " AND ((producer_start_ns = ?2 AND producer_node = ?3) OR"
                                                 " (consumer_start_ns = ?2 AND consumer_node = ?3)) ORDER BY consumer_start_ns");
  s.bind(1, id);
  if (node >= 0) s.bind(2, startNs).bind(3, int64_t{node});
  std::vector<StoredFlow> out;
  while (s.step())
    out.push_back({static_cast<int>(s.columnInt(0)), s.columnInt(1), static_cast<int>(s.columnInt(2)), s.columnInt(3)});
  return out;
}

bool RunStore::remove(int64_t id) {
  SqliteTransaction tx(db_);
  db_.prepare("DELETE FROM runs WHERE id = ?").bind(1, id).run();
  const bool removed = db_.changes() > 0;
  tx.commit();
  return removed;
}

}  // namespace tempo
