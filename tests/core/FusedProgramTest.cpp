// The fused program's text form (one infix expression, usual precedence,
// every other op a call) and its type inference (each step typed with the
// ordinary rules, declared dtypes checked, bad operands reported).
#include "ops/FusedProgram.h"
#include "ops/TypeInference.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

using Kind = FusedOperand::Kind;

FusedOperand in(int k) { return {Kind::Input, k, 0, DType::F32}; }
FusedOperand step(int k) { return {Kind::Step, k, 0, DType::F32}; }
FusedOperand literal(double v, DType dtype = DType::F32) { return {Kind::Literal, 0, v, dtype}; }

TEST(FusedProgram, PrintsOneInfixExpressionWithMinimalParentheses) {
  std::vector<FusedStep> layerNorm = {
      {OpKind::Sub, {in(0), in(1)}, DType::F32},
      {OpKind::Add, {in(2), literal(1e-5)}, DType::F32},
      {OpKind::Sqrt, {step(1)}, DType::F32},
      {OpKind::Div, {step(0), step(2)}, DType::F32},
      {OpKind::Mul, {step(3), in(3)}, DType::F32},
  };
  EXPECT_EQ(fusedExpression(layerNorm), "(in0 - in1) / sqrt(in2 + 1e-05) * in3");
  std::vector<FusedStep> rightNested = {
      {OpKind::Sub, {in(1), in(2)}, DType::F32},
      {OpKind::Sub, {in(0), step(0)}, DType::F32},
      {OpKind::Neg, {step(1)}, DType::F32},
      {OpKind::Mul, {step(2), literal(-2)}, DType::F32},
  };
  EXPECT_EQ(fusedExpression(rightNested), "-(in0 - (in1 - in2)) * -2");
  std::vector<FusedStep> mixed = {
      {OpKind::Cast, {in(0)}, DType::F32},
      {OpKind::Gt, {step(0), in(1)}, DType::Bool},
      {OpKind::Not, {step(1)}, DType::Bool},
      {OpKind::Where, {step(2), step(0), literal(0)}, DType::F32},
      {OpKind::Maximum, {step(3), in(1)}, DType::F32},
  };
  EXPECT_EQ(fusedExpression(mixed), "maximum(where(not (cast(in0, f32) > in1), cast(in0, f32), 0), in1)");
}

TEST(FusedProgram, TypesEveryStepAndReportsMistakes) {
  OpAttrs attrs;
  attrs.program = {{OpKind::Mul, {in(0), in(1)}, DType::F32}, {OpKind::Lt, {step(0), literal(1)}, DType::Bool}};
  TypeResult t = inferType(OpKind::Fused, attrs, {TensorType{DType::F32, {IndexExpr(3), IndexExpr(1)}},
                                                  TensorType{DType::F32, {IndexExpr(4)}}});
  ASSERT_TRUE(std::holds_alternative<TensorType>(t)) << std::get<std::string>(t);
  EXPECT_EQ(std::get<TensorType>(t).str(), "bool[3, 4]");

  attrs.program = {{OpKind::Add, {in(0), in(2)}, DType::F32}};
  t = inferType(OpKind::Fused, attrs, {TensorType{DType::F32, {}}});
  ASSERT_TRUE(std::holds_alternative<std::string>(t));
  EXPECT_NE(std::get<std::string>(t).find("does not exist"), std::string::npos);

  attrs.program = {{OpKind::Add, {in(0), literal(1)}, DType::F64}};
  t = inferType(OpKind::Fused, attrs, {TensorType{DType::F32, {}}});
  ASSERT_TRUE(std::holds_alternative<std::string>(t));
  EXPECT_NE(std::get<std::string>(t).find("declares f64"), std::string::npos);

  attrs.program = {{OpKind::MatMul, {in(0), in(0)}, DType::F32}};
  t = inferType(OpKind::Fused, attrs, {TensorType{DType::F32, {IndexExpr(2)}}});
  ASSERT_TRUE(std::holds_alternative<std::string>(t));
  EXPECT_NE(std::get<std::string>(t).find("not an elementwise op"), std::string::npos);
}

}  // namespace
}  // namespace tempo
