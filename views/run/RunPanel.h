// RunPanel: configure, run and inspect a run of the current program.
//
// Left: the bounds editor, the engine selector (the compiled engine by
// default: passes + isl schedule + executor; or the reference interpreter, the oracle), the device
// selector (the CPU; GPUs are listed greyed out with the reason), Run and
// Cancel, a progress line (points evaluated), the measured time and the
// peak memory (measured and predicted by the compiled engine; the reference
// engine does not measure it), and the list of outputs. Right: the selected
// output as a table and a plot (OutputView). A run evaluates a snapshot of
// the last checked program on a worker thread (runProgram) with a cancel
// flag; the UI thread only polls its progress. A compiled run is traced and
// recorded in the run store set by setRunStore (runRecorded names it, for the
// profiler to open); Profile is the same on the compiled engine whatever the
// engine box says, and asks for the profiler to be shown (lastRunWasProfile).
// The compiled engine follows the schedule view (its transforms by hand and block
// size, setSchedule) and takes an optional memory budget (`64k`).
#pragma once

#include "document/ProgramDocument.h"
#include "run/EngineRun.h"

#include <QFutureWatcher>
#include <QTimer>
#include <QWidget>

#include <atomic>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;

namespace tempo::views {

class BoundsEditor;
class OutputView;

class RunPanel : public QWidget {
  Q_OBJECT
public:
  explicit RunPanel(QWidget* parent = nullptr);
  ~RunPanel() override;

  BoundsEditor* boundsEditor() const { return bounds_; }
  OutputView* outputView() const { return outputView_; }
  QListWidget* outputList() const { return outputs_; }
  /// True from a run's start until its outcome is shown (a finished run not yet handled still counts).
  bool isRunning() const { return runActive_; }
  /// Chooses the engine of the next run.
  void setEngine(Engine engine);
  /// The outcome of the last finished run.
  const RunOutcome& lastOutcome() const { return outcome_; }
  /// Where Profile records: the store file and the program's path ("" for an unsaved program).
  void setRunStore(const QString& dbPath, const QString& programPath);
  QPushButton* profileButton() const { return profileButton_; }
  /// The last run was started by Profile (not Run).
  bool lastRunWasProfile() const { return profiling_; }
  /// The compiled engine's settings for the next run: the schedule's (setSchedule) and the budget box's.
  RunSettings settings() const;
  /// The memory budget box (`64k`, `1.5M`; empty for none).
  QLineEdit* budgetEdit() const { return budget_; }

public Q_SLOTS:
  /// The schedule the compiled engine follows: the transforms applied by hand and the block size.
  void setSchedule(const QString& transform, int blockSize);
  /// The program the next run uses (the last checked one).
  void setProgram(tempo::views::CheckedProgram program);
  /// Starts a run of the current program (no-op while running or with errors).
  void run();
  /// Runs the compiled engine traced and records the run in the run store.
  void profile();
  /// Asks the running evaluation to stop.
  void cancel();

Q_SIGNALS:
  void runStarted();
  /// A run ended (ok is false on an error or cancel).
  void runFinished(bool ok);
  /// A profiled run was recorded as run `id` in `dbPath`.
  void runRecorded(const QString& dbPath, qint64 id);

private:
  void start(bool profile);
  void onFinished();
  void showOutput(int row);
  void updateButtons();
  void updateProgress();

  CheckedProgram program_;
  CheckedProgram running_;  // the snapshot the current (or last) run evaluates
  BoundsEditor* bounds_ = nullptr;
  QComboBox* engine_ = nullptr;
  QLineEdit* budget_ = nullptr;
  QLabel* schedule_ = nullptr;   // the schedule's transforms, when there are some
  QString transform_;
  int blockSize_ = 0;
  QComboBox* device_ = nullptr;  // the CPU, and each GPU (disabled, with why, until the GPU engine exists)
  QPushButton* runButton_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QPushButton* profileButton_ = nullptr;
  QString storePath_, programPath_;
  bool profiling_ = false;
  QProgressBar* progressBar_ = nullptr;
  QLabel* status_ = nullptr;
  QLabel* time_ = nullptr;
  QLabel* memory_ = nullptr;
  QListWidget* outputs_ = nullptr;
  OutputView* outputView_ = nullptr;
  QFutureWatcher<RunOutcome> watcher_;
  bool runActive_ = false;
  QTimer progressTimer_;
  std::atomic<bool> cancel_{false};
  std::atomic<size_t> progress_{0};
  RunOutcome outcome_;
};

}  // namespace tempo::views
