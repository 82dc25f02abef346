// OutputChecksum: the peers' checksum of an output, and checks against expected values.
//
// The PyTorch peers (../shared/peers) print float64 sums of their results
// (`sum`, `abs_sum`, the first 3 values); comparing ours with theirs (with a
// relative tolerance, since the engines round differently) is the outside
// oracle for the benchmark programs. An Expectation is written on the command
// line as `OUTPUT.FIELD=VALUE` (FIELD is `sum` or `abs_sum`), e.g.
// `y.sum=-28.91703`, and holds when |ours - expected| <= rtol * |expected|.
#pragma once

#include "tensor/Tensor.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tempo::bench {

struct OutputChecksum {
  double sum = 0;     ///< float64 sum of every element
  double absSum = 0;  ///< float64 sum of |element|
  std::vector<double> first;  ///< the first (up to) 3 elements in C order
};

OutputChecksum checksumOf(const Tensor& t);
nlohmann::json toJson(const OutputChecksum& c);

struct Expectation {
  std::string output;
  std::string field;  ///< "sum" or "abs_sum"
  double value = 0;
};

/// Parses `OUTPUT.FIELD=VALUE`; nullopt with `error` set when malformed.
std::optional<Expectation> parseExpectation(const std::string& text, std::string& error);

struct ExpectationResult {
  Expectation expected;
  std::optional<double> actual;  ///< nullopt when the program has no such output
  bool ok = false;
};

/// Checks every expectation against the named outputs' checksums.
std::vector<ExpectationResult> checkExpectations(const std::vector<Expectation>& expectations,
                                                 const std::vector<std::pair<std::string, OutputChecksum>>& sums,
                                                 double rtol);
nlohmann::json toJson(const ExpectationResult& r);

}  // namespace tempo::bench
