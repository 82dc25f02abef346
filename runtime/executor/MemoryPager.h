// MemoryPager: keeps a run under its memory budget while it runs, a store at a time.
//
// The budget's plan (SwapPlacement) decides swaps and recomputes ahead of the
// run where it can see them: around top-level statements and in the bodies of
// top-level loops. What it cannot place — stores live inside nested loops, a
// layer's weights between two layers, the point and circular stores of a loop
// body — the pager handles as the run goes, the way DTR (Kirisame et al.)
// evicts at run time: before an exec, the stores it writes and reads are
// brought back from the swap area if they were paged out; before its value
// (or a source's array, or a block store's new block) is written, and before
// a planned swap_in, stores are paged out until the live bytes plus what comes
// in fit the budget. The victim is the least recently used store (DTR's
// heuristic, cost / (bytes x staleness), is staleness alone when the cost of
// bringing a value back is its bytes moved, as for a swap), never one the
// statement uses. Stores that hold one buffer between them (a merge and its
// branch, a reshape and its input: BufferSharing) go out and come back
// together, since one without the other frees nothing. When a statement's own
// stores exceed the budget nothing is left to page out: the pager counts it
// and names the first such statements. The outputs come back at the end of
// the run. Every page-out and page-in is a memory event (page_out, page_in).
#pragma once

#include "memory/MemoryTimeline.h"
#include "executor/MemoryTracker.h"
#include "executor/NodeProgram.h"
#include "executor/SourceArrays.h"
#include "graph/Graph.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tempo {

/// What the pager did in one run.
struct PagingReport {
  int64_t budget = 0;
  struct Counts {
    int64_t out = 0, in = 0;   ///< page-outs and page-ins of the node's store
    int64_t bytesOut = 0;      ///< live bytes those page-outs freed
  };
  std::map<int, Counts> nodes;
  int64_t overBudget = 0;              ///< statements whose own stores did not fit
  std::vector<std::string> overFirst;  ///< the first few of them, with their bytes
  int64_t pageOuts() const;
  int64_t bytesOut() const;
  /// `at run time: 12 page-outs of 3 stores (48 KB freed), ...` and per store, most paged first.
  std::string report(const Graph& g) const;
};

class MemoryPager {
public:
  using Record = std::function<void(MemoryEvent::Kind, int node)>;
  /// `sourceBytes[node]`: a whole-array source's array bytes (0 for other nodes).
  MemoryPager(const Graph& g, const SymbolEnv& bounds, int64_t budget, std::vector<int64_t> sourceBytes,
              StoreTable& stores, SourceArrays& sources, MemoryTracker& tracker, Record record);

  /// Before an exec of `node`: its store and its producers' in memory, with room for a source's array.
  void beforeExec(int node);
  /// Before `value` is written at `point` of `node`'s store: room for what it adds.
  void beforeWrite(int node, const std::vector<int64_t>& point, const Tensor& value);
  /// Before a planned swap_in of `node`: room for what comes back.
  void beforeSwapIn(int node);
  /// At the end of the run: the outputs' stores back in memory.
  void bringInOutputs();

  const PagingReport& report() const { return report_; }

private:
  /// Pages out the least recently used groups but `keep` until `incoming` more bytes fit;
  /// when none is left, counts `what` (the statement) as over the budget.
  void makeRoom(int64_t incoming, const std::vector<int>& keep, const std::string& what);
  void bringIn(int group);
  void pageOut(int group);
  int64_t bytesComingBack(int group) const;
  /// Marks `node`'s group and its producers' as used now.
  void use(int node);

  const Graph& graph_;
  int64_t budget_;
  std::vector<int64_t> sourceBytes_;
  StoreTable& stores_;
  SourceArrays& sources_;
  MemoryTracker& tracker_;
  Record record_;
  std::vector<int> groupOf_;                  ///< per node id: its group (-1 without a store)
  std::vector<std::vector<int>> members_;     ///< per group: its nodes
  std::vector<std::vector<int>> usedBy_;      ///< per node id: the groups an exec of it uses
  std::vector<std::vector<int>> producers_;   ///< per node id: the nodes it reads
  std::vector<int64_t> lastUse_;              ///< per group: the tick it was last used
  std::vector<int> shownAs_;                  ///< per group: the node its page-outs are reported under
  std::vector<bool> pagedOut_;                ///< per group: paged out by the pager, not back yet
  int64_t tick_ = 0;
  PagingReport report_;
};

}  // namespace tempo
