// IterationSpaceView: the schedule's iteration space, for teaching.
//
// Pick two dimensions (x, y; y may be "none") and small bound values
// (default T = 8, every other bound 2): every statement instance is a dot
// coloured by statement (legend below the picture), dependences are arrows
// (toggle), and the schedule's execution order can be replayed — Step runs
// the next instance, Play steps on a timer, End and Reset jump — with
// executed dots filled, the current one ringed, and Alloc/Free events listed
// as they occur. Static tiles (the blocks static tiling cuts a growing
// window's dimension into, BS positions each) are shaded bands; the block
// size is chosen in the schedule view. Derived bounds (the block count DS)
// get no box: they follow from the others. Clicking a dot names it ("statement %7 h at (b=1, t=3) —
// line 17"), draws its dependences in red and emits nodeActivated with the
// node's source range; dragging a dot along an axis asks for a shift of its
// statement (transformRequested), and a broken dependence of an illegal schedule
// is drawn red and dashed and counted in the info line. The picture is compiler/iteration's model and SVG,
// so it is exactly what `tempo schedule --iteration-space` draws. A new
// schedule, dimension or bound rebuilds the model, its picture and its
// memory list in the background (isBuilding, spaceReady); replay steps
// only paint the dots they execute over the picture (IterationCanvas), so
// replaying 6,000 instances stays smooth. A right click on a dot offers
// the transforms of its statement (`dotTransforms`) and tries the one picked.
#pragma once

#ifndef Q_MOC_RUN  // moc cannot parse the C++20 library headers these pull in
#include "executor/CompiledEngine.h"
#include "iteration/IterationPlayback.h"
#include "iteration/IterationSpaceSvg.h"
#endif

#include <QMap>
#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QListView;
class QStringListModel;
class QPushButton;
class QSpinBox;
class QTimer;

namespace tempo::views {

class IterationCanvas;

class IterationSpaceView : public QWidget {
  Q_OBJECT
public:
  explicit IterationSpaceView(QWidget* parent = nullptr);
  ~IterationSpaceView() override;

  /// Shows the schedule of `program` (its graph is the one after the passes).
  void setSchedule(std::shared_ptr<const tempo::CompiledProgram> program);
  /// Chooses the dimensions ("" for y: one row).
  void setDimensions(const QString& x, const QString& y);
  void setBound(const QString& name, int value);
  void setArrowsVisible(bool visible);
  /// Rings every instance of `node` (-1: none), e.g. for a clicked loop line.
  void highlightNode(int node);

  /// The model on screen (null when there is none, e.g. bounds too large).
  const tempo::IterationSpace* space() const { return space_.get(); }
  /// True while the space for the current choices is built (in the background).
  bool isBuilding() const { return building_ > 0; }
  const tempo::IterationPlayback* playback() const { return playback_ ? &*playback_ : nullptr; }
  QString infoText() const;
  QString stepText() const;
  QStringList eventLines() const;
  IterationCanvas* canvas() const { return canvas_; }
  /// The transforms a right click on `dot` offers (ScheduleTransform text): interchange and
  /// skew of the two axes when its statement has both, then reverse and shift by ±1 of it.
  QStringList dotTransforms(int dot) const;
  /// The most instances the view draws.
  static constexpr int64_t kMaxDots = 6000;

public Q_SLOTS:
  void step();
  /// Replays `steps` more instances (Play takes many at a time on a large space).
  void stepBy(int steps);
  void reset();
  void finish();
  void setPlaying(bool playing);
  void selectDot(int dot);

Q_SIGNALS:
  void nodeActivated(int nodeId, int line, int col, int endLine, int endCol);
  /// The space for the current choices is on screen (or the reason there is none).
  void spaceReady();
  /// A dot was dragged along an axis: `shift %7 by 2 along t` (ScheduleTransform text) to try.
  void transformRequested(const QString& transform);

private:
  void rebuildControls();
  void onDotDragged(int dot, int cellsX, int cellsY);
  struct Built;
  /// Builds the space, its picture and memory list in the background; install() shows them.
  void rebuild();
  void install(Built built);
  /// Draws the picture again (the whole order, or hollow while replaying), then the replay.
  void redraw();
  /// Shows the replay's state over the picture: no SVG is drawn for a step.
  void showReplay();
  void startReplay();
  void advance(int steps);
  void showEvents();

  std::shared_ptr<const tempo::CompiledProgram> program_;
  std::shared_ptr<const tempo::IterationSpace> space_;
  std::optional<tempo::IterationPlayback> playback_;
  tempo::IterationSvgOptions options_;
  bool replaying_ = false;  ///< false: every dot filled (the whole order)
  bool pictureHollow_ = false;  ///< the canvas' picture is the one drawn for replay (step 0)
  std::vector<int> executed_;   ///< the dots replayed so far, in order
  int selectedDot_ = -1;        ///< ringed with its dependences red (the canvas paints it)
  int highlightNode_ = -1;      ///< every instance ringed (a clicked loop line's node)
  int generation_ = 0;      ///< of the latest rebuild request
  int building_ = 0;        ///< rebuilds running

  QComboBox* dimX_;
  QComboBox* dimY_;
  QHBoxLayout* boundsBox_;
  QMap<QString, QSpinBox*> bounds_;
  QCheckBox* arrows_;
  QPushButton* play_;
  QLabel* stepLabel_;
  QLabel* info_;
  QStringListModel* events_;
  QListView* eventsView_;
  IterationCanvas* canvas_;
  QTimer* timer_;
};

}  // namespace tempo::views
