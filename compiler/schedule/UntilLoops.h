// UntilLoops: where the schedule can stop a dimension that ends `until` a condition.
//
// `dim t < T until done` (docs/language.md, 4.13) runs t to the first step where
// `done` holds everywhere. The engine stops early when the schedule computes `done`
// inside a top-level loop that runs t forwards, one step an iteration: after each
// iteration it tests `done` at that step and, once it holds, leaves the loop and
// binds T to the reached extent for everything after it (the backward pass, a sum
// over t). That is exact only if nothing run before the stop depends on T: a node
// whose value changes with T (ExtentDependence) or a loop bound or guard written with
// T, other than the loop's own end. Otherwise the plan says why, and the engine runs
// the program at T, reads where `done` first held, and runs it again at that extent.
// `planUntilLoops` decides per until dimension; the plan prints itself after the
// placed loop program (`tempo compile --print-after=memory-placement`).
#pragma once

#include "graph/Graph.h"
#include "schedule/LoopAst.h"

#include <string>
#include <vector>

namespace tempo {

struct UntilLoop {
  std::string dim;        ///< `t`
  std::string bound;      ///< `T`
  NodeId condition = -1;  ///< the until output's node
  std::string name;       ///< the condition's name (`done`)
  int axis = -1;          ///< t's position in the condition's domain
  int topStatement = -1;  ///< the index in the program's body of the loop that stops (-1: run twice)
  int64_t offset = 0;     ///< t = the loop's variable + offset
  std::string loopVar;    ///< that loop's variable (`c0`)
  std::string whyNot;     ///< why the loop cannot stop early (topStatement < 0)
};

/// One plan per until output of `g`, in output order.
std::vector<UntilLoop> planUntilLoops(const Graph& g, const LoopProgram& program);

/// `until t: done (%12) stops the loop over c0 (top-level statement 2) after the step where it holds,
/// then T is the steps run`, or `until t: done (%12) runs the program twice (...): %9 r is computed
/// with T`.
std::string printUntilLoops(const std::vector<UntilLoop>& plans);

}  // namespace tempo
