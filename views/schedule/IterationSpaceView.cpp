#include "schedule/IterationSpaceView.h"

#include "common/Background.h"

#include "iteration/InstanceReads.h"
#include "schedule/IterationCanvas.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QFutureWatcher>
#include <QListView>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QStyle>
#include <QSpinBox>
#include <QStringListModel>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace tempo::views {

namespace {

QString nodeLabel(const Graph& g, NodeId id) {
  if (!g.hasNode(id)) return QStringLiteral("%%1").arg(id);
  const Node& n = g.node(id);
  return QStringLiteral("%%1 %2").arg(id).arg(QString::fromStdString(n.name.empty() ? std::string(opName(n.op)) : n.name));
}

QString bytesText(int64_t bytes) {
  if (bytes >= 1 << 20) return QStringLiteral("%1 MiB").arg(bytes / double(1 << 20), 0, 'f', 1);
  if (bytes >= 1 << 10) return QStringLiteral("%1 KiB").arg(bytes / 1024.0, 0, 'f', 1);
  return QStringLiteral("%1 B").arg(bytes);
}

}  // namespace

IterationSpaceView::IterationSpaceView(QWidget* parent) : QWidget(parent) {
  dimX_ = new QComboBox(this);
  dimX_->setObjectName("iterationDimX");
  dimX_->setToolTip(tr("Dimension drawn across"));
  dimY_ = new QComboBox(this);
  dimY_->setObjectName("iterationDimY");
  dimY_->setToolTip(tr("Dimension drawn upwards"));
  arrows_ = new QCheckBox(tr("Dependences"), this);
  arrows_->setObjectName("iterationArrows");
  arrows_->setChecked(true);
  arrows_->setToolTip(tr("Draw an arrow from every instance to each instance that reads it"));

  auto* top = new QHBoxLayout;
  top->setContentsMargins(4, 2, 4, 2);
  top->addWidget(new QLabel(tr("x:"), this));
  top->addWidget(dimX_);
  top->addWidget(new QLabel(tr("y:"), this));
  top->addWidget(dimY_);
  boundsBox_ = new QHBoxLayout;
  top->addSpacing(8);
  top->addLayout(boundsBox_);
  top->addSpacing(8);
  top->addWidget(arrows_);
  top->addStretch(1);

  auto button = [this](const QString& text, const QString& tip, const char* name, QStyle::StandardPixmap icon) {
    auto* b = new QPushButton(style()->standardIcon(icon), text, this);
    b->setToolTip(tip);
    b->setObjectName(QLatin1String(name));
    return b;
  };
  QPushButton* resetButton =
      button(tr("Reset"), tr("Back to before the first instance"), "iterationReset", QStyle::SP_MediaSkipBackward);
  QPushButton* stepButton =
      button(tr("Step"), tr("Run the next instance in schedule order"), "iterationStep", QStyle::SP_MediaSeekForward);
  play_ = button(tr("Play"), tr("Step on a timer"), "iterationPlay", QStyle::SP_MediaPlay);
  play_->setCheckable(true);
  QPushButton* endButton = button(tr("End"), tr("Run every instance"), "iterationEnd", QStyle::SP_MediaSkipForward);
  stepLabel_ = new QLabel(this);
  stepLabel_->setObjectName("iterationStepLabel");
  auto* controls = new QHBoxLayout;
  controls->setContentsMargins(4, 0, 4, 2);
  for (QPushButton* b : {resetButton, stepButton, play_, endButton}) controls->addWidget(b);
  controls->addWidget(stepLabel_, 1);

  canvas_ = new IterationCanvas(this);
  info_ = new QLabel(tr("Click a dot to name its statement."), this);
  info_->setObjectName("iterationInfo");
  info_->setWordWrap(true);
  info_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  events_ = new QStringListModel(this);
  eventsView_ = new QListView(this);
  eventsView_->setModel(events_);
  eventsView_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  eventsView_->setUniformItemSizes(true);
  eventsView_->setObjectName("iterationEvents");
  eventsView_->setMaximumHeight(84);
  eventsView_->setToolTip(tr("Memory statements (alloc, free, swap) of the schedule, as the replay reaches them"));
  auto* bottom = new QHBoxLayout;
  bottom->setContentsMargins(4, 0, 4, 4);
  bottom->addWidget(info_, 3);
  bottom->addWidget(eventsView_, 2);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(top);
  layout->addLayout(controls);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(canvas_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  layout->addWidget(scroll, 1);
  layout->addLayout(bottom);

  timer_ = new QTimer(this);
  timer_->setInterval(250);
  connect(timer_, &QTimer::timeout, this, [this] {
    // Play takes about 80 ticks (20 s) whatever the size: a large space advances many instances per tick.
    stepBy(playback_ ? std::max(1, playback_->stepCount() / 80) : 1);
    if (!playback_ || playback_->atEnd()) setPlaying(false);
  });
  connect(dimX_, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
  connect(dimY_, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
  connect(arrows_, &QCheckBox::toggled, this, [this](bool on) {
    options_.arrows = on;
    redraw();
  });
  connect(resetButton, &QPushButton::clicked, this, &IterationSpaceView::reset);
  connect(stepButton, &QPushButton::clicked, this, &IterationSpaceView::step);
  connect(endButton, &QPushButton::clicked, this, &IterationSpaceView::finish);
  connect(play_, &QPushButton::toggled, this, &IterationSpaceView::setPlaying);
  connect(canvas_, &IterationCanvas::dotClicked, this, &IterationSpaceView::selectDot);
  connect(canvas_, &IterationCanvas::dotDragged, this, &IterationSpaceView::onDotDragged);
  connect(canvas_, &IterationCanvas::dotMenuRequested, this, [this](int dot, const QPoint& at) {
    QMenu menu(this);
    menu.addSection(QString::fromStdString(space_->describeDot(dot)));
    for (const QString& transform : dotTransforms(dot))
      menu.addAction(transform, this, [this, transform] { Q_EMIT transformRequested(transform); });
    menu.exec(at);
  });
}

QStringList IterationSpaceView::dotTransforms(int dot) const {
  if (!space_ || dot < 0 || static_cast<size_t>(dot) >= space_->dots.size()) return {};
  const IterationStatement& st = space_->statements[space_->dots[static_cast<size_t>(dot)].statement];
  auto has = [&](const std::string& d) { return !d.empty() && std::find(st.domain.begin(), st.domain.end(), d) != st.domain.end(); };
  const QString node = QLatin1Char('%') + QString::number(st.node);
  const QString x = QString::fromStdString(space_->dimX), y = QString::fromStdString(space_->dimY);
  QStringList out;
  // Nest transforms first (every statement with both dimensions), then this statement's own.
  if (has(space_->dimX) && has(space_->dimY)) {
    out << QStringLiteral("interchange %1, %2").arg(x, y) << QStringLiteral("skew %1 by %2").arg(x, y)
        << QStringLiteral("skew %1 by %2").arg(y, x);
    out << QStringLiteral("interchange %1, %2 in ").arg(x, y) + node;
  }
  for (const std::string& d : {space_->dimX, space_->dimY}) {
    if (!has(d)) continue;
    const QString dim = QString::fromStdString(d);
    out << QStringLiteral("reverse %1 in ").arg(dim) + node;
    for (int by : {1, -1})  // one arg() per piece: the node's '%' is not a place marker
      out << QStringLiteral("shift ") + node + QStringLiteral(" by %1 along %2").arg(by).arg(dim);
  }
  return out;
}

void IterationSpaceView::onDotDragged(int dot, int cellsX, int cellsY) {
  if (!space_ || dot < 0 || static_cast<size_t>(dot) >= space_->dots.size()) return;
  const IterationStatement& st = space_->statements[space_->dots[dot].statement];
  auto has = [&](const std::string& d) { return !d.empty() && std::find(st.domain.begin(), st.domain.end(), d) != st.domain.end(); };
  QStringList shifts;
  const QString node = QLatin1Char('%') + QString::number(st.node);
  auto shift = [&](int cells, const std::string& dim) {  // one arg() call: the node's '%' is not a place marker
    return QStringLiteral("shift %1 by %2 along %3").arg(node, QString::number(cells), QString::fromStdString(dim));
  };
  if (cellsX != 0 && has(space_->dimX)) shifts << shift(cellsX, space_->dimX);
  if (cellsY != 0 && has(space_->dimY)) shifts << shift(cellsY, space_->dimY);
  if (!shifts.isEmpty()) Q_EMIT transformRequested(shifts.join(QStringLiteral("; ")));
}

IterationSpaceView::~IterationSpaceView() = default;

void IterationSpaceView::setSchedule(std::shared_ptr<const CompiledProgram> program) {
  program_ = std::move(program);
  rebuildControls();
  rebuild();
}

void IterationSpaceView::rebuildControls() {
  QString oldX = dimX_->currentText(), oldY = dimY_->currentData().toString();
  QSignalBlocker bx(dimX_), by(dimY_);
  dimX_->clear();
  dimY_->clear();
  dimY_->addItem(tr("none"), QString());
  if (!program_) return;
  const Graph& g = program_->graph;
  QString preferredX;
  for (const DimDecl& d : g.dims) {
    QString name = QString::fromStdString(d.name);
    dimX_->addItem(name);
    dimY_->addItem(name, name);
    if (d.bound == "T") preferredX = name;
  }
  if (preferredX.isEmpty() && !g.dims.empty()) preferredX = QString::fromStdString(g.dims.back().name);
  QString x = dimX_->findText(oldX) >= 0 ? oldX : preferredX, y = oldY;
  if (dimY_->findData(y) < 0 || y == x || y.isEmpty()) {
    y.clear();
    for (const DimDecl& d : g.dims)
      if (QString::fromStdString(d.name) != x) {
        y = QString::fromStdString(d.name);
        break;
      }
  }
  dimX_->setCurrentText(x);
  dimY_->setCurrentIndex(std::max(0, dimY_->findData(y)));

  QMap<QString, QSpinBox*> old = bounds_;
  bounds_.clear();
  for (const std::string& b : g.boundNames()) {
    if (g.isDerivedBound(b)) continue;  // static tiling's block counts follow from the others
    QString name = QString::fromStdString(b);
    if (old.contains(name)) {
      bounds_[name] = old.take(name);
      continue;
    }
    auto* spin = new QSpinBox(this);
    spin->setObjectName(QStringLiteral("iterationBound_") + name);
    spin->setPrefix(name + QStringLiteral(" = "));
    spin->setRange(1, 64);
    spin->setValue(name == QLatin1String("T") ? 8 : 2);
    spin->setToolTip(tr("Value of the bound %1 for this picture").arg(name));
    connect(spin, &QSpinBox::valueChanged, this, [this] { rebuild(); });
    boundsBox_->addWidget(spin);
    bounds_[name] = spin;
  }
  for (QSpinBox* gone : old) delete gone;
}

void IterationSpaceView::setDimensions(const QString& x, const QString& y) {
  QSignalBlocker bx(dimX_), by(dimY_);
  dimX_->setCurrentText(x);
  dimY_->setCurrentIndex(std::max(0, dimY_->findData(y)));
  rebuild();
}

void IterationSpaceView::setBound(const QString& name, int value) {
  if (QSpinBox* spin = bounds_.value(name)) spin->setValue(value);  // rebuilds on change
}

void IterationSpaceView::setArrowsVisible(bool visible) { arrows_->setChecked(visible); }

void IterationSpaceView::highlightNode(int node) {
  highlightNode_ = node;
  canvas_->setSelection(selectedDot_, highlightNode_);  // painted over the picture: no SVG is drawn
}

/// Everything a rebuild computes off the UI thread.
struct IterationSpaceView::Built {
  int generation = 0;
  std::shared_ptr<const IterationSpace> space;  ///< null: nothing to draw (info says why)
  QString info;
  QStringList events;  ///< the memory events of the whole order
  IterationPicture picture;
};

namespace {

/// The memory events (alloc, free, swap) of the whole order: indices into the timeline.
std::vector<size_t> memoryEvents(const IterationSpace& space) {
  std::vector<size_t> memory;
  for (size_t i = 0; i < space.timeline.size(); ++i)
    if (space.timeline[i].kind != ScheduleEvent::Kind::Exec) memory.push_back(i);
  return memory;
}

/// One line of the memory list per timeline event `indices`.
QStringList memoryEventLines(const Graph& g, const IterationSpace& space, const std::vector<size_t>& indices) {
  QStringList lines;
  lines.reserve(static_cast<qsizetype>(indices.size()));
  for (size_t i : indices) {
    const ScheduleEvent& e = space.timeline[i];
    lines << QStringLiteral("%1 %2  %3").arg(QLatin1String(scheduleEventWord(e.kind)), nodeLabel(g, e.node), bytesText(e.bytes));
  }
  if (std::none_of(space.timeline.begin(), space.timeline.end(),
                   [](const ScheduleEvent& e) { return e.kind != ScheduleEvent::Kind::Exec; }))
    lines << QObject::tr("No alloc/free in this schedule: every store lives for the whole run.");
  return lines;
}

/// The instances a picture of `x` by `y` would have.
int64_t dotEstimate(const Graph& g, const SymbolEnv& bounds, const std::string& x, const std::string& y) {
  int64_t n = 0;
  for (const auto& [id, node] : g.nodes())
    if (std::count(node.domain.begin(), node.domain.end(), x) || std::count(node.domain.begin(), node.domain.end(), y))
      n += domainSize(g, node, bounds);
  return n;
}

QString tilingText(const IterationSpace& space) {
  QString tiles;
  for (const IterationTiling& t : space.tilings)
    tiles += t.drawn ? QObject::tr(" Shaded: %1 tiles of BS = %2 positions of %3 (one block of a window each).")
                           .arg(std::count_if(space.tiles.begin(), space.tiles.end(),
                                              [&](const IterationTile& tile) { return &space.tilings[tile.tiling] == &t; }))
                           .arg(t.blockSize)
                           .arg(QString::fromStdString(t.dim))
                     : QObject::tr(" Static tiles along %1 are not drawn (not an axis).").arg(QString::fromStdString(t.dim));
  return tiles;
}

}  // namespace

void IterationSpaceView::rebuild() {
  setPlaying(false);
  playback_.reset();
  space_.reset();  // freed off the UI thread (freedInBackground)
  replaying_ = false;
  selectedDot_ = -1;
  canvas_->setSelection(-1, highlightNode_);
  const int generation = ++generation_;
  if (!program_ || dimX_->currentIndex() < 0) {
    info_->setText(tr("No schedule yet."));
    return redraw();
  }
  SymbolEnv bounds;
  for (auto it = bounds_.begin(); it != bounds_.end(); ++it) bounds[it.key().toStdString()] = it.value()->value();
  std::string x = dimX_->currentText().toStdString(), y = dimY_->currentData().toString().toStdString();
  info_->setText(tr("Building the iteration space\u2026"));
  ++building_;
  auto* watcher = new QFutureWatcher<Built>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
    watcher->deleteLater();
    --building_;
    Built built = watcher->future().takeResult();
    if (built.generation == generation_) install(std::move(built));
    if (!building_) Q_EMIT spaceReady();
  });
  watcher->setFuture(runInBackground([program = program_, bounds, x, y, options = options_, generation] {
    Built built;
    built.generation = generation;
    try {
      if (int64_t n = dotEstimate(program->graph, program->graph.withDerivedBounds(bounds), x, y); n > kMaxDots) {
        built.info = tr("%1 instances are too many to draw; lower the bounds.").arg(n);
        return built;
      }
      built.space = freedInBackground(buildIterationSpace(program->graph, program->loops, bounds, x, y));
      const IterationSpace& space = *built.space;
      const int broken = space.brokenArrows();
      built.info = tr("%1 instances, %2 dependences%4. Click a dot to name its statement, drag it along an axis "
                      "to shift its statement; Step replays the schedule.%3")
                       .arg(space.dots.size())
                       .arg(space.arrows.size())
                       .arg(tilingText(space))
                       .arg(broken ? tr(", <b style=\"color:#d62728\">%1 broken</b> (red, dashed: the reader runs "
                                        "before the value it reads)").arg(broken)
                                   : QString());
      built.events = memoryEventLines(program->graph, space, memoryEvents(space));
      built.picture = drawIterationPicture(space, options);
    } catch (const std::exception& e) {
      built.space.reset();
      built.info = QString::fromStdString(e.what());
    }
    return built;
  }));
}

void IterationSpaceView::install(Built built) {
  setPlaying(false);
  replaying_ = pictureHollow_ = false;  // a new space shows its whole order (the picture was drawn so)
  executed_.clear();
  canvas_->setExecuted(nullptr, -1);
  space_ = std::move(built.space);
  info_->setText(built.info);
  if (!space_) return redraw();
  playback_.emplace(*space_);
  canvas_->setPicture(space_.get(), options_, std::move(built.picture));
  events_->setStringList(built.events);
  eventsView_->scrollToBottom();
  stepLabel_->setText(stepText());
}

void IterationSpaceView::redraw() {
  // Replaying: the picture is drawn hollow once; the canvas fills the executed dots over it.
  options_.step = replaying_ ? 0 : -1;
  canvas_->setPicture(space_.get(), options_, space_ ? drawIterationPicture(*space_, options_) : IterationPicture{});
  pictureHollow_ = replaying_;
  showReplay();
}

void IterationSpaceView::showReplay() {
  if (replaying_ && !pictureHollow_) return redraw();
  canvas_->setExecuted(replaying_ && space_ ? &executed_ : nullptr, replaying_ && playback_ ? playback_->currentDot() : -1);
  stepLabel_->setText(stepText());
  showEvents();
}

void IterationSpaceView::startReplay() {
  replaying_ = true;
  playback_->reset();
  executed_.clear();
}

void IterationSpaceView::advance(int steps) {
  for (int i = 0; i < steps && playback_->step(); ++i) executed_.push_back(playback_->currentDot());
}

QString IterationSpaceView::stepText() const {
  if (!playback_) return {};
  int total = playback_->stepCount();
  if (!replaying_) return tr("whole order: %1 instances (Step or Play to replay)").arg(total);
  if (playback_->currentDot() < 0) return tr("step 0 / %1").arg(total);
  return tr("step %1 / %2 \u00B7 %3")
      .arg(playback_->stepsTaken())
      .arg(total)
      .arg(QString::fromStdString(space_->describeDot(playback_->currentDot())));
}

void IterationSpaceView::showEvents() {
  if (!space_) return events_->setStringList({});
  events_->setStringList(
      memoryEventLines(program_->graph, *space_, replaying_ ? playback_->memoryEvents() : memoryEvents(*space_)));
  eventsView_->scrollToBottom();
}

QString IterationSpaceView::infoText() const { return info_->text(); }

QStringList IterationSpaceView::eventLines() const { return events_->stringList(); }

void IterationSpaceView::step() { stepBy(1); }

void IterationSpaceView::stepBy(int steps) {
  if (!playback_) return;
  if (!replaying_) startReplay();
  advance(steps);
  showReplay();
}

void IterationSpaceView::reset() {
  if (!playback_) return;
  setPlaying(false);
  startReplay();
  showReplay();
}

void IterationSpaceView::finish() {
  if (!playback_) return;
  setPlaying(false);
  if (!replaying_) startReplay();
  advance(std::numeric_limits<int>::max());
  showReplay();
}

void IterationSpaceView::setPlaying(bool playing) {
  if (playing && playback_ && (!replaying_ || playback_->atEnd())) reset();
  if (playing && playback_) timer_->start();
  else timer_->stop();
  QSignalBlocker block(play_);
  play_->setChecked(timer_->isActive());
  play_->setText(timer_->isActive() ? tr("Pause") : tr("Play"));
  play_->setIcon(style()->standardIcon(timer_->isActive() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
}

void IterationSpaceView::selectDot(int dot) {
  if (!space_ || dot >= static_cast<int>(space_->dots.size())) return;
  selectedDot_ = dot;
  canvas_->setSelection(selectedDot_, highlightNode_);  // painted over the picture: no SVG is drawn
  if (dot < 0) return;
  info_->setText(QString::fromStdString(space_->describeDot(dot)));
  const IterationStatement& st = space_->statements[space_->dots[dot].statement];
  Q_EMIT nodeActivated(st.node, st.loc.begin.line, st.loc.begin.col, st.loc.end.line, st.loc.end.col);
}

}  // namespace tempo::views
