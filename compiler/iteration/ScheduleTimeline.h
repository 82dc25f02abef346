// ScheduleTimeline: a LoopProgram run "on paper" at concrete bounds.
//
// `enumerateSchedule` walks the loop AST at one bound assignment — loop
// bounds evaluated with IndexExpr::evaluate, guards with Condition::holds —
// and returns every event in execution order: each Exec as (node, point) and
// each memory statement (Alloc, Free, SwapOut, SwapIn) with its bytes at
// these bounds. No kernel runs. The iteration-space view steps through this
// sequence, and anything that needs "which instance runs when" at small
// bounds (teaching pictures, order checks) can use it instead of walking the
// AST itself. Throws std::runtime_error past `limit` events.
#pragma once

#include "schedule/LoopAst.h"

#include <cstdint>
#include <vector>

namespace tempo {

struct ScheduleEvent {
  enum class Kind { Exec, Alloc, Free, SwapOut, SwapIn };
  Kind kind = Kind::Exec;
  NodeId node = -1;
  std::vector<int64_t> point;  ///< Exec only: one value per domain dimension
  int64_t bytes = 0;           ///< memory events only
};

/// "exec", "alloc", "free", "swap_out", "swap_in" (the printer's words).
const char* scheduleEventWord(ScheduleEvent::Kind kind);

std::vector<ScheduleEvent> enumerateSchedule(const LoopProgram& program, const SymbolEnv& bounds,
                                             size_t limit = 2'000'000);

}  // namespace tempo
