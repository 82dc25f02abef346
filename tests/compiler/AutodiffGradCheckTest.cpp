// Gradient checks: for every differentiable primitive, every temporal read
// form and coupled recurrences (LSTM-like), the SDG autodiff agrees with central finite differences in f64 (see
// AutodiffTestUtil.h for the step and the tolerance), boundary points included.
#include "AutodiffTestUtil.h"

namespace tempo::testing {
namespace {

struct GradCase {
  std::string name;
  std::string program;                  ///< must define `loss`
  std::vector<std::string> targets;
};

std::ostream& operator<<(std::ostream& os, const GradCase& c) { return os << c.name; }

const std::string kTime = "dim t < T\nset T = 5\nconst W = 3\n";
const std::string kBatchTime = "dim b < B\ndim t < T\nset B = 2, T = 4\n";

std::vector<GradCase> primitiveCases() {
  return {
      {"unary",
       "dim t < T\nset T = 3\n"
       "param x : f64[4] over (t) = normal(seed=1)\n"
       "param y : f64[4] = uniform(seed=2, low=0.5, high=1.5)\n"
       "a = exp(x) + log(y) + sqrt(y) + tanh(x) + sigmoid(x) + relu(x) + abs(x) - x\n"
       "out loss = sum(a * a)\n",
       {"x", "y"}},
      {"trigonometric",
       "dim t < T\nset T = 3\n"
       "param x : f64[4] over (t) = normal(seed=1)\n"
       "param y : f64[4] = normal(seed=2)\n"
       "a = sin(x) * cos(y) + cos(x * y) - sin(2.0 * y)\n"
       "out loss = sum(a * a)\n",
       {"x", "y"}},
      // The sample is a constant of the logits (no gradient through it); the log-probability
      // of the drawn class is differentiable. A perturbation of 1e-5 moves no draw across a
      // class boundary here (the draws are the same at z +- h as at z).
      {"sampled_log_probability",
       "dim t < T\nset T = 6\n"
       "param z : f64[2, 3] over (t) = normal(seed=1)\n"
       "param w : f64[2] over (t) = normal(seed=2)\n"
       "a = categorical(z, seed=5)\n"
       "logp = sum(log_softmax(z) * cast(one_hot(a, 3), f64), dim=-1)\n"
       "out loss = sum(logp * w)\n",
       {"z", "w"}},
      {"binary_broadcast",
       "param a : f64[3, 4] = normal(seed=1)\n"
       "param b : f64[4] = uniform(seed=2, low=0.5, high=1.5)\n"
       "param c : f64[3, 1] = uniform(seed=3, low=0.5, high=1.5)\n"
       "out loss = sum((a + b) * c - a / b + pow(c, b) + maximum(a, b) + minimum(a, c) - (b - c))\n",
       {"a", "b", "c"}},
      {"where",
       "param a : f64[3, 4] = normal(seed=1)\n"
       "param b : f64[4] = normal(seed=2)\n"
       "out loss = sum(where(a > b, a * b, b - a * a))\n",
       {"a", "b"}},
      {"matmul",
       "param A : f64[3, 4] = normal(seed=1)\n"
       "param B : f64[4, 2] = normal(seed=2)\n"
       "param v : f64[4] = normal(seed=3)\n"
       "param w : f64[3] = normal(seed=4)\n"
       "param C : f64[2, 3, 4] = normal(seed=5)\n"
       "out loss = sum(tanh(A @ B)) + sum(sigmoid(A @ v)) + sum(tanh(w @ A)) + sum(tanh(C @ B)) + "
       "tanh(v @ v) + sum(tanh(C @ v))\n",
       {"A", "B", "v", "w", "C"}},
      {"reduce_and_movement",
       "param a : f64[3, 4] = normal(seed=1)\n"
       "param c : f64[4, 3] = normal(seed=2)\n"
       "s = sum(a, dim=0, keepdim=true)\n"
       "m = max(a, dim=1)\n"
       "r = reshape(a, (2, 6))\n"
       "p = permute(a, (1, 0)) * c\n"
       "e = expand(reshape(m, (3, 1)), (3, 4))\n"
       "k = cat(a, transpose(c), dim=0)\n"
       "out loss = sum(tanh(s * e)) + sum(r * r) + sum(sigmoid(p)) + sum(tanh(k) * k) + "
       "sum(softmax(a, dim=1) * e) + sum(exp(log_softmax(k, dim=0)) * k)\n",
       {"a", "c"}},
  };
}

/// Spatial indices after ';' (their gradient is the slice rule's padding).
GradCase spatialIndexCase() {
  return {"spatial_indices",
          "dim t < T\nset T = 3\nparam x : f64[6] over (t) = normal(seed=1)\nparam W : f64[2, 3] = normal(seed=2)\n"
          "a = tanh(x[; 0:3] * x[; 3:] + W[; 1]) * x[; -1]\n"
          "out loss = sum(a * a) + sum(W[; 0, 1:] * x[; 1:3])\n",
          {"x", "W"}};
}

std::vector<GradCase> temporalCases() {
  const std::string x = "param x : f64[2] over (t) = normal(seed=1)\nparam v : f64[2] = normal(seed=2)\n";
  return {
      {"past_shift_recurrence",
       kTime + x + "y : f64[2] over (t)\ny[0] = tanh(x[0])\ny[t] = tanh(x[t] * y[t-1] + x[t-1] * v)\n"
                   "out loss = sum(y * y)\n",
       {"x", "v"}},
      {"future_shift_recurrence",
       kTime + x + "z : f64[2] over (t)\nz[T-1] = sigmoid(x[T-1])\nz[t] = tanh(z[t+1] * x[t] + x[t+1])\n"
                   "out loss = sum(z * v)\n",
       {"x", "v"}},
      {"clamped_points",
       kTime + x + "a = x[min(t+1, T-1)] * x[max(t-1, 0)] + x[max(0, t-2)]\nout loss = sum(tanh(a) * v)\n",
       {"x", "v"}},
      {"constant_indices",
       kTime + x + "a = tanh(x[T-1] * x) + x[0] * v\nout loss = sum(a * a)\n",
       {"x", "v"}},
      {"strided_points",
       kTime + x + "a = x[2 * (t // 2)] * x[t % 2]\nout loss = sum(tanh(a))\n",
       {"x"}},
      {"constant_slice",
       kTime + x + "a = sum(tanh(x[0:T]), dim=0)\nout loss = sum(a * x)\n",
       {"x"}},
      {"partial_constant_slice",
       kTime + x + "a = tanh(sum(x[1:T], dim=0) * x[0])\nout loss = sum(a * x)\n",
       {"x"}},
      {"slice_inside_a_branch",
       kTime + x + "y : f64[2] over (t)\ny[0] = tanh(x[0])\ny[t] = tanh(sum(x[t-1:t+1], dim=0) * y[t-1])\n"
                   "out loss = sum(y * v)\n",
       {"x", "v"}},
      {"growing_window",
       kTime + x + "a = sum(x[0:t+1] * x[0:t+1], dim=0)\nout loss = sum(tanh(a) * v)\n",
       {"x", "v"}},
      {"sliding_window",
       kTime + x + "a = sum(tanh(x[max(0, t-W+1):t+1]), dim=0)\nout loss = sum(a * a)\n",
       {"x"}},
      {"future_range",
       kTime + x + "a = mean(x[t:T], dim=0)\nout loss = sum(sigmoid(a) * x)\n",
       {"x"}},
      {"growing_window_in_a_recurrence",  // a running sum from the first reader on
       kTime + x + "y : f64[2] over (t)\ny[0] = tanh(x[0])\ny[t] = tanh(x[t] + mean(y[0:t], dim=0) * v)\n"
                   "out loss = sum(y * y)\n",
       {"x", "v"}},
      {"future_window_in_a_recurrence",  // a running sum up to the last reader
       kTime + x + "z : f64[2] over (t)\nz[T-1] = tanh(x[T-1])\nz[t] = tanh(x[t] * mean(z[t+1:T], dim=0) + v)\n"
                   "out loss = sum(z * x)\n",
       {"x", "v"}},
      {"floor_division_in_a_recurrence",  // readers of q: t in {2q, 2q + 1}, first reader 2q
       kTime + x + "y : f64[2] over (t)\ny[0] = tanh(x[0])\ny[t] = sigmoid(y[t // 2] + x[t] * v)\n"
                   "out loss = sum(y * y)\n",
       {"x", "v"}},
      {"centred_window",
       kTime + x + "a = sum(tanh(x[max(0, t-1):min(t+2, T)]), dim=0)\nout loss = sum(a * a * v)\n",
       {"x", "v"}},
      {"windows_along_two_dimensions",  // two free consumer dimensions: no running sum
       kBatchTime + "param x : f64[2] over (b, t) = normal(seed=1)\n"
                    "a = sum(sum(tanh(x[0:b+1, t:T]), dim=0), dim=0)\nout loss = sum(a * a)\n",
       {"x"}},
      {"broadcast_over_time",
       kTime + x + "a = tanh(x * v)\nout loss = sum(a)\n",
       {"x", "v"}},
      {"batch_time_shift",
       kBatchTime + "param x : f64[3] over (b, t) = normal(seed=1)\n"
                    "y = tanh(x[b, max(t-1, 0)] + x[b, min(t+1, T-1)] * x[0, t])\n"
                    "out loss = sum(y * y)\n",
       {"x"}},
  };
}

/// Recurrences that read each other (issue 14): the base case of one reads another at its
/// first (or last) step, and one may read another's fixed step from every step.
std::vector<GradCase> coupledCases() {
  const std::string xw = "param x : f64[3] over (t) = normal(seed=1)\nparam M : f64[3, 3] = normal(seed=2, std=0.3)\n";
  return {
      {"two_tensors_into_the_past",  // the example: p[0] reads q[0]
       kTime + xw + "p : f64[3] over (t)\nq : f64[3] over (t)\n"
                    "q[0] = tanh(x[0] @ M)\nq[t] = q[t-1] * 0.5 + tanh(x[t] @ M + p[t-1])\n"
                    "p[0] = tanh(q[0])\np[t] = tanh(q[t]) * p[t-1]\n"
                    "out loss = sum(sum(p[0:T], dim=0), dim=0)\n",
       {"x", "M"}},
      {"three_tensors_into_the_future",
       kTime + xw + "a : f64[3] over (t)\nb : f64[3] over (t)\nc : f64[3] over (t)\n"
                    "a[T-1] = tanh(x[T-1] @ M)\nb[T-1] = sin(a[T-1])\nc[T-1] = a[T-1] * b[T-1]\n"
                    "a[t] = tanh(x[t] @ M + c[t+1])\nb[t] = b[t+1] * 0.5 + a[t] * a[t]\nc[t] = tanh(b[t] + a[t+1])\n"
                    "out loss = sum(sum(c[0:T] * b[0:T], dim=0), dim=0)\n",
       {"x", "M"}},
      {"lstm",
       kBatchTime + "param x : f64[2] over (b, t) = normal(seed=1)\n"
                    "param Wi : f64[2, 2] = normal(seed=2, std=0.5)\nparam Wf : f64[2, 2] = normal(seed=3, std=0.5)\n"
                    "param Wg : f64[2, 2] = normal(seed=4, std=0.5)\nparam Wo : f64[2, 2] = normal(seed=5, std=0.5)\n"
                    "param Uf : f64[2, 2] = normal(seed=6, std=0.5)\nparam Ug : f64[2, 2] = normal(seed=7, std=0.5)\n"
                    "h : f64[2] over (b, t)\nc : f64[2] over (b, t)\n"
                    "c[b, 0] = sigmoid(x[b, 0] @ Wi) * tanh(x[b, 0] @ Wg)\n"
                    "h[b, 0] = sigmoid(x[b, 0] @ Wo) * tanh(c[b, 0])\n"
                    "c[b, t] = sigmoid(x[b, t] @ Wf + h[b, t-1] @ Uf) * c[b, t-1] + sigmoid(x[b, t] @ Wi) * "
                    "tanh(x[b, t] @ Wg + h[b, t-1] @ Ug)\n"
                    "h[b, t] = sigmoid(x[b, t] @ Wo) * tanh(c[b, t])\n"
                    "out loss = sum(h * h)\n",
       {"x", "Wi", "Uf", "Ug"}},
      {"first_step_read_from_every_step",  // q reads p[0] at every t: a running sum from t to the end
       kTime + xw + "p : f64[3] over (t)\nq : f64[3] over (t)\n"
                    "p[0] = tanh(x[0] @ M)\np[t] = p[t-1] * tanh(q[t-1])\n"
                    "q[0] = x[0]\nq[t] = q[t-1] * 0.5 + p[0]\n"
                    "out loss = sum(sum(p[0:T], dim=0), dim=0)\n",
       {"x", "M"}},
      {"last_step_read_from_every_step",  // and into the future: a running sum from the start to t
       kTime + xw + "p : f64[3] over (t)\nq : f64[3] over (t)\n"
                    "p[T-1] = tanh(x[T-1] @ M)\np[t] = p[t+1] * tanh(q[t+1])\n"
                    "q[T-1] = x[T-1]\nq[t] = q[t+1] * 0.5 + p[T-1]\n"
                    "out loss = sum(sum(p[0:T] * x[0:T], dim=0), dim=0)\n",
       {"x", "M"}},
  };
}

class PrimitiveGradients : public ::testing::TestWithParam<GradCase> {};
class TemporalReadGradients : public ::testing::TestWithParam<GradCase> {};

TEST_P(PrimitiveGradients, MatchFiniteDifferences) {
  const GradCase& c = GetParam();
  expectGradientsMatchFiniteDifferences(c.program, "loss", c.targets, c.name);
}

TEST_P(TemporalReadGradients, MatchFiniteDifferences) {
  const GradCase& c = GetParam();
  expectGradientsMatchFiniteDifferences(c.program, "loss", c.targets, c.name);
}

class CoupledRecurrenceGradients : public ::testing::TestWithParam<GradCase> {};

TEST_P(CoupledRecurrenceGradients, MatchFiniteDifferences) {
  const GradCase& c = GetParam();
  expectGradientsMatchFiniteDifferences(c.program, "loss", c.targets, c.name);
}

std::string caseName(const ::testing::TestParamInfo<GradCase>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(Autodiff, PrimitiveGradients, ::testing::ValuesIn(primitiveCases()), caseName);
INSTANTIATE_TEST_SUITE_P(Autodiff, TemporalReadGradients, ::testing::ValuesIn(temporalCases()), caseName);
INSTANTIATE_TEST_SUITE_P(Autodiff, CoupledRecurrenceGradients, ::testing::ValuesIn(coupledCases()), caseName);

TEST(AutodiffSpatialIndex, SlicesAndPointsMatchFiniteDifferences) {
  GradCase c = spatialIndexCase();
  expectGradientsMatchFiniteDifferences(c.program, "loss", c.targets, c.name);
}

// gather's gradient is a scatter-add: an embedding row picked at several steps (a
// repeated id) accumulates every step's gradient; a column gather along dim 1 and a
// gather of a gathered value (scatter-add's own gradient is a gather).
TEST(AutodiffGather, EmbeddingsAndColumnsMatchFiniteDifferences) {
  expectGradientsMatchFiniteDifferences(
      "dim t < T\nset T = 4\nconst V = 5, D = 3\n"
      "param E : f64[V, D] = normal(seed=1)\n"
      "input tok : i64[] over (t) = hash(key=3, scale=2.0)\n"
      "ids = cast(abs(tok), i64)\n"
      "h : f64[D] over (t)\n"
      "h[0] = tanh(gather(E, ids[0]))\n"
      "h[t] = tanh(h[t-1] * gather(E, ids) + gather(gather(E, cat(reshape(ids, (1,)), reshape(ids, (1,)), dim=0)), ids))\n"
      "out loss = sum(h * h) + sum(gather(E, cast(minimum(ids, 2), i32), dim=1))\n",
      "loss", {"E"}, "gather");
}

// take_along's gradient is a scatter_along_add: topk of a matrix's rows (per row, the two
// largest), a take_along with a repeated id in a row, and one whose ids vary with t.
TEST(AutodiffTakeAlong, TopkOfRowsMatchesFiniteDifferences) {
  expectGradientsMatchFiniteDifferences(
      "dim t < T\nset T = 3\nconst V = 5\n"
      "param W : f64[3, V] = normal(seed=1)\n"
      "input x : f64[3] over (t) = normal(seed=2)\n"
      "input tok : i64[] over (t) = hash(key=3, scale=2.0)\n"
      "logits = reshape(x, (3, 1)) * W\n"
      "ids = expand(reshape(cast(abs(tok), i64), (1, 1)), (3, 2))\n"
      "out loss = sum(topk(logits, 2) * topk(logits, 2)) + sum(take_along(logits, ids, dim=1)) + "
      "sum(take_along(W, expand(reshape(cast(abs(tok), i64), (1, 1)), (1, V)) * 0 + 1, dim=0))\n",
      "loss", {"W"}, "take_along");
}

TEST(AutodiffRnn, BackpropagationThroughTimeMatchesFiniteDifferences) {
  const std::string rnn =
      "dim b < B\ndim t < T\nset B = 2, T = 4\nconst IN = 3, H = 2\n"
      "input x : f64[IN] over (b, t) = normal(seed=1)\n"
      "param W : f64[IN, H] = normal(seed=2, std=0.5)\n"
      "param U : f64[H, H] = normal(seed=3, std=0.5)\n"
      "h : f64[H] over (b, t)\n"
      "h[b, 0] = tanh(x[b, 0] @ W)\n"
      "h[b, t] = tanh(x[b, t] @ W + h[b, t-1] @ U)\n"
      "out loss = sum(h)\n";
  expectGradientsMatchFiniteDifferences(rnn, "loss", {"W", "U", "x"}, "rnn");
}

}  // namespace
}  // namespace tempo::testing
