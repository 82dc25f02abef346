// SwapPlacement: SwapOut / SwapIn and recompute statements that keep a schedule under a memory budget.
//
// Under `--memory-budget BYTES`, after MemoryPlacement, the predicted live
// bytes (MemoryPrediction) are compared with the budget at every top-level
// statement of the schedule. Where a statement's peak is over the budget, a
// greedy rule frees room: among the stores allocated at the top level that are
// live there but not used by that statement (not written, not read), it swaps
// out the one whose next use is farthest away (Belady's rule: the value "not
// read soon after its producer"), right after its previous use, and swaps it
// back in right before its next use; then the next farthest, until the
// statement fits or no such store is left. A store whose value one top-level
// exec computes from inputs still in memory at its next use is instead freed
// and computed again there (rematerialisation, as in DTR) when RecomputeCost
// says its operations cost less than the bytes a swap moves; those inputs are
// then used at that point, so later choices keep them. Outputs are never swapped (they are
// read after the run), nor are stores that live inside loops (point and
// circular stores are small by construction). A top-level loop still over the
// budget gets the same rule inside its body, per element at its worst
// iteration, for the stores allocated around it that it uses: swapped out
// after a use and in before the next use of the same iteration, or (after
// the last use) before the first use of the next one and once more after the
// loop; the loop's peak is then walked again with the swaps in place. Nested
// loops are not entered, and nothing is recomputed inside a loop: what the
// plan leaves over the budget the MemoryPager pages at run time. When a statement cannot fit —
// the stores it uses and the ones it allocates inside exceed the budget — the
// plan says which stores and why. Decisions are made at concrete bounds, since
// the budget is a number of bytes. A budget below the floor of every schedule
// (BudgetFloor: one instance's working set, or the outputs at the end) is not
// feasible: the plan says so, and the compiled engine refuses to run under it.
#pragma once

#include "graph/Graph.h"
#include "schedule/LoopAst.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tempo {

struct SwapPlan {
  LoopProgram program;            ///< the input with SwapOut / SwapIn statements added
  int64_t budget = 0;
  int64_t floor = 0;              ///< the fewest bytes any schedule needs (BudgetFloor)
  std::string floorReason;        ///< what needs them
  int64_t predictedPeak = 0;      ///< predicted peak live bytes with the swaps
  std::vector<std::string> swaps; ///< one line per swapped gap: `%3 h: out after ..., in before ...`
  std::vector<std::string> recomputes; ///< one line per gap freed and recomputed, with the costs
  std::vector<std::string> unmet; ///< one line per top-level statement still over the budget, with why
  /// False when no schedule can meet the budget (below the floor).
  bool feasible() const { return budget >= floor; }
  bool met() const { return feasible() && unmet.empty(); }
  /// `memory budget 1000 B: met, predicted peak 800 B, 2 swaps, 1 recompute` and the lines above, indented.
  std::string report() const;
  /// `no schedule fits in 8 B: %2 mul at (b=0, t=0) needs 12 B at once: ...` (when not feasible).
  std::string infeasibility() const;
};

/// A budget below what any schedule needs (SwapPlan::feasible): the run does not start.
class MemoryBudgetError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

SwapPlan placeSwaps(const Graph& g, const LoopProgram& placed, const SymbolEnv& bounds, int64_t budget);

}  // namespace tempo
