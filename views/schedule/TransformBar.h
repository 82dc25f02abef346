// TransformBar: the schedule view's row for changing the schedule by hand.
//
// A line edit takes a transform (`interchange b, t`, `skew j by i`, `shift %7 by 1
// along t`, `reverse t in h`: the text of compiler/schedule/ScheduleTransform), Apply
// (or Enter) asks to try it on top of the transforms applied so far (`tryRequested`
// with the whole list). The schedule view answers: `accept` when the result is legal
// (the transform joins the applied list, the redo list is cleared) or nothing when it
// is illegal (the list stays as it was; the view shows what would break). Undo and Redo
// move whole transforms between the applied list and the redo list and ask for the
// resulting list (`appliedChanged`); Reset drops them all. The applied list is shown
// as a label, in order.
#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;

namespace tempo::views {

class TransformBar : public QWidget {
  Q_OBJECT
public:
  explicit TransformBar(QWidget* parent = nullptr);

  /// The transforms applied, in order, and as one text (`a; b`).
  const QStringList& applied() const { return applied_; }
  QString appliedText() const { return applied_.join(QStringLiteral("; ")); }
  QLineEdit* input() const { return input_; }

public Q_SLOTS:
  /// Asks to try `transform` on top of the applied ones (as Apply does with the input's text).
  void tryTransform(const QString& transform);
  /// The transform tried last was legal: it joins the applied list.
  void accept(const QString& transform);
  void undo();
  void redo();
  void reset();

Q_SIGNALS:
  /// Try `all` (the applied transforms, then `transform`).
  void tryRequested(const QString& all, const QString& transform);
  /// The applied list changed by undo, redo or reset: show the schedule of `all`.
  void appliedChanged(const QString& all);

private:
  void refresh();

  QStringList applied_, undone_;
  QLineEdit* input_;
  QPushButton* apply_;
  QPushButton* undo_;
  QPushButton* redo_;
  QPushButton* reset_;
  QLabel* list_;
};

}  // namespace tempo::views
