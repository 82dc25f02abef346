// ExecutorTestSupport: small builders of loop programs for executor tests.
//
// Tests build SDGs by hand (the interpreter tests' helpers) and loop programs
// with these one-liners: `loop("t", 0, T, {exec(c, {t})})`, so each test shows
// the exact schedule it runs. Also a comparison of two tensors within a
// relative tolerance.
#pragma once

#include "interp/InterpTestGraphs.h"
#include "schedule/LoopAst.h"
#include "tensor/Tensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace tempo::exec_test {

inline LoopStmt loop(const std::string& var, IndexExpr lo, IndexExpr hi, LoopBody body, int64_t step = 1) {
  return LoopStmt{ForStmt{var, std::move(lo), std::move(hi), step, std::move(body)}};
}
inline LoopStmt exec(NodeId node, std::vector<IndexExpr> point = {}) {
  return LoopStmt{ExecStmt{node, std::move(point)}};
}
inline LoopStmt when(Condition c, LoopBody thenBody, LoopBody elseBody = {}) {
  return LoopStmt{IfStmt{std::move(c), std::move(thenBody), std::move(elseBody)}};
}
inline LoopStmt alloc(NodeId node, IndexExpr bytes = 0) { return LoopStmt{AllocStmt{node, std::move(bytes)}}; }
inline LoopStmt release(NodeId node, IndexExpr bytes = 0) { return LoopStmt{FreeStmt{node, std::move(bytes)}}; }

/// Same dtype and shape, and every element within `rel` relative plus `abs` absolute of `expected`.
inline ::testing::AssertionResult closeTensors(const Tensor& expected, const Tensor& actual, double rel = 1e-6,
                                               double abs = 1e-30) {
  if (expected.dtype() != actual.dtype() || expected.shape() != actual.shape())
    return ::testing::AssertionFailure() << "expected " << expected.summary() << ", got " << actual.summary();
  for (int64_t i = 0; i < expected.numel(); ++i) {
    double e = expected.at(i), a = actual.at(i);
    if (std::isnan(e) && std::isnan(a)) continue;
    if (!(std::abs(e - a) <= rel * std::abs(e) + abs))
      return ::testing::AssertionFailure() << "element " << i << ": expected " << e << ", got " << a;
  }
  return ::testing::AssertionSuccess();
}

inline std::vector<double> values(const Tensor& t) {
  std::vector<double> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.at(i));
  return out;
}

}  // namespace tempo::exec_test
