#include "passes/PassComparison.h"

#include "graph/GraphCanvas.h"
#include "graph/GraphNodeItem.h"
#include "graph/GraphScene.h"
#include "graph/GraphView.h"
#include "passes/DiffView.h"

#include <QComboBox>
#include <QLabel>
#include <QFontDatabase>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace tempo::views {

namespace {

/// `■ word` in the colour GraphView outlines that mark with.
QString chip(const QString& mark) {
  return QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2")
      .arg(GraphView::markColor(mark).name(), mark);
}

/// "the input" for step 0, else "after <pass>".
QString stateName(const PipelineRun& run, int step) {
  const PassSnapshot* s = run.snapshotAt(step);
  return s ? QObject::tr("after %1").arg(QString::fromStdString(s->passName).toHtmlEscaped()) : QObject::tr("the input");
}

std::map<int, QString> marksOf(const std::set<NodeId>& ids, const QString& mark, std::map<int, QString> into = {}) {
  for (NodeId id : ids) into[id] = mark;
  return into;
}

}  // namespace

PassComparison::PassComparison(QWidget* parent)
    : QWidget(parent), title_(new QLabel), description_(new QLabel), beforeCaption_(new QLabel),
      afterCaption_(new QLabel), before_(new GraphView), after_(new GraphView), diff_(new DiffView),
      notes_(new QListWidget), program_(new QPlainTextEdit), kernelPicker_(new QComboBox), tabs_(new QTabWidget) {
  title_->setTextFormat(Qt::RichText);
  // Long titles and captions wrap instead of forcing the studio window wide.
  for (QLabel* label : {title_, beforeCaption_, afterCaption_}) label->setWordWrap(true);
  description_->setWordWrap(true);
  description_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  notes_->setWordWrap(true);
  diff_->setPlaceholderText(tr("This pass changed nothing."));

  program_->setReadOnly(true);
  program_->setLineWrapMode(QPlainTextEdit::NoWrap);
  program_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  auto* graphs = new QSplitter(Qt::Horizontal);
  graphs_ = graphs;
  beforePane_ = pane(beforeCaption_, before_);
  graphs->addWidget(beforePane_);
  graphs->addWidget(pane(afterCaption_, after_));
  tabs_->addTab(diff_, QString());
  tabs_->addTab(notes_, QString());
  auto* programPane = new QWidget;
  auto* programLayout = new QVBoxLayout(programPane);
  programLayout->setContentsMargins(0, 0, 0, 0);
  programLayout->setSpacing(2);
  kernelPicker_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  kernelPicker_->setToolTip(tr("Show one generated kernel's function, or the whole module"));
  programLayout->addWidget(kernelPicker_, 0, Qt::AlignLeft);
  programLayout->addWidget(program_, 1);
  kernelPicker_->setVisible(false);
  connect(kernelPicker_, &QComboBox::currentIndexChanged, this, [this](int index) {
    if (!stageShown_ || index < 0) return;
    const auto& kernels = stageShown_->kernels;
    program_->setPlainText(QString::fromStdString(
        index == 0 || static_cast<size_t>(index) > kernels.size() ? stageShown_->text : kernels[index - 1].second));
  });
  tabs_->addTab(programPane, tr("Program"));
  tabs_->setTabVisible(2, false);
  tabs_->setDocumentMode(true);
  auto* vertical = new QSplitter(Qt::Vertical);
  vertical->addWidget(graphs);
  vertical->addWidget(tabs_);
  vertical->setStretchFactor(0, 2);
  vertical->setStretchFactor(1, 1);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 4, 0, 0);
  layout->addWidget(title_);
  layout->addWidget(description_);
  layout->addWidget(vertical, 1);
  setTabCounts(0);

  for (GraphView* view : {before_, after_}) {
    connect(view, &GraphView::nodeActivated, this, &PassComparison::nodeActivated);
    connect(view, &GraphView::layoutReady, this, [this, view] {
      bool& due = view == before_ ? revealBefore_ : revealAfter_;
      if (due && !view->layoutPending()) {
        due = false;
        reveal(view, view == before_ ? beforeMarks_ : afterMarks_);
      }
    });
  }
}

void PassComparison::reveal(GraphView* view, const std::map<int, QString>& marks) {
  if (marks.empty() || !view->graphScene()) return;
  if (GraphNodeItem* item = view->graphScene()->itemForNode(marks.begin()->first))
    view->canvas()->ensureVisible(item, 40, 40);
}

QWidget* PassComparison::pane(QLabel* caption, GraphView* view) {
  auto* w = new QWidget;
  auto* layout = new QVBoxLayout(w);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  caption->setTextFormat(Qt::RichText);
  layout->addWidget(caption);
  layout->addWidget(view, 1);
  return w;
}

void PassComparison::setTabCounts(int notes) {
  const int plus = diff_->addedLines(), minus = diff_->removedLines();
  tabs_->setTabText(0, plus || minus ? tr("Diff (+%1 \u2212%2)").arg(plus).arg(minus) : tr("Diff"));
  tabs_->setTabText(1, notes ? tr("Notes (%1)").arg(notes) : tr("Notes"));
}

QString PassComparison::headerText() const { return title_->text() + QLatin1Char('\n') + description_->text(); }

void PassComparison::clear(const QString& message) {
  stageShown_ = nullptr;
  title_->setText(message.toHtmlEscaped());
  description_->clear();
  beforeMarks_.clear();
  afterMarks_.clear();
  diff_->setDiff({});
  notes_->clear();
  graphs_->setVisible(true);
  tabs_->setTabVisible(2, false);
  setTabCounts(0);
}

void PassComparison::showStage(const PipelineRun& run, int step, const LoweringSnapshot& stage) {
  const int first = static_cast<int>(run.snapshots.size()) + 1;
  title_->setText(tr("<b>%1</b> &nbsp;·&nbsp; lowering stage %2 of %3 &nbsp;·&nbsp; %4 ms")
                      .arg(QString::fromStdString(stage.stage).toHtmlEscaped())
                      .arg(step - first + 1)
                      .arg(run.stages.size())
                      .arg(stage.seconds * 1e3, 0, 'f', 1));
  description_->setText(QString::fromStdString(stage.description) + QLatin1Char('.'));
  beforeMarks_.clear();
  afterMarks_.clear();
  notes_->clear();
  stageShown_ = nullptr;  // no picker callbacks while it is refilled
  kernelPicker_->clear();
  kernelPicker_->addItem(tr("whole module"));
  for (const auto& [name, text] : stage.kernels) kernelPicker_->addItem(QString::fromStdString(name));
  kernelPicker_->setVisible(!stage.kernels.empty());
  stageShown_ = &stage;
  program_->setPlainText(QString::fromStdString(stage.text));
  diff_->setDiff(QString::fromStdString(run.diffTexts[static_cast<size_t>(step)]));
  graphs_->setVisible(false);
  tabs_->setTabVisible(2, true);
  tabs_->setCurrentIndex(2);
  setTabCounts(0);
}

void PassComparison::showStep(std::shared_ptr<const PipelineRun> run, int step) {
  if (!run || step < 0 || step >= run->stepCount()) return clear(tr("Select a pass."));
  runShown_ = run;
  if (const LoweringSnapshot* stage = run->stageAt(step)) return showStage(*run, step, *stage);
  stageShown_ = nullptr;
  graphs_->setVisible(true);
  if (tabs_->currentIndex() == 2) tabs_->setCurrentIndex(0);
  tabs_->setTabVisible(2, false);
  const PassSnapshot* snap = run->snapshotAt(step);
  const Graph& after = run->graphAt(step);
  notes_->clear();
  if (!snap) {
    title_->setText(tr("<b>input (after lowering)</b> &nbsp;·&nbsp; %1 nodes, %2 edges")
                        .arg(after.nodes().size()).arg(after.edges().size()));
    description_->setText(tr("The dependence graph as the front end built it, before any pass ran. "
                             "Pick a pass on the left to see what it changed."));
    beforeMarks_.clear();
    afterMarks_.clear();
    diff_->setDiff({});
  } else {
    title_->setText(tr("<b>%1</b> &nbsp;·&nbsp; %2 &nbsp;·&nbsp; %3 nodes, %4 edges")
                        .arg(QString::fromStdString(snap->passName).toHtmlEscaped(),
                             QString::fromStdString(snap->diff.summary()).toHtmlEscaped())
                        .arg(after.nodes().size()).arg(after.edges().size()));
    description_->setText(QString::fromStdString(snap->description));
    beforeMarks_ = marksOf(snap->diff.removed, QStringLiteral("removed"));
    afterMarks_ = marksOf(snap->diff.rewritten, QStringLiteral("rewritten"), marksOf(snap->diff.added, QStringLiteral("added")));
    diff_->setDiff(QString::fromStdString(run->diffTexts[static_cast<size_t>(step)]));
    for (const std::string& note : snap->change.notes) notes_->addItem(QString::fromStdString(note));
    before_->setGraph(std::shared_ptr<const Graph>(run, &run->graphAt(step - 1)));  // shares the run: no copy
    before_->setNodeMarks(beforeMarks_);
    beforeCaption_->setText(tr("<b>Before</b> \u2014 %1 &nbsp;&nbsp; %2").arg(stateName(*run, step - 1),
                                                                           chip(QStringLiteral("removed"))));
  }
  beforePane_->setVisible(snap != nullptr);
  after_->setGraph(std::shared_ptr<const Graph>(run, &after));
  after_->setNodeMarks(afterMarks_);
  afterCaption_->setText(snap ? tr("<b>After</b> \u2014 %1 &nbsp;&nbsp; %2 &nbsp; %3")
                                    .arg(stateName(*run, step), chip(QStringLiteral("added")),
                                         chip(QStringLiteral("rewritten")))
                              : tr("<b>Input graph</b> \u2014 before any pass"));
  revealBefore_ = snap != nullptr;
  revealAfter_ = true;
  setTabCounts(notes_->count());
}

}  // namespace tempo::views
