// tempo-studio: the Qt desktop IDE. Argument parsing and wiring only; the
// window and its views live in views/.
#include "ScreenshotTask.h"
#include "StudioCommandLine.h"

#include "common/ExampleCatalog.h"
#include "common/MainWindow.h"
#include "common/StudioInfo.h"
#include "lessons/LessonsPanel.h"
#include "passes/PassStepper.h"
#include "profiler/ProfilerPanel.h"
#include "run/RunPanel.h"
#include "schedule/ScheduleView.h"
#include "schedule/TransformBar.h"

#include <QApplication>
#include <QTimer>

#include <cstdio>
#include <memory>

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QLatin1String(tempo::views::kOrganizationName));
  QApplication::setApplicationName(QLatin1String(tempo::views::kApplicationName));
  QApplication::setApplicationVersion(QLatin1String(tempo::views::kStudioVersion));
  std::optional<tempo::studio::StudioOptions> options = tempo::studio::parseStudioOptions(app);
  if (!options) return 2;

  bool screenshot = !options->screenshot.isEmpty();
  tempo::views::MainWindow::Options windowOptions;
  windowOptions.exampleDirs = tempo::views::defaultExampleDirs(QStringLiteral(TEMPO_SOURCE_DIR));
  windowOptions.restoreSettings = !screenshot;  // screenshots do not depend on a user's layout
  tempo::views::MainWindow window(windowOptions);

  if (options->blockSize > 0) window.scheduleWidget()->setBlockSize(options->blockSize);
  if (!options->transform.isEmpty()) {
    auto* schedule = window.scheduleWidget();
    auto once = std::make_shared<QMetaObject::Connection>();
    *once = QObject::connect(schedule, &tempo::views::ScheduleView::scheduleReady, schedule, [schedule, once, &options] {
      QObject::disconnect(*once);
      schedule->transformBar()->tryTransform(options->transform);
    });
  }
  if (!options->pass.isEmpty()) {
    QObject::connect(window.passesWidget(), &tempo::views::PassStepper::pipelineShown, &window, [&window, &options] {
      if (!window.passesWidget()->selectPass(options->pass))
        std::fprintf(stderr, "tempo-studio: --pass: no pass called '%s'\n", qPrintable(options->pass));
    });
  }
  tempo::studio::ScreenshotTask* task = nullptr;
  using Before = tempo::studio::ScreenshotTask::Before;
  const Before before = options->view == "run" ? Before::Run : options->view == "profiler" ? Before::Profile : Before::Nothing;
  if (screenshot) task = new tempo::studio::ScreenshotTask(&window, options->screenshot, before, &app);
  if (!options->profilerTab.isEmpty()) {
    // After the window has opened the recorded run (its own connection comes first).
    QObject::connect(window.runPanel(), &tempo::views::RunPanel::runRecorded, &window, [&window, &options] {
      window.profilerWidget()->showTab(options->profilerTab);
    });
  }
  if (!options->file.isEmpty() && !window.openFile(options->file, screenshot)) {
    if (screenshot) return 1;
  }
  if (options->lesson > 0) {
    auto* lessons = window.lessonsWidget();
    if (!lessons->openLesson(options->lesson - 1)) {
      std::fprintf(stderr, "tempo-studio: --lesson %d: there are %d lessons\n", options->lesson, static_cast<int>(lessons->lessons().size()));
      return 2;
    }
    lessons->goToStep(options->lessonStep - 1);
    window.showView(QStringLiteral("lessons"));
  }
  if (!options->view.isEmpty()) window.showView(options->view);
  if (!options->engine.isEmpty())
    window.runPanel()->setEngine(options->engine == QLatin1String("compiled") ? tempo::views::Engine::Compiled
                                                                               : tempo::views::Engine::Reference);
  window.show();
  if (options->quitAfterMs >= 0) QTimer::singleShot(options->quitAfterMs, &app, [&window] { window.close(); });
  Q_UNUSED(task);
  return app.exec();
}
