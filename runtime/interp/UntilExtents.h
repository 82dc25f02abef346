// UntilExtents: the extent each `dim t < T until done` reaches in a run.
//
// The semantics (docs/language.md, 4.13): t ends after the first step where the bool
// condition `done` holds at every other coordinate and in every element; the program
// is then the program with T bound to that extent (T itself when `done` never holds
// everywhere). The front end proved that `done` at t is decided by t (ExtentDependence),
// so its values up to the stop are the same whether computed with T as the most steps
// or with the reached extent: `resolveUntilExtents` evaluates it with the reference
// interpreter at the given T, step by step, and stops at the first step that holds;
// the compiled engine reads the same step from the condition's store as it runs (or
// from its output, `reachedStep`). `ReachedExtent::str` is what `tempo run` prints.
#pragma once

#include "graph/Graph.h"
#include "tensor/Tensor.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace tempo {

struct ReachedExtent {
  std::string dim;          ///< `t`
  std::string bound;        ///< `T`
  int64_t maximum = 0;      ///< the bound's value: the most steps
  int64_t reached = 0;      ///< the steps run: the first step where the condition held, plus one
  bool stopped = false;     ///< the condition held at step reached - 1 (false: it never held everywhere)
  /// `t: stopped at step 37 (38 of 512 steps)`, `t: ran all 512 steps (done never held everywhere)`.
  std::string str(const std::string& condition) const;
};

/// `reached`'s lines as `tempo run` and the studio print them, each naming its condition in `g`.
std::vector<std::string> reachedLines(const Graph& g, const std::vector<ReachedExtent>& reached);

/// `bounds` (every bound of `g` given) with each until dimension's bound set to the steps it ran
/// (`reached`) and the bounds derived from them computed again: the bounds of the program that
/// ran (language.md, 4.14).
SymbolEnv boundsAsRun(const Graph& g, const SymbolEnv& bounds, const std::vector<ReachedExtent>& reached);

/// The graph's until outputs, in output order.
std::vector<const GraphOutput*> untilOutputs(const Graph& g);

/// Each until dimension's extent at `bounds` (bound defaults fill the rest), by the
/// reference interpreter; in the graph's until order, each evaluated with the extents
/// reached before it.
/// `cancel` as for ReferenceInterpreter::setCancelFlag.
std::vector<ReachedExtent> resolveUntilExtents(const Graph& g, const SymbolEnv& bounds,
                                               const std::atomic<bool>* cancel = nullptr);

/// Whether every element of `condition` (a bool value) holds.
bool holdsEverywhere(const Tensor& condition);

/// The first index along `axis` of `condition` (an until output assembled over its whole
/// domain: [domain bounds..., element shape]) where every other coordinate and element
/// holds; -1 if there is none.
int64_t firstStepHolding(const Tensor& condition, int axis);

}  // namespace tempo
