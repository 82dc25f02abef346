#include "lessons/LessonsPanel.h"

#include "lessons/LessonHost.h"

#include <algorithm>

#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace tempo::views {

LessonsPanel::LessonsPanel(LessonHost* host, QWidget* parent)
    : QWidget(parent), host_(host), chooser_(new QComboBox), heading_(new QLabel), text_(new QTextBrowser),
      goals_(new QListWidget), answerLabel_(new QLabel(tr("Your answer:"))), answer_(new QLineEdit),
      back_(new QPushButton(tr("◀ Back"))), solution_(new QPushButton(tr("Show me"))),
      next_(new QPushButton(tr("Next ▶"))), restart_(new QPushButton(tr("Restart"))) {
  auto* top = new QHBoxLayout;
  top->addWidget(chooser_, 1);
  top->addWidget(restart_);
  heading_->setWordWrap(true);
  QFont bold = heading_->font();
  bold.setBold(true);
  heading_->setFont(bold);
  text_->setOpenExternalLinks(true);
  goals_->setMaximumHeight(96);
  goals_->setWordWrap(true);
  goals_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  goals_->setSelectionMode(QAbstractItemView::NoSelection);
  auto* answerRow = new QHBoxLayout;
  answerRow->addWidget(answerLabel_);
  answerRow->addWidget(answer_, 1);
  answer_->setPlaceholderText(tr("type it here; it is checked as you type"));
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(back_);
  buttons->addStretch(1);
  buttons->addWidget(solution_);
  buttons->addWidget(next_);
  solution_->setToolTip(tr("Do this step's task for me"));
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(heading_);
  layout->addWidget(text_, 1);
  layout->addWidget(new QLabel(tr("Goals")));
  layout->addWidget(goals_);
  layout->addLayout(answerRow);
  layout->addLayout(buttons);

  connect(chooser_, &QComboBox::activated, this, [this](int index) { openLesson(index); });
  connect(restart_, &QPushButton::clicked, this, [this] { openLesson(lesson_); });
  connect(back_, &QPushButton::clicked, this, &LessonsPanel::back);
  connect(next_, &QPushButton::clicked, this, &LessonsPanel::next);
  connect(solution_, &QPushButton::clicked, this, &LessonsPanel::showSolution);
  connect(answer_, &QLineEdit::textChanged, this, &LessonsPanel::recheck);
  pump_.setInterval(150);
  connect(&pump_, &QTimer::timeout, this, [this] {
    performQueued();
    recheck();
  });
  showStep();
}

void LessonsPanel::setLessonDir(const QString& dir) {
  lessons_.clear();
  lessonErrors_.clear();
  chooser_->clear();
  try {
    lessons_ = loadLessons(dir.toStdString());
  } catch (const LessonError& e) {
    lessonErrors_ << QString::fromStdString(e.what());
  }
  for (size_t i = 0; i < lessons_.size(); ++i)
    chooser_->addItem(tr("%1. %2").arg(i + 1).arg(QString::fromStdString(lessons_[i].title)));
  chooser_->setCurrentIndex(-1);
  chooser_->setPlaceholderText(lessons_.empty() ? tr("(no lessons found)") : tr("Choose a lesson…"));
  lesson_ = step_ = -1;
  showStep();
}

bool LessonsPanel::openLesson(int index) {
  if (index < 0 || index >= static_cast<int>(lessons_.size())) return false;
  QString error;
  pending_.clear();
  if (!host_->openLessonProgram(lessons_[static_cast<size_t>(index)], error)) {
    lesson_ = step_ = -1;
    showStep();
    heading_->setText(tr("Cannot open the lesson's program: %1").arg(error));
    return false;
  }
  lesson_ = index;
  chooser_->setCurrentIndex(index);
  pump_.start();
  goToStep(0);
  return true;
}

const LessonStep* LessonsPanel::step() const {
  if (lesson_ < 0 || step_ < 0) return nullptr;
  return &lessons_[static_cast<size_t>(lesson_)].steps[static_cast<size_t>(step_)];
}

void LessonsPanel::goToStep(int index) {
  if (lesson_ < 0) return;
  const Lesson& lesson = lessons_[static_cast<size_t>(lesson_)];
  if (index < 0 || index >= static_cast<int>(lesson.steps.size())) return;
  step_ = index;
  lastRun_.reset();
  {
    QSignalBlocker block(answer_);
    answer_->clear();
  }
  queue(step()->actions);
  showStep();
  Q_EMIT stepChanged(lesson_, step_);
}

void LessonsPanel::next() {
  if (stepComplete()) goToStep(step_ + 1);
}

void LessonsPanel::back() { goToStep(step_ - 1); }

void LessonsPanel::showSolution() {
  if (!step()) return;
  for (const LessonAction& a : step()->solution)
    if (a.kind == LessonActionKind::Answer) answer_->setText(QString::fromStdString(a.text));
  queue(step()->solution);
}

void LessonsPanel::queue(const std::vector<LessonAction>& actions) {
  for (const LessonAction& a : actions)
    if (a.kind != LessonActionKind::Answer) pending_.push_back(a);
  performQueued();
}

void LessonsPanel::performQueued() {
  // One action at a time, each once the previous one's work (a check, a compile, a run) is done.
  while (!pending_.empty() && !host_->busy()) {
    LessonAction action = pending_.front();
    pending_.pop_front();
    host_->perform(action);
  }
}

bool LessonsPanel::idle() const { return pending_.empty() && !host_->busy(); }

void LessonsPanel::runFinished(const LessonRunState& run) {
  if (step()) lastRun_ = run;
  recheck();
}

bool LessonsPanel::stepComplete() const {
  if (!step()) return false;
  return std::all_of(results_.begin(), results_.end(), [](const GoalResult& r) { return r.met; });
}

void LessonsPanel::recheck() {
  const LessonStep* current = step();
  if (!current) return;
  LessonState state = host_->state();
  state.lastRun = lastRun_;
  state.answer = answer_->text().toStdString();
  std::vector<GoalResult> results;
  for (const LessonGoal& goal : current->goals) results.push_back(checkGoal(goal, state));
  const bool changed = results.size() != results_.size() ||
                       !std::equal(results.begin(), results.end(), results_.begin(), [](const GoalResult& a, const GoalResult& b) {
                         return a.met == b.met && a.reason == b.reason;
                       });
  results_ = std::move(results);
  if (changed) showGoals();
}

void LessonsPanel::showGoals() {
  goals_->clear();
  const LessonStep* current = step();
  if (!current) return;
  for (size_t i = 0; i < current->goals.size() && i < results_.size(); ++i) {
    const GoalResult& r = results_[i];
    QString line = (r.met ? QStringLiteral("✓ ") : QStringLiteral("○ ")) + QString::fromStdString(describeGoal(current->goals[i]));
    if (!r.met && !r.reason.empty()) line += QStringLiteral(" — ") + QString::fromStdString(r.reason);
    auto* item = new QListWidgetItem(line, goals_);
    item->setForeground(r.met ? QColor(0x2e, 0x7d, 0x32) : palette().color(QPalette::Text));
  }
  if (current->goals.empty()) goals_->addItem(tr("Nothing to do here: read, look, then Next."));
  const bool last = step_ + 1 == static_cast<int>(lessons_[static_cast<size_t>(lesson_)].steps.size());
  next_->setEnabled(stepComplete() && !last);
  if (last && stepComplete()) goals_->addItem(tr("Lesson complete ✓"));
}

void LessonsPanel::showStep() {
  const LessonStep* current = step();
  back_->setEnabled(current && step_ > 0);
  solution_->setEnabled(current && !current->solution.empty());
  restart_->setEnabled(current != nullptr);
  bool question = current && std::any_of(current->goals.begin(), current->goals.end(),
                                         [](const LessonGoal& g) { return g.kind == LessonGoalKind::Answer; });
  answerLabel_->setVisible(question);
  answer_->setVisible(question);
  if (!current) {
    heading_->setText(lessonErrors_.isEmpty() ? tr("Lessons") : tr("A lesson could not be read"));
    text_->setMarkdown(lessonErrors_.isEmpty()
                           ? tr("Choose a lesson above. Each opens its own copy of a program and walks through it "
                                "in steps; a step may ask you to do something, which the studio checks.")
                           : lessonErrors_.join(QStringLiteral("\n\n")));
    goals_->clear();
    next_->setEnabled(false);
    return;
  }
  const Lesson& lesson = lessons_[static_cast<size_t>(lesson_)];
  heading_->setText(tr("Step %1 of %2 — %3").arg(step_ + 1).arg(lesson.steps.size()).arg(QString::fromStdString(current->title)));
  std::string markdown = current->markdown;
  if (step_ == 0 && !lesson.intro.empty()) markdown = lesson.intro + "\n\n" + markdown;
  text_->setMarkdown(QString::fromStdString(markdown));
  results_.clear();
  recheck();
  showGoals();
}

}  // namespace tempo::views
