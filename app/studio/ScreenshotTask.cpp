#include "ScreenshotTask.h"

#include "common/MainWindow.h"
#include "run/RunPanel.h"

#include <QApplication>
#include <QPixmap>

#include <cstdio>

namespace tempo::studio {

namespace {
constexpr int kSettleMs = 300;      // deferred layouts and paints after the last update
constexpr int kTimeoutMs = 120000;  // give up rather than hang a script
}  // namespace

ScreenshotTask::ScreenshotTask(views::MainWindow* window, QString outPath, Before before, QObject* parent)
    : QObject(parent), window_(window), outPath_(std::move(outPath)), before_(before) {
  connect(window_->document(), &views::ProgramDocument::compiled, this, &ScreenshotTask::onCompiled);
  poll_.setInterval(50);
  connect(&poll_, &QTimer::timeout, this, &ScreenshotTask::poll);
  QTimer::singleShot(kTimeoutMs, this, [] {
    std::fprintf(stderr, "tempo-studio: --screenshot timed out\n");
    QApplication::exit(2);
  });
}

void ScreenshotTask::onCompiled() {
  if (checked_ || window_->document()->isChecking()) return;
  checked_ = true;
  const views::CheckedProgram& program = window_->document()->latest();
  if (before_ != Before::Nothing && program && program->ok()) {
    if (before_ == Before::Run) window_->runPanel()->run();
    else window_->runPanel()->profile();
  }
  poll_.start();
}

void ScreenshotTask::poll() {
  if (window_->isBusy()) return;
  poll_.stop();
  QTimer::singleShot(kSettleMs, this, &ScreenshotTask::grabAndQuit);
}

void ScreenshotTask::grabAndQuit() {
  QPixmap shot = window_->grab();
  if (!shot.save(outPath_)) {
    std::fprintf(stderr, "tempo-studio: cannot write %s\n", qPrintable(outPath_));
    QApplication::exit(1);
    return;
  }
  std::printf("wrote %s (%dx%d)\n", qPrintable(outPath_), shot.width(), shot.height());
  QApplication::exit(0);
}

}  // namespace tempo::studio
