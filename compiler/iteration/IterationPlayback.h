// IterationPlayback: stepping through an IterationSpace's execution order.
//
// A cursor over the schedule's timeline. `step` runs events up to and
// including the next execution of a drawn dot (executions of nodes that are
// not drawn and memory events pass on the way; the memory events are kept,
// in order, so a view can list Alloc/Free as they occur); `reset` goes back
// to before the first event. Qt-free so the studio's play/step controls and
// any headless rendering of a replay frame share one notion of "executed".
#pragma once

#include "iteration/IterationSpace.h"

namespace tempo {

class IterationPlayback {
public:
  explicit IterationPlayback(const IterationSpace& space) : space_(&space) {}

  void reset();
  /// Advances to the next drawn execution; false (and no change) at the end.
  bool step();
  /// Steps until the end.
  void finish();
  bool atEnd() const;

  /// Timeline events done so far.
  size_t position() const { return position_; }
  /// The dot executed by the latest step (-1 before the first).
  int currentDot() const { return current_; }
  /// How many steps have been taken, and how many there are in all.
  int stepsTaken() const { return steps_; }
  int stepCount() const;
  bool executed(int dot) const;
  /// Memory events (alloc, free, swap) passed so far, in order (timeline indices).
  const std::vector<size_t>& memoryEvents() const { return memory_; }

private:
  const IterationSpace* space_;
  size_t position_ = 0;
  int current_ = -1;
  int steps_ = 0;
  std::vector<size_t> memory_;
};

}  // namespace tempo
