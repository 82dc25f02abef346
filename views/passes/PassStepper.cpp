#include "passes/PassStepper.h"

#include "graph/GraphView.h"
#include "passes/PassComparison.h"
#include "common/Background.h"
#include "passes/PassList.h"

#include <QFutureWatcher>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

namespace tempo::views {

PassStepper::PassStepper(QWidget* parent)
    : QWidget(parent), list_(new PassList), comparison_(new PassComparison), status_(new QLabel) {
  status_->setWordWrap(true);
  auto* left = new QWidget;
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(list_, 1);
  leftLayout->addWidget(status_);

  auto* splitter = new QSplitter(Qt::Horizontal);
  splitter->addWidget(left);
  splitter->addWidget(comparison_);
  splitter->setStretchFactor(0, 0);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({360, 1240});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(splitter);
  setFocusProxy(list_);
  comparison_->clear(tr("Open a program to step through the compiler's passes."));

  connect(list_, &PassList::currentStepChanged, this, [this](int step) { comparison_->showStep(run_, step); });
  connect(comparison_, &PassComparison::nodeActivated, this, &PassStepper::nodeActivated);
}

PassStepper::~PassStepper() = default;

void PassStepper::setProgram(std::shared_ptr<const tempo::FrontendResult> program) {
  if (program && !program->ok()) {  // keep showing the last version that checked while the user types
    status_->setText(tr("The program has errors: showing the passes of the last version that checked."));
    return;
  }
  const quint64 generation = ++generation_;
  if (!program) {
    display(nullptr);
    status_->setText(QString());
    return;
  }
  ++running_;
  status_->setText(tr("Running the passes\u2026"));
  using SharedRun = std::shared_ptr<const PipelineRun>;
  auto* watcher = new QFutureWatcher<SharedRun>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    --running_;
    if (generation != generation_) return;  // a newer program was set meanwhile
    SharedRun run = watcher->future().takeResult();
    status_->setText(run->error.isEmpty() ? QString() : tr("The pipeline stopped: %1").arg(run->error));
    display(std::move(run));
  });
  watcher->setFuture(runInBackground([program] { return freedInBackground(runDefaultPipeline(program->graph)); }));
}

void PassStepper::display(std::shared_ptr<const PipelineRun> run) {
  run_ = std::move(run);
  list_->setRun(run_);
  if (!run_) comparison_->clear(tr("No passes to show."));
  Q_EMIT pipelineShown();
}

bool PassStepper::isBusy() const {
  return isRunning() || comparison_->beforeView()->layoutPending() || comparison_->afterView()->layoutPending();
}

bool PassStepper::selectPass(const QString& name) { return list_->selectPass(name); }

}  // namespace tempo::views
