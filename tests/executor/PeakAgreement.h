// PeakAgreement: the measured peak (the MemoryTracker's distinct buffers)
// against the predicted one (MemoryPrediction's walk of the memory
// statements): they agree within 10% either way. The prediction is not a
// bound: it counts two stores holding one buffer once by the share of points
// that read it (BufferSharing), and counts a branch's undefined points, so it
// can sit a little above or below what the stores really hold; below 64
// bytes of difference (a few scalars) the two always agree.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace tempo::testing {

inline ::testing::AssertionResult peaksAgree(int64_t measured, int64_t predicted) {
  double m = static_cast<double>(measured), p = static_cast<double>(predicted);
  if ((m >= 0.9 * p && m <= 1.1 * p) || std::abs(m - p) < 64) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "measured peak " << measured << " B, predicted " << predicted
                                       << " B: more than 10% apart";
}

}  // namespace tempo::testing
