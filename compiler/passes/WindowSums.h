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
//  - a sum over one window of outer products `x^T @ y` (x and y of one row)
//    becomes one matrix product of the windows, `X^T @ Y` with X the window of
//    x as a [W, K] matrix: no [K, N] value per point at all, one GEMM instead
//    of W rank-1 updates.
#pragma once

#include "graph/Graph.h"
#include "pass/Pass.h"

namespace tempo {

/// `id` is a reduce_sum over two or more whole windows: nests it window by window.
bool splitWindowSum(Graph& graph, NodeId id, GraphChange& change);

/// `id` is a reduce_sum over one window of rank-1 matrix products that only it
/// reads: replaces both by one product of the operands' windows.
bool contractOuterProducts(Graph& graph, NodeId id, GraphChange& change);

}  // namespace tempo
