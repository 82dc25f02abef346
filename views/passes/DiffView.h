// DiffView: a read-only, monospace view of a unified diff, coloured.
//
// Lines starting with `+` read as additions (green band), `-` as removals
// (red band), `@@` hunk headers take the accent colour and `---`/`+++` file
// headers are bold. The bands span the full width of the view. Colours come
// from the view's palette (light or dark) and are re-applied when the palette
// changes, so the diff follows the system theme at runtime.
#pragma once

#include <QPlainTextEdit>

namespace tempo::views {

class DiffView : public QPlainTextEdit {
  Q_OBJECT
public:
  explicit DiffView(QWidget* parent = nullptr);

  void setDiff(const QString& diff);
  /// The band colour of an added (`true`) or removed line for `palette`.
  static QColor lineBackground(bool added, const QPalette& palette);
  /// Counts of `+` and `-` lines (file headers excluded) of the current diff.
  int addedLines() const { return added_; }
  int removedLines() const { return removed_; }

protected:
  void changeEvent(QEvent* event) override;

private:
  void recolour();
  int added_ = 0;
  int removed_ = 0;
};

}  // namespace tempo::views
