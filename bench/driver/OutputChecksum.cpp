#include "driver/OutputChecksum.h"

#include <cmath>
#include <cstdlib>

namespace tempo::bench {

OutputChecksum checksumOf(const Tensor& t) {
  OutputChecksum c;
  for (int64_t i = 0; i < t.numel(); ++i) {
    double v = t.at(i);
    c.sum += v;
    c.absSum += std::abs(v);
    if (i < 3) c.first.push_back(v);
  }
  return c;
}

nlohmann::json toJson(const OutputChecksum& c) {
  return {{"sum", c.sum}, {"abs_sum", c.absSum}, {"first", c.first}};
}

std::optional<Expectation> parseExpectation(const std::string& text, std::string& error) {
  size_t dot = text.find('.');
  size_t eq = text.find('=');
  error = "--expect '" + text + "': expected OUTPUT.FIELD=VALUE with FIELD sum or abs_sum, e.g. y.sum=-28.917";
  if (dot == std::string::npos || eq == std::string::npos || dot == 0 || eq < dot) return std::nullopt;
  Expectation e{text.substr(0, dot), text.substr(dot + 1, eq - dot - 1), 0};
  if (e.field != "sum" && e.field != "abs_sum") return std::nullopt;
  std::string number = text.substr(eq + 1);
  char* end = nullptr;
  e.value = std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0' || !std::isfinite(e.value)) return std::nullopt;
  error.clear();
  return e;
}

std::vector<ExpectationResult> checkExpectations(const std::vector<Expectation>& expectations,
                                                 const std::vector<std::pair<std::string, OutputChecksum>>& sums,
                                                 double rtol) {
  std::vector<ExpectationResult> results;
  for (const Expectation& e : expectations) {
    ExpectationResult r{e, std::nullopt, false};
    for (const auto& [name, c] : sums)
      if (name == e.output) r.actual = e.field == "sum" ? c.sum : c.absSum;
    r.ok = r.actual && std::abs(*r.actual - e.value) <= rtol * std::abs(e.value);
    results.push_back(r);
  }
  return results;
}

nlohmann::json toJson(const ExpectationResult& r) {
  nlohmann::json j = {{"output", r.expected.output}, {"field", r.expected.field}, {"expected", r.expected.value},
                      {"ok", r.ok}};
  j["actual"] = r.actual ? nlohmann::json(*r.actual) : nlohmann::json(nullptr);
  return j;
}

}  // namespace tempo::bench
