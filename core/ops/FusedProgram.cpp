#include "ops/FusedProgram.h"

namespace tempo {

namespace {

constexpr int kAtom = 7, kPrefix = 6;

/// The infix symbol and precedence of an op written between its operands (0: written as a call).
std::pair<const char*, int> infix(OpKind op) {
  switch (op) {
    case OpKind::Or: return {"or", 1};
    case OpKind::And: return {"and", 2};
    case OpKind::Lt: return {"<", 3};
    case OpKind::Le: return {"<=", 3};
    case OpKind::Gt: return {">", 3};
    case OpKind::Ge: return {">=", 3};
    case OpKind::Eq: return {"==", 3};
    case OpKind::Ne: return {"!=", 3};
    case OpKind::Add: return {"+", 4};
    case OpKind::Sub: return {"-", 4};
    case OpKind::Mul: return {"*", 5};
    case OpKind::Div: return {"/", 5};
    default: return {"", 0};
  }
}

struct Printed {
  std::string text;
  int precedence;
};

class ExpressionPrinter {
public:
  /// With `namedSteps`, an operand that is an earlier step prints as `s<k>` instead of in full.
  ExpressionPrinter(const std::vector<FusedStep>& program, bool namedSteps)
      : program_(program), namedSteps_(namedSteps) {}

  Printed step(size_t k) const {
    const FusedStep& s = program_.at(k);
    auto [symbol, prec] = infix(s.op);
    if (prec > 0 && s.operands.size() == 2) {
      return {wrap(operand(s.operands[0]), prec) + " " + symbol + " " + wrap(operand(s.operands[1]), prec + 1), prec};
    }
    if (s.op == OpKind::Neg && s.operands.size() == 1) return {"-" + wrap(operand(s.operands[0]), kAtom), kPrefix};
    if (s.op == OpKind::Not && s.operands.size() == 1) return {"not " + wrap(operand(s.operands[0]), kPrefix), kPrefix};
    std::string call = std::string(opName(s.op)) + "(";
    for (size_t i = 0; i < s.operands.size(); ++i) call += (i ? ", " : "") + operand(s.operands[i]).text;
    if (s.op == OpKind::Cast) call += ", " + std::string(dtypeName(s.dtype));
    return {call + ")", kAtom};
  }

private:
  Printed operand(const FusedOperand& o) const {
    switch (o.kind) {
      case FusedOperand::Kind::Input: return {"in" + std::to_string(o.index), kAtom};
      case FusedOperand::Kind::Literal: {
        std::string v = numberString(o.value);
        return {v, v.front() == '-' ? kPrefix : kAtom};
      }
      case FusedOperand::Kind::Step:
        if (o.index < 0 || static_cast<size_t>(o.index) >= program_.size()) return {"?", kAtom};
        if (namedSteps_) return {"s" + std::to_string(o.index), kAtom};
        return step(static_cast<size_t>(o.index));
    }
    return {"?", kAtom};
  }

  static std::string wrap(const Printed& p, int atLeast) {
    return p.precedence >= atLeast ? p.text : "(" + p.text + ")";
  }

  const std::vector<FusedStep>& program_;
  bool namedSteps_;
};

}  // namespace

std::string fusedExpression(const std::vector<FusedStep>& program) {
  if (program.empty()) return "";
  return ExpressionPrinter(program, false).step(program.size() - 1).text;
}

std::string fusedStepExpression(const std::vector<FusedStep>& program, size_t step) {
  if (step >= program.size()) return "";
  return ExpressionPrinter(program, true).step(step).text;
}

}  // namespace tempo
