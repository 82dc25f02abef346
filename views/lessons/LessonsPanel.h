// LessonsPanel: the studio's Lessons dock — a lesson's steps and their goals.
//
// A combo box lists the lessons of a folder (resources/lessons, read with
// loadLessons); choosing one opens a fresh copy of its program through the
// LessonHost and shows its first step: the step's Markdown, its goals with a
// mark each (○ open, ✓ met, with the reason a goal is not met yet) and, when
// a goal is a question, an answer box. Entering a step performs its `do`
// actions in order, each once the studio is idle; "Show me" performs the
// step's solution the same way. Goals are re-checked against the host's
// state a few times a second; Next is enabled when every goal is met (Back
// is always). A run counts for the step it finished in.
#pragma once

#include "lessons/Lesson.h"
#include "lessons/LessonGoal.h"

#include <QTimer>
#include <QWidget>

#include <deque>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTextBrowser;

namespace tempo::views {

class LessonHost;

class LessonsPanel : public QWidget {
  Q_OBJECT
public:
  explicit LessonsPanel(LessonHost* host, QWidget* parent = nullptr);

  /// Reads the lessons of `dir`; a malformed lesson is listed by its error instead.
  void setLessonDir(const QString& dir);
  const std::vector<Lesson>& lessons() const { return lessons_; }
  /// Opens lesson `index` at its first step; false (with the reason in the panel) if its program cannot be opened.
  bool openLesson(int index);
  int currentLesson() const { return lesson_; }
  int currentStep() const { return step_; }
  const LessonStep* step() const;
  /// The goals of the current step as last checked.
  const std::vector<GoalResult>& goalResults() const { return results_; }
  bool stepComplete() const;
  /// No action is waiting and the studio is idle.
  bool idle() const;
  bool hasPendingActions() const { return !pending_.empty(); }
  QLineEdit* answerEdit() const { return answer_; }
  QPushButton* nextButton() const { return next_; }
  QTextBrowser* textView() const { return text_; }

public Q_SLOTS:
  void goToStep(int index);
  void next();
  void back();
  /// Performs the current step's solution.
  void showSolution();
  /// Re-checks the goals now.
  void recheck();
  /// A run finished (the main window connects the run panel here).
  void runFinished(const tempo::views::LessonRunState& run);

Q_SIGNALS:
  void stepChanged(int lesson, int step);

private:
  void showStep();
  void queue(const std::vector<LessonAction>& actions);
  void performQueued();
  void showGoals();

  LessonHost* host_;
  std::vector<Lesson> lessons_;
  QStringList lessonErrors_;
  int lesson_ = -1;
  int step_ = -1;
  std::deque<LessonAction> pending_;
  std::optional<LessonRunState> lastRun_;
  std::vector<GoalResult> results_;
  QTimer pump_;  ///< performs the queued actions and re-checks the goals

  QComboBox* chooser_;
  QLabel* heading_;
  QTextBrowser* text_;
  QListWidget* goals_;
  QLabel* answerLabel_;
  QLineEdit* answer_;
  QPushButton* back_;
  QPushButton* solution_;
  QPushButton* next_;
  QPushButton* restart_;
};

}  // namespace tempo::views
