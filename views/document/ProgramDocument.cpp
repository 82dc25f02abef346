#include "document/ProgramDocument.h"

#include "common/Background.h"
#include "npy/LoadCheck.h"

#include <QFile>
#include <QFileInfo>

namespace tempo::views {

namespace {

/// What `tempo check` does: the front end, then (for a clean program) the
/// load() files against the declarations under the default bounds.
CheckedProgram checkProgram(const std::string& text, const std::string& fileName, const std::string& baseDir) {
  FrontendResult result = compileSource(text, fileName, baseDir);
  std::string error;
  if (result.ok())
    if (std::optional<SymbolEnv> bounds = resolveBounds(result.graph, {}, error)) {
      DiagnosticBag loads;
      checkLoadedArrays(result.graph, *bounds, loads);
      for (const Diagnostic& d : loads.items()) result.diags.add(d);
    }
  return freedInBackground(std::move(result));
}

}  // namespace

ProgramDocument::ProgramDocument(QObject* parent) : QObject(parent) {
  qRegisterMetaType<CheckedProgram>();
  debounce_.setSingleShot(true);
  debounce_.setInterval(300);
  connect(&debounce_, &QTimer::timeout, this, &ProgramDocument::checkNow);
  connect(&watcher_, &QFutureWatcher<CheckedProgram>::finished, this, &ProgramDocument::onCheckFinished);
}

ProgramDocument::~ProgramDocument() {
  if (watcher_.isRunning()) watcher_.waitForFinished();  // (a taken result leaves a future that never "finishes" again)
}

QString ProgramDocument::displayName() const {
  return filePath_.isEmpty() ? QStringLiteral("untitled.tpo") : QFileInfo(filePath_).fileName();
}

void ProgramDocument::setText(const QString& text) {
  if (text == text_) return;
  text_ = text;
  ++generation_;
  setModified(true);
  scheduleCheck();
}

void ProgramDocument::clear() {
  text_.clear();
  ++generation_;
  filePath_.clear();
  Q_EMIT filePathChanged(filePath_);
  setModified(false);
  Q_EMIT textReplaced(text_);
  checkNow();
}

bool ProgramDocument::load(const QString& path, QString& error) {
  QFile file(path);
  if (QFileInfo(path).isDir() || !file.open(QIODevice::ReadOnly)) {
    error = tr("Cannot open %1: %2").arg(path, QFileInfo(path).isDir() ? tr("it is a folder") : file.errorString());
    return false;
  }
  text_ = QString::fromUtf8(file.readAll());
  ++generation_;
  filePath_ = QFileInfo(path).absoluteFilePath();
  Q_EMIT filePathChanged(filePath_);
  setModified(false);
  Q_EMIT textReplaced(text_);
  checkNow();
  return true;
}

bool ProgramDocument::saveAs(const QString& path, QString& error) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text_.toUtf8()) < 0) {
    error = tr("Cannot save %1: %2").arg(path, file.errorString());
    return false;
  }
  QString absolute = QFileInfo(path).absoluteFilePath();
  if (absolute != filePath_) {
    filePath_ = absolute;
    Q_EMIT filePathChanged(filePath_);
    checkNow();  // load() paths resolve against the new folder
  }
  setModified(false);
  return true;
}

void ProgramDocument::scheduleCheck() { debounce_.start(); }

void ProgramDocument::checkNow() {
  debounce_.stop();
  if (watcher_.isRunning()) {
    pending_ = true;  // one check at a time; the newest text follows
    return;
  }
  pending_ = false;
  checking_ = true;
  runningGeneration_ = generation_;
  QFileInfo info(filePath_);
  std::string baseDir = filePath_.isEmpty() ? QFileInfo(QStringLiteral(".")).absoluteFilePath().toStdString()
                                            : info.absolutePath().toStdString();
  watcher_.setFuture(runInBackground([text = text_.toStdString(), name = displayName().toStdString(), baseDir] {
    return checkProgram(text, name, baseDir);
  }));
  Q_EMIT checkStarted();
}

void ProgramDocument::onCheckFinished() {
  checking_ = false;
  CheckedProgram result = watcher_.future().takeResult();
  if (runningGeneration_ == generation_) {
    latest_ = std::move(result);  // the previous check is freed off the UI thread (freedInBackground)
    Q_EMIT compiled(latest_);
  }
  if (pending_) checkNow();  // newer text arrived while this one ran
}

void ProgramDocument::setModified(bool modified) {
  if (modified == modified_) return;
  modified_ = modified;
  Q_EMIT modifiedChanged(modified_);
}

}  // namespace tempo::views
