#include "editor/ProblemsPanel.h"

#include <QHeaderView>
#include <QStyle>

namespace tempo::views {

namespace {
enum Column { SeverityColumn, LocationColumn, MessageColumn };
constexpr int kRangeRole = Qt::UserRole + 1;

QString severityName(Severity s) {
  switch (s) {
  case Severity::Error: return ProblemsPanel::tr("error");
  case Severity::Warning: return ProblemsPanel::tr("warning");
  case Severity::Note: return ProblemsPanel::tr("note");
  }
  return {};
}

QStyle::StandardPixmap severityIcon(Severity s) {
  switch (s) {
  case Severity::Error: return QStyle::SP_MessageBoxCritical;
  case Severity::Warning: return QStyle::SP_MessageBoxWarning;
  case Severity::Note: return QStyle::SP_MessageBoxInformation;
  }
  return QStyle::SP_MessageBoxInformation;
}
}  // namespace

ProblemsPanel::ProblemsPanel(QWidget* parent) : QTreeWidget(parent) {
  setColumnCount(3);
  setHeaderLabels({tr("Severity"), tr("Line:Col"), tr("Message")});
  setRootIsDecorated(true);
  setUniformRowHeights(true);
  setAlternatingRowColors(true);
  header()->setStretchLastSection(true);
  header()->setSectionResizeMode(SeverityColumn, QHeaderView::ResizeToContents);
  header()->setSectionResizeMode(LocationColumn, QHeaderView::ResizeToContents);
  connect(this, &QTreeWidget::itemActivated, this, &ProblemsPanel::onActivated);
  connect(this, &QTreeWidget::itemClicked, this, &ProblemsPanel::onActivated);
  setDiagnostics({});
}

void ProblemsPanel::setDiagnostics(const DiagnosticBag& diagnostics) {
  clear();
  problemCount_ = 0;
  QTreeWidgetItem* parentProblem = nullptr;
  for (const Diagnostic& d : diagnostics.sorted()) {
    auto* item = new QTreeWidgetItem;
    item->setIcon(SeverityColumn, style()->standardIcon(severityIcon(d.severity)));
    item->setText(SeverityColumn, severityName(d.severity));
    if (d.range.valid()) {
      item->setText(LocationColumn, QStringLiteral("%1:%2").arg(d.range.begin.line).arg(d.range.begin.col));
      SourceLoc end = d.range.end.valid() ? d.range.end : d.range.begin;
      item->setData(LocationColumn, kRangeRole, QList<QVariant>{d.range.begin.line, d.range.begin.col, end.line, end.col});
    }
    item->setText(MessageColumn, QString::fromStdString(d.message));
    item->setToolTip(MessageColumn, QString::fromStdString(d.message));
    if (d.severity == Severity::Note && parentProblem) {
      parentProblem->addChild(item);
      parentProblem->setExpanded(true);
      continue;
    }
    addTopLevelItem(item);
    parentProblem = item;
    ++problemCount_;
  }
  if (problemCount_ == 0) {
    auto* none = new QTreeWidgetItem(QStringList{QString(), QString(), tr("No problems")});
    none->setFlags(Qt::ItemIsEnabled);
    addTopLevelItem(none);
  }
}

void ProblemsPanel::activateProblem(int row) {
  if (QTreeWidgetItem* item = topLevelItem(row)) onActivated(item);
}

void ProblemsPanel::onActivated(QTreeWidgetItem* item) {
  QList<QVariant> range = item->data(LocationColumn, kRangeRole).toList();
  if (range.size() == 4)
    Q_EMIT problemActivated(range[0].toInt(), range[1].toInt(), range[2].toInt(), range[3].toInt());
}

}  // namespace tempo::views
