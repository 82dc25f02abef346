// RunDiff: two stored runs compared node by node and line by line.
//
// Nodes are matched by what they are (op, name and source text: StoredNode's
// matchKey), not by id, and source lines by their text, so runs of a program
// edited in between still line up; a node or line found in one run only is
// listed as new or gone. A row regressed when its time grew by more than the
// relative threshold *and* by more than `minTimeNs` (run-to-run noise on this
// kind of machine is ±30% for microsecond-scale statements: a relative
// threshold alone would flag every run), or when its measured peak bytes grew
// by more than the threshold (bytes are exact, not noisy). The whole run's
// wall time and measured peak are compared the same way. `tempo runs diff`
// prints the table and exits 1 when anything regressed.
#pragma once

#include "runstore/RunStore.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tempo {

struct RunDiffOptions {
  double threshold = 0.05;           ///< relative growth that counts (0.05 = 5%)
  int64_t minTimeNs = 1'000'000;     ///< and the least absolute growth of a time that counts
};

struct RunDiffRow {
  std::string what;           ///< a node's label (as in run B when in both) or `line N: text`
  bool inA = false, inB = false;
  int64_t aNs = 0, bNs = 0;   ///< total time
  int64_t aBytes = 0, bBytes = 0;  ///< nodes: measured peak bytes; lines: 0
  bool regressed = false;
  std::string why;            ///< `time +35% (+2.1 ms)`, `peak +1.0 MiB (+12%)`, `new, 3.2 ms`
};

struct RunDiff {
  StoredRun a, b;
  RunDiffRow run;                  ///< the whole run: wall time and measured peak
  std::vector<RunDiffRow> nodes;   ///< by how much the time grew, largest first
  std::vector<RunDiffRow> lines;
  std::vector<std::string> notes;  ///< the programs or bounds differ, a run did not finish, ...
  bool regressed() const;
};

/// Throws RunStoreError when a run is missing.
RunDiff diffRuns(RunStore& store, int64_t a, int64_t b, const RunDiffOptions& options);

/// The table `tempo runs diff` prints (`top` rows per table; regressions are always shown).
std::string printRunDiff(const RunDiff& d, const RunDiffOptions& options, size_t top);

}  // namespace tempo
