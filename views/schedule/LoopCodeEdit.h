// LoopCodeEdit: read-only loop pseudo-code with a side column of notes.
//
// A QPlainTextEdit that shows the text exactly as given (the schedule view
// puts printLoopProgram's output in it) and paints, right-aligned in a muted
// colour beside chosen lines, a short note (the store and the bytes a node
// holds) without changing the text. Clicking a line emits `lineClicked` with
// its 0-based number; `highlightLine` marks one line as current.
#pragma once

#include <QMap>
#include <QPlainTextEdit>

namespace tempo::views {

class LoopCodeEdit : public QPlainTextEdit {
  Q_OBJECT
public:
  explicit LoopCodeEdit(QWidget* parent = nullptr);
  /// Line (0-based) -> note; tooltips come from `tips` when given.
  void setNotes(const QMap<int, QString>& notes, const QMap<int, QString>& tips = {});
  QString noteAt(int line) const { return notes_.value(line); }
  void highlightLine(int line);
  /// The top-left of `line` in viewport coordinates (for tests).
  QPoint linePosition(int line) const;

Q_SIGNALS:
  void lineClicked(int line);

protected:
  void paintEvent(QPaintEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  bool event(QEvent* e) override;

private:
  QMap<int, QString> notes_;
  QMap<int, QString> tips_;
};

}  // namespace tempo::views
