#include "profiler/TimelineView.h"

#include "trace/ProfileSummary.h"

#include <QElapsedTimer>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace tempo::views {

namespace {

constexpr double kRulerHeight = 22;
constexpr double kStepsHeight = 14;
constexpr double kTrackHeight = 44;
constexpr double kSelectedHeight = 22;
constexpr double kLeftMargin = 8;

QString q(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("timelineView"));
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  setMinimumHeight(static_cast<int>(kRulerHeight + kStepsHeight + kTrackHeight + kSelectedHeight + 30));
}

void TimelineView::setTrace(std::shared_ptr<const SpanSource> source, std::map<int, TimelineNode> nodes) {
  source_ = std::move(source);
  selectedSpan_.reset();
  flows_.clear();
  nodes_ = std::move(nodes);
  levels_ = TimelineLevels();
  if (source_) levels_.build(*source_);
  extent_ = std::max<double>(static_cast<double>(levels_.endNs()), 1.0);
  selectedNode_ = -1;
  selectedLine_ = 0;
  showAll();
}

void TimelineView::clear() {
  setTrace(nullptr, {});
  setSteps({});
}

void TimelineView::setSteps(std::vector<StoredStep> steps) {
  steps_ = std::move(steps);
  update();
}

std::optional<StoredStep> TimelineView::stepAt(const QPoint& pos) const {
  if (!stepsRect().contains(pos)) return std::nullopt;
  const double ns = nsAt(pos.x());
  auto it = std::upper_bound(steps_.begin(), steps_.end(), ns, [](double t, const StoredStep& s) { return t < s.startNs; });
  if (it == steps_.begin()) return std::nullopt;
  --it;
  if (ns > it->endNs) return std::nullopt;
  return *it;
}

void TimelineView::setExtent(double ns) {
  extent_ = std::max(ns, 1.0);
  setWindow(from_, to_);
}

void TimelineView::setWindow(double fromNs, double toNs) {
  const double end = extent_;
  double width = std::clamp(toNs - fromNs, 10.0, end * 1.05);
  fromNs = std::clamp(fromNs, -0.025 * end, end * 1.025 - width);
  if (fromNs == from_ && fromNs + width == to_) return;
  from_ = fromNs;
  to_ = fromNs + width;
  update();
  Q_EMIT windowChanged(from_, to_);
}

void TimelineView::showAll() {
  const double end = extent_;
  from_ = to_ = -1;
  setWindow(-0.01 * end, end * 1.01);
}

void TimelineView::zoom(double factor, double anchorX) {
  const double anchor = nsAt(anchorX);
  const double width = (to_ - from_) / factor;
  const double share = (anchorX - trackRect().left()) / std::max(1.0, trackRect().width());
  setWindow(anchor - share * width, anchor - share * width + width);
}

void TimelineView::panPixels(double dx) {
  const double ns = dx * (to_ - from_) / std::max(1.0, trackRect().width());
  setWindow(from_ + ns, to_ + ns);
}

void TimelineView::selectNode(int node) {
  if (node == selectedNode_) return;
  selectedNode_ = node;
  selectedFor_ = -2;
  update();
}

void TimelineView::selectSpan(const StoredSpan& span) {
  selectNode(span.node);
  selectedSpan_ = span;
  flows_ = source_ ? source_->flowsOf(span) : std::vector<StoredFlow>{};
  update();
}

void TimelineView::paintFlows(QPainter& p, const QRectF& track) const {
  if (!selectedSpan_ || flows_.empty()) return;
  p.save();
  p.setRenderHint(QPainter::Antialiasing);
  const QColor out = palette().color(QPalette::Highlight), in = QColor(0xd0, 0x60, 0x20);
  for (const StoredFlow& f : flows_) {
    const bool reads = f.consumerNode == selectedSpan_->node && f.consumerStartNs == selectedSpan_->startNs;
    const double x0 = xOf(static_cast<double>(f.producerStartNs)) + 1, x1 = xOf(static_cast<double>(f.consumerStartNs)) + 1;
    const double y = track.top() + track.height() * 0.6, lift = std::min(track.height() * 0.9, 12 + std::abs(x1 - x0) / 6);
    QPainterPath path(QPointF(x0, y));
    path.quadTo(QPointF((x0 + x1) / 2, y - lift), QPointF(x1, y));
    p.setPen(QPen(reads ? in : out, 1.6));
    p.drawPath(path);
    const QPointF tip(x1, y), dir = QPointF(x1, y) - path.pointAtPercent(0.9);  // an arrowhead at the reader
    const double len = std::max(1e-6, std::hypot(dir.x(), dir.y()));
    const QPointF u(dir.x() / len, dir.y() / len), n(-u.y(), u.x());
    p.setBrush(reads ? in : out);
    p.drawPolygon(QPolygonF({tip, tip - 7 * u + 3.5 * n, tip - 7 * u - 3.5 * n}));
  }
  p.restore();
}

QString TimelineView::flowSummary() const {
  int readers = 0, read = 0;
  for (const StoredFlow& f : flows_)
    ++(f.consumerNode == selectedSpan_->node && f.consumerStartNs == selectedSpan_->startNs ? read : readers);
  return tr("; the clicked instance's value is read by %1 instance(s) (blue arrows), it reads %2 (orange)").arg(readers).arg(read);
}

void TimelineView::selectLine(int line) {
  if (line == selectedLine_) return;
  selectedLine_ = line;
  update();
}

QRectF TimelineView::stepsRect() const {
  return {kLeftMargin, kRulerHeight + 3, std::max(1.0, width() - 2 * kLeftMargin), kStepsHeight};
}

QRectF TimelineView::trackRect() const {
  return {kLeftMargin, stepsRect().bottom() + 3, std::max(1.0, width() - 2 * kLeftMargin), kTrackHeight};
}

QRectF TimelineView::selectedTrackRect() const {
  QRectF t = trackRect();
  return {t.left(), t.bottom() + 16, t.width(), kSelectedHeight};
}

double TimelineView::xOf(double ns) const {
  const QRectF t = trackRect();
  return t.left() + (ns - from_) / (to_ - from_) * t.width();
}

double TimelineView::nsAt(double x) const {
  const QRectF t = trackRect();
  return from_ + (x - t.left()) / t.width() * (to_ - from_);
}

const std::vector<StoredSpan>& TimelineView::visibleSpans() const {
  if (spansFrom_ == from_ && spansTo_ == to_) return spans_;
  spansFrom_ = from_, spansTo_ = to_;
  spans_.clear();
  spansTruncated_ = false;
  if (!source_) return spans_;
  const int64_t from = static_cast<int64_t>(std::floor(from_)), to = static_cast<int64_t>(std::ceil(to_));
  if (levels_.countIn(from, to) > kMaxSpansDrawn) return spans_;  // too many: the levels of detail draw it
  if (std::optional<StoredSpan> before = source_->lastBefore(from); before && before->startNs + before->durationNs > from)
    spans_.push_back(*before);
  std::vector<StoredSpan> in = source_->range(from, to, static_cast<size_t>(kMaxSpansDrawn) + 1);
  spans_.insert(spans_.end(), in.begin(), in.end());
  return spans_;
}

const std::vector<StoredSpan>& TimelineView::visibleSelected() const {
  if (selectedFor_ == selectedNode_ && selectedFrom_ == from_ && selectedTo_ == to_) return selected_;
  selectedFor_ = selectedNode_, selectedFrom_ = from_, selectedTo_ = to_;
  selected_.clear();
  if (!source_ || selectedNode_ < 0) return selected_;
  const int64_t from = static_cast<int64_t>(std::floor(from_)), to = static_cast<int64_t>(std::ceil(to_));
  selected_ = source_->range(from, to, static_cast<size_t>(kMaxSpansDrawn), selectedNode_);
  return selected_;
}

QColor TimelineView::colorOf(int node) const {
  const double hue = std::fmod(0.12 + 0.618033988749895 * std::max(node, 0), 1.0);
  return QColor::fromHslF(static_cast<float>(hue), 0.55f, palette().color(QPalette::Base).lightness() < 128 ? 0.55f : 0.62f);
}

QString TimelineView::describe(const StoredSpan& s) const {
  auto it = nodes_.find(s.node);
  QString label = it == nodes_.end() ? QStringLiteral("%%1").arg(s.node) : it->second.label;
  QString text = QStringLiteral("<b>%1</b><br>statement %2").arg(label.toHtmlEscaped()).arg(s.statement);
  if (it != nodes_.end()) {
    if (!it->second.source.isEmpty()) text += QStringLiteral(" at %1").arg(it->second.source);
    const QStringList dims = it->second.dims.split(QStringLiteral(", "), Qt::SkipEmptyParts);
    const int32_t c[3] = {s.c0, s.c1, s.c2};
    QStringList coords;
    for (int i = 0; i < dims.size() && i < 3; ++i) coords << QStringLiteral("%1=%2").arg(dims[i]).arg(c[i]);
    if (!coords.isEmpty()) text += QStringLiteral("<br>point %1").arg(coords.join(QStringLiteral(", ")));
  }
  text += QStringLiteral("<br>start %1, duration %2").arg(q(formatDuration(s.startNs)), q(formatDuration(s.durationNs)));
  if (s.generated) text += QStringLiteral("<br>generated kernel");
  if (s.kernelNs > 0) text += QStringLiteral(", %1 inside its code").arg(q(formatDuration(s.kernelNs)));
  return text;
}

std::optional<StoredSpan> TimelineView::spanAt(const QPoint& pos) const {
  if (!trackRect().contains(pos) && !selectedTrackRect().contains(pos)) return std::nullopt;
  const std::vector<StoredSpan>& spans = selectedTrackRect().contains(pos) ? visibleSelected() : visibleSpans();
  const double ns = nsAt(pos.x()), slack = 2 * (to_ - from_) / std::max(1.0, trackRect().width());
  const StoredSpan* best = nullptr;
  for (const StoredSpan& s : spans)
    if (ns >= s.startNs - slack && ns <= s.startNs + s.durationNs + slack)
      if (!best || std::abs(ns - (s.startNs + s.durationNs / 2.0)) < std::abs(ns - (best->startNs + best->durationNs / 2.0)))
        best = &s;
  if (!best) return std::nullopt;
  return *best;
}

void TimelineView::paintRuler(QPainter& p) const {
  const double least = 90 * (to_ - from_) / trackRect().width();  // ns between two labels
  double step = std::pow(10.0, std::floor(std::log10(std::max(least, 1.0))));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (step * m >= least) {
      step *= m;
      break;
    }
  p.setPen(palette().color(QPalette::Mid));
  p.drawLine(QPointF(0, kRulerHeight), QPointF(this->width(), kRulerHeight));
  p.setPen(palette().color(QPalette::Text));
  for (double t = std::ceil(from_ / step) * step; t <= to_; t += step) {
    const double x = xOf(t);
    p.drawLine(QPointF(x, kRulerHeight - 5), QPointF(x, kRulerHeight));
    p.drawText(QPointF(x + 3, kRulerHeight - 7), q(formatDuration(static_cast<int64_t>(std::llround(t)))));
  }
}

void TimelineView::paintSteps(QPainter& p) const {
  if (steps_.empty()) return;
  const QRectF band = stepsRect();
  p.save();
  p.setClipRect(band);
  const QColor even = palette().color(QPalette::Mid), odd = palette().color(QPalette::Midlight);
  const QFontMetrics fm(font());
  auto first = std::upper_bound(steps_.begin(), steps_.end(), from_, [](double t, const StoredStep& s) { return t < s.endNs; });
  double lastX = -1;
  for (auto it = first; it != steps_.end() && it->startNs < to_; ++it) {
    const double x0 = xOf(static_cast<double>(it->startNs)), x1 = xOf(static_cast<double>(it->endNs));
    if (x1 < lastX + 1 && x1 - x0 < 1) continue;  // many steps in one pixel: the first one stands for them
    lastX = x1;
    const QRectF r(x0, band.top(), std::max(1.0, x1 - x0), band.height());
    p.fillRect(r, (it->seq % 2) ? odd : even);
    const QString var = it->loopVar.empty() ? QStringLiteral("loop %1").arg(it->loop) : QString::fromStdString(it->loopVar);
    const QString label = QStringLiteral("%1 = %2").arg(var).arg(it->firstValue);
    if (r.width() > fm.horizontalAdvance(label) + 6) {
      p.setPen(palette().color(QPalette::Text));
      p.drawText(r.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, label);
    }
  }
  p.restore();
}

void TimelineView::paintBuckets(QPainter& p, const QRectF& track) const {
  const double nsPerPixel = (to_ - from_) / track.width();
  const int k = levels_.levelFor(nsPerPixel);
  const std::vector<TimelineBucket>& lv = levels_.level(k);
  const double w = static_cast<double>(levels_.widthNs(k));
  const int64_t first = std::max<int64_t>(0, static_cast<int64_t>(std::floor(from_ / w)));
  for (int64_t b = first; b < static_cast<int64_t>(lv.size()) && b * w < to_; ++b) {
    const TimelineBucket& bucket = lv[static_cast<size_t>(b)];
    if (bucket.busyNs == 0) continue;
    const double x0 = xOf(b * w), x1 = std::max(xOf((b + 1) * w), x0 + 1);
    const double busy = std::min(1.0, bucket.busyNs / w);
    const double h = std::max(2.0, busy * track.height());
    p.fillRect(QRectF(x0, track.bottom() - h, x1 - x0, h), colorOf(bucket.dominant));
  }
}

void TimelineView::paintSpans(QPainter& p, const QRectF& track, const std::vector<StoredSpan>& spans, bool labels) const {
  const QFontMetrics fm(font());
  for (const StoredSpan& s : spans) {
    const double x0 = std::max(xOf(static_cast<double>(s.startNs)), track.left() - 1);
    const double x1 = std::min(std::max(xOf(static_cast<double>(s.startNs + s.durationNs)), x0 + 1), track.right() + 1);
    const QRectF r(x0, track.top(), x1 - x0, track.height());
    auto it = nodes_.find(s.node);
    const bool onLine = selectedLine_ > 0 && it != nodes_.end() && it->second.line == selectedLine_;
    const bool chosen = s.node == selectedNode_ || onLine;
    p.fillRect(r, chosen ? colorOf(s.node).darker(130) : colorOf(s.node));
    if (chosen && r.width() > 3) {
      p.setPen(QPen(palette().color(QPalette::Highlight), 2));
      p.drawRect(r.adjusted(1, 1, -1, -1));
    }
    if (labels && r.width() > 36 && it != nodes_.end()) {
      p.setPen(Qt::black);
      p.drawText(r.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                 fm.elidedText(it->second.label, Qt::ElideRight, static_cast<int>(r.width() - 5)));
    }
  }
}

void TimelineView::paintEvent(QPaintEvent*) {
  QElapsedTimer clock;
  clock.start();
  QPainter p(this);
  p.fillRect(rect(), palette().color(QPalette::Base));
  if (!source_) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter, tr("No run open: profile the program (Run ▸ Profile) or open a stored run."));
    lastFrameMs_ = clock.nsecsElapsed() / 1e6;
    return;
  }
  paintRuler(p);
  paintSteps(p);
  const QRectF track = trackRect();
  p.fillRect(track, palette().color(QPalette::AlternateBase));
  const std::vector<StoredSpan>& spans = visibleSpans();
  drewSpans_ = !spans.empty() || levels_.countIn(static_cast<int64_t>(from_), static_cast<int64_t>(to_)) == 0;
  p.save();
  p.setClipRect(track.adjusted(0, -1, 0, 1));
  if (drewSpans_) paintSpans(p, track, spans, true);
  else paintBuckets(p, track);
  p.restore();
  paintFlows(p, track);
  p.setPen(palette().color(QPalette::Text));
  p.drawText(QPointF(track.left() + 2, track.bottom() + 12),
             drewSpans_ ? tr("executor: %L1 statement instances shown").arg(spans.size())
                        : tr("executor: %L1 instances in view (levels of detail; zoom in for single spans)")
                              .arg(levels_.countIn(static_cast<int64_t>(from_), static_cast<int64_t>(to_))));
  if (selectedNode_ >= 0) {
    const QRectF sel = selectedTrackRect();
    p.fillRect(sel, palette().color(QPalette::AlternateBase));
    const std::vector<StoredSpan>& chosen = visibleSelected();
    p.save();
    p.setClipRect(sel);
    paintSpans(p, sel, chosen, false);
    p.restore();
    auto it = nodes_.find(selectedNode_);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QPointF(sel.left() + 2, sel.bottom() + 12),
               tr("%1: %L2 instances in view%3")
                   .arg(it == nodes_.end() ? QStringLiteral("%%1").arg(selectedNode_) : it->second.label)
                   .arg(chosen.size())
                   .arg(chosen.size() >= static_cast<size_t>(kMaxSpansDrawn) ? tr(" (the first %L1; zoom in)").arg(kMaxSpansDrawn) : QString()) +
               (selectedSpan_ && selectedSpan_->node == selectedNode_ ? flowSummary() : QString()));
  }
  lastFrameMs_ = clock.nsecsElapsed() / 1e6;
}

void TimelineView::wheelEvent(QWheelEvent* event) {
  const double notches = event->angleDelta().y() / 120.0;
  if (notches != 0) zoom(std::pow(1.25, notches), event->position().x());
  event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
  pressPos_ = event->pos();
  pressFrom_ = from_;
  dragging_ = true;
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
  if (!dragging_ || !(event->buttons() & Qt::LeftButton)) return;
  const double ns = (pressPos_.x() - event->pos().x()) * (to_ - from_) / std::max(1.0, trackRect().width());
  setWindow(pressFrom_ + ns, pressFrom_ + ns + (to_ - from_));
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
  if (!dragging_) return;
  dragging_ = false;
  if ((event->pos() - pressPos_).manhattanLength() > 3) return;  // a drag, not a click
  if (std::optional<StoredSpan> s = spanAt(event->pos())) {
    selectSpan(*s);
    Q_EMIT spanClicked(*s);
  } else if (std::optional<StoredStep> step = stepAt(event->pos())) {
    const double pad = 0.02 * static_cast<double>(step->endNs - step->startNs);
    setWindow(step->startNs - pad, step->endNs + pad);  // a click on an iteration zooms to it
  } else if (trackRect().contains(event->pos()) && !drewSpans_) {
    zoom(4, event->pos().x());  // a click on the levels of detail zooms into them
  }
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
  const double centre = trackRect().center().x();
  switch (event->key()) {
    case Qt::Key_W: case Qt::Key_Plus: case Qt::Key_Equal: zoom(1.5, centre); break;
    case Qt::Key_S: case Qt::Key_Minus: zoom(1 / 1.5, centre); break;
    case Qt::Key_A: case Qt::Key_Left: panPixels(-width() / 8.0); break;
    case Qt::Key_D: case Qt::Key_Right: panPixels(width() / 8.0); break;
    case Qt::Key_Home: showAll(); break;
    default: QWidget::keyPressEvent(event); return;
  }
  event->accept();
}

bool TimelineView::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    if (std::optional<StoredSpan> s = spanAt(help->pos())) {
      QToolTip::showText(help->globalPos(), describe(*s), this);
    } else if (std::optional<StoredStep> step = stepAt(help->pos())) {
      const QString var = step->loopVar.empty() ? tr("loop %1").arg(step->loop) : QString::fromStdString(step->loopVar);
      QToolTip::showText(help->globalPos(),
                         tr("top-level loop %1: %2 = %3%4<br>%5, %L6 statement instances<br>click to zoom to it")
                             .arg(step->loop)
                             .arg(var)
                             .arg(step->firstValue)
                             .arg(step->iterations > 1 ? tr(" and the next %1 iterations").arg(step->iterations - 1) : QString())
                             .arg(q(formatDuration(step->endNs - step->startNs)))
                             .arg(step->instances),
                         this);
    } else if (trackRect().contains(help->pos()) && source_ && !drewSpans_) {
      const int k = levels_.levelFor((to_ - from_) / trackRect().width());
      const double w = static_cast<double>(levels_.widthNs(k));
      const int64_t b = static_cast<int64_t>(std::floor(nsAt(help->pos().x()) / w));
      const auto& lv = levels_.level(k);
      if (b >= 0 && b < static_cast<int64_t>(lv.size())) {
        const TimelineBucket& bucket = lv[static_cast<size_t>(b)];
        auto it = nodes_.find(bucket.dominant);
        QToolTip::showText(help->globalPos(),
                           tr("%L1 instances start in %2; busy %3%; mostly %4")
                               .arg(bucket.count)
                               .arg(q(formatDuration(static_cast<int64_t>(w))))
                               .arg(std::round(100.0 * bucket.busyNs / w))
                               .arg(it == nodes_.end() ? tr("idle") : it->second.label.toHtmlEscaped()),
                           this);
      }
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QWidget::event(event);
}

}  // namespace tempo::views
