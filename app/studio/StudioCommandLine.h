// StudioCommandLine: the options of `tempo-studio`.
//
//   tempo-studio [FILE] [--open FILE] [--view graph|passes|schedule|run|problems|profiler]
//                [--engine reference|compiled] [--pass NAME] [--block-size N] [--transform TEXT]
//                [--profiler-tab runs|timeline|memory|statistics] [--lesson N[.STEP]]
//                [--screenshot OUT.png] [--quit-after MS]
//
// `--pass` selects a pass in the pass stepper once the pipeline has run;
// `--block-size` sets the schedule view's static-tiling block size; `--transform`
// tries a schedule transform in the schedule view once its first schedule is shown;
// `--lesson 3.2` opens the Lessons dock on lesson 3 (of resources/lessons) at its step 2.
// `--screenshot` renders the window offscreen once the first check has
// finished (and, for `--view run`, once a run of the program has finished;
// for `--view profiler`, once a profiled run has been recorded and opened, on
// the tab `--profiler-tab` names),
// saves it and exits; `--quit-after` closes the studio after MS
// milliseconds (used to time start-up).
#pragma once

#include <QString>
#include <QStringList>

#include <optional>

class QCoreApplication;

namespace tempo::studio {

struct StudioOptions {
  QString file;        ///< the program to open ("" for a new one)
  QString view;        ///< "" or graph | passes | schedule | run | problems | profiler
  QString profilerTab; ///< "" or runs | timeline | memory | statistics: the profiler's tab
  QString engine;      ///< "" or reference | compiled: the run panel's engine
  QString pass;        ///< "" or the pass the pass stepper selects (e.g. fusion)
  int blockSize = 0;   ///< the schedule view's block size (0: the cost model's)
  QString transform;   ///< "" or a schedule transform the schedule view tries (ScheduleTransform text)
  int lesson = 0;      ///< 1-based lesson to open in the Lessons dock (0: none)
  int lessonStep = 1;  ///< 1-based step of that lesson
  QString screenshot;  ///< PNG to write, "" for an interactive session
  int quitAfterMs = -1;
};

/// Parses the application's arguments; on a usage error prints it and returns nullopt.
std::optional<StudioOptions> parseStudioOptions(const QCoreApplication& app);

}  // namespace tempo::studio
