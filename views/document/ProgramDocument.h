// ProgramDocument: the program being edited, and its live re-check.
//
// Holds the current text and file path of one `.tpo` program and keeps a
// checked FrontendResult for it. `scheduleCheck()` restarts a short debounce
// timer; when typing stops the front end (compileSource, then the data-file
// check with the default bounds, as `tempo check` does) runs on a worker
// thread. Each check carries a generation number, and a result is only
// published (`compiled`) if no newer text has been scheduled since, so stale
// results never reach the views. The UI thread never waits for a compile.
#pragma once

#include "frontend/Frontend.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>

namespace tempo::views {

using CheckedProgram = std::shared_ptr<const FrontendResult>;

class ProgramDocument : public QObject {
  Q_OBJECT
public:
  explicit ProgramDocument(QObject* parent = nullptr);
  ~ProgramDocument() override;

  const QString& text() const { return text_; }
  const QString& filePath() const { return filePath_; }
  /// The file name for titles and diagnostics ("untitled.tpo" when unsaved).
  QString displayName() const;
  bool isModified() const { return modified_; }
  /// The latest published result (null before the first check finishes).
  const CheckedProgram& latest() const { return latest_; }
  /// True from a check's start until its result is handled (published or dropped): a check
  /// whose worker has finished but whose result is not yet published still counts.
  bool isChecking() const { return pending_ || checking_; }

  /// Replaces the text (e.g. after an edit) and schedules a debounced check.
  void setText(const QString& text);
  /// Starts a new, empty, unmodified program.
  void clear();
  /// Reads `path`; returns false and sets `error` if it cannot be read.
  bool load(const QString& path, QString& error);
  /// Writes the text to `path` (which becomes the file path).
  bool saveAs(const QString& path, QString& error);

  /// Debounce delay between the last edit and the check (default 300 ms).
  void setDebounceMs(int ms) { debounce_.setInterval(ms); }
  /// Restarts the debounce timer.
  void scheduleCheck();
  /// Starts a check now (still on the worker thread).
  void checkNow();

Q_SIGNALS:
  /// A check of the current text finished (never a stale one).
  void compiled(tempo::views::CheckedProgram result);
  /// A check was started on the worker thread.
  void checkStarted();
  void filePathChanged(const QString& path);
  void modifiedChanged(bool modified);
  /// The whole text was replaced (load, clear): editors should reload it.
  void textReplaced(const QString& text);

private:
  void setModified(bool modified);
  void onCheckFinished();

  QString text_;
  QString filePath_;
  bool modified_ = false;
  bool pending_ = false;       // a check is due once the running one finishes
  bool checking_ = false;      // a check started and its result not yet handled
  quint64 generation_ = 0;     // bumped by every text change
  quint64 runningGeneration_ = 0;
  QTimer debounce_;
  QFutureWatcher<CheckedProgram> watcher_;
  CheckedProgram latest_;
};

}  // namespace tempo::views

Q_DECLARE_METATYPE(tempo::views::CheckedProgram)
