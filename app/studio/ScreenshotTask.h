// ScreenshotTask: `tempo-studio --screenshot OUT.png`.
//
// Waits until the window's program has been checked (the first `compiled`
// signal) and, when asked, runs or profiles it; then waits until nothing is in progress
// (no check, run or graph layout), lets the views settle for a moment, grabs
// the window (this works on the offscreen platform as well as under X),
// writes the PNG and quits the application with 0 (1 if the PNG could not
// be written, 2 on a timeout).
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

namespace tempo::views {
class MainWindow;
}

namespace tempo::studio {

class ScreenshotTask : public QObject {
  Q_OBJECT
public:
  enum class Before { Nothing, Run, Profile };
  /// `before`: run (or profile, recording the run) the program before grabbing.
  ScreenshotTask(views::MainWindow* window, QString outPath, Before before, QObject* parent = nullptr);

private:
  void onCompiled();
  void poll();
  void grabAndQuit();

  views::MainWindow* window_;
  QString outPath_;
  Before before_;
  bool checked_ = false;
  QTimer poll_;
};

}  // namespace tempo::studio
