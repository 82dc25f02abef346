#include "StudioCommandLine.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <cstdio>

namespace tempo::studio {

std::optional<StudioOptions> parseStudioOptions(const QCoreApplication& app) {
  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("Tempo Studio: an IDE for dynamic deep-learning programs"));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The .tpo program to open"), QStringLiteral("[FILE]"));
  QCommandLineOption open(QStringLiteral("open"), QStringLiteral("Open FILE."), QStringLiteral("FILE"));
  QCommandLineOption view(QStringLiteral("view"), QStringLiteral("Raise a view: graph, passes, schedule, run, problems or profiler."),
                          QStringLiteral("VIEW"));
  QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                QStringLiteral("Render the window to OUT.png once the program is checked (and run, "
                                               "for --view run), then exit."),
                                QStringLiteral("OUT.png"));
  QCommandLineOption quitAfter(QStringLiteral("quit-after"), QStringLiteral("Quit after MS milliseconds."), QStringLiteral("MS"));
  QCommandLineOption engine(QStringLiteral("engine"), QStringLiteral("The run panel's engine: reference or compiled."),
                            QStringLiteral("ENGINE"));
  QCommandLineOption pass(QStringLiteral("pass"), QStringLiteral("Select this pass in the pass stepper (e.g. fusion)."),
                          QStringLiteral("NAME"));
  QCommandLineOption blockSize(QStringLiteral("block-size"),
                               QStringLiteral("Static tiling's block size in the schedule view (default: the cost model's)."),
                               QStringLiteral("N"));
  QCommandLineOption profilerTab(QStringLiteral("profiler-tab"),
                                 QStringLiteral("The profiler's tab once a profiled run opens: runs, timeline, memory or statistics."),
                                 QStringLiteral("TAB"));
  QCommandLineOption transform(QStringLiteral("transform"),
                               QStringLiteral("Try a schedule transform in the schedule view (e.g. \"interchange b, t\")."),
                               QStringLiteral("TEXT"));
  QCommandLineOption lesson(QStringLiteral("lesson"),
                            QStringLiteral("Open lesson N (of resources/lessons) in the Lessons dock, at step STEP (default 1)."),
                            QStringLiteral("N[.STEP]"));
  parser.addOptions({open, view, engine, pass, blockSize, transform, profilerTab, lesson, screenshot, quitAfter});
  parser.process(app);

  StudioOptions options;
  options.file = parser.value(open);
  if (options.file.isEmpty() && !parser.positionalArguments().isEmpty()) options.file = parser.positionalArguments().first();
  options.view = parser.value(view);
  options.screenshot = parser.value(screenshot);
  static const QStringList kViews = {QStringLiteral("graph"), QStringLiteral("passes"), QStringLiteral("schedule"),
                                     QStringLiteral("run"), QStringLiteral("problems"), QStringLiteral("profiler")};
  if (!options.view.isEmpty() && !kViews.contains(options.view)) {
    std::fprintf(stderr, "tempo-studio: unknown view '%s' (one of: %s)\n", qPrintable(options.view),
                 qPrintable(kViews.join(QStringLiteral(", "))));
    return std::nullopt;
  }
  options.profilerTab = parser.value(profilerTab);
  static const QStringList kTabs = {QStringLiteral("runs"), QStringLiteral("timeline"), QStringLiteral("memory"), QStringLiteral("statistics")};
  if (!options.profilerTab.isEmpty() && !kTabs.contains(options.profilerTab)) {
    std::fprintf(stderr, "tempo-studio: unknown profiler tab '%s' (one of: %s)\n", qPrintable(options.profilerTab),
                 qPrintable(kTabs.join(QStringLiteral(", "))));
    return std::nullopt;
  }
  options.engine = parser.value(engine);
  if (!options.engine.isEmpty() && options.engine != QLatin1String("reference") && options.engine != QLatin1String("compiled")) {
    std::fprintf(stderr, "tempo-studio: unknown engine '%s' (one of: reference, compiled)\n", qPrintable(options.engine));
    return std::nullopt;
  }
  options.pass = parser.value(pass);
  options.transform = parser.value(transform);
  if (parser.isSet(blockSize)) {
    bool ok = false;
    options.blockSize = parser.value(blockSize).toInt(&ok);
    if (!ok || options.blockSize <= 0) {
      std::fprintf(stderr, "tempo-studio: --block-size expects a positive integer, got '%s'\n",
                   qPrintable(parser.value(blockSize)));
      return std::nullopt;
    }
  }
  if (parser.isSet(lesson)) {
    const QStringList parts = parser.value(lesson).split(QLatin1Char('.'));
    bool okLesson = false, okStep = true;
    options.lesson = parts[0].toInt(&okLesson);
    if (parts.size() == 2) options.lessonStep = parts[1].toInt(&okStep);
    if (!okLesson || !okStep || parts.size() > 2 || options.lesson < 1 || options.lessonStep < 1) {
      std::fprintf(stderr, "tempo-studio: --lesson expects N or N.STEP (from 1), got '%s'\n", qPrintable(parser.value(lesson)));
      return std::nullopt;
    }
  }
  if (parser.isSet(quitAfter)) {
    bool ok = false;
    options.quitAfterMs = parser.value(quitAfter).toInt(&ok);
    if (!ok || options.quitAfterMs < 0) {
      std::fprintf(stderr, "tempo-studio: --quit-after expects milliseconds, got '%s'\n", qPrintable(parser.value(quitAfter)));
      return std::nullopt;
    }
  }
  return options;
}

}  // namespace tempo::studio
