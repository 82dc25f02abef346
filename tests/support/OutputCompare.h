// OutputCompare: the differential tests' one comparison of two output lists.
//
// Outputs match when they come in the same order with the same names and
// shapes and every element y of the reference and x of the compiled engine
// satisfy |x - y| <= kAbsTolerance m + kRelTolerance |y| (NaN matches NaN), where
// m = max(1, the largest |y| of that output).
// This is the compiled engine's stated tolerance (docs/compiler.md,
// "Numerics of the compiled engine"): passes reassociate sums (static
// tiling) and f32 matmuls accumulate in float (sgemm), whose error on a
// K-long dot product is at most ~(K + 1) 2^-24 sum |a b|; the test programs
// have K <= 32 and O(1) data, so that is <= 2e-6 relative without
// cancellation, five times inside kRelTolerance, and kAbsTolerance covers
// results near zero. A result that cancels out of large terms (a logit of 0.14 from
// 32 products, among logits up to 10: llama_decode) keeps the error of its terms, so
// the absolute part scales with the output's largest magnitude.
#pragma once

#include "tensor/Tensor.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace tempo::testing {

inline constexpr double kRelTolerance = 1e-5;
inline constexpr double kAbsTolerance = 1e-6;

/// "" when `got` matches `want`, else the first difference (tolerances 0: bit for bit, NaN as NaN).
inline std::string compareOutputs(const std::vector<std::pair<std::string, Tensor>>& got,
                                  const std::vector<std::pair<std::string, Tensor>>& want,
                                  double relTolerance = kRelTolerance, double absTolerance = kAbsTolerance) {
  if (got.size() != want.size()) return "different number of outputs";
  for (size_t i = 0; i < got.size(); ++i) {
    const Tensor &a = got[i].second, &b = want[i].second;
    if (got[i].first != want[i].first) return "output order differs: " + got[i].first + " vs " + want[i].first;
    if (a.shape() != b.shape()) return got[i].first + ": shapes differ";
    double scale = 1;
    for (int64_t k = 0; k < b.numel(); ++k)
      if (std::isfinite(b.at(k))) scale = std::max(scale, std::fabs(b.at(k)));
    for (int64_t k = 0; k < a.numel(); ++k) {
      double x = a.at(k), y = b.at(k);
      if ((std::isnan(x) && std::isnan(y)) || x == y) continue;  // x == y: equal infinities
      if (!(std::fabs(x - y) <= absTolerance * scale + relTolerance * std::fabs(y)))
        return got[i].first + "[" + std::to_string(k) + "]: got " + std::to_string(x) + ", reference " + std::to_string(y);
    }
  }
  return "";
}

}  // namespace tempo::testing
