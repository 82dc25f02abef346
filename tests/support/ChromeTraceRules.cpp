#include "support/ChromeTraceRules.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace tempo::testing {

namespace {

int64_t ns(const nlohmann::json& micros) { return std::llround(micros.get<double>() * 1000.0); }

struct Slice {
  int64_t start, end;
  size_t index;
};

void checkNesting(std::vector<Slice> slices, const std::string& track, std::vector<std::string>& out) {
  std::stable_sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
    return a.start != b.start ? a.start < b.start : a.end > b.end;
  });
  std::vector<Slice> open;
  for (const Slice& s : slices) {
    while (!open.empty() && open.back().end <= s.start) open.pop_back();
    if (!open.empty() && s.end > open.back().end) {
      out.push_back("track " + track + ": X event " + std::to_string(s.index) + " [" + std::to_string(s.start) + ", " +
                    std::to_string(s.end) + ") ns overlaps event " + std::to_string(open.back().index) + " [" +
                    std::to_string(open.back().start) + ", " + std::to_string(open.back().end) + ") without nesting");
      continue;
    }
    open.push_back(s);
  }
}

}  // namespace

std::vector<std::string> chromeTraceViolations(const std::string& text) {
  std::vector<std::string> out;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return {"not valid JSON"};
  if (!j.is_object() || !j.contains("traceEvents") || !j["traceEvents"].is_array())
    return {"no traceEvents array in a top-level object"};
  std::map<std::string, std::vector<Slice>> tracks;
  const auto& events = j["traceEvents"];
  for (size_t i = 0; i < events.size(); ++i) {
    const auto& e = events[i];
    const std::string at = "event " + std::to_string(i);
    if (!e.is_object()) {
      out.push_back(at + " is not an object");
      continue;
    }
    if (!e.contains("ph") || !e["ph"].is_string()) {
      out.push_back(at + " has no phase");
      continue;
    }
    const std::string ph = e["ph"];
    if (!e.contains("cat") || !e["cat"].is_string() || e["cat"].get<std::string>().empty())
      out.push_back(at + " (" + ph + ") has no category");
    if (!e.contains("name") || !e["name"].is_string()) out.push_back(at + " (" + ph + ") has no name");
    if (!e.contains("pid") || !e["pid"].is_number_integer()) out.push_back(at + " (" + ph + ") has no numeric pid");
    const bool timed = e.contains("ts") && e["ts"].is_number();
    if (ph == "X") {
      if (!timed || !e.contains("dur") || !e["dur"].is_number() || e["dur"].get<double>() < 0 || !e.contains("tid")) {
        out.push_back(at + ": an X slice needs numeric ts, dur >= 0 and a tid");
        continue;
      }
      const int64_t start = ns(e["ts"]);
      tracks[e["pid"].dump() + "/" + e["tid"].dump()].push_back({start, start + ns(e["dur"]), i});
    } else if (ph == "C") {
      if (!timed) out.push_back(at + ": a counter needs a numeric ts");
      if (!e.contains("args") || !e["args"].is_object() || e["args"].size() != 1 || !e["args"].begin()->is_number())
        out.push_back(at + ": a counter event carries exactly one numeric value");
    } else if (ph == "M") {
      const std::string name = e.value("name", "");
      if (name != "process_name" && name != "thread_name" && name != "process_sort_index" && name != "thread_sort_index")
        out.push_back(at + ": unknown metadata " + name);
      if (!e.contains("args") || !e["args"].contains("name") && !e["args"].contains("sort_index"))
        out.push_back(at + ": metadata without args");
    } else if (ph == "s" || ph == "t" || ph == "f") {
      if (!timed) out.push_back(at + ": a flow event needs a numeric ts");
      if (!e.contains("id") || !e["id"].is_number_integer()) out.push_back(at + ": a flow id must be a number");
    } else if (ph != "i" && ph != "I") {
      out.push_back(at + ": unexpected phase " + ph);
    }
  }
  for (auto& [track, slices] : tracks) checkNesting(std::move(slices), track, out);
  return out;
}

}  // namespace tempo::testing
