// Helpers shared by the reference-kernel tests: building small tensors from
// literal values, running one op through ref::evalOp and comparing results.
#pragma once

#include "kernels/ReferenceKernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace tempo::testing {

inline Tensor make(DType dtype, std::vector<int64_t> shape, const std::vector<double>& values) {
  Tensor t(dtype, std::move(shape));
  EXPECT_EQ(static_cast<size_t>(t.numel()), values.size()) << "test tensor literal has the wrong size";
  for (int64_t i = 0; i < t.numel() && i < static_cast<int64_t>(values.size()); ++i) t.set(i, values[i]);
  return t;
}

inline Tensor f32(std::vector<int64_t> shape, const std::vector<double>& v) { return make(DType::F32, shape, v); }
inline Tensor i64(std::vector<int64_t> shape, const std::vector<double>& v) { return make(DType::I64, shape, v); }
inline Tensor boolean(std::vector<int64_t> shape, const std::vector<double>& v) { return make(DType::Bool, shape, v); }

inline Tensor run(OpKind op, const std::vector<Tensor>& inputs, DType outDType, const std::vector<int64_t>& outShape,
                  const OpAttrs& attrs = {}) {
  return ref::evalOp(op, attrs, inputs, outDType, outShape);
}

/// Exact comparison (NaN equals NaN); values are written as doubles.
inline void expectTensor(const Tensor& t, DType dtype, const std::vector<int64_t>& shape,
                         const std::vector<double>& values) {
  ASSERT_EQ(t.dtype(), dtype);
  ASSERT_EQ(t.shape(), shape);
  ASSERT_EQ(static_cast<size_t>(t.numel()), values.size());
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (std::isnan(values[i])) EXPECT_TRUE(std::isnan(t.at(i))) << "at " << i;
    else EXPECT_EQ(t.at(i), values[i]) << "at " << i;
  }
}

}  // namespace tempo::testing
