#include "schedule/ScheduleView.h"

#include "common/Background.h"

#include "executor/CompiledEngine.h"
#include "memory/StoragePlanner.h"
#include "pass/PassRegistry.h"
#include "schedule/IterationSpaceView.h"
#include "schedule/LoopCodeEdit.h"
#include "schedule/ScheduleHighlighter.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QRegularExpression>
#include <QSplitter>
#include <QTextBlock>
#include <QTextDocument>
#include <QVBoxLayout>

namespace tempo::views {

struct ScheduleView::Result {
  int generation = 0;
  std::shared_ptr<const CompiledProgram> compiled;
  QString text;
  QString error;
  QString boundsText;  ///< "B=4, T=16": where the bytes were predicted
  StoragePlan plan;
};

namespace {

QString storeText(const Graph& g, const Node& n, const StoreSpec& spec) {
  QString kind = QString::fromStdString(storeSpecName(spec, n.domain));
  return QStringLiteral("%1 store, %2 B").arg(kind).arg(spec.predictedBytes);
}

/// The node a printed loop line is about (`exec %7 h[...]`, `alloc %4 h ...`), or -1.
int nodeOfLine(const QString& line) {
  static const QRegularExpression re(QStringLiteral("^\\s*(?:exec|alloc|free|swap_out|swap_in|recompute) %(\\d+)"));
  QRegularExpressionMatch m = re.match(line);
  return m.hasMatch() ? m.captured(1).toInt() : -1;
}

/// Which method scheduled the program, as the status line says it.
QString schedulerText(const CompiledProgram& p) {
  switch (p.scheduler) {
    case ScheduleOptions::Algorithm::Fusion:
      return QObject::tr("loops fused along the dependences (the fusion schedule)");
    case ScheduleOptions::Algorithm::Isl:
      return QObject::tr("isl's scheduler%1, %2 chains of %3 nodes read at one point as one isl statement each")
          .arg(p.fusionFailure.empty() ? QString() : QObject::tr(" (the fusion schedule could not order it: hover)"))
          .arg(p.clusters.clusters.size())
          .arg(p.clusters.clusteredStatements());
    case ScheduleOptions::Algorithm::Fallback:
      return QObject::tr("the fallback schedule (isl's scheduler failed)");
  }
  return {};
}

}  // namespace

ScheduleView::ScheduleView(QWidget* parent) : QWidget(parent) {
  status_ = new QLabel(tr("No schedule yet."), this);
  status_->setObjectName("scheduleStatus");
  status_->setContentsMargins(6, 2, 6, 2);
  status_->setWordWrap(true);
  code_ = new LoopCodeEdit(this);
  code_->setObjectName("scheduleLoops");
  highlighter_ = new ScheduleHighlighter(code_->document());
  iteration_ = new IterationSpaceView(this);
  iteration_->setObjectName("iterationSpace");
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(code_);
  split->addWidget(iteration_);
  split->setStretchFactor(0, 2);
  split->setStretchFactor(1, 3);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  blockSize_ = new QSpinBox(this);
  blockSize_->setObjectName("scheduleBlockSize");
  blockSize_->setRange(0, 256);
  blockSize_->setSpecialValueText(tr("auto"));
  blockSize_->setPrefix(tr("Block size: "));
  blockSize_->setToolTip(tr("Static tiling's block size BS: a growing window is computed in blocks of BS positions "
                            "(auto: the cost model's choice). The iteration space shades the blocks."));
  auto* top = new QHBoxLayout;
  top->setContentsMargins(0, 0, 6, 0);
  top->addWidget(status_, 1);
  top->addWidget(blockSize_);
  layout->addLayout(top);
  layout->addWidget(split, 1);
  connect(blockSize_, &QSpinBox::valueChanged, this, [this] {
    if (program_) setProgram(program_);
  });
  connect(code_, &LoopCodeEdit::lineClicked, this, &ScheduleView::onLineClicked);
  connect(iteration_, &IterationSpaceView::nodeActivated, this, &ScheduleView::nodeActivated);
}

ScheduleView::~ScheduleView() = default;

bool ScheduleView::isCompiling() const { return pending_ > 0 || iteration_->isBuilding(); }

void ScheduleView::setProgram(std::shared_ptr<const FrontendResult> program) {
  if (!program || !program->ok()) {
    status_->setText(tr("The program has errors; the schedule shown is the last one that compiled."));
    return;
  }
  program_ = program;
  int generation = ++generation_;
  ++pending_;
  auto* watcher = new QFutureWatcher<Result>(this);
  connect(watcher, &QFutureWatcher<Result>::finished, this, [this, watcher] {
    --pending_;
    Result r = watcher->future().takeResult();
    watcher->deleteLater();
    if (r.generation == generation_) install(r);
  });
  watcher->setFuture(runInBackground([program, generation, blockSize = blockSize_->value()]() {
    Result r;
    r.generation = generation;
    try {
      PassContext context;
      if (blockSize > 0) context.options["block-size"] = std::to_string(blockSize);
      auto compiled = freedInBackground(compileProgram(program->graph, defaultPipeline(), context));
      r.text = QString::fromStdString(printLoopProgram(compiled->graph, compiled->loops));
      std::string error;
      if (std::optional<SymbolEnv> bounds = resolveBounds(compiled->graph, {}, error)) {
        r.plan = planStorage(compiled->graph, compiled->loops, *bounds);
        for (const auto& [name, value] : *bounds)
          r.boundsText += QStringLiteral("%1%2=%3").arg(r.boundsText.isEmpty() ? "" : ", ").arg(QString::fromStdString(name)).arg(value);
      }
      r.compiled = std::move(compiled);
    } catch (const std::exception& e) {
      r.error = QString::fromStdString(e.what());
    }
    return r;
  }));
}

void ScheduleView::install(const Result& r) {
  if (!r.compiled) {
    status_->setText(tr("Cannot schedule the program: %1").arg(r.error));
    Q_EMIT scheduleReady();
    return;
  }
  compiled_ = r.compiled;
  const Graph& g = compiled_->graph;
  highlighter_->setLoopText(r.text);
  code_->setPlainText(r.text);  // coloured once, as it is set
  QMap<int, QString> notes, tips;
  QStringList lines = r.text.split('\n');
  for (int i = 0; i < lines.size(); ++i) {
    int node = nodeOfLine(lines[i]);
    auto spec = r.plan.find(node);
    if (!lines[i].trimmed().startsWith(QLatin1String("exec")) || spec == r.plan.end() || !g.hasNode(node)) continue;
    notes[i] = storeText(g, g.node(node), spec->second);
    tips[i] = QString::fromStdString(spec->second.reason);
  }
  code_->setNotes(notes, tips);
  int execs = static_cast<int>(std::count_if(lines.begin(), lines.end(), [](const QString& l) { return nodeOfLine(l) >= 0; }));
  status_->setText(tr("%1 statements after %2 passes, %3 lines; %4. Stores and bytes at %5 (the storage planner). "
                      "Click a line to find its source.")
                       .arg(execs)
                       .arg(compiled_->passes.size())
                       .arg(lines.size() - (lines.endsWith(QString()) ? 1 : 0))
                       .arg(schedulerText(*compiled_))
                       .arg(r.boundsText.isEmpty() ? tr("no default bounds") : r.boundsText));
  status_->setToolTip(QString::fromStdString(compiled_->fusionFailure));
  iteration_->setSchedule(compiled_);
  Q_EMIT scheduleReady();
}

void ScheduleView::setBlockSize(int blockSize) { blockSize_->setValue(blockSize); }

int ScheduleView::blockSize() const { return blockSize_->value(); }

QString ScheduleView::loopText() const { return code_->toPlainText(); }

QString ScheduleView::noteAt(int line) const { return code_->noteAt(line); }

void ScheduleView::onLineClicked(int line) {
  code_->highlightLine(line);
  int node = nodeOfLine(code_->document()->findBlockByNumber(line).text());
  iteration_->highlightNode(node);
  if (!compiled_ || node < 0 || !compiled_->graph.hasNode(node)) return;
  const SourceRange& loc = compiled_->graph.node(node).loc;
  Q_EMIT nodeActivated(node, loc.begin.line, loc.begin.col, loc.end.line, loc.end.col);
}

}  // namespace tempo::views
