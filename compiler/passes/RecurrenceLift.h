// RecurrenceLift: a running sum that is only read at its end becomes one reduction.
//
// The front end lowers `acc[0] = x[0]; acc[t] = acc[t-1] + x[t]` into a merge
// of two branches (x[0] where t == 0, then add(acc[t-1], x[t])): a sequential
// recurrence that the scheduler must walk one step at a time. When every
// reader of acc reads it only at its last element acc[T-1], the whole
// recurrence equals sum(x[0:T], dim=0), one reduction over a window that has
// no loop-carried dependence at all. The suffix mirror (acc[T-1] = x[T-1];
// acc[t] = acc[t+1] + x[t], read only at acc[0]) lifts the same way, and any
// other dimensions of the domain (acc over (b, t)) are carried along. A
// running sum of a value computed step by step along t (a recurrence's state,
// or a value one feeds at its own step: stepwiseOrder) stays: the loop is
// sequential anyway, and the sum would need the value's whole history stored
// (window-sums does the inverse). A
// running sum read at t (every prefix) stays: that would need a cumulative-sum
// op, which the SDG does not have. This is a structural rule of the
// algebraic-simplification table (it builds a node instead of forwarding one).
#pragma once

#include "pass/Pass.h"

namespace tempo {

/// When `id` is the merge of a liftable running sum, replaces it (and its add)
/// by a reduce_sum over the addend's window and redirects every reader to it;
/// returns true if it did. Reports the nodes it added, removed and rewrote.
bool liftRunningSum(Graph& graph, NodeId id, GraphChange& change);

}  // namespace tempo
