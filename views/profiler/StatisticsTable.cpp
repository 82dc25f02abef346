#include "profiler/StatisticsTable.h"

#include "trace/ProfileSummary.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace tempo::views {

namespace {

/// A cell that shows formatted text and sorts by a number.
class NumberItem : public QTableWidgetItem {
public:
  NumberItem(const QString& text, double value) : QTableWidgetItem(text), value_(value) {
    setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  }
  bool operator<(const QTableWidgetItem& other) const override {
    if (auto* n = dynamic_cast<const NumberItem*>(&other)) return value_ < n->value_;
    return QTableWidgetItem::operator<(other);
  }

private:
  double value_;
};

QString q(const std::string& s) { return QString::fromStdString(s); }

const QStringList kColumns = {QObject::tr("group"), QObject::tr("time %"), QObject::tr("total"), QObject::tr("calls"),
                              QObject::tr("mean"), QObject::tr("min"), QObject::tr("max"), QObject::tr("generated"),
                              QObject::tr("in code"), QObject::tr("bytes written"), QObject::tr("peak bytes"), QObject::tr("kernel"),
                              QObject::tr("source")};

}  // namespace

StatisticsTable::StatisticsTable(QWidget* parent) : QWidget(parent), groupBy_(new QComboBox), table_(new QTableWidget) {
  setObjectName(QStringLiteral("statisticsTable"));
  groupBy_->addItem(tr("by node"), static_cast<int>(GroupBy::Node));
  groupBy_->addItem(tr("by op kind"), static_cast<int>(GroupBy::Op));
  groupBy_->addItem(tr("by source line"), static_cast<int>(GroupBy::Line));
  table_->setColumnCount(static_cast<int>(kColumns.size()));
  table_->setHorizontalHeaderLabels(kColumns);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Group")));
  bar->addWidget(groupBy_);
  bar->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(table_, 1);
  connect(groupBy_, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
  connect(table_, &QTableWidget::itemActivated, this, [this](QTableWidgetItem* item) {
    const QTableWidgetItem* group = table_->item(item->row(), 0);
    const int line = group->data(Qt::UserRole).toInt();
    if (line > 0)
      Q_EMIT sourceActivated(line, group->data(Qt::UserRole + 1).toInt(), group->data(Qt::UserRole + 2).toInt(),
                             group->data(Qt::UserRole + 3).toInt());
  });
}

void StatisticsTable::setNodes(std::vector<StoredNode> nodes, int64_t runNs) {
  nodes_ = std::move(nodes);
  runNs_ = runNs;
  rebuild();
}

void StatisticsTable::setGroupBy(GroupBy by) { groupBy_->setCurrentIndex(groupBy_->findData(static_cast<int>(by))); }

void StatisticsTable::rebuild() {
  const auto by = static_cast<GroupBy>(groupBy_->currentData().toInt());
  std::map<std::string, StoredNode> groups;  // aggregates in a StoredNode: calls, times, bytes
  std::vector<std::string> order;
  for (const StoredNode& n : nodes_) {
    std::string key = by == GroupBy::Node ? n.label : by == GroupBy::Op ? n.op : "line " + std::to_string(n.line);
    auto [it, fresh] = groups.try_emplace(key, n);
    if (fresh) {
      order.push_back(key);
      if (by != GroupBy::Node) it->second.kernel.clear();
      continue;
    }
    StoredNode& g = it->second;
    g.calls += n.calls, g.totalNs += n.totalNs, g.generatedCalls += n.generatedCalls, g.kernelNs += n.kernelNs;
    g.bytes += n.bytes, g.peakBytes += n.peakBytes;
    g.minNs = std::min(g.minNs, n.minNs), g.maxNs = std::max(g.maxNs, n.maxNs);
    if (n.line > 0 && (g.line == 0 || n.line < g.line)) g.line = n.line, g.col = n.col, g.endLine = n.endLine, g.endCol = n.endCol;
  }
  table_->setSortingEnabled(false);
  table_->setRowCount(static_cast<int>(order.size()));
  int row = 0;
  for (const std::string& key : order) {
    const StoredNode& g = groups[key];
    auto* name = new QTableWidgetItem(q(key));
    name->setData(Qt::UserRole, g.line);
    name->setData(Qt::UserRole + 1, g.col);
    name->setData(Qt::UserRole + 2, g.endLine);
    name->setData(Qt::UserRole + 3, g.endCol);
    table_->setItem(row, 0, name);
    const double share = runNs_ > 0 ? 100.0 * g.totalNs / runNs_ : 0.0;
    table_->setItem(row, 1, new NumberItem(QString::number(share, 'f', 1), share));
    table_->setItem(row, 2, new NumberItem(q(formatDuration(g.totalNs)), g.totalNs));
    table_->setItem(row, 3, new NumberItem(QString::number(g.calls), g.calls));
    const int64_t mean = g.calls ? g.totalNs / g.calls : 0;
    table_->setItem(row, 4, new NumberItem(q(formatDuration(mean)), mean));
    table_->setItem(row, 5, new NumberItem(q(formatDuration(g.minNs)), g.minNs));
    table_->setItem(row, 6, new NumberItem(q(formatDuration(g.maxNs)), g.maxNs));
    table_->setItem(row, 7, new NumberItem(QString::number(g.generatedCalls), g.generatedCalls));
    // The time inside generated code (the kernels' hook), and its share of the group's time.
    const QString inCode = g.kernelNs > 0 ? QStringLiteral("%1 (%2%)").arg(q(formatDuration(g.kernelNs)))
                                                .arg(QString::number(100.0 * g.kernelNs / std::max<int64_t>(1, g.totalNs), 'f', 0))
                                          : QStringLiteral("-");
    table_->setItem(row, 8, new NumberItem(inCode, static_cast<double>(g.kernelNs)));
    table_->setItem(row, 9, new NumberItem(q(formatBytes(g.bytes)), g.bytes));
    table_->setItem(row, 10, new NumberItem(q(formatBytes(g.peakBytes)), g.peakBytes));
    table_->setItem(row, 11, new QTableWidgetItem(q(g.kernel)));
    table_->setItem(row, 12, new QTableWidgetItem(g.line > 0 ? tr("line %1").arg(g.line) : QString()));
    ++row;
  }
  table_->setSortingEnabled(true);
  table_->sortItems(2, Qt::DescendingOrder);
  table_->resizeColumnsToContents();
}

}  // namespace tempo::views
