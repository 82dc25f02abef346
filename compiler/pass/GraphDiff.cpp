#include "pass/GraphDiff.h"

#include "graph/GraphPrinter.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace tempo {

std::string GraphDiff::summary() const {
  if (empty()) return "no change";
  std::string s = std::to_string(added.size()) + " added, " + std::to_string(removed.size()) + " removed, " +
                  std::to_string(rewritten.size()) + " rewritten";
  if (outputsChanged) s += ", outputs changed";
  return s;
}

GraphDiff diffGraphs(const Graph& before, const Graph& after) {
  GraphDiff d;
  PrintOptions noLoc{.locations = false};
  for (const auto& [id, n] : before.nodes()) {
    if (!after.hasNode(id)) d.removed.insert(id);
    else if (printNode(before, n, noLoc) != printNode(after, after.node(id), noLoc)) d.rewritten.insert(id);
  }
  for (const auto& [id, n] : after.nodes())
    if (!before.hasNode(id)) d.added.insert(id);
  if (before.outputs.size() != after.outputs.size()) {
    d.outputsChanged = true;
  } else {
    for (size_t i = 0; i < before.outputs.size(); ++i)
      if (before.outputs[i].name != after.outputs[i].name || before.outputs[i].node != after.outputs[i].node)
        d.outputsChanged = true;
  }
  return d;
}

namespace {

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// One line of an edit script: ' ' kept, '-' only before, '+' only after.
struct DiffLine {
  char tag;
  std::string text;
  int beforeLine, afterLine;  ///< 0-based positions the line has (or would have) in each text
};

/// The edit script of a longest common subsequence (graphs print in a few hundred lines).
std::vector<DiffLine> editScript(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::vector<DiffLine> script;
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) {
      script.push_back({' ', a[i], int(i), int(j)});
      ++i, ++j;
    } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      script.push_back({'-', a[i], int(i), int(j)});  // deletions first, as diff(1) prints them
      ++i;
    } else {
      script.push_back({'+', b[j], int(i), int(j)});
      ++j;
    }
  }
  return script;
}

std::string range(int start, int count) {
  // Unified-diff convention: 1-based start, or the line before an empty range.
  return std::to_string(count == 0 ? start : start + 1) + "," + std::to_string(count);
}

}  // namespace

std::string unifiedDiff(const std::string& before, const std::string& after, const std::string& beforeLabel,
                        const std::string& afterLabel, int context) {
  if (before == after) return "";
  std::vector<DiffLine> script = editScript(splitLines(before), splitLines(after));
  std::string out = "--- " + beforeLabel + "\n+++ " + afterLabel + "\n";
  size_t k = 0;
  while (k < script.size()) {
    while (k < script.size() && script[k].tag == ' ') ++k;
    if (k == script.size()) break;
    // A hunk: from `context` kept lines before the first change to `context`
    // kept lines after the last change that is within 2*context of the next.
    size_t begin = k >= size_t(context) ? k - context : 0;
    size_t end = k;
    while (end < script.size()) {
      if (script[end].tag != ' ') { ++end; continue; }
      size_t run = end;
      while (run < script.size() && script[run].tag == ' ') ++run;
      if (run == script.size() || run - end > size_t(2 * context)) {
        end = std::min(run, end + context);
        break;
      }
      end = run;
    }
    int beforeCount = 0, afterCount = 0;
    for (size_t x = begin; x < end; ++x) {
      if (script[x].tag != '+') ++beforeCount;
      if (script[x].tag != '-') ++afterCount;
    }
    out += "@@ -" + range(script[begin].beforeLine, beforeCount) + " +" + range(script[begin].afterLine, afterCount) +
           " @@\n";
    for (size_t x = begin; x < end; ++x) out += std::string(1, script[x].tag) + script[x].text + "\n";
    k = end;
  }
  return out;
}

}  // namespace tempo
