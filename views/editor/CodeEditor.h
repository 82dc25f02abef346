// CodeEditor: the `.tpo` source editor.
//
// A QsciScintilla with the TpoLexer, a line-number margin and a marker
// margin, built-in undo/redo, and live diagnostics: each Diagnostic becomes a
// squiggle over its exact range (red for errors, amber for warnings, blue for
// notes) plus a marker in the margin, and hovering a squiggle shows its
// message. "Go to declaration" (F12 or Ctrl+click on a name) jumps to the
// statement that declares the name under the cursor (DeclarationFinder).
// The editor reports the cursor's line (`cursorLineChanged`, 1-based) so the
// graph can highlight what that line made, and `selectRange` selects a
// source range (1-based lines, byte columns, end exclusive) when a graph
// node or a problem is activated. A heat margin shows a profiled run's time
// per source line (setLineHeat): the time as text on a background that
// grows warmer with the line's share of the run.
#pragma once

#include "diag/Diagnostics.h"

#include "editor/QsciIncludes.h"

#include <map>
#include <vector>

namespace tempo::views {

/// A line's share of a profiled run, for the heat margin.
struct LineHeat {
  QString text;        ///< `12.3 ms`
  double share = 0;    ///< of the run's time, 0..1
};

class TpoLexer;

class CodeEditor : public QsciScintilla {
  Q_OBJECT
public:
  explicit CodeEditor(QWidget* parent = nullptr);

  /// Replaces the shown diagnostics (squiggles, margin markers, hover text).
  void setDiagnostics(const std::vector<Diagnostic>& diagnostics);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

  /// Scintilla position of a 1-based line and byte column (clamped to the text).
  int positionOf(const SourceLoc& loc) const;
  /// The indicator numbers used for error / warning squiggles (for tests).
  static int indicatorFor(Severity severity);
  /// True when the character at `position` carries `indicator`.
  bool hasIndicatorAt(int indicator, int position) const;
  /// The diagnostics whose range covers `position` (a zero-width range covers its start).
  std::vector<const Diagnostic*> diagnosticsAt(int position) const;
  /// The 1-based line the cursor is on.
  int cursorLine() const;
  /// Shows per-line times in the heat margin (1-based lines); an empty map hides the margin.
  void setLineHeat(const std::map<int, LineHeat>& heat);
  const std::map<int, LineHeat>& lineHeat() const { return heat_; }

public Q_SLOTS:
  /// Selects [line:col, endLine:endCol) (1-based, byte columns) and scrolls to it.
  void selectRange(int line, int col, int endLine, int endCol);
  /// Moves to the declaration of the name under the cursor; false if none.
  bool goToDeclaration();

Q_SIGNALS:
  /// The cursor moved to another line (1-based).
  void cursorLineChanged(int line);
  /// A short message for the status bar ("No declaration of 'q'").
  void statusMessage(const QString& message);

protected:
  void mouseReleaseEvent(QMouseEvent* event) override;
  void changeEvent(QEvent* event) override;

private:
  void applyPalette();
  void onCursorMoved(int line, int index);
  void showDiagnosticTip(int position, int x, int y);

  TpoLexer* lexer_ = nullptr;
  std::vector<Diagnostic> diagnostics_;
  std::map<int, LineHeat> heat_;
  int lastLine_ = -1;
};

}  // namespace tempo::views
