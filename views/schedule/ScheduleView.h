// ScheduleView: the studio's schedule view — loops and iteration space.
//
// `setProgram` takes a checked program and, off the UI thread
// (QtConcurrent), compiles it exactly as `tempo run --engine compiled` does
// (compileProgram with the default pass pipeline) and plans its storage at
// the program's default bounds, with static tiling's block size from the
// "Block size" box (auto: the cost model's; changing it recompiles). The loops appear as highlighted pseudo-code,
// the very text of printLoopProgram, with a side column naming each exec's
// store and bytes (alloc/free lines carry their own bytes). Below, the
// IterationSpaceView draws the same schedule's instances. Clicking an exec,
// alloc or free line, or a dot, emits nodeActivated with that node's source
// range and rings the node's instances. Results of superseded programs are
// dropped; the old schedule stays on screen until the new one is ready.
// The TransformBar above the loops changes the schedule by hand (ScheduleTransform:
// typed, or a dot dragged in the iteration space as a shift): a legal transform is
// applied (undo/redo/reset in the bar); an illegal one is shown as it would run —
// its loops, and the iteration space with the broken dependences red — with a
// sentence per broken dependence in the status line, and is not applied.
#pragma once

#include "frontend/Frontend.h"

#include <QFutureWatcher>
#include <QWidget>

#include <map>
#include <memory>

class QLabel;
class QSpinBox;

namespace tempo {
struct CompiledProgram;
}

namespace tempo::views {

class IterationSpaceView;
class LoopCodeEdit;
class ScheduleHighlighter;
class TransformBar;

class ScheduleView : public QWidget {
  Q_OBJECT
public:
  explicit ScheduleView(QWidget* parent = nullptr);
  ~ScheduleView() override;

  /// Compiles and schedules `program` in the background (ignored with errors).
  void setProgram(std::shared_ptr<const tempo::FrontendResult> program);
  /// Static tiling's block size (0: the cost model's); recompiles the program shown.
  void setBlockSize(int blockSize);
  int blockSize() const;

  /// True while a schedule or its iteration space is computed in the background.
  bool isCompiling() const;
  /// The loop text shown (printLoopProgram of the compiled program).
  QString loopText() const;
  /// The side note of a text line ("" if none).
  QString noteAt(int line) const;
  std::shared_ptr<const tempo::CompiledProgram> compiled() const { return compiled_; }
  LoopCodeEdit* codeView() const { return code_; }
  IterationSpaceView* iterationView() const { return iteration_; }
  TransformBar* transformBar() const { return transforms_; }
  QString statusText() const;
  /// The broken dependences of the last transform tried, one sentence each (empty: it was legal).
  const QStringList& violations() const { return violations_; }

Q_SIGNALS:
  void nodeActivated(int nodeId, int line, int col, int endLine, int endCol);
  /// A new schedule (or an error message) is on screen.
  void scheduleReady();

private:
  struct Result;
  void install(const Result& result);
  /// Compiles the program shown with the transforms `all`; `tried` (the last of them, or "")
  /// joins the bar's applied list when the result is legal.
  void compile(const QString& all, const QString& tried);
  void onLineClicked(int line);

  std::shared_ptr<const tempo::CompiledProgram> compiled_;
  std::shared_ptr<const tempo::FrontendResult> program_;  ///< the last program that checked
  int generation_ = 0;
  int pending_ = 0;
  LoopCodeEdit* code_;
  ScheduleHighlighter* highlighter_;
  IterationSpaceView* iteration_;
  QLabel* status_;
  QSpinBox* blockSize_;
  TransformBar* transforms_;
  QStringList violations_;
};

}  // namespace tempo::views
