#include "profiler/RunComparison.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QVBoxLayout>

#include <filesystem>

namespace tempo::views {

std::map<int, TimelineNode> timelineNodes(const std::vector<StoredNode>& nodes, const std::string& programPath) {
  const QString file = QString::fromStdString(std::filesystem::path(programPath).filename().string());
  std::map<int, TimelineNode> out;
  for (const StoredNode& n : nodes)
    out[n.node] = {QString::fromStdString(n.label), n.line > 0 ? QStringLiteral("%1:%2:%3").arg(file).arg(n.line).arg(n.col) : QString(),
                   QString::fromStdString(n.dims), n.line};
  return out;
}

RunComparison::RunComparison(QWidget* parent)
    : QWidget(parent), labelA_(new QLabel), labelB_(new QLabel), a_(new TimelineView), b_(new TimelineView), text_(new QPlainTextEdit) {
  setObjectName(QStringLiteral("runComparison"));
  text_->setReadOnly(true);
  text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  text_->setLineWrapMode(QPlainTextEdit::NoWrap);
  auto* timelines = new QWidget;
  auto* tl = new QVBoxLayout(timelines);
  tl->setContentsMargins(0, 0, 0, 0);
  tl->addWidget(labelA_);
  tl->addWidget(a_);
  tl->addWidget(labelB_);
  tl->addWidget(b_);
  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(timelines);
  split->addWidget(text_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(split);
  auto follow = [this](TimelineView* other) {
    return [this, other](double from, double to) {
      if (syncing_) return;
      syncing_ = true;
      other->setWindow(from, to);
      syncing_ = false;
    };
  };
  connect(a_, &TimelineView::windowChanged, this, follow(b_));
  connect(b_, &TimelineView::windowChanged, this, follow(a_));
}

bool RunComparison::compare(const std::string& dbPath, int64_t a, int64_t b) {
  try {
    RunStore store(dbPath);
    RunDiffOptions options;
    RunDiff diff = diffRuns(store, a, b, options);
    regressed_ = diff.regressed();
    text_->setPlainText(QString::fromStdString(printRunDiff(diff, options, 40)));
    const auto describe = [](const StoredRun& r) {
      return QObject::tr("run %1 — %2%3").arg(r.id).arg(QString::fromStdString(r.startedAt))
          .arg(r.header.label.empty() ? QString() : QStringLiteral(" — ") + QString::fromStdString(r.header.label));
    };
    labelA_->setText(QStringLiteral("A: ") + describe(diff.a));
    labelB_->setText(QStringLiteral("B: ") + describe(diff.b));
    a_->setTrace(std::make_shared<StoredRunSpans>(dbPath, a), timelineNodes(store.nodes(a), diff.a.header.programPath));
    b_->setTrace(std::make_shared<StoredRunSpans>(dbPath, b), timelineNodes(store.nodes(b), diff.b.header.programPath));
    a_->setSteps(store.steps(a));
    b_->setSteps(store.steps(b));
    const double extent = std::max(a_->extent(), b_->extent());  // one scale: the longer run's
    a_->setExtent(extent);
    b_->setExtent(extent);
    a_->showAll();
    return true;
  } catch (const std::exception& e) {
    text_->setPlainText(tr("Cannot compare runs %1 and %2: %3").arg(a).arg(b).arg(QString::fromStdString(e.what())));
    a_->clear();
    b_->clear();
    return false;
  }
}

}  // namespace tempo::views
