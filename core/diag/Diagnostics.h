// Diagnostics: errors and warnings as values with a source location.
//
// Every stage of the engine reports problems by appending a Diagnostic to a
// DiagnosticBag instead of throwing or aborting. A Diagnostic carries the file,
// a 1-based line/column range and a message; `render` prints it the way
// compilers do: `file:line:col: error: message`, the source line, and a caret
// underlining the range. The CLI and the studio both consume these values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tempo {

/// A position in a source file: 1-based line and column (column counts bytes).
struct SourceLoc {
  int line = 0;
  int col = 0;
  bool valid() const { return line > 0; }
  auto operator<=>(const SourceLoc&) const = default;
};

/// A half-open range [begin, end) of source text; end may equal begin.
struct SourceRange {
  SourceLoc begin;
  SourceLoc end;
  bool valid() const { return begin.valid(); }
  bool operator==(const SourceRange&) const = default;
  /// The smallest range covering both.
  static SourceRange cover(const SourceRange& a, const SourceRange& b);
};

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string file;
  SourceRange range;
  std::string message;
};

/// An append-only list of diagnostics for one program.
class DiagnosticBag {
public:
  void error(std::string file, SourceRange range, std::string message);
  void warning(std::string file, SourceRange range, std::string message);
  void note(std::string file, SourceRange range, std::string message);
  void add(Diagnostic d) { items_.push_back(std::move(d)); }

  bool hasErrors() const;
  size_t errorCount() const;
  const std::vector<Diagnostic>& items() const { return items_; }
  bool empty() const { return items_.empty(); }
  /// Diagnostics sorted by (line, col), keeping the insertion order of equal
  /// positions; a note stays right after the diagnostic it was added after.
  std::vector<Diagnostic> sorted() const;

private:
  std::vector<Diagnostic> items_;
};

/// Renders one diagnostic as `file:line:col: error: message`, followed by the
/// source line and a caret line (`^~~~`) when `source` holds the file text.
std::string render(const Diagnostic& d, std::string_view source);

/// Renders all diagnostics in source order, each followed by a newline.
std::string renderAll(const DiagnosticBag& bag, std::string_view source);

/// Returns the 1-based `line` of `source` without its newline ("" if absent).
std::string_view sourceLine(std::string_view source, int line);

}  // namespace tempo
