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

Q_SIGNALS:
  void nodeActivated(int nodeId, int line, int col, int endLine, int endCol);
  /// A new schedule (or an error message) is on screen.
  void scheduleReady();

private:
  struct Result;
  void install(const Result& result);
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
};

}  // namespace tempo::views
