#include "profiler/ProfilerPanel.h"

#include "profiler/MemoryChart.h"
#include "profiler/RunComparison.h"
#include "profiler/StatisticsTable.h"
#include "profiler/TimelineView.h"
#include "runstore/RunStore.h"
#include "trace/ProfileSummary.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <filesystem>

namespace tempo::views {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

ProfilerPanel::ProfilerPanel(QWidget* parent)
    : QWidget(parent), status_(new QLabel), tabs_(new QTabWidget), runs_(new QTableWidget), open_(new QPushButton(tr("Open"))),
      compare_(new QPushButton(tr("Compare two"))), delete_(new QPushButton(tr("Delete"))), timeline_(new TimelineView),
      timelineInfo_(new QLabel), memory_(new MemoryChart), statistics_(new StatisticsTable), comparison_(new RunComparison) {
  setObjectName(QStringLiteral("profilerPanel"));
  timelineInfo_->setWordWrap(true);
  status_->setWordWrap(true);
  runs_->setObjectName(QStringLiteral("profilerRuns"));
  runs_->setColumnCount(7);
  runs_->setHorizontalHeaderLabels({tr("run"), tr("started (UTC)"), tr("status"), tr("label"), tr("bounds"), tr("wall"), tr("peak")});
  runs_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  runs_->setSelectionBehavior(QAbstractItemView::SelectRows);
  runs_->verticalHeader()->hide();
  runs_->horizontalHeader()->setStretchLastSection(true);
  auto* refresh = new QPushButton(tr("Refresh"));
  auto* buttons = new QHBoxLayout;
  for (QPushButton* b : {open_, compare_, delete_, refresh}) buttons->addWidget(b);
  buttons->addStretch(1);
  auto* runsPage = new QWidget;
  auto* rl = new QVBoxLayout(runsPage);
  rl->addLayout(buttons);
  rl->addWidget(runs_, 1);
  auto* timelinePage = new QWidget;
  auto* tl = new QVBoxLayout(timelinePage);
  tl->addWidget(timelineInfo_);
  tl->addWidget(timeline_, 1);
  tabs_->addTab(runsPage, tr("Runs"));
  tabs_->addTab(timelinePage, tr("Timeline"));
  tabs_->addTab(memory_, tr("Memory"));
  tabs_->addTab(statistics_, tr("Statistics"));
  tabs_->addTab(comparison_, tr("Compare"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(status_);
  layout->addWidget(tabs_, 1);
  connect(open_, &QPushButton::clicked, this, &ProfilerPanel::openSelected);
  connect(compare_, &QPushButton::clicked, this, &ProfilerPanel::compareSelected);
  connect(delete_, &QPushButton::clicked, this, &ProfilerPanel::deleteSelected);
  connect(refresh, &QPushButton::clicked, this, &ProfilerPanel::refresh);
  connect(runs_, &QTableWidget::itemDoubleClicked, this, [this] { openSelected(); });
  connect(runs_, &QTableWidget::itemSelectionChanged, this, [this] {
    const size_t n = selectedRuns().size();
    open_->setEnabled(n == 1);
    compare_->setEnabled(n == 2);
    delete_->setEnabled(n >= 1);
  });
  connect(timeline_, &TimelineView::spanClicked, this, [this](const StoredSpan& span) {
    auto it = ranges_.find(span.node);
    if (it != ranges_.end()) Q_EMIT sourceActivated(it->second.begin.line, it->second.begin.col, it->second.end.line, it->second.end.col);
  });
  connect(statistics_, &StatisticsTable::sourceActivated, this, &ProfilerPanel::sourceActivated);
  open_->setEnabled(false);
  compare_->setEnabled(false);
  delete_->setEnabled(false);
  status_->setText(tr("No run store yet: profile the program (Run ▸ Profile) or run `tempo profile FILE`."));
}

void ProfilerPanel::setStore(const QString& dbPath, const QString& programPath) {
  dbPath_ = dbPath;
  programPath_ = programPath;
  refresh();
}

void ProfilerPanel::refresh() {
  runs_->setRowCount(0);
  if (dbPath_.isEmpty() || !QFileInfo::exists(dbPath_)) {
    status_->setText(tr("No runs recorded for this program yet (store: %1).").arg(dbPath_));
    return;
  }
  try {
    RunStore store(dbPath_.toStdString());
    std::string program;
    if (!programPath_.isEmpty()) {
      std::error_code ec;
      program = std::filesystem::weakly_canonical(std::filesystem::absolute(programPath_.toStdString()), ec).string();
    }
    const std::vector<StoredRun> runs = store.list(program);
    runs_->setRowCount(static_cast<int>(runs.size()));
    for (int row = 0; row < static_cast<int>(runs.size()); ++row) {
      const StoredRun& r = runs[static_cast<size_t>(row)];
      const bool ok = r.status == "ok";
      const QStringList cells = {QString::number(r.id), q(r.startedAt), q(r.status), q(r.header.label), q(boundsSummary(r.header.boundsJson)),
                                 ok ? q(formatDuration(r.wallNs)) : QStringLiteral("-"), ok ? q(formatBytes(r.peakMeasured)) : QStringLiteral("-")};
      for (int c = 0; c < cells.size(); ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        item->setData(Qt::UserRole, static_cast<qlonglong>(r.id));
        runs_->setItem(row, c, item);
      }
    }
    runs_->resizeColumnsToContents();
    status_->setText(tr("%n run(s) in %1", nullptr, static_cast<int>(runs.size())).arg(dbPath_));
  } catch (const std::exception& e) {
    status_->setText(tr("Cannot read the run store: %1").arg(q(e.what())));
  }
}

std::vector<int64_t> ProfilerPanel::selectedRuns() const {
  std::vector<int64_t> ids;
  for (const QModelIndex& index : runs_->selectionModel()->selectedRows())
    ids.push_back(runs_->item(index.row(), 0)->data(Qt::UserRole).toLongLong());
  std::sort(ids.begin(), ids.end());
  return ids;
}

bool ProfilerPanel::openRun(int64_t id) {
  try {
    RunStore store(dbPath_.toStdString());
    std::optional<StoredRun> run = store.run(id);
    if (!run) throw RunStoreError("no run " + std::to_string(id));
    std::vector<StoredNode> nodes = store.nodes(id);
    ranges_.clear();
    for (const StoredNode& n : nodes)
      if (n.line > 0) ranges_[n.node] = SourceRange{{n.line, n.col}, {n.endLine, n.endCol}};
    timeline_->setTrace(std::make_shared<StoredRunSpans>(dbPath_.toStdString(), id), timelineNodes(nodes, run->header.programPath));
    timeline_->setSteps(store.steps(id));
    memory_->setEvents(store.memoryEvents(id), nodes);
    statistics_->setNodes(std::move(nodes), run->wallNs);
    opened_ = id;
    openedWall_ = run->wallNs;
    lineTimes_.clear();
    for (const StoredLine& l : store.lines(id))
      if (l.line > 0) lineTimes_[l.line] = l.totalNs;
    Q_EMIT runOpened(id);
    timelineInfo_->setText(tr("Run %1 (%2, %3): %4 wall, %L5 statement instances%6. Wheel or W/S: zoom; drag or A/D: pan; Home: all; click a span: its line.")
                               .arg(id)
                               .arg(q(run->startedAt), q(run->status))
                               .arg(q(formatDuration(run->wallNs)))
                               .arg(run->instances)
                               .arg(run->droppedSpans ? tr(" (%L1 beyond the trace's cap, not drawn)").arg(run->droppedSpans) : QString()));
    tabs_->setCurrentWidget(timeline_->parentWidget());
    return true;
  } catch (const std::exception& e) {
    status_->setText(tr("Cannot open run %1: %2").arg(id).arg(q(e.what())));
    return false;
  }
}

bool ProfilerPanel::compareRuns(int64_t a, int64_t b) {
  const bool ok = comparison_->compare(dbPath_.toStdString(), a, b);
  tabs_->setCurrentWidget(comparison_);
  return ok;
}

void ProfilerPanel::highlightLine(int line) { timeline_->selectLine(line); }

bool ProfilerPanel::showTab(const QString& name) {
  static const QStringList kTabs = {QStringLiteral("runs"), QStringLiteral("timeline"), QStringLiteral("memory"),
                                    QStringLiteral("statistics"), QStringLiteral("compare")};
  const int index = static_cast<int>(kTabs.indexOf(name));
  if (index < 0) return false;
  tabs_->setCurrentIndex(index);
  return true;
}

void ProfilerPanel::openSelected() {
  const std::vector<int64_t> ids = selectedRuns();
  if (ids.size() == 1) openRun(ids.front());
}

void ProfilerPanel::compareSelected() {
  const std::vector<int64_t> ids = selectedRuns();
  if (ids.size() == 2) compareRuns(ids[0], ids[1]);
}

void ProfilerPanel::deleteSelected() {
  const std::vector<int64_t> ids = selectedRuns();
  if (ids.empty()) return;
  if (QMessageBox::question(this, tr("Delete runs"), tr("Delete %n run(s) and everything recorded with them?", nullptr,
                                                        static_cast<int>(ids.size()))) != QMessageBox::Yes)
    return;
  try {
    RunStore store(dbPath_.toStdString());
    for (int64_t id : ids) store.remove(id);
  } catch (const std::exception& e) {
    status_->setText(tr("Cannot delete: %1").arg(q(e.what())));
  }
  if (std::find(ids.begin(), ids.end(), opened_) != ids.end()) {
    timeline_->clear();
    memory_->clear();
    opened_ = openedWall_ = 0;
    lineTimes_.clear();
    Q_EMIT runOpened(0);
  }
  refresh();
}

}  // namespace tempo::views
