#include "runstore/RunDiff.h"

#include "trace/ProfileSummary.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace tempo {

namespace {

std::string signedPercent(int64_t a, int64_t b) {
  char buf[32];
  if (a == 0) return b == 0 ? "+0%" : "new";
  std::snprintf(buf, sizeof buf, "%+.0f%%", 100.0 * static_cast<double>(b - a) / static_cast<double>(a));
  return buf;
}

std::string plus(const std::string& formatted, int64_t delta) { return (delta >= 0 ? "+" : "") + formatted; }

/// Fills `regressed` and `why` from the two sides.
void judge(RunDiffRow& row, const RunDiffOptions& o) {
  std::vector<std::string> reasons;
  if (row.inA && row.inB) {
    const int64_t dt = row.bNs - row.aNs;
    const bool slower = dt > o.minTimeNs && static_cast<double>(dt) > o.threshold * static_cast<double>(row.aNs);
    const int64_t db = row.bBytes - row.aBytes;
    const bool bigger = db > 0 && static_cast<double>(db) > o.threshold * static_cast<double>(row.aBytes);
    if (slower) reasons.push_back("time " + signedPercent(row.aNs, row.bNs) + " (" + plus(formatDuration(dt), dt) + ")");
    if (bigger) reasons.push_back("peak " + plus(formatBytes(db), db) + " (" + signedPercent(row.aBytes, row.bBytes) + ")");
    row.regressed = slower || bigger;
  } else if (row.inB) {
    row.regressed = row.bNs > o.minTimeNs;
    reasons.push_back("new, " + formatDuration(row.bNs));
  } else {
    reasons.push_back("gone, was " + formatDuration(row.aNs));
  }
  for (const std::string& r : reasons) row.why += (row.why.empty() ? "" : ", ") + r;
}

template <class Item, class KeyFn, class FillFn>
std::vector<RunDiffRow> matchRows(const std::vector<Item>& a, const std::vector<Item>& b, KeyFn key, FillFn fill,
                                  const RunDiffOptions& o) {
  std::map<std::string, RunDiffRow> rows;
  std::vector<std::string> order;
  auto add = [&](const std::vector<Item>& items, bool isB) {
    std::map<std::string, int> seen;  // the k-th item with one key matches the k-th on the other side
    for (const Item& item : items) {
      std::string k = key(item);
      k += "#" + std::to_string(seen[k]++);
      auto [it, fresh] = rows.try_emplace(k);
      if (fresh) order.push_back(k);
      fill(it->second, item, isB);
    }
  };
  add(a, false);
  add(b, true);
  std::vector<RunDiffRow> out;
  for (const std::string& k : order) {
    RunDiffRow row = rows[k];
    judge(row, o);
    out.push_back(std::move(row));
  }
  std::stable_sort(out.begin(), out.end(), [](const RunDiffRow& x, const RunDiffRow& y) {
    if (x.regressed != y.regressed) return x.regressed;
    return x.bNs - x.aNs > y.bNs - y.aNs;
  });
  return out;
}

std::string cell(const std::string& s, size_t width, bool right = true) {
  if (s.size() >= width) return s + " ";
  return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

void printRows(std::string& s, const std::vector<RunDiffRow>& rows, size_t top) {
  s += cell("A", 11) + cell("B", 11) + cell("delta", 11) + cell("%", 7) + "  " + cell("", 2, false) + "what\n";
  size_t shown = 0;
  for (const RunDiffRow& r : rows) {
    if (shown >= top && !r.regressed) {
      s += "  ... " + std::to_string(rows.size() - shown) + " more\n";
      break;
    }
    ++shown;
    const int64_t d = r.bNs - r.aNs;
    s += cell(r.inA ? formatDuration(r.aNs) : "-", 11) + cell(r.inB ? formatDuration(r.bNs) : "-", 11) +
         cell(plus(formatDuration(d), d), 11) + cell(r.inA && r.inB ? signedPercent(r.aNs, r.bNs) : "", 7) + "  " +
         (r.regressed ? "! " : "  ") + r.what + (r.why.empty() || (!r.regressed && r.inA && r.inB) ? "" : "  [" + r.why + "]") +
         "\n";
  }
}

}  // namespace

bool RunDiff::regressed() const {
  if (run.regressed) return true;
  for (const auto* rows : {&nodes, &lines})
    for (const RunDiffRow& r : *rows)
      if (r.regressed) return true;
  return false;
}

RunDiff diffRuns(RunStore& store, int64_t a, int64_t b, const RunDiffOptions& options) {
  RunDiff d;
  for (auto [id, run] : {std::pair{a, &d.a}, std::pair{b, &d.b}}) {
    std::optional<StoredRun> r = store.run(id);
    if (!r) throw RunStoreError("no run " + std::to_string(id) + " in " + store.path());
    *run = *r;
    if (r->status != "ok") d.notes.push_back("run " + std::to_string(id) + " is " + r->status + ": its tables may be empty");
  }
  if (d.a.header.programHash != d.b.header.programHash) d.notes.push_back("the program text differs between the runs");
  if (d.a.header.boundsJson != d.b.header.boundsJson)
    d.notes.push_back("the bounds differ: " + d.a.header.boundsJson + " vs " + d.b.header.boundsJson);
  if (d.a.header.optionsJson != d.b.header.optionsJson)
    d.notes.push_back("the options differ: " + d.a.header.optionsJson + " vs " + d.b.header.optionsJson);
  d.run.what = "the run (wall time, measured peak)";
  d.run.inA = d.run.inB = true;
  d.run.aNs = d.a.wallNs, d.run.bNs = d.b.wallNs;
  d.run.aBytes = d.a.peakMeasured, d.run.bBytes = d.b.peakMeasured;
  judge(d.run, options);
  d.nodes = matchRows(
      store.nodes(a), store.nodes(b), [](const StoredNode& n) { return n.matchKey; },
      [](RunDiffRow& row, const StoredNode& n, bool isB) {
        if (isB) row.inB = true, row.bNs = n.totalNs, row.bBytes = n.peakBytes, row.what = n.label;
        else row.inA = true, row.aNs = n.totalNs, row.aBytes = n.peakBytes, row.what = row.what.empty() ? n.label : row.what;
      },
      options);
  d.lines = matchRows(
      store.lines(a), store.lines(b), [](const StoredLine& l) { return l.text; },
      [](RunDiffRow& row, const StoredLine& l, bool isB) {
        std::string what = l.line ? "line " + std::to_string(l.line) + ": " + l.text : "(no source range)";
        if (isB) row.inB = true, row.bNs = l.totalNs, row.what = what;
        else row.inA = true, row.aNs = l.totalNs, row.what = row.what.empty() ? what : row.what;
      },
      options);
  return d;
}

std::string printRunDiff(const RunDiff& d, const RunDiffOptions& options, size_t top) {
  char rule[160];
  std::snprintf(rule, sizeof rule, "a regression: time +%.0f%% and more than %s, or peak bytes +%.0f%%", options.threshold * 100,
                formatDuration(options.minTimeNs).c_str(), options.threshold * 100);
  std::string s = "A: run " + std::to_string(d.a.id) + " (" + d.a.startedAt + (d.a.header.label.empty() ? "" : ", " + d.a.header.label) +
                  ")\nB: run " + std::to_string(d.b.id) + " (" + d.b.startedAt +
                  (d.b.header.label.empty() ? "" : ", " + d.b.header.label) + ")\n" + rule + "\n";
  for (const std::string& n : d.notes) s += "note: " + n + "\n";
  const int64_t dp = d.b.peakMeasured - d.a.peakMeasured;
  s += "\nrun: wall " + formatDuration(d.a.wallNs) + " -> " + formatDuration(d.b.wallNs) + " (" +
       signedPercent(d.a.wallNs, d.b.wallNs) + "), measured peak " + formatBytes(d.a.peakMeasured) + " -> " +
       formatBytes(d.b.peakMeasured) + " (" + plus(formatBytes(dp), dp) + ")" + (d.run.regressed ? "  ! " + d.run.why : "") + "\n";
  s += "\nby node:\n";
  printRows(s, d.nodes, top);
  s += "\nby source line:\n";
  printRows(s, d.lines, top);
  s += d.regressed() ? "\nregressed\n" : "\nno regression\n";
  return s;
}

}  // namespace tempo
