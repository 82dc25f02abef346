#include "editor/CodeEditor.h"

#include "common/Palette.h"
#include "editor/DeclarationFinder.h"
#include "editor/TpoLexer.h"

#include <QAction>
#include <QMouseEvent>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace tempo::views {

namespace {
constexpr int kErrorIndicator = 8;
constexpr int kWarningIndicator = 9;
constexpr int kNoteIndicator = 10;
constexpr int kErrorTint = 11;  // a translucent box under the squiggle, so short ranges stand out
constexpr int kWarningTint = 12;
constexpr int kErrorMarker = 1;
constexpr int kWarningMarker = 2;
constexpr int kSymbolMargin = 1;
constexpr int kHeatMargin = 2;
constexpr int kHeatLevels = 6;
}  // namespace

CodeEditor::CodeEditor(QWidget* parent) : QsciScintilla(parent), lexer_(new TpoLexer(this)) {
  setUtf8(true);
  setLexer(lexer_);
  setMarginType(0, NumberMargin);
  setMarginLineNumbers(0, true);
  setMarginType(kSymbolMargin, SymbolMargin);
  setMarginWidth(kSymbolMargin, 14);
  setMarginMarkerMask(kSymbolMargin, (1 << kErrorMarker) | (1 << kWarningMarker));
  setMarginSensitivity(kSymbolMargin, false);
  setFolding(NoFoldStyle);
  setIndentationsUseTabs(false);
  setTabWidth(2);
  setAutoIndent(true);
  setBraceMatching(SloppyBraceMatch);
  setCaretLineVisible(true);
  setEolMode(EolUnix);
  setWrapMode(WrapNone);
  SendScintilla(SCI_SETMOUSEDWELLTIME, 350);
  SendScintilla(SCI_SETSCROLLWIDTHTRACKING, 1);
  SendScintilla(SCI_SETSCROLLWIDTH, 1);

  indicatorDefine(SquiggleIndicator, kErrorIndicator);
  indicatorDefine(SquiggleIndicator, kWarningIndicator);
  indicatorDefine(DotsIndicator, kNoteIndicator);
  indicatorDefine(StraightBoxIndicator, kErrorTint);
  indicatorDefine(StraightBoxIndicator, kWarningTint);
  for (int ind : {kErrorTint, kWarningTint}) SendScintilla(SCI_INDICSETOUTLINEALPHA, static_cast<unsigned long>(ind), 0L);
  for (int ind : {kErrorIndicator, kWarningIndicator, kNoteIndicator, kErrorTint, kWarningTint})
    SendScintilla(SCI_INDICSETUNDER, ind, 1);
  markerDefine(Circle, kErrorMarker);
  markerDefine(Circle, kWarningMarker);
  applyPalette();

  auto* declaration = new QAction(tr("Go to Declaration"), this);
  declaration->setShortcut(Qt::Key_F12);
  declaration->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  connect(declaration, &QAction::triggered, this, &CodeEditor::goToDeclaration);
  addAction(declaration);

  connect(this, &QsciScintilla::cursorPositionChanged, this, &CodeEditor::onCursorMoved);
  connect(this, &QsciScintillaBase::SCN_DWELLSTART, this, &CodeEditor::showDiagnosticTip);
  connect(this, &QsciScintillaBase::SCN_DWELLEND, this, [] { QToolTip::hideText(); });
  connect(this, &QsciScintilla::linesChanged, this, [this] {
    setMarginWidth(0, QStringLiteral("0%1").arg(lines()));
  });
  setMarginWidth(0, QStringLiteral("0000"));
}

void CodeEditor::applyPalette() {
  QPalette p = palette();
  lexer_->applyPalette(p);
  setCaretForegroundColor(p.color(QPalette::Text));
  setCaretLineBackgroundColor(themeColor(ThemeColor::CurrentLine, p));
  setMarginsBackgroundColor(p.color(QPalette::AlternateBase));
  setMarginsForegroundColor(themeColor(ThemeColor::Comment, p));
  setSelectionBackgroundColor(p.color(QPalette::Highlight));
  setSelectionForegroundColor(p.color(QPalette::HighlightedText));
  setMatchedBraceBackgroundColor(themeColor(ThemeColor::CurrentLine, p).darker(115));
  setIndicatorForegroundColor(themeColor(ThemeColor::Error, p), kErrorIndicator);
  setIndicatorForegroundColor(themeColor(ThemeColor::Warning, p), kWarningIndicator);
  setIndicatorForegroundColor(themeColor(ThemeColor::Note, p), kNoteIndicator);
  auto tint = [&p](ThemeColor role) {  // QScintilla takes an indicator's alpha from its colour
    QColor c = themeColor(role, p);
    c.setAlpha(40);
    return c;
  };
  setIndicatorForegroundColor(tint(ThemeColor::Error), kErrorTint);
  setIndicatorForegroundColor(tint(ThemeColor::Warning), kWarningTint);
  setMarkerBackgroundColor(themeColor(ThemeColor::Error, p), kErrorMarker);
  setMarkerForegroundColor(themeColor(ThemeColor::Error, p), kErrorMarker);
  setMarkerBackgroundColor(themeColor(ThemeColor::Warning, p), kWarningMarker);
  setMarkerForegroundColor(themeColor(ThemeColor::Warning, p), kWarningMarker);
}

void CodeEditor::changeEvent(QEvent* event) {
  QsciScintilla::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) applyPalette();
}

int CodeEditor::indicatorFor(Severity severity) {
  switch (severity) {
  case Severity::Error: return kErrorIndicator;
  case Severity::Warning: return kWarningIndicator;
  case Severity::Note: return kNoteIndicator;
  }
  return kNoteIndicator;
}

int CodeEditor::positionOf(const SourceLoc& loc) const {
  int line = std::clamp(loc.line, 1, std::max(1, lines())) - 1;
  long start = const_cast<CodeEditor*>(this)->SendScintilla(SCI_POSITIONFROMLINE, line);
  long end = const_cast<CodeEditor*>(this)->SendScintilla(SCI_GETLINEENDPOSITION, line);
  return static_cast<int>(std::clamp<long>(start + std::max(0, loc.col - 1), start, end));
}

bool CodeEditor::hasIndicatorAt(int indicator, int position) const {
  return const_cast<CodeEditor*>(this)->SendScintilla(SCI_INDICATORVALUEAT, indicator, position) != 0;
}

void CodeEditor::setDiagnostics(const std::vector<Diagnostic>& diagnostics) {
  diagnostics_ = diagnostics;
  long length = SendScintilla(SCI_GETLENGTH);
  for (int ind : {kErrorIndicator, kWarningIndicator, kNoteIndicator, kErrorTint, kWarningTint}) {
    SendScintilla(SCI_SETINDICATORCURRENT, ind);
    SendScintilla(SCI_INDICATORCLEARRANGE, 0, length);
  }
  markerDeleteAll(kErrorMarker);
  markerDeleteAll(kWarningMarker);
  for (const Diagnostic& d : diagnostics_) {
    if (!d.range.valid()) continue;
    int begin = positionOf(d.range.begin);
    int end = d.range.end.valid() ? positionOf(d.range.end) : begin;
    if (end <= begin) {  // a zero-width range: underline the character there (or the one before at a line end)
      long lineEnd = SendScintilla(SCI_GETLINEENDPOSITION, d.range.begin.line - 1);
      if (begin >= lineEnd && begin > 0) --begin;
      end = begin + 1;
    }
    SendScintilla(SCI_SETINDICATORCURRENT, indicatorFor(d.severity));
    SendScintilla(SCI_INDICATORFILLRANGE, begin, end - begin);
    if (d.severity == Severity::Note) continue;
    bool error = d.severity == Severity::Error;
    SendScintilla(SCI_SETINDICATORCURRENT, error ? kErrorTint : kWarningTint);
    SendScintilla(SCI_INDICATORFILLRANGE, begin, end - begin);
    markerAdd(d.range.begin.line - 1, error ? kErrorMarker : kWarningMarker);
  }
}

std::vector<const Diagnostic*> CodeEditor::diagnosticsAt(int position) const {
  std::vector<const Diagnostic*> found;
  for (const Diagnostic& d : diagnostics_) {
    if (!d.range.valid()) continue;
    int begin = positionOf(d.range.begin);
    int end = std::max(begin + 1, d.range.end.valid() ? positionOf(d.range.end) : begin + 1);
    if (position >= begin && position < end) found.push_back(&d);
  }
  return found;
}

void CodeEditor::showDiagnosticTip(int position, int x, int y) {
  if (position < 0) return;
  QStringList lines;
  for (const Diagnostic* d : diagnosticsAt(position)) {
    const char* kind = d->severity == Severity::Error ? "error" : d->severity == Severity::Warning ? "warning" : "note";
    lines << QStringLiteral("<b>%1</b>: %2").arg(QLatin1String(kind), QString::fromStdString(d->message).toHtmlEscaped());
  }
  if (!lines.isEmpty()) QToolTip::showText(viewport()->mapToGlobal(QPoint(x, y)), lines.join(QStringLiteral("<br>")), this);
}

int CodeEditor::cursorLine() const {
  int line = 0, index = 0;
  getCursorPosition(&line, &index);
  return line + 1;
}

void CodeEditor::setLineHeat(const std::map<int, LineHeat>& heat) {
  heat_ = heat;
  clearMarginText();
  if (heat_.empty()) {
    setMarginWidth(kHeatMargin, 0);
    return;
  }
  setMarginType(kHeatMargin, TextMarginRightJustified);
  setMarginWidth(kHeatMargin, QStringLiteral(" 999.9 ms "));
  const QColor cool = palette().color(QPalette::AlternateBase), hot(0xf0, 0x70, 0x30);
  const QColor text = palette().color(QPalette::Text);
  for (const auto& [line, h] : heat_) {
    if (line < 1 || line > lines()) continue;
    const int level = std::clamp(static_cast<int>(std::ceil(h.share * kHeatLevels)), 0, kHeatLevels);
    const double t = static_cast<double>(level) / kHeatLevels;
    const QColor paper = QColor::fromRgbF(static_cast<float>(cool.redF() + (hot.redF() - cool.redF()) * t),
                                          static_cast<float>(cool.greenF() + (hot.greenF() - cool.greenF()) * t),
                                          static_cast<float>(cool.blueF() + (hot.blueF() - cool.blueF()) * t));
    setMarginText(line - 1, h.text + QLatin1Char(' '), QsciStyle(-1, QStringLiteral("heat"), text, paper, font()));
  }
}

void CodeEditor::onCursorMoved(int line, int) {
  if (line == lastLine_) return;
  lastLine_ = line;
  Q_EMIT cursorLineChanged(line + 1);
}

void CodeEditor::selectRange(int line, int col, int endLine, int endCol) {
  int begin = positionOf({line, col});
  int end = positionOf({endLine, endCol});
  SendScintilla(SCI_SETSEL, begin, end);
  SendScintilla(SCI_SCROLLRANGE, end, begin);
  setFocus();
}

bool CodeEditor::goToDeclaration() {
  int line = 0, index = 0;
  getCursorPosition(&line, &index);
  QString word = wordAtLineIndex(line, index);
  if (word.isEmpty()) return false;
  std::optional<SourceRange> range = findDeclaration(text().toStdString(), word.toStdString());
  if (!range) {
    Q_EMIT statusMessage(tr("No declaration of '%1'").arg(word));
    return false;
  }
  selectRange(range->begin.line, range->begin.col, range->end.line, range->end.col);
  Q_EMIT statusMessage(tr("Declaration of '%1' at line %2").arg(word).arg(range->begin.line));
  return true;
}

void CodeEditor::mouseReleaseEvent(QMouseEvent* event) {
  QsciScintilla::mouseReleaseEvent(event);
  if (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ControlModifier)) goToDeclaration();
}

}  // namespace tempo::views
