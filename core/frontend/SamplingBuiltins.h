// SamplingBuiltins: random draws inside expressions, and one_hot.
//
// Policy-gradient programs sample actions and noise at every point of a
// domain (`a = categorical(logits, seed=3)` inside a tensor over (i, b, t)).
// A draw is a random source node over the *site's* domain — the same
// whole-array sources (runtime/init) that initialise params, so both engines
// and every pass handle it unchanged, and the draw at a point depends only on
// the seed and the point's flat index. Everything else is lowered to existing
// primitives, so no new op is needed:
//
// - `categorical(logits, seed=S)`: one uniform u per point and per leading
//   element; the sample is the number of the first K-1 cumulative
//   probabilities below u, an i64 in [0, K). Cumulative probabilities are
//   softmax(logits) @ U with U[j, k] = (j <= k), a constant built from ones and
//   zeros by cat/expand/reshape/slice (see upperTriangle in the .cpp).
// - `normal(mean=, std=, seed=, shape=)` and `uniform(low=, high=, seed=, shape=)`:
//   a standard draw scaled and shifted; tensor arguments broadcast.
// - `one_hot(a, K)`: f32[..., K] with a 1 where the last index equals a.
//
// Samples are not differentiable: categorical's result is an integer, and the
// normal/uniform draws are detached (grad() passes nothing through them).
#pragma once

#include "frontend/CallArgs.h"

namespace tempo {

Value categoricalFn(CallArgs& a);
Value normalFn(CallArgs& a);
Value uniformFn(CallArgs& a);
Value oneHotFn(CallArgs& a);

}  // namespace tempo
