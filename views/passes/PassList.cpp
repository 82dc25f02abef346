#include "passes/PassList.h"

#include <QCheckBox>
#include <QEvent>
#include <QHeaderView>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace tempo::views {

namespace {

constexpr int kStepRole = Qt::UserRole;
constexpr int kChangedRole = Qt::UserRole + 1;
const QString kInputName = QStringLiteral("input");

QString formatDuration(std::chrono::nanoseconds d) {
  double ms = std::chrono::duration<double, std::milli>(d).count();
  if (ms < 1.0) return QStringLiteral("%1 µs").arg(ms * 1000.0, 0, 'f', 0);
  if (ms < 1000.0) return QStringLiteral("%1 ms").arg(ms, 0, 'f', ms < 10.0 ? 2 : 1);
  return QStringLiteral("%1 s").arg(ms / 1000.0, 0, 'f', 2);
}

QString tooltipFor(const QString& title, const std::string& description) {
  return QStringLiteral("<p><b>%1</b></p><p>%2</p>").arg(title.toHtmlEscaped(),
                                                        QString::fromStdString(description).toHtmlEscaped());
}

}  // namespace

PassList::PassList(QWidget* parent)
    : QWidget(parent), hideUnchanged_(new QCheckBox(tr("Hide passes that changed nothing"))), tree_(new QTreeWidget) {
  tree_->setColumnCount(3);
  tree_->setHeaderLabels({tr("Pass"), tr("Changed"), tr("Time")});
  tree_->setRootIsDecorated(false);
  tree_->setUniformRowHeights(true);
  tree_->setAllColumnsShowFocus(true);
  tree_->header()->setStretchLastSection(false);
  tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  tree_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  tree_->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
  hideUnchanged_->setToolTip(tr("Show only the passes whose graph differs from the graph before them"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(tree_, 1);
  layout->addWidget(hideUnchanged_);
  setFocusProxy(tree_);

  connect(hideUnchanged_, &QCheckBox::toggled, this, &PassList::applyVisibility);
  connect(tree_, &QTreeWidget::currentItemChanged, this, [this] { Q_EMIT currentStepChanged(currentStep()); });
}

QTreeWidgetItem* PassList::makeItem(int step) const {
  auto* item = new QTreeWidgetItem;
  item->setData(0, kStepRole, step);
  item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
  item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
  if (const LoweringSnapshot* stage = run_->stageAt(step)) {
    item->setText(0, QString::fromStdString(stage->stage));
    item->setText(1, tr("lowering"));
    item->setText(2, formatDuration(std::chrono::nanoseconds(static_cast<int64_t>(stage->seconds * 1e9))));
    const QString tip = tooltipFor(QString::fromStdString(stage->stage), stage->description);
    for (int c = 0; c < 3; ++c) item->setToolTip(c, tip);
    item->setData(0, kChangedRole, true);
    return item;
  }
  const PassSnapshot* snap = run_->snapshotAt(step);
  if (!snap) {
    item->setText(0, tr("input (after lowering)"));
    item->setToolTip(0, tooltipFor(tr("input (after lowering)"),
                                   "The dependence graph as the front end built it from the program, before any pass ran."));
    item->setData(0, kChangedRole, true);
    return item;
  }
  const size_t count = snap->diff.added.size() + snap->diff.removed.size() + snap->diff.rewritten.size();
  item->setText(0, QString::fromStdString(snap->passName));
  item->setText(1, snap->changed ? QString::number(count) : QStringLiteral("–"));
  item->setText(2, formatDuration(snap->duration));
  const QString tip = tooltipFor(QString::fromStdString(snap->passName), snap->description);
  item->setToolTip(0, tip);
  item->setToolTip(1, QString::fromStdString(snap->diff.summary()));
  item->setToolTip(2, tip);
  item->setData(0, kChangedRole, snap->changed);
  return item;
}

void PassList::setRun(std::shared_ptr<const PipelineRun> run) {
  const QString keep = currentName();
  run_ = std::move(run);
  {
    QSignalBlocker block(tree_);
    tree_->clear();
    if (run_)
      for (int step = 0; step < run_->stepCount(); ++step) tree_->addTopLevelItem(makeItem(step));
    applyColours();
    applyVisibility();
  }
  if (!run_) {
    Q_EMIT currentStepChanged(-1);
    return;
  }
  int step = std::max(stepNamed(keep), 0);
  while (step > 0 && itemForStep(step)->isHidden()) --step;  // keep the hide toggle as the user set it
  selectStep(step);
}

int PassList::stepNamed(const QString& name) const {
  if (name == kInputName) return 0;
  for (int step = 1; run_ && step < run_->stepCount(); ++step)
    if (QString::fromStdString(nameOf(step)) == name) return step;
  return -1;
}

int PassList::currentStep() const {
  QTreeWidgetItem* item = tree_->currentItem();
  return item ? item->data(0, kStepRole).toInt() : -1;
}

QTreeWidgetItem* PassList::itemForStep(int step) const {
  return step >= 0 && step < tree_->topLevelItemCount() ? tree_->topLevelItem(step) : nullptr;
}

bool PassList::selectStep(int step) {
  QTreeWidgetItem* item = itemForStep(step);
  if (!item) return false;
  if (item->isHidden()) hideUnchanged_->setChecked(false);
  if (tree_->currentItem() == item) Q_EMIT currentStepChanged(step);
  else tree_->setCurrentItem(item);
  return true;
}

bool PassList::selectPass(const QString& name) { return selectStep(stepNamed(name)); }

QString PassList::currentName() const {
  const int step = currentStep();
  if (step < 0 || !run_) return {};
  return step == 0 ? kInputName : QString::fromStdString(nameOf(step));
}

std::string PassList::nameOf(int step) const {
  if (const LoweringSnapshot* stage = run_->stageAt(step)) return stage->stage;
  const PassSnapshot* snap = run_->snapshotAt(step);
  return snap ? snap->passName : std::string();
}

void PassList::applyVisibility() {
  const bool hide = hideUnchanged_->isChecked();
  QTreeWidgetItem* current = tree_->currentItem();
  for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
    QTreeWidgetItem* item = tree_->topLevelItem(i);
    item->setHidden(hide && !item->data(0, kChangedRole).toBool());
  }
  if (current && current->isHidden()) {  // step back to the nearest visible row (the input always is)
    int i = tree_->indexOfTopLevelItem(current);
    while (i > 0 && tree_->topLevelItem(i)->isHidden()) --i;
    tree_->setCurrentItem(tree_->topLevelItem(i));
  }
}

void PassList::applyColours() {
  // Half-way between text and background: reads as "greyed" in light and dark themes alike.
  const QColor text = palette().color(QPalette::Text), base = palette().color(QPalette::Base);
  const QColor grey((text.red() + base.red()) / 2, (text.green() + base.green()) / 2, (text.blue() + base.blue()) / 2);
  for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
    QTreeWidgetItem* item = tree_->topLevelItem(i);
    const bool changed = item->data(0, kChangedRole).toBool();
    for (int c = 0; c < tree_->columnCount(); ++c) item->setData(c, Qt::ForegroundRole, changed ? QVariant() : QVariant(grey));
  }
}

void PassList::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) applyColours();
}

}  // namespace tempo::views
