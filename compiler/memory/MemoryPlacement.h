// MemoryPlacement: where each node's store is allocated and freed in the schedule.
//
// A post-pass over the loop AST, after scheduling and store choice (the
// StoragePlan's kinds): every store gets an `alloc` right before the first
// statement that uses it (writes it or reads it) and a `free` right after the
// last statement that uses it — "free after the last reader" — in one chosen
// statement list (the placement level):
//  - a whole store lives at the top level, or inside the loops around all its
//    uses that each pin one of its dims (every write and every read of
//    coordinate b happens in iteration b): attention's k over (b, t), read as
//    k[b, 0:t+1], lives inside the loop over b, never inside the loop over t;
//  - a point store lives in the innermost statement list that holds all its
//    writes and reads (the planner proved every read is of the point written in
//    the same iteration), so it is allocated and freed once per iteration;
//  - a circular store along d lives in the statement list that holds the loop
//    over d (outer loops run over its other dims, which its reads do not cross);
//  - graph outputs are never freed (the outputs are read after the run).
// Loaded and initialised sources (whose whole array is built on the first
// exec) and the domain-less sources hoisted before the loops follow the
// whole-store rule: freed after the top-level statement holding their last reader. The bytes of
// each statement are a StoreBytes over the bounds and the loop variables in
// scope (dims a loop pins are substituted, the others summed or maximised).
// The store kinds come from the runtime's planner, which is why this pass
// lives in runtime/executor and not in compiler/schedule.
#pragma once

#include "memory/StoragePlan.h"
#include "graph/Graph.h"
#include "schedule/LoopAst.h"

#include <map>
#include <string>

namespace tempo {

/// `program` with Alloc/Free statements for every executed node (any memory
/// statements already in `program` are dropped first).
LoopProgram placeMemory(const Graph& g, const LoopProgram& program, const StoragePlan& stores);

/// The same with the planner's store kinds (chooseStores): what `tempo schedule` prints.
LoopProgram placeMemory(const Graph& g, const LoopProgram& program);

/// `program` without its Alloc, Free, SwapOut and SwapIn statements.
LoopProgram withoutMemoryStatements(const LoopProgram& program);

/// `program` without its Free statements (every store lives to the end: the "never free" baseline).
LoopProgram withoutFrees(const LoopProgram& program);

/// Bytes a store of kind `spec` holds for `n` when the dims in `pinned` are
/// fixed to the given expressions (loop variables) and the others range over
/// their bounds; a loaded or initialised source holds its whole array (the
/// values in its store are windows of it).
StoreBytes storeBytes(const Graph& g, const Node& n, const StoreSpec& spec,
                      const std::map<std::string, IndexExpr>& pinned = {});

}  // namespace tempo
