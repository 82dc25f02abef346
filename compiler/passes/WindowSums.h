// WindowSums: sums over windows of per-point values, rewritten so the values need not be stored.
//
// Autodiff sums a param's gradient over every point that read it:
// `dW = sum(outer[i, 0:T, 0:B], dims 0 and 1)` where `outer = x[i, t, b]^T @ g[i, t, b]`
// is a [K, N] matrix at every point. Kept as written, all T·B matrices are
// computed and stored before the sum (REINFORCE's policy: 16 KB per point,
// 262 MB per iteration at B = 64, T = 250). Two structural rules of the
// algebraic-simplification table fix that, exactly up to the order of the
// additions:
//  - a sum over several whole windows becomes one sum per window, nested:
//    `sum_t (sum_b v[i, t, b])`, the inner over (i, t), so each step's values
//    are summed as soon as they exist;
//  - a sum over windows of a merge whose conditions do not mention the
//    windows' dims is a merge of the branches' sums (a zero branch stays zero),
//    so the other rules see through autodiff's `merge(x^T @ g if t > 0, 0)`;
//  - a sum over one window of outer products `x^T @ y` (x and y of one row)
//    becomes one matrix product of the windows, `X^T @ Y` with X the window of
//    x as a [W, K] matrix: no [K, N] value per point at all, one GEMM instead
//    of W rank-1 updates;
//  - a sum over a fixed window `0:T` or `0:min(c, T)` of a value computed one t
//    after the other (decode's `sum(y[b, L-1, 0:min(64, T)])`, y a recurrence's
//    value; or a weight gradient's product at step t, fed by the backward
//    recurrence at t) becomes a running sum along t in the order the values
//    come, read at the last of them (T - 1 forwards, 0 backwards for a whole
//    window): the loop over t is sequential anyway, and the values need no
//    store of T steps (REINFORCE's [64, 64] gradient per step: 4 MB per
//    iteration at T = 250, and a stacked copy of it for the sum). The inverse
//    of recurrence-lift, which lifts running sums of values no recurrence
//    feeds (a reduction then runs in parallel).
#pragma once

#include "graph/Graph.h"
#include "pass/Pass.h"

namespace tempo {

/// `id` is a reduce_sum over two or more whole windows: nests it window by window.
bool splitWindowSum(Graph& graph, NodeId id, GraphChange& change);

/// `id` is a reduce_sum over a window from 0 to the end (or to min(c, end)) of
/// a value computed step by step along the window's dimension (a recurrence's
/// value, or one a recurrence feeds at its own step): replaces it by a running
/// sum along that dimension in the recurrence's direction, read at its last
/// coordinate, so the value need not be kept for the whole window.
bool accumulateWindowSum(Graph& graph, NodeId id, GraphChange& change);

/// `id` is a reduce_sum over windows of a merge whose branches the window does not choose (their
/// conditions do not mention the window's dims: every point of a window takes the same branch):
/// replaces both by a merge of the branches' sums (a constant zero branch stays the zero), so the
/// rules above see the sums of the branches themselves (autodiff's weight gradient at t > 0,
/// `merge(x^T @ g if t > 0, 0 if t == 0)`, summed over the batch).
bool sumEachBranch(Graph& graph, NodeId id, GraphChange& change);

/// `id` is a reduce_sum over one window of rank-1 matrix products that only it
/// reads: replaces both by one product of the operands' windows.
bool contractOuterProducts(Graph& graph, NodeId id, GraphChange& change);

}  // namespace tempo
