// The fused kernel: the chunked CPU evaluation (cpu::evalOp on a fused node)
// must equal the step-by-step reference (ref::evalOp) and the unfused CPU
// kernels run op by op, on broadcasting shapes, odd sizes around the chunk
// length, empty and scalar operands, mixed dtypes (cast, comparisons, where)
// and sizes above the parallel threshold. Bit-identical, except f32
// tanh/exp/sigmoid against the reference (the CPU kernels' 1-ulp allowance).
#include "kernels/ReferenceKernels.h"
#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/Fused.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>

namespace tempo {
namespace {

using Shape = std::vector<int64_t>;
using Kind = FusedOperand::Kind;

FusedOperand in(int k) { return {Kind::Input, k, 0, DType::F32}; }
FusedOperand step(int k) { return {Kind::Step, k, 0, DType::F32}; }
FusedOperand literal(double v, DType dtype = DType::F32) { return {Kind::Literal, 0, v, dtype}; }

Tensor randomTensor(DType dtype, const Shape& shape, std::mt19937& rng) {
  Tensor t(dtype, shape);
  std::normal_distribution<double> normal(0.0, 2.0);
  std::uniform_int_distribution<int> small(-9, 9);
  for (int64_t i = 0; i < t.numel(); ++i)
    t.set(i, dtype == DType::Bool ? small(rng) > 0 : isInteger(dtype) ? small(rng) : normal(rng));
  return t;
}

/// The program run op by op with the given kernel library (the unfused graph's arithmetic).
Tensor unfused(const std::vector<FusedStep>& program, const std::vector<Tensor>& inputs,
               Tensor (*evalOp)(OpKind, const OpAttrs&, const std::vector<Tensor>&, DType, const Shape&)) {
  std::vector<Tensor> steps;
  for (const FusedStep& s : program) {
    std::vector<Tensor> operands;
    for (const FusedOperand& o : s.operands)
      operands.push_back(o.kind == Kind::Input ? inputs[o.index]
                         : o.kind == Kind::Step ? steps[o.index]
                                                : Tensor::scalar(o.dtype, o.value));
    Shape shape;
    for (const Tensor& t : operands) shape = t.rank() > static_cast<int>(shape.size()) ? t.shape() : shape;
    for (const Tensor& t : operands)
      for (size_t i = 0; i < t.shape().size(); ++i) {
        size_t at = shape.size() - t.shape().size() + i;
        if (shape[at] == 1) shape[at] = t.shape()[i];
      }
    OpAttrs attrs;
    attrs.dtype = s.dtype;
    steps.push_back(evalOp(s.op, attrs, operands, s.dtype, shape));
  }
  return steps.back();
}

/// Distance in units in the last place between two floats.
int64_t ulps(float a, float b) {
  if (a == b || (std::isnan(a) && std::isnan(b))) return 0;
  int32_t ia, ib;
  std::memcpy(&ia, &a, 4);
  std::memcpy(&ib, &b, 4);
  if ((ia < 0) != (ib < 0)) return std::numeric_limits<int64_t>::max();
  return std::abs(int64_t(ia) - int64_t(ib));
}

/// Equal elements, or within `maxUlps` ulp, or (absTol > 0) within absTol of each other.
void expectEqual(const Tensor& got, const Tensor& want, int64_t maxUlps, const std::string& what, double absTol = 0) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.shape(), want.shape()) << what;
  int failures = 0;
  for (int64_t i = 0; i < got.numel() && failures < 5; ++i) {
    double g = got.at(i), w = want.at(i);
    bool ok = g == w || (std::isnan(g) && std::isnan(w)) || (maxUlps > 0 && ulps(float(g), float(w)) <= maxUlps) ||
              std::abs(g - w) <= absTol;
    failures += !ok;
    EXPECT_TRUE(ok) << what << " element " << i << ": got " << g << ", want " << w;
  }
}

/// Runs `program` through the fused CPU kernel, the fused reference and the unfused CPU kernels.
void check(const std::vector<FusedStep>& program, const std::vector<Tensor>& inputs, const Shape& outShape,
           bool fastMath = false) {
  OpAttrs attrs;
  attrs.program = program;
  DType dtype = program.back().dtype;
  std::string what = "output " + shapeString(outShape);
  std::optional<Tensor> chunked = cpu::fused(program, inputs, dtype, outShape);
  ASSERT_TRUE(chunked.has_value()) << what << ": the chunked kernel declined";
  // FastMath's float tanh is within 1 ulp of the reference; the later steps scale that (a
  // product with e^x) and a difference can cancel, so the output is compared within 1e-6,
  // about 4 ulp of the terms of that difference (their magnitude is below 3). The chunked
  // kernel equals the unfused CPU kernels exactly (below).
  expectEqual(*chunked, ref::evalOp(OpKind::Fused, attrs, inputs, dtype, outShape), fastMath ? 1 : 0, what + " vs reference",
              fastMath ? 1e-6 : 0);
  expectEqual(*chunked, unfused(program, inputs, cpu::evalOp), 0, what + " vs unfused cpu kernels");
  expectEqual(ref::evalOp(OpKind::Fused, attrs, inputs, dtype, outShape), unfused(program, inputs, ref::evalOp), 0,
              what + ": reference fused vs unfused reference");
}

/// (in0 - in1) / sqrt(in2 + 1e-05) * in3: a layer norm with row statistics and a column scale.
const std::vector<FusedStep> kLayerNorm = {
    {OpKind::Sub, {in(0), in(1)}, DType::F32},
    {OpKind::Add, {in(2), literal(1e-5)}, DType::F32},
    {OpKind::Sqrt, {step(1)}, DType::F32},
    {OpKind::Div, {step(0), step(2)}, DType::F32},
    {OpKind::Mul, {step(3), in(3)}, DType::F32},
};

TEST(FusedKernel, LayerNormOnBroadcastShapesOfOddSizes) {
  std::mt19937 rng(5);
  for (int64_t rows : {1, 3, 7}) {
    for (int64_t cols : {1, 5, 37, 255, 256, 257, 1000}) {
      Tensor x = randomTensor(DType::F32, {rows, cols}, rng);
      Tensor mean = randomTensor(DType::F32, {rows, 1}, rng);
      Tensor var = randomTensor(DType::F32, {rows, 1}, rng);
      for (int64_t i = 0; i < var.numel(); ++i) var.set(i, std::fabs(var.at(i)));
      Tensor gamma = randomTensor(DType::F32, {cols}, rng);
      check(kLayerNorm, {x, mean, var, gamma}, {rows, cols});
    }
  }
}

TEST(FusedKernel, ScalarEmptyAndLargeOutputs) {
  std::mt19937 rng(6);
  for (const Shape& shape : std::vector<Shape>{{}, {0}, {0, 3}, {1}, {513}, {3, 1, 5}, {300, 257}}) {
    Tensor x = randomTensor(DType::F32, shape, rng);
    Tensor s = Tensor::scalar(DType::F32, 0.75);
    Tensor v = Tensor::scalar(DType::F32, 2.0);
    check(kLayerNorm, {x, s, v, s}, shape);
  }
}

TEST(FusedKernel, ThreeDimensionalBroadcastOfEveryInput) {
  std::mt19937 rng(7);
  // in0 [3, 1, 5], in1 [1, 4, 1], in2 [4, 5]: the output [3, 4, 5] is larger than every input.
  std::vector<FusedStep> program = {
      {OpKind::Mul, {in(0), in(1)}, DType::F32},
      {OpKind::Maximum, {step(0), in(2)}, DType::F32},
      {OpKind::Neg, {step(1)}, DType::F32},
      {OpKind::Pow, {step(2), literal(2)}, DType::F32},
  };
  check(program, {randomTensor(DType::F32, {3, 1, 5}, rng), randomTensor(DType::F32, {1, 4, 1}, rng),
                  randomTensor(DType::F32, {4, 5}, rng)},
        {3, 4, 5});
}

TEST(FusedKernel, CastComparisonAndWhereAcrossDtypes) {
  std::mt19937 rng(8);
  // where(cast(in0, f64) > in1, cast(in0, f64), in1 * 0.5) with in0 i32 [1001], in1 f64 [1001]; then abs.
  std::vector<FusedStep> program = {
      {OpKind::Cast, {in(0)}, DType::F64},
      {OpKind::Gt, {step(0), in(1)}, DType::Bool},
      {OpKind::Mul, {in(1), literal(0.5, DType::F64)}, DType::F64},
      {OpKind::Where, {step(1), step(0), step(2)}, DType::F64},
      {OpKind::Abs, {step(3)}, DType::F64},
  };
  check(program, {randomTensor(DType::I32, {1001}, rng), randomTensor(DType::F64, {1001}, rng)}, {1001});
  // Integer and bool steps: not(in0 == in1) and (in0 * 3 - in1 > 2), cast to i64.
  std::vector<FusedStep> ints = {
      {OpKind::Eq, {in(0), in(1)}, DType::Bool},
      {OpKind::Not, {step(0)}, DType::Bool},
      {OpKind::Mul, {in(0), literal(3, DType::I32)}, DType::I32},
      {OpKind::Sub, {step(2), in(1)}, DType::I32},
      {OpKind::Gt, {step(3), literal(2, DType::I32)}, DType::Bool},
      {OpKind::And, {step(1), step(4)}, DType::Bool},
      {OpKind::Cast, {step(5)}, DType::I64},
  };
  check(ints, {randomTensor(DType::I32, {17, 300}, rng), randomTensor(DType::I32, {300}, rng)}, {17, 300});
}

TEST(FusedKernel, TranscendentalsUseTheVectorisedKernels) {
  std::mt19937 rng(9);
  std::vector<FusedStep> program = {
      {OpKind::Add, {in(0), in(1)}, DType::F32},
      {OpKind::Tanh, {step(0)}, DType::F32},
      {OpKind::Exp, {in(1)}, DType::F32},
      {OpKind::Sigmoid, {in(1)}, DType::F32},
      {OpKind::Mul, {step(1), step(2)}, DType::F32},
      {OpKind::Sub, {step(4), step(3)}, DType::F32},
  };
  check(program, {randomTensor(DType::F32, {4, 700}, rng), randomTensor(DType::F32, {700}, rng)}, {4, 700}, true);
  check(program, {randomTensor(DType::F32, {100, 700}, rng), Tensor::scalar(DType::F32, 0.25)}, {100, 700}, true);
}

TEST(FusedKernel, UnspecialisedStepsFallBackToTheReference) {
  // Integer division can throw, so the chunked kernel declines and cpu::evalOp runs the reference.
  std::vector<FusedStep> program = {
      {OpKind::Add, {in(0), literal(1, DType::I64)}, DType::I64},
      {OpKind::Div, {step(0), in(1)}, DType::I64},
  };
  Tensor a(DType::I64, {5}), b(DType::I64, {5});
  for (int64_t i = 0; i < 5; ++i) a.set(i, i * 7 - 10), b.set(i, i - 2 == 0 ? 3 : i - 2);
  EXPECT_FALSE(cpu::fused(program, {a, b}, DType::I64, {5}).has_value());
  OpAttrs attrs;
  attrs.program = program;
  Tensor want = ref::evalOp(OpKind::Fused, attrs, {a, b}, DType::I64, {5});
  expectEqual(cpu::evalOp(OpKind::Fused, attrs, {a, b}, DType::I64, {5}), want, 0, "integer division");
  b.set(0, 0);
  EXPECT_THROW(cpu::evalOp(OpKind::Fused, attrs, {a, b}, DType::I64, {5}), std::domain_error);
}

TEST(FusedKernel, MalformedProgramsAreRejectedWithAMessage) {
  OpAttrs attrs;
  attrs.program = {{OpKind::Add, {in(0), in(3)}, DType::F32}};
  Tensor x(DType::F32, {4});
  EXPECT_THROW(cpu::evalOp(OpKind::Fused, attrs, {x}, DType::F32, {4}), std::invalid_argument);
  attrs.program = {{OpKind::Add, {in(0), in(0)}, DType::F32}};
  EXPECT_THROW(cpu::evalOp(OpKind::Fused, attrs, {x}, DType::F32, {5}), std::invalid_argument);
}

}  // namespace
}  // namespace tempo
