#include "schedule/TransformBar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace tempo::views {

TransformBar::TransformBar(QWidget* parent) : QWidget(parent) {
  input_ = new QLineEdit(this);
  input_->setObjectName("transformInput");
  input_->setPlaceholderText(tr("Transform the schedule: interchange b, t · skew j by i · shift h by 1 along t · "
                                "reverse t in h (or drag a dot)"));
  input_->setClearButtonEnabled(true);
  apply_ = new QPushButton(tr("Apply"), this);
  apply_->setObjectName("transformApply");
  undo_ = new QPushButton(tr("Undo"), this);
  undo_->setObjectName("transformUndo");
  redo_ = new QPushButton(tr("Redo"), this);
  redo_->setObjectName("transformRedo");
  reset_ = new QPushButton(tr("Reset"), this);
  reset_->setObjectName("transformReset");
  reset_->setToolTip(tr("Back to the compiler's schedule"));
  list_ = new QLabel(this);
  list_->setObjectName("transformApplied");
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(6, 2, 6, 2);
  row->addWidget(input_, 2);
  row->addWidget(apply_);
  row->addWidget(undo_);
  row->addWidget(redo_);
  row->addWidget(reset_);
  row->addWidget(list_, 1);
  connect(apply_, &QPushButton::clicked, this, [this] { tryTransform(input_->text()); });
  connect(input_, &QLineEdit::returnPressed, this, [this] { tryTransform(input_->text()); });
  connect(undo_, &QPushButton::clicked, this, &TransformBar::undo);
  connect(redo_, &QPushButton::clicked, this, &TransformBar::redo);
  connect(reset_, &QPushButton::clicked, this, &TransformBar::reset);
  refresh();
}

void TransformBar::tryTransform(const QString& transform) {
  const QString t = transform.trimmed();
  if (t.isEmpty()) return;
  QStringList all = applied_;
  all << t;
  Q_EMIT tryRequested(all.join(QStringLiteral("; ")), t);
}

void TransformBar::accept(const QString& transform) {
  applied_ << transform;
  undone_.clear();
  input_->clear();
  refresh();
}

void TransformBar::undo() {
  if (applied_.isEmpty()) return;
  undone_ << applied_.takeLast();
  refresh();
  Q_EMIT appliedChanged(appliedText());
}

void TransformBar::redo() {
  if (undone_.isEmpty()) return;
  applied_ << undone_.takeLast();
  refresh();
  Q_EMIT appliedChanged(appliedText());
}

void TransformBar::reset() {
  if (applied_.isEmpty() && undone_.isEmpty()) return;
  applied_.clear();
  undone_.clear();
  refresh();
  Q_EMIT appliedChanged(QString());
}

void TransformBar::refresh() {
  undo_->setEnabled(!applied_.isEmpty());
  redo_->setEnabled(!undone_.isEmpty());
  reset_->setEnabled(!applied_.isEmpty() || !undone_.isEmpty());
  list_->setText(applied_.isEmpty() ? tr("the compiler's schedule") : tr("applied: %1").arg(appliedText()));
}

}  // namespace tempo::views
