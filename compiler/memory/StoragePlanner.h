// StoragePlanner: picks the smallest safe tensor store for every node.
//
// From a node's readers (its users' edges) and where the schedule executes
// the node and its readers, the planner chooses, conservatively:
//  - point: every read is the identity point, the node is not an output, and
//    each reader's exec is preceded, in the same loop iteration (same chain of
//    enclosing loops), by an exec of the node at the same point expressions
//    that runs whenever the reader reads (its If guards are the reader's, or
//    isl proves them implied by the reader's guards, loop ranges and edge
//    condition);
//  - circular(d, K): every read along d reads only coordinates `d - k` with
//    0 <= k < K (points `t - 1`, windows `max(0, t - W + 1):t + 1`, K then
//    an expression of bounds such as W), or, from a reader that runs after
//    the loop along d (in the same iteration of the loops around it), one of
//    its K last coordinates (`y[T - 1]`, isl checks `floor(t / 2)`); the other
//    dims may be read anyhow, a slot keeps their whole extent: a training
//    step's values over (i, b, t), summed over b and t at the same i, keep
//    one iteration), the node and all its readers execute inside one forward
//    loop whose variable is their coordinate along d (a backward loop with
//    look-ahead reads `d + k` works the same way), and every loop around that
//    one runs over another dim of the node, for it and its readers alike,
//    read there at the identity (else the loop along d runs again and
//    overwrites the window), so those dims keep one coordinate at a time;
//    of the dims that qualify, the innermost loop's wins; `in one buffer`
//    (2K lanes, each value written twice, any window of at most K read in
//    place) when every read is a window along d by a kernel that makes a fresh
//    value and a window holds 64 KiB or more at the default bounds;
//  - whole otherwise (outputs, growing windows, anything not recognised).
// A wrong plan cannot give wrong numbers: the stores check every read and
// raise an ExecError. Each spec carries its predicted bytes at the given
// bound values (element bytes x points held; the whole array of a loaded or
// initialised source, whose store holds windows of it) and the reason for the choice.
#pragma once

#include "memory/StoragePlan.h"
#include "graph/Graph.h"
#include "schedule/LoopAst.h"

#include <string>

namespace tempo {

StoragePlan planStorage(const Graph& g, const LoopProgram& program, const SymbolEnv& bounds);

/// The store kinds alone (predicted bytes 0): they depend on the schedule, not on bound values.
StoragePlan chooseStores(const Graph& g, const LoopProgram& program);

/// A plan where every node is whole, with predicted bytes (the baseline).
StoragePlan wholeStoragePlan(const Graph& g, const SymbolEnv& bounds);

/// Bytes a store of kind `spec` holds for node `n` at most, at `bounds`.
int64_t predictStoreBytes(const Graph& g, const Node& n, const StoreSpec& spec, const SymbolEnv& bounds);

/// Sum of the predicted bytes of a plan.
int64_t predictedTotalBytes(const StoragePlan& plan);

/// One line per node: `%4 h: circular(t, 2)  1024 B  -- reason`.
std::string printStoragePlan(const Graph& g, const StoragePlan& plan);

}  // namespace tempo
