#include "iteration/IterationPlayback.h"

#include <algorithm>

namespace tempo {

void IterationPlayback::reset() {
  position_ = 0;
  current_ = -1;
  steps_ = 0;
  memory_.clear();
}

bool IterationPlayback::atEnd() const {
  for (size_t i = position_; i < space_->timeline.size(); ++i)
    if (space_->timelineDot[i] >= 0) return false;
  return true;
}

bool IterationPlayback::step() {
  if (atEnd()) return false;
  while (position_ < space_->timeline.size()) {
    size_t i = position_++;
    if (space_->timeline[i].kind != ScheduleEvent::Kind::Exec) memory_.push_back(i);
    if (space_->timelineDot[i] >= 0) {
      current_ = space_->timelineDot[i];
      ++steps_;
      break;
    }
  }
  return true;
}

void IterationPlayback::finish() {
  while (step()) {
  }
  for (; position_ < space_->timeline.size(); ++position_)  // trailing frees
    if (space_->timeline[position_].kind != ScheduleEvent::Kind::Exec) memory_.push_back(position_);
}

int IterationPlayback::stepCount() const {
  return static_cast<int>(std::count_if(space_->timelineDot.begin(), space_->timelineDot.end(), [](int d) { return d >= 0; }));
}

bool IterationPlayback::executed(int dot) const {
  int s = space_->dots.at(dot).step;
  return s >= 0 && static_cast<size_t>(s) < position_;
}

}  // namespace tempo
