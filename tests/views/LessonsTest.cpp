// The lessons (views/lessons): the Markdown format's directives and its errors, the
// goal checks over a LessonState, and every shipped lesson of resources/lessons walked
// through in a studio window: at each step the goals are not met until the step's
// solution is performed, and are met after it (the run, transform, budget and edit
// actions going through the real views).
#include "MainWindowTestSupport.h"

#include "lessons/Lesson.h"
#include "lessons/LessonGoal.h"
#include "lessons/LessonsPanel.h"
#include "run/RunPanel.h"
#include "schedule/ScheduleView.h"
#include "schedule/TransformBar.h"

#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QtTest/QtTest>

using namespace tempo;
using namespace tempo::views;

namespace {

const char* kLesson = R"(# Title here
<!-- program: p.tpo -->
Intro text.

## First step
Some *Markdown*.
<!-- do: view schedule -->
<!-- do: bounds B=2, T=6 -->
<!-- goal: applied interchange -->
<!-- goal: peak below 4k -->
<!-- solution: transform skew j by i; interchange i, j -->
<!-- solution: replace "e[0:t+1]" with "e[t-3:t+1]" -->

## Second step
<!-- goal: answer backward | reverse -->
<!-- solution: answer backward -->
)";

QString lessonsDir() { return QStringLiteral(TEMPO_SOURCE_DIR "/resources/lessons"); }

/// The error parseLesson gives `text`, "" when it parses.
std::string errorOf(const std::string& text) {
  try {
    parseLesson(text, "l.md");
  } catch (const LessonError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

class LessonsTest : public QObject {
  Q_OBJECT

private Q_SLOTS:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void parsesDirectivesIntoSteps() {
    Lesson l = parseLesson(kLesson, "/x/l.md");
    QCOMPARE(l.title, std::string("Title here"));
    QCOMPARE(l.programPath(), std::string("/x/p.tpo"));
    QCOMPARE(l.intro, std::string("Intro text."));
    QCOMPARE(l.steps.size(), size_t(2));
    const LessonStep& s = l.steps[0];
    QCOMPARE(s.title, std::string("First step"));
    QCOMPARE(s.markdown, std::string("Some *Markdown*."));  // no directive lines
    QCOMPARE(s.actions.size(), size_t(2));
    QCOMPARE(printAction(s.actions[1]), std::string("bounds B=2, T=6"));
    QCOMPARE(s.goals[0].kind, LessonGoalKind::Applied);
    QCOMPARE(s.goals[1].bytes, int64_t(4096));
    QCOMPARE(s.goals[1].line, 10);
    QCOMPARE(printAction(s.solution[0]), std::string("transform skew j by i; interchange i, j"));
    QCOMPARE(s.solution[1].replacement, std::string("e[t-3:t+1]"));
    QCOMPARE(describeGoal(s.goals[1]), std::string("a compiled run's measured peak is below 4096 B"));
  }

  void malformedLessonsNameTheLine() {
    const std::string head = "# T\n<!-- program: p.tpo -->\n## S\n";
    QCOMPARE(errorOf(head + "<!-- do: view timeline -->\n"),
             std::string("l.md:4: unknown view 'timeline' (graph, passes, schedule, run, profiler, problems)"));
    QCOMPARE(errorOf(head + "<!-- goal: run ok -->\n"), std::string("l.md:4: step 'S' has goals but no solution"));
    QVERIFY(errorOf(head + "<!-- do: bounds T 6 -->\n").find("l.md:4: bounds are written") == 0);
    QVERIFY(errorOf(head + "<!-- goal: peak below lots -->\n").find("l.md:4: 'lots' is not a byte size") == 0);
    QVERIFY(errorOf(head + "<!-- hint: x -->\n").find("l.md:4: unknown directive 'hint'") == 0);
    QVERIFY(errorOf("# T\n<!-- do: run -->\n").find("before the first step") != std::string::npos);
    QVERIFY(errorOf("# T\n## S\n").find("no '<!-- program") != std::string::npos);
    QCOMPARE(errorOf(head), std::string());
  }

  void goalsCheckTheState() {
    LessonGoal answer{LessonGoalKind::Answer, "backward | reverse", 0, 1};
    LessonState state;
    QVERIFY(!checkGoal(answer, state).met);
    state.answer = " Reverse ";
    QVERIFY(checkGoal(answer, state).met);
    state.answer = "forward";
    QCOMPARE(checkGoal(answer, state).reason, std::string("not quite: try again"));
    QVERIFY(checkGoal({LessonGoalKind::Answer, "6", 0, 1}, LessonState{.answer = "6.0"}).met);

    LessonGoal peak{LessonGoalKind::PeakBelow, "", 4096, 1};
    QCOMPARE(checkGoal(peak, state).reason, std::string("no run yet in this step"));
    state.lastRun = LessonRunState{true, false, std::nullopt};
    QCOMPARE(checkGoal(peak, state).reason, std::string("the last run was on the reference engine"));
    state.lastRun = LessonRunState{true, true, 8192};
    QCOMPARE(checkGoal(peak, state).reason, std::string("the last run's peak was 8192 B"));
    state.lastRun->peakBytes = 4000;
    QVERIFY(checkGoal(peak, state).met);

    LessonGoal interchange{LessonGoalKind::Applied, "interchange", 0, 1};
    state.scheduleReady = true;
    state.applied = {"skew j by i; interchange i, j"};
    QVERIFY(checkGoal(interchange, state).met);
    state.violations = {"broken"};  // the transform tried last is illegal
    QVERIFY(!checkGoal(interchange, state).met);
    QVERIFY(checkGoal({LessonGoalKind::IllegalShown, "", 0, 1}, state).met);
    state.violations.clear();
    state.applied = {"skew j by i"};
    QCOMPARE(checkGoal(interchange, state).reason, std::string("no interchange is applied yet"));
    QVERIFY(!checkGoal({LessonGoalKind::BlockSize, "", 4, 1}, state).met);
  }

  void everyShippedLessonIsCompletedByItsSolutions() {
    MainWindow window(testing::testOptions());
    window.show();
    LessonsPanel* panel = window.lessonsWidget();
    QVERIFY2(panel->lessons().size() >= 8, "at least eight lessons in resources/lessons");
    for (int i = 0; i < static_cast<int>(panel->lessons().size()); ++i) {
      const Lesson& lesson = panel->lessons()[static_cast<size_t>(i)];
      QVERIFY2(panel->openLesson(i), lesson.path.c_str());
      for (size_t s = 0; s < lesson.steps.size(); ++s) {
        const std::string where = lesson.title + ", step " + std::to_string(s + 1) + " (" + lesson.steps[s].title + ")";
        QCOMPARE(panel->currentStep(), static_cast<int>(s));
        QVERIFY2(QTest::qWaitFor([&] { return panel->idle(); }, 120000), where.c_str());
        panel->recheck();
        if (!lesson.steps[s].goals.empty()) QVERIFY2(!panel->stepComplete(), ("met before its solution: " + where).c_str());
        panel->showSolution();
        const bool done = QTest::qWaitFor([&] { return panel->idle() && (panel->recheck(), panel->stepComplete()); }, 120000);
        std::string reasons;
        for (const GoalResult& r : panel->goalResults()) reasons += " / " + r.reason;
        QVERIFY2(done, ("not met after its solution: " + where + reasons).c_str());
        if (s + 1 < lesson.steps.size()) {
          QVERIFY(panel->nextButton()->isEnabled());
          panel->next();
        }
      }
    }
  }

  void aLessonRunFollowsTheScheduleAndTheBudget() {
    MainWindow window(testing::testOptions());
    window.show();
    LessonsPanel* panel = window.lessonsWidget();
    int schedule = -1, budget = -1;
    for (int i = 0; i < static_cast<int>(panel->lessons().size()); ++i) {
      const std::string& program = panel->lessons()[static_cast<size_t>(i)].program;
      if (program == "03-the-schedule.tpo") schedule = i;
      if (program == "11-memory-budget.tpo") budget = i;
    }
    QVERIFY(schedule >= 0 && budget >= 0);
    QVERIFY(panel->openLesson(schedule));
    panel->goToStep(2);  // "A legal one"
    panel->showSolution();
    QVERIFY(QTest::qWaitFor([&] { return panel->idle() && (panel->recheck(), panel->stepComplete()); }, 120000));
    QCOMPARE(window.scheduleWidget()->transformBar()->applied(), QStringList{QStringLiteral("interchange i, j")});
    QCOMPARE(window.runPanel()->settings().transform, std::string("interchange i, j"));

    QVERIFY(panel->openLesson(budget));
    QVERIFY(window.scheduleWidget()->transformBar()->applied().isEmpty());  // a lesson starts from the compiler's schedule
    panel->goToStep(1);
    panel->showSolution();
    QVERIFY(QTest::qWaitFor([&] { return panel->idle() && (panel->recheck(), panel->stepComplete()); }, 120000));
    QCOMPARE(window.runPanel()->settings().memoryBudget, std::optional<int64_t>(80 * 1024));
    QVERIFY(window.runPanel()->lastOutcome().peakBytes.value_or(1 << 30) < 96 * 1024);
  }
};

QTEST_MAIN(LessonsTest)
#include "LessonsTest.moc"
