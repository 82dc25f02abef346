// WavefrontProgram: a small 2-D recurrence for the schedule transform tests.
//
// a[i, j] reads its north and west neighbours (a[i-1, j], a[i, j-1]), so
// interchanging i and j is legal, a skew of j by i then an interchange gives
// the wavefront loops, and reversing either dimension breaks dependences; a row
// sum over j runs after the nest. Used by the compiler's transform tests and the
// studio's schedule-view tests, compiled from this text.
#pragma once

namespace tempo::testing {

inline constexpr const char* kWavefrontProgram = R"(dim i < N
dim j < M
set N = 4, M = 5
input x : f32 over (i, j) = normal(seed=3, std=1.0)
a : f32 over (i, j)
a[0, 0] = x[0, 0]
a[0, j] = a[0, j-1] + x[0, j]
a[i, 0] = a[i-1, 0] * 0.5 + x[i, 0]
a[i, j] = a[i-1, j] * 0.5 + a[i, j-1] * 0.25 + x[i, j]
out rows = sum(a[i, 0:M], dim=0)
out a
)";

}  // namespace tempo::testing
