// OutputCompare: the differential tests' one comparison of two output lists.
//
// Outputs match when they come in the same order with the same names and
// shapes and every element agrees within absolute 1e-6 plus relative 1e-5
// (NaN matches NaN): passes may reassociate sums (static tiling does).
#pragma once

#include "tensor/Tensor.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace tempo::testing {

/// "" when `got` matches `want`, else the first difference.
inline std::string compareOutputs(const std::vector<std::pair<std::string, Tensor>>& got,
                                  const std::vector<std::pair<std::string, Tensor>>& want) {
  if (got.size() != want.size()) return "different number of outputs";
  for (size_t i = 0; i < got.size(); ++i) {
    const Tensor &a = got[i].second, &b = want[i].second;
    if (got[i].first != want[i].first) return "output order differs: " + got[i].first + " vs " + want[i].first;
    if (a.shape() != b.shape()) return got[i].first + ": shapes differ";
    for (int64_t k = 0; k < a.numel(); ++k) {
      double x = a.at(k), y = b.at(k);
      if (std::isnan(x) && std::isnan(y)) continue;
      if (std::fabs(x - y) > 1e-6 + 1e-5 * std::fabs(y))
        return got[i].first + "[" + std::to_string(k) + "]: got " + std::to_string(x) + ", reference " + std::to_string(y);
    }
  }
  return "";
}

}  // namespace tempo::testing
