#include "graph/GraphView.h"

#include "common/Background.h"

#include "graph/BytesColorScale.h"
#include "graph/BytesLegend.h"
#include "graph/GraphCanvas.h"
#include "graph/GraphPrinter.h"
#include "graph/GraphScene.h"
#include "ops/FusedProgram.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFutureWatcher>
#include <QToolBar>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QVBoxLayout>

namespace tempo::views {

struct GraphView::LayoutResult {
  std::shared_ptr<const Graph> graph;  ///< the graph laid out
  GraphLayout layout;
  QString error;
};

GraphView::GraphView(QWidget* parent) : QWidget(parent) {
  search_ = new QLineEdit(this);
  search_->setObjectName("graphSearch");
  search_->setPlaceholderText(tr("Find node or op (Enter zooms)"));
  search_->setToolTip(tr("Find nodes by name or op; Enter zooms to the matches and opens the closed boxes holding them"));
  search_->setClearButtonEnabled(true);
  matches_ = new QLabel(this);
  matches_->setMinimumWidth(matches_->fontMetrics().horizontalAdvance(tr("999 matches")) + 4);
  auto button = [this](const QString& text, const QString& tip, auto slot) {
    auto* b = new QToolButton(this);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    connect(b, &QToolButton::clicked, this, slot);
    return b;
  };
  groupMode_ = new QComboBox(this);
  groupMode_->setObjectName("graphGroups");
  groupMode_->addItem(tr("Fusion groups"), static_cast<int>(GroupMode::Fusion));
  groupMode_->addItem(tr("Group by line"), static_cast<int>(GroupMode::SourceLine));
  groupMode_->addItem(tr("No groups"), static_cast<int>(GroupMode::None));
  groupMode_->setToolTip(tr("Fusion groups: frame the chains of elementwise ops the fusion pass merges into one "
                            "fused node. Group by line: the nodes each source line made. Double-click a box to "
                            "open it, a frame to close it; a fused node opens into its steps."));
  overlay_ = new QCheckBox(tr("Bytes overlay"), this);
  overlay_->setObjectName("graphBytesOverlay");
  overlay_->setEnabled(false);
  status_ = new QLabel(this);
  status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // long errors never widen the view
  search_->setMinimumWidth(search_->fontMetrics().horizontalAdvance(search_->placeholderText()) / 2);

  // A tool bar, not a row layout: what does not fit moves behind its » button,
  // so two graph views side by side never force the window wide.
  auto* bar = new QToolBar(this);
  bar->setIconSize(QSize(16, 16));
  bar->addWidget(search_);
  bar->addWidget(matches_);
  bar->addWidget(button("\u2212", tr("Zoom out (Ctrl -)"), [this] { canvas_->zoomBy(0.8); }));
  bar->addWidget(button("+", tr("Zoom in (Ctrl +)"), [this] { canvas_->zoomBy(1.25); }));
  bar->addWidget(button(tr("Fit"), tr("Fit the graph (Ctrl 0)"), [this] { canvas_->fitAll(); }));
  bar->addWidget(groupMode_);
  QToolButton* collapse = button(tr("Collapse groups"), tr("Draw every group and every fused node as one box"),
                                 [this] { collapseAll(); });
  collapse->setObjectName("graphCollapseGroups");
  bar->addWidget(collapse);
  QToolButton* expand = button(tr("Expand all"), tr("Open every group into a frame and every fused node into its steps"),
                               [this] { expandAll(); });
  expand->setObjectName("graphExpandAll");
  bar->addWidget(expand);
  bar->addWidget(overlay_);
  bar->addWidget(status_);

  canvas_ = new GraphCanvas(this);
  legend_ = new BytesLegend(this);
  legend_->hide();
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(bar);
  layout->addWidget(canvas_, 1);
  layout->addWidget(legend_);

  connect(search_, &QLineEdit::textChanged, this, [this] { applySearch(); });
  connect(search_, &QLineEdit::returnPressed, this, &GraphView::pickSearchMatches);
  connect(groupMode_, &QComboBox::currentIndexChanged, this, [this] {
    grouping_.setMode(static_cast<GroupMode>(groupMode_->currentData().toInt()));
    relayout(true);
  });
  connect(overlay_, &QCheckBox::toggled, this, [this] { applyOverlay(); });
  connect(canvas_, &GraphCanvas::itemClicked, this, &GraphView::onItemClicked);
  connect(canvas_, &GraphCanvas::itemDoubleClicked, this, &GraphView::onItemDoubleClicked);
}

GraphView::~GraphView() = default;

void GraphView::setGraph(const tempo::Graph& g) { setGraph(freedInBackground(g)); }

void GraphView::setGraph(std::shared_ptr<const tempo::Graph> g) {
  graph_ = g ? std::move(g) : std::make_shared<const Graph>();
  picked_.clear();
  pickedSteps_.clear();
  relayout(true);
}

void GraphView::setGroups(const tempo::NodeGroups& groups) {
  grouping_.setCallerGroups(groups);
  relayout(true);
}

void GraphView::setGroupMode(GroupMode mode) {
  groupMode_->setCurrentIndex(groupMode_->findData(static_cast<int>(mode)));  // relayouts through the signal
}

void GraphView::collapseAll() {
  grouping_.collapseAll();
  relayout(false);
}

void GraphView::expandAll() {
  grouping_.expandAll();
  relayout(false);
}

void GraphView::relayout(bool fit) {
  const int generation = ++generation_;
  ++pending_;
  status_->setText(tr("laying out\u2026"));
  auto* watcher = new QFutureWatcher<LayoutResult>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, fit] {
    watcher->deleteLater();
    --pending_;
    if (generation != generation_) return;  // a newer request is on its way
    LayoutResult r = watcher->future().takeResult();
    status_->setText(r.error);
    status_->setToolTip(r.error);
    if (r.error.isEmpty()) install(std::move(r.graph), std::move(r.layout), fit);
    else pickAfterLayout_ = false;
    Q_EMIT layoutReady();
  });
  watcher->setFuture(runInBackground([g = graph_, grouping = grouping_]() mutable -> LayoutResult {
    try {
      GraphLayout layout = layoutGraph(*g, grouping.optionsFor(*g));
      return {std::move(g), std::move(layout), {}};
    } catch (const std::exception& e) {
      return {{}, {}, QString::fromStdString(e.what())};
    }
  }));
}

void GraphView::install(std::shared_ptr<const Graph> graph, GraphLayout layout, bool fit) {
  shown_ = std::move(graph);
  GraphScene* old = scene_;
  QPointF centre = canvas_->mapToScene(canvas_->viewport()->rect().center());
  scene_ = new GraphScene(std::move(layout), GraphTheme::fromPalette(palette()), this);
  for (GraphNodeItem* item : scene_->nodeItems()) item->setToolTip(toolTipFor(item->node()));
  for (GraphEdgeItem* item : scene_->edgeItems())
    if (item->edge().id >= 0) item->setToolTip(edgeToolTip(shown_->edge(item->edge().id)));
  canvas_->setScene(scene_);
  delete old;
  applyState();
  if (fit) canvas_->showTop();
  else canvas_->centerOn(centre);
  if (pickAfterLayout_) {
    pickAfterLayout_ = false;
    pickSearchMatches();
  }
}

void GraphView::applyState() {
  applyMarks();
  applyOverlay();
  applyHighlight(false);
  applySearch();
  if (!scene_) return;
  for (GraphNodeItem* item : scene_->nodeItems()) {
    bool picked = false;
    if (item->node().kind == LayoutNodeKind::FusedStep) picked = pickedSteps_.count({item->node().id, item->node().step});
    else
      for (NodeId m : item->node().members) picked = picked || picked_.count(m);
    item->setPicked(picked && item->node().kind != LayoutNodeKind::Output);
  }
  scene_->updateEdgeEmphasis();
}

QColor GraphView::markColor(const QString& mark) {
  if (mark == "added") return QColor(0x16, 0xa3, 0x4a);
  if (mark == "removed") return QColor(0xdc, 0x26, 0x26);
  if (mark == "rewritten") return QColor(0xea, 0x58, 0x0c);
  return QColor(0x7c, 0x3a, 0xed);
}

void GraphView::setNodeMarks(const std::map<int, QString>& marks) {
  marks_ = marks;
  applyMarks();
}

void GraphView::applyMarks() {
  if (!scene_) return;
  for (GraphNodeItem* item : scene_->nodeItems()) {
    std::optional<QColor> c;
    if (item->node().kind != LayoutNodeKind::Output)
      for (NodeId m : item->node().members)
        if (auto it = marks_.find(m); it != marks_.end() && !c) c = markColor(it->second);
    item->setMarkColor(c);
  }
}

void GraphView::setBytesOverlay(const std::map<int, double>& bytes) {
  bytes_ = bytes;
  overlay_->setEnabled(!bytes_.empty());
  if (overlay_->isChecked() == !bytes_.empty()) applyOverlay();
  else overlay_->setChecked(!bytes_.empty());  // applies through toggled
}

void GraphView::applyOverlay() {
  const bool on = overlay_->isChecked() && !bytes_.empty();
  legend_->setVisible(on);
  if (!scene_) return;
  std::map<int, double> boxBytes;  // layout index -> bytes of its members
  for (GraphNodeItem* item : scene_->nodeItems()) {
    if (item->node().kind == LayoutNodeKind::Output) continue;
    double sum = 0;
    for (NodeId m : item->node().members)
      if (auto it = bytes_.find(m); it != bytes_.end()) sum += it->second;
    if (sum > 0) boxBytes[item->layoutIndex()] = sum;
  }
  BytesColorScale scale(boxBytes);
  legend_->setScale(scale);
  for (GraphNodeItem* item : scene_->nodeItems()) {
    std::optional<QColor> c;
    if (on && item->node().kind != LayoutNodeKind::Output) {
      auto it = boxBytes.find(item->layoutIndex());
      c = scale.colorOf(it == boxBytes.end() ? 0 : it->second);
    }
    item->setOverlayColor(c);
  }
}

void GraphView::highlightSourceLine(int line) {
  highlightLine_ = line;
  applyHighlight(true);
}

void GraphView::applyHighlight(bool centre) {
  if (!scene_) return;
  std::vector<GraphNodeItem*> hits;
  for (GraphNodeItem* item : scene_->nodeItems()) {
    bool hit = false;
    if (highlightLine_ > 0 && item->node().kind != LayoutNodeKind::Output)
      for (NodeId m : item->node().members) {
        const SourceRange& loc = shown_->node(m).loc;
        hit = hit || (loc.valid() && loc.begin.line <= highlightLine_ && highlightLine_ <= loc.end.line);
      }
    item->setHighlighted(hit);
    if (hit) hits.push_back(item);
  }
  if (centre && !hits.empty()) canvas_->centerOn(GraphScene::unitedFrame(hits).center());
}

namespace {
bool contains(const std::string& haystack, const QString& needle) {
  return QString::fromStdString(haystack).contains(needle, Qt::CaseInsensitive);
}
}  // namespace

bool GraphView::nodeMatches(const Node& node) const {
  const QString needle = search_->text().trimmed();
  return contains(node.name, needle) || contains(std::string(opName(node.op)), needle);
}

bool GraphView::matchesOwn(const LayoutNode& n) const {
  const QString needle = search_->text().trimmed();
  switch (n.kind) {
    case LayoutNodeKind::Op: return nodeMatches(shown_->node(n.id));
    case LayoutNodeKind::FusedStep: {
      const Node& fused = shown_->node(n.id);
      const FusedStep& step = fused.attrs.program.at(static_cast<size_t>(n.step));
      const bool result = n.step + 1 == static_cast<int>(fused.attrs.program.size());
      return contains(std::string(opName(step.op)), needle) || (result && contains(fused.name, needle));
    }
    default: return !n.label.empty() && contains(n.label[0], needle);
  }
}

bool GraphView::matchesInside(const LayoutNode& n) const {
  const QString needle = search_->text().trimmed();
  if (n.kind == LayoutNodeKind::Group)
    return std::any_of(n.members.begin(), n.members.end(), [&](NodeId m) { return nodeMatches(shown_->node(m)); });
  if (n.kind != LayoutNodeKind::Op || shown_->node(n.id).op != OpKind::Fused) return false;
  const std::vector<FusedStep>& program = shown_->node(n.id).attrs.program;
  return std::any_of(program.begin(), program.end(),
                     [&](const FusedStep& s) { return contains(std::string(opName(s.op)), needle); });
}

bool GraphView::matchesSearch(const LayoutNode& n) const {
  if (search_->text().trimmed().isEmpty()) return true;
  return matchesOwn(n) || matchesInside(n);
}

void GraphView::applySearch() {
  if (!scene_) return;
  const bool active = !search_->text().trimmed().isEmpty();
  int count = 0;
  for (GraphNodeItem* item : scene_->nodeItems()) {
    bool match = matchesSearch(item->node());
    count += active && match;
    item->setDimmed(active && !match);
  }
  matches_->setText(!active ? QString() : count == 1 ? tr("1 match") : tr("%1 matches").arg(count));
}

void GraphView::pickSearchMatches() {
  if (!scene_ || search_->text().trimmed().isEmpty()) return;
  bool opened = false;  // matches inside closed boxes: open them, pick once laid out again
  for (GraphNodeItem* item : scene_->nodeItems()) {
    const LayoutNode& n = item->node();
    if (!matchesInside(n)) continue;
    if (n.kind == LayoutNodeKind::Group) grouping_.openGroup(n.id);
    else grouping_.openFused(n.id);
    opened = true;
  }
  if (opened && !pickAfterLayout_) {
    pickAfterLayout_ = true;
    relayout(false);
    return;
  }
  std::vector<GraphNodeItem*> hits;
  picked_.clear();
  pickedSteps_.clear();
  for (GraphNodeItem* item : scene_->nodeItems())
    if (matchesSearch(item->node())) {
      hits.push_back(item);
      pick(item->node());
    }
  applyState();
  if (!hits.empty()) canvas_->fitRect(GraphScene::unitedFrame(hits));
}

void GraphView::searchFor(const QString& text) {
  search_->setText(text);
  pickSearchMatches();
}

std::vector<std::string> GraphView::pickedNames() const {
  std::vector<std::string> names;
  for (NodeId id : picked_)
    if (shown_ && shown_->hasNode(id)) names.push_back(shown_->node(id).name);
  return names;
}

void GraphView::onItemClicked(QGraphicsItem* item) {
  picked_.clear();
  pickedSteps_.clear();
  auto* node = item && item->type() == GraphNodeItem::Type ? static_cast<GraphNodeItem*>(item) : nullptr;
  if (node && node->node().kind != LayoutNodeKind::Output) pick(node->node());
  applyState();
  if (node) activate(node);
}

void GraphView::pick(const LayoutNode& n) {
  if (n.kind == LayoutNodeKind::FusedStep) pickedSteps_.insert({n.id, n.step});
  else picked_.insert(n.members.begin(), n.members.end());
}

void GraphView::onItemDoubleClicked(QGraphicsItem* item) {
  if (!item) return;
  if (item->type() == GraphClusterItem::Type) {
    const LayoutCluster& c = static_cast<GraphClusterItem*>(item)->cluster();
    if (c.fused >= 0) grouping_.toggleFused(c.fused);
    else grouping_.toggleGroup(c.group);
    relayout(false);
  } else if (item->type() == GraphNodeItem::Type) {
    const LayoutNode& n = static_cast<GraphNodeItem*>(item)->node();
    if (n.kind == LayoutNodeKind::Group) {
      grouping_.toggleGroup(n.id);
      relayout(false);
    } else if (n.kind == LayoutNodeKind::Op && shown_->node(n.id).op == OpKind::Fused) {
      grouping_.toggleFused(n.id);
      relayout(false);
    }
  }
}

void GraphView::activate(const GraphNodeItem* item) {
  const LayoutNode& n = item->node();
  NodeId id = -1;
  SourceRange range;
  if (n.kind == LayoutNodeKind::Output) {
    const GraphOutput& o = shown_->outputs.at(n.id);
    id = o.node;
    range = o.loc;
  } else {
    for (NodeId m : n.members) {
      const Node& node = shown_->node(m);
      if (id < 0 || (!node.name.empty() && shown_->node(id).name.empty())) id = m;
      if (node.loc.valid()) range = range.valid() ? SourceRange::cover(range, node.loc) : node.loc;
    }
  }
  Q_EMIT nodeActivated(id, range.begin.line, range.begin.col, range.end.line, range.end.col);
}

QString GraphView::edgeToolTip(const Edge& e) const {
  auto name = [&](NodeId id) {
    const Node& n = shown_->node(id);
    return QString("%%1 %2").arg(id).arg(QString::fromStdString(n.name.empty() ? std::string(opName(n.op)) : n.name));
  };
  QString text = tr("%1 reads %2").arg(name(e.consumer), name(e.producer));
  for (const std::string& line : edgeLabelLines(e)) text += "\n" + QString::fromStdString(line);
  return text;
}

QString GraphView::toolTipFor(const LayoutNode& n) const {
  QStringList lines;
  if (n.kind == LayoutNodeKind::Output) return tr("output %1").arg(QString::fromStdString(n.label[0]).mid(4));
  if (n.kind == LayoutNodeKind::Group) lines << QString::fromStdString(n.label[0]);
  if (n.kind == LayoutNodeKind::FusedStep)
    lines << tr("step s%1 of fused node %%2: %3")
                 .arg(n.step)
                 .arg(n.id)
                 .arg(QString::fromStdString(fusedStepExpression(shown_->node(n.id).attrs.program, static_cast<size_t>(n.step))));
  double bytes = 0;
  for (NodeId m : n.members) {
    lines << QString::fromStdString(printNode(*shown_, shown_->node(m)));
    if (auto it = bytes_.find(m); it != bytes_.end()) bytes += it->second;
  }
  if (bytes > 0) lines << tr("predicted: %1").arg(formatBytes(bytes));
  if (n.kind == LayoutNodeKind::Group) lines << tr("(double-click to expand)");
  if (n.kind == LayoutNodeKind::Op && shown_->node(n.id).op == OpKind::Fused) lines << tr("(double-click to show its steps)");
  return lines.join('\n');
}

}  // namespace tempo::views
