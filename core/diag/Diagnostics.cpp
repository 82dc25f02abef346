#include "diag/Diagnostics.h"

#include <algorithm>

namespace tempo {

SourceRange SourceRange::cover(const SourceRange& a, const SourceRange& b) {
  if (!a.valid()) return b;
  if (!b.valid()) return a;
  return {std::min(a.begin, b.begin), std::max(a.end, b.end)};
}

void DiagnosticBag::error(std::string file, SourceRange range, std::string message) {
  items_.push_back({Severity::Error, std::move(file), range, std::move(message)});
}
void DiagnosticBag::warning(std::string file, SourceRange range, std::string message) {
  items_.push_back({Severity::Warning, std::move(file), range, std::move(message)});
}
void DiagnosticBag::note(std::string file, SourceRange range, std::string message) {
  items_.push_back({Severity::Note, std::move(file), range, std::move(message)});
}

bool DiagnosticBag::hasErrors() const { return errorCount() > 0; }

size_t DiagnosticBag::errorCount() const {
  return std::count_if(items_.begin(), items_.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

std::vector<Diagnostic> DiagnosticBag::sorted() const {
  // A note belongs to the diagnostic before it: sort the groups, not the notes.
  std::vector<std::vector<Diagnostic>> groups;
  for (const Diagnostic& d : items_) {
    if (d.severity == Severity::Note && !groups.empty()) groups.back().push_back(d);
    else groups.push_back({d});
  }
  std::stable_sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
    return a.front().range.begin < b.front().range.begin;
  });
  std::vector<Diagnostic> out;
  for (const auto& g : groups) out.insert(out.end(), g.begin(), g.end());
  return out;
}

std::string_view sourceLine(std::string_view source, int line) {
  if (line <= 0) return {};
  size_t pos = 0;
  for (int l = 1; l < line; ++l) {
    pos = source.find('\n', pos);
    if (pos == std::string_view::npos) return {};
    ++pos;
  }
  size_t end = source.find('\n', pos);
  std::string_view text = source.substr(pos, end == std::string_view::npos ? source.size() - pos : end - pos);
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  return text;
}

static const char* severityName(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

std::string render(const Diagnostic& d, std::string_view source) {
  std::string out = d.file;
  if (d.range.valid()) {
    out += ":" + std::to_string(d.range.begin.line) + ":" + std::to_string(d.range.begin.col);
  }
  out += std::string(": ") + severityName(d.severity) + ": " + d.message + "\n";
  if (!d.range.valid()) return out;
  std::string_view text = sourceLine(source, d.range.begin.line);
  if (text.empty() && source.empty()) return out;
  // Show at most a window of a long line around the caret; never print raw control bytes.
  constexpr int kWindow = 120;
  int col = std::max(1, d.range.begin.col);
  int first = col > kWindow ? col - kWindow / 2 : 1;
  int last = std::min(static_cast<int>(text.size()), first + kWindow - 1);
  std::string shown, pad;
  for (int i = first; i <= last; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i - 1]);
    bool printable = c == '\t' || c >= 0x20;
    shown += printable ? static_cast<char>(c) : '?';
    if (i < col) pad += c == '\t' ? '\t' : ' ';
  }
  out += "  " + std::string(first > 1 ? "..." : "") + shown + (last < static_cast<int>(text.size()) ? "..." : "") + "\n  ";
  out += std::string(first > 1 ? "   " : "") + pad + '^';
  int endCol = d.range.end.line == d.range.begin.line ? d.range.end.col : static_cast<int>(text.size()) + 1;
  for (int i = col + 1; i < std::min(endCol, last + 2); ++i) out += '~';
  out += "\n";
  return out;
}

std::string renderAll(const DiagnosticBag& bag, std::string_view source) {
  std::string out;
  for (const Diagnostic& d : bag.sorted()) out += render(d, source);
  return out;
}

}  // namespace tempo
