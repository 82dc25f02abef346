// RandomProgram: a generator of random, well-typed `.tpo` programs for differential and
// checker tests. Each seed deterministically yields one program (a splitmix64 stream, no
// std distributions, so the text is the same on every platform) over 1-3 dimensions with small
// `set` defaults, built only from file-free sources (hash, normal, uniform, zeros, ones) and
// correct by construction: every read stays inside the producer's domain given the branch
// regions it sits in, every recurrence goes strictly into the past or the future (1-D past and
// future recurrences, 2-D recurrences, a GPT-like cycle through a let, stencils whose
// branches make t-1 and t+1 valid), every shape matches, values stay bounded (tanh/sigmoid
// after sums, small scales, safe divisors) and every output has a static spatial shape.
// Windows (growing, sliding, future ranges, full and exclusive slices) are always consumed
// by a reduction or by softmax-attention/matmul before they reach a static shape. Alongside
// the text, the generator reports the outputs (domain bounds and spatial shape) and how often
// each feature was used, so tests can check shapes and coverage without parsing.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tempo::testing {

/// What the generator can put into a program; RandomProgramOptions switches families off.
enum class RandomFeature {
  PastRecurrence,     ///< h[t] reads h[t-1] (or a clamped / windowed earlier point)
  FutureRecurrence,   ///< g[t] reads g[t+1] after a g[T-1] branch
  TwoDimRecurrence,   ///< h[i, j] reads h[i-1, ...] and h[i, j-1] (or j+1)
  LetCycle,           ///< x[l, t] = y[l-1, t] with the let y reading x (GPT-style)
  Stencil,            ///< branches at 0 and T-1, then reads of x[t-1] and x[t+1]
  ShiftedRead,        ///< a non-recurrent read at t-1 / t+1 allowed by a branch region
  ConstIndex,         ///< x[0], x[T-1], x[T//2]
  Clamp,              ///< x[max(0, t-2)], x[min(T-1, t+1)]
  FloorMod,           ///< x[t % 2], x[t // 2], x[2 * (t // 2)]
  GrowingWindow,      ///< x[0:t+1]
  SlidingWindow,      ///< x[max(0, t-W+1):t+1]
  FutureRange,        ///< x[t:T]
  FullSlice,          ///< x[0:T]
  ExclusiveWindow,    ///< x[0:t] or x[t+1:T] (possibly empty, only summed)
  SelfWindow,         ///< a recurrence reading a window of its own past or future
  Matmul,
  Softmax,
  Attention,          ///< softmax(K @ q, dim=0) @ K over a window
  Reduction,          ///< sum / mean / max over a static dimension
  Reshape,
  Transpose,
  Permute,
  Cast,
  Where,
  IndexValue,         ///< a dimension used as a number, (t + 1) * 0.25
  Elementwise,        ///< tanh, sigmoid, relu, abs, exp, maximum, minimum, safe division
  IntOrBoolSource,    ///< an i32 or bool input, read through cast or where
  NamedRead,          ///< x[t=t-1]: the unnamed dims at the same point
  BareRead,           ///< x alone: the same point
  Concat,             ///< cat(a, b, dim=...)
  Expand,             ///< expand(x, shape)
  KeepDim,            ///< a reduction with keepdim=true
  LogSoftmax,
  SourceOutput,       ///< `out x` of an input or param
  MutualRecurrence,   ///< h[t] reads g[t-1] while g[t] reads h[t]
  TwoStepBase,        ///< branches at 0 and 1, then h[t-2] (or T-1, T-2 and g[t+2])
  Logical,            ///< a condition combined with and / or / not
  SpatialIndex,       ///< x[t; 2] or x[t; 1:3]: an index or slice of a spatial dimension
  ArgMax,             ///< cast(argmax(w, dim=...), f32) of a param's values
  Gather,             ///< gather(w, min(t, 3)) or gather(w, 2): a row of a param by an integer id
  TopK,               ///< topk(w, 3) of a param's values (a gather of its argtopk; per row, a take_along)
  Until,              ///< `dim t < T until stop`: the first dimension ends where a hashed condition over it holds
  Count
};

/// Stable lower-case name of a feature ("past_recurrence").
const char* featureName(RandomFeature f);

struct RandomProgramOptions {
  int minDims = 1, maxDims = 3;
  int minBound = 2, maxBound = 6;      ///< range of the `set` defaults
  int maxSpatial = 4;                  ///< largest spatial size (shapes have rank <= 2)
  int minStatements = 3, maxStatements = 7;  ///< lets and recurrent tensors in the body
  int maxDepth = 3;                    ///< nesting depth of generated expressions
  bool recurrences = true;             ///< past / future / 2-D recurrences, let cycles, stencils
  bool windows = true;                 ///< slice reads
  bool matmul = true;                  ///< matmul, softmax and attention
  bool movement = true;                ///< reshape, transpose, permute
  bool casts = true;                   ///< cast, i32 / bool / f64 sources
  bool topk = true;                    ///< topk(w, k) where an argmax could go
};

/// One output of a generated program: its array is (bounds of `domainBounds`..., `spatial`...).
struct GeneratedOutput {
  std::string name;
  std::vector<std::string> domainBounds;  ///< bound names, in domain order
  std::vector<int64_t> spatial;
};

struct GeneratedProgram {
  std::string text;
  std::vector<GeneratedOutput> outputs;
  std::map<std::string, int64_t> boundDefaults;   ///< the `set` values
  std::array<int, static_cast<size_t>(RandomFeature::Count)> features{};  ///< uses per feature
  int uses(RandomFeature f) const { return features[static_cast<size_t>(f)]; }
};

/// The program for `seed` together with its report.
GeneratedProgram generateRandomProgramWithReport(uint64_t seed, const RandomProgramOptions& options = {});

/// The `.tpo` text for `seed` (deterministic).
std::string generateRandomProgram(uint64_t seed, const RandomProgramOptions& options = {});

}  // namespace tempo::testing
