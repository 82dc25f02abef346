#include "run/RunPanel.h"

#include "common/Background.h"
#include "device/DeviceSupport.h"
#include "run/BoundsEditor.h"
#include "run/OutputView.h"
#include "types/ByteSize.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStandardItemModel>
#include <QVBoxLayout>

namespace tempo::views {

namespace {
QString formatSeconds(double s) {
  if (s < 1e-3) return RunPanel::tr("%1 µs").arg(s * 1e6, 0, 'f', 0);
  if (s < 1) return RunPanel::tr("%1 ms").arg(s * 1e3, 0, 'f', 1);
  return RunPanel::tr("%1 s").arg(s, 0, 'f', 2);
}
QString formatBytes(int64_t bytes) { return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat); }
}  // namespace

RunPanel::RunPanel(QWidget* parent)
    : QWidget(parent), bounds_(new BoundsEditor), engine_(new QComboBox), budget_(new QLineEdit), schedule_(new QLabel), device_(new QComboBox), runButton_(new QPushButton(tr("Run"))),
      cancelButton_(new QPushButton(tr("Cancel"))), profileButton_(new QPushButton(tr("Profile"))), progressBar_(new QProgressBar), status_(new QLabel),
      time_(new QLabel), memory_(new QLabel), outputs_(new QListWidget), outputView_(new OutputView) {
  engine_->setObjectName(QStringLiteral("runEngine"));
  engine_->addItem(tr("Reference interpreter"), static_cast<int>(Engine::Reference));
  engine_->addItem(tr("Compiled (passes + schedule)"), static_cast<int>(Engine::Compiled));
  engine_->setItemData(0, tr("The oracle: evaluates every point in the obvious way"), Qt::ToolTipRole);
  engine_->setItemData(1, tr("Optimises the graph, schedules it with isl and executes the loops; "
                             "measures and predicts peak memory."), Qt::ToolTipRole);
  // Devices: the CPU, then each GPU, greyed out with the reason while programs cannot run there.
  device_->setObjectName(QStringLiteral("runDevice"));
  for (const DeviceChoice& choice : deviceChoices()) {
    device_->addItem(QString::fromStdString(choice.label), QString::fromStdString(choice.spec.name()));
    const int row = device_->count() - 1;
    device_->setItemData(row, choice.usable ? tr("Runs on this machine's cores") : QString::fromStdString(choice.reason),
                         Qt::ToolTipRole);
    if (auto* model = qobject_cast<QStandardItemModel*>(device_->model()); model && !choice.usable)
      model->item(row)->setEnabled(false);
  }
  runButton_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  runButton_->setToolTip(tr("Run every output (Ctrl+R)"));
  cancelButton_->setIcon(style()->standardIcon(QStyle::SP_MediaStop));
  profileButton_->setObjectName(QStringLiteral("runProfile"));
  profileButton_->setToolTip(tr("Run on the compiled engine, traced, and record the run in the run store "
                                "(.tempo/runs.db next to the program); the profiler opens it (Ctrl+Shift+R)"));
  progressBar_->setRange(0, 0);
  progressBar_->setTextVisible(false);
  progressBar_->setMaximumHeight(6);
  progressBar_->hide();
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  memory_->setText(tr("Peak memory: <i>measured by a compiled run</i>"));
  setEngine(Engine::Compiled);  // the default, as for `tempo run`; the reference interpreter is the oracle

  auto* controls = new QWidget;
  auto* left = new QVBoxLayout(controls);
  left->setContentsMargins(0, 0, 4, 0);
  auto* boundsBox = new QGroupBox(tr("Bounds"));
  (new QVBoxLayout(boundsBox))->addWidget(bounds_);
  left->addWidget(boundsBox);
  auto* form = new QFormLayout;
  form->addRow(tr("Engine"), engine_);
  form->addRow(tr("Device"), device_);
  budget_->setObjectName(QStringLiteral("runBudget"));
  budget_->setPlaceholderText(tr("none (e.g. 64k, 1.5M)"));
  budget_->setToolTip(tr("Compiled engine: keep the live bytes under this budget by swapping and recomputing "
                         "(tempo run --memory-budget)"));
  form->addRow(tr("Memory budget"), budget_);
  schedule_->setWordWrap(true);
  schedule_->hide();
  form->addRow(schedule_);
  left->addLayout(form);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(runButton_);
  buttons->addWidget(cancelButton_);
  buttons->addWidget(profileButton_);
  left->addLayout(buttons);
  left->addWidget(progressBar_);
  left->addWidget(status_);
  left->addWidget(time_);
  left->addWidget(memory_);
  left->addWidget(new QLabel(tr("<b>Outputs</b>")));
  left->addWidget(outputs_, 1);

  auto* splitter = new QSplitter(Qt::Horizontal);
  splitter->addWidget(controls);
  splitter->addWidget(outputView_);
  splitter->setStretchFactor(0, 0);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({260, 700});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(splitter);

  connect(runButton_, &QPushButton::clicked, this, &RunPanel::run);
  connect(profileButton_, &QPushButton::clicked, this, &RunPanel::profile);
  connect(cancelButton_, &QPushButton::clicked, this, &RunPanel::cancel);
  connect(outputs_, &QListWidget::currentRowChanged, this, &RunPanel::showOutput);
  connect(engine_, &QComboBox::currentIndexChanged, this, &RunPanel::updateButtons);
  connect(&watcher_, &QFutureWatcher<RunOutcome>::finished, this, &RunPanel::onFinished);
  progressTimer_.setInterval(100);
  connect(&progressTimer_, &QTimer::timeout, this, &RunPanel::updateProgress);
  updateButtons();
}

RunPanel::~RunPanel() {
  cancel_ = true;
  if (watcher_.isRunning()) watcher_.waitForFinished();  // (a taken result leaves a future that never "finishes" again)
}

void RunPanel::setProgram(CheckedProgram program) {
  program_ = std::move(program);
  if (program_) bounds_->setGraph(program_->graph);
  if (!isRunning()) status_->setText(program_ && !program_->ok() ? tr("Fix the program's errors to run it.") : QString());
  updateButtons();
}

void RunPanel::setEngine(Engine engine) { engine_->setCurrentIndex(engine_->findData(static_cast<int>(engine))); }

void RunPanel::updateButtons() {
  runButton_->setEnabled(program_ && program_->ok() && !isRunning());
  profileButton_->setEnabled(program_ && program_->ok() && !isRunning() && !storePath_.isEmpty());
  engine_->setEnabled(!isRunning());
  const bool compiled = static_cast<Engine>(engine_->currentData().toInt()) == Engine::Compiled;
  budget_->setEnabled(compiled && !isRunning());
  cancelButton_->setEnabled(isRunning());  // both engines check the cancel flag
}

void RunPanel::setRunStore(const QString& dbPath, const QString& programPath) {
  storePath_ = dbPath;
  programPath_ = programPath;
  updateButtons();
}

void RunPanel::setSchedule(const QString& transform, int blockSize) {
  transform_ = transform;
  blockSize_ = blockSize;
  schedule_->setText(tr("Compiled with the schedule transformed by hand: <i>%1</i>").arg(transform.toHtmlEscaped()));
  schedule_->setVisible(!transform.isEmpty());
}

RunSettings RunPanel::settings() const {
  RunSettings settings;
  settings.transform = transform_.toStdString();
  settings.blockSize = blockSize_;
  if (!budget_->text().trimmed().isEmpty()) settings.memoryBudget = parseByteSize(budget_->text().trimmed().toStdString());
  return settings;
}

void RunPanel::run() { start(false); }

void RunPanel::profile() {
  if (storePath_.isEmpty()) return;
  setEngine(Engine::Compiled);
  start(true);
}

void RunPanel::start(bool profile) {
  if (!program_ || !program_->ok() || isRunning()) return;
  const RunSettings settings = this->settings();
  if (!budget_->text().trimmed().isEmpty() && !settings.memoryBudget) {
    status_->setText(tr("The memory budget '%1' is not a size: write bytes, e.g. 4096, 64k, 1.5M.").arg(budget_->text().toHtmlEscaped()));
    return;
  }
  profiling_ = profile;
  runActive_ = true;
  running_ = program_;
  cancel_ = false;
  progress_ = 0;
  status_->setText(tr("Running…"));
  progressBar_->show();
  progressTimer_.start();
  const std::map<std::string, int64_t> overrides = bounds_->overrides();
  CheckedProgram program = running_;
  Engine engine = static_cast<Engine>(engine_->currentData().toInt());
  std::optional<RunRecording> recording;  // a compiled run is recorded whenever there is a store to record into
  if (engine == Engine::Compiled && !storePath_.isEmpty())
    recording = RunRecording{storePath_.toStdString(), programPath_.toStdString(), profile ? "studio profile" : "studio run"};
  watcher_.setFuture(runInBackground([program, overrides, engine, recording, settings, this] {
    return runProgram(*program, overrides, engine, &cancel_, &progress_, recording ? &*recording : nullptr, settings);
  }));
  updateButtons();
  Q_EMIT runStarted();
}

void RunPanel::cancel() {
  if (!isRunning()) return;
  cancel_ = true;
  status_->setText(tr("Cancelling…"));
}

void RunPanel::updateProgress() {
  status_->setText(tr("Running… %L1 points evaluated").arg(static_cast<qulonglong>(progress_.load())));
}

void RunPanel::onFinished() {
  runActive_ = false;
  progressTimer_.stop();
  progressBar_->hide();
  outcome_ = watcher_.future().takeResult();
  outputs_->clear();
  if (outcome_.ok()) {
    QStringList bounds;
    for (const auto& [name, value] : outcome_.bounds) bounds << QStringLiteral("%1=%2").arg(QString::fromStdString(name)).arg(value);
    status_->setText((outcome_.engine == Engine::Compiled ? tr("Done: %L1 statements executed (%2).") : tr("Done: %L1 points evaluated (%2)."))
                         .arg(static_cast<qulonglong>(outcome_.pointsEvaluated))
                         .arg(bounds.join(QStringLiteral(", "))));
    for (const std::string& line : outcome_.extents)  // where each `until` dimension stopped
      status_->setText(status_->text() + QStringLiteral("<br>") + QString::fromStdString(line).toHtmlEscaped());
    time_->setText(outcome_.engine == Engine::Compiled
                       ? tr("Measured time: <b>%1</b> (compile %2)").arg(formatSeconds(outcome_.seconds), formatSeconds(outcome_.compileSeconds))
                       : tr("Measured time: <b>%1</b>").arg(formatSeconds(outcome_.seconds)));
    memory_->setText(outcome_.peakBytes ? tr("Peak memory: <b>%1</b> measured, %2 predicted")
                                              .arg(formatBytes(*outcome_.peakBytes), formatBytes(outcome_.predictedBytes.value_or(0)))
                                        : tr("Peak memory: <i>n/a for the reference engine</i>"));
    for (const auto& [name, value] : outcome_.outputs)
      outputs_->addItem(QStringLiteral("%1 : %2%3").arg(QString::fromStdString(name), QString::fromUtf8(dtypeName(value.dtype()).data()),
                                                        QString::fromStdString(shapeString(value.shape()))));
    if (!outcome_.outputs.empty()) outputs_->setCurrentRow(0);
  } else {
    status_->setText(outcome_.cancelled ? tr("Cancelled after %L1 points.").arg(static_cast<qulonglong>(outcome_.pointsEvaluated))
                                        : QString::fromStdString(outcome_.error).toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
    time_->clear();
    outputView_->clear(outcome_.cancelled ? tr("The run was cancelled.") : tr("The run failed."));
  }
  if (!outcome_.storeError.empty())
    status_->setText(status_->text() + QStringLiteral("<br>") +
                     tr("Not recorded: %1").arg(QString::fromStdString(outcome_.storeError).toHtmlEscaped()));
  updateButtons();
  Q_EMIT runFinished(outcome_.ok());
  if (outcome_.storedRun > 0) Q_EMIT runRecorded(storePath_, static_cast<qint64>(outcome_.storedRun));
}

void RunPanel::showOutput(int row) {
  if (row < 0 || row >= static_cast<int>(outcome_.outputs.size())) return;
  const auto& [name, value] = outcome_.outputs[static_cast<size_t>(row)];
  QStringList domain;
  const Graph* graph = running_ ? &running_->graph : nullptr;  // the graph that ran
  for (const GraphOutput& o : graph ? graph->outputs : std::vector<GraphOutput>{})
    if (o.name == name && graph->hasNode(o.node))
      for (const std::string& dim : graph->node(o.node).domain) domain << QString::fromStdString(dim);
  outputView_->setOutput(QString::fromStdString(name), value, domain);
}

}  // namespace tempo::views
