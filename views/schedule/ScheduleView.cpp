#include "schedule/ScheduleView.h"

#include "common/Background.h"

#include "executor/CompiledEngine.h"
#include "memory/StoragePlanner.h"
#include "pass/PassRegistry.h"
#include "schedule/IterationSpaceView.h"
#include "schedule/LoopCodeEdit.h"
#include "schedule/ScheduleHighlighter.h"
#include "schedule/TransformBar.h"

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
  QString tried;            ///< the transform tried last ("" for none)
  QStringList violations;   ///< the dependences it breaks (then `compiled` holds its illegal loops)
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
  transforms_ = new TransformBar(this);
  transforms_->setObjectName("scheduleTransforms");
  layout->addWidget(transforms_);
  layout->addWidget(split, 1);
  connect(transforms_, &TransformBar::tryRequested, this, &ScheduleView::compile);
  connect(transforms_, &TransformBar::appliedChanged, this, [this](const QString& all) { compile(all, {}); });
  connect(iteration_, &IterationSpaceView::transformRequested, transforms_, &TransformBar::tryTransform);
  connect(blockSize_, &QSpinBox::valueChanged, this, [this] {
    if (program_) compile(transforms_->appliedText(), {});
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
  compile(transforms_->appliedText(), {});
}

void ScheduleView::compile(const QString& all, const QString& tried) {
  if (!program_) return;
  std::shared_ptr<const FrontendResult> program = program_;
  int generation = ++generation_;
  ++pending_;
  auto* watcher = new QFutureWatcher<Result>(this);
  connect(watcher, &QFutureWatcher<Result>::finished, this, [this, watcher] {
    --pending_;
    Result r = watcher->future().takeResult();
    watcher->deleteLater();
    if (r.generation == generation_) install(r);
  });
  watcher->setFuture(runInBackground([program, generation, blockSize = blockSize_->value(), all = all.toStdString(),
                                      tried]() {
    Result r;
    r.generation = generation;
    r.tried = tried;
    try {
      PassContext context;
      if (blockSize > 0) context.options["block-size"] = std::to_string(blockSize);
      if (!all.empty()) context.options["schedule-transform"] = all;
      CompiledProgram built;
      try {
        built = compileProgram(program->graph, defaultPipeline(), context);
      } catch (const IllegalScheduleError& e) {  // shown as it would run: the graph, the illegal loops
        for (const ViolatedDependence& v : e.violations()) r.violations << QString::fromStdString(v.sentence);
        context.options.erase("schedule-transform");
        built = compileProgram(program->graph, defaultPipeline(), context);
        built.loops = e.loops();
      }
      auto compiled = freedInBackground(std::move(built));
      r.text = QString::fromStdString(printLoopProgram(compiled->graph, compiled->loops));
      std::string error;
      std::optional<SymbolEnv> bounds = resolveBounds(compiled->graph, {}, error);
      if (bounds && r.violations.isEmpty()) {
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
  violations_ = r.violations;
  if (!r.compiled) {
    status_->setText(r.tried.isEmpty() ? tr("Cannot schedule the program: %1").arg(r.error)
                                       : tr("Cannot apply \u201c%1\u201d: %2").arg(r.tried, r.error));
    Q_EMIT scheduleReady();
    return;
  }
  if (!r.tried.isEmpty() && r.violations.isEmpty()) transforms_->accept(r.tried);
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
  if (!transforms_->applied().isEmpty()) status_->setText(status_->text() + tr(" Transformed by hand."));
  if (!r.violations.isEmpty()) {
    QStringList items;
    for (const QString& v : r.violations) items << v.toHtmlEscaped();
    status_->setText(tr("<b style=\"color:#d62728\">Illegal: \u201c%1\u201d breaks %2 dependence%3</b> (not applied; "
                        "shown as it would run, broken arrows red):<br>%4")
                         .arg(r.tried.toHtmlEscaped())
                         .arg(r.violations.size())
                         .arg(r.violations.size() == 1 ? "" : "s")
                         .arg(items.join(QStringLiteral("<br>"))));
  }
  status_->setToolTip(QString::fromStdString(compiled_->fusionFailure));
  iteration_->setSchedule(compiled_);
  Q_EMIT scheduleReady();
}

void ScheduleView::setBlockSize(int blockSize) { blockSize_->setValue(blockSize); }

int ScheduleView::blockSize() const { return blockSize_->value(); }

QString ScheduleView::loopText() const { return code_->toPlainText(); }

QString ScheduleView::statusText() const { return status_->text(); }

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
