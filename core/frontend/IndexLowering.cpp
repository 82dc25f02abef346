#include "frontend/IndexLowering.h"

#include <cmath>

namespace tempo {

namespace {

std::optional<IndexExpr> lowerName(LoweringContext& cx, const ast::Expr& e, const std::string& name,
                                   const std::vector<std::string>& allowedDims, const std::string& what) {
  switch (cx.scope.kindOf(name)) {
    case Scope::NameKind::Dim:
      for (const std::string& d : allowedDims)
        if (d == name) return IndexExpr::dim(name);
      cx.error(e.range, "dimension '" + name + "' cannot be used in this " + what +
                            (allowedDims.empty() ? ": no dimension is in scope here"
                                                 : ": only " + tupleString(allowedDims) + " are in scope"));
      return std::nullopt;
    case Scope::NameKind::Bound: return IndexExpr::bound(name);
    case Scope::NameKind::Const: {
      const ConstNumber* c = cx.scope.constant(name);
      if (!c->isInt) {
        cx.error(e.range, "constant '" + name + "' is not an integer, so it cannot be used in an " + what);
        return std::nullopt;
      }
      return IndexExpr(static_cast<int64_t>(c->value));
    }
    case Scope::NameKind::Tensor:
      cx.error(e.range, "'" + name + "' is a tensor; an " + what +
                            " may only use dimensions, bounds and integer constants");
      return std::nullopt;
    case Scope::NameKind::None:
      cx.error(e.range, "unknown name '" + name + "'");
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<IndexExpr> lowerBinary(LoweringContext& cx, const ast::Expr& e, const ast::Binary& b,
                                     const std::vector<std::string>& dims, const std::string& what) {
  auto l = lowerIndexExpr(cx, *b.lhs, dims, what);
  auto r = lowerIndexExpr(cx, *b.rhs, dims, what);
  if (!l || !r) return std::nullopt;
  switch (b.op) {
    case ast::BinaryOp::Add: return *l + *r;
    case ast::BinaryOp::Sub: return *l - *r;
    case ast::BinaryOp::Mul: {
      auto p = IndexExpr::multiply(*l, *r);
      if (!p) cx.error(e.range, "an " + what + " must be affine: '" + l->str() + "' * '" + r->str() +
                                    "' multiplies two non-constant expressions");
      return p;
    }
    case ast::BinaryOp::FloorDiv:
    case ast::BinaryOp::Mod: {
      auto c = r->constantValue();
      if (!c || *c <= 0) {
        cx.error(b.rhs->range, std::string("the right side of '") + std::string(ast::binaryOpSpelling(b.op)) +
                                   "' in an " + what + " must be a positive integer constant");
        return std::nullopt;
      }
      return b.op == ast::BinaryOp::FloorDiv ? IndexExpr::floorDiv(*l, *c) : IndexExpr::mod(*l, *c);
    }
    default:
      cx.error(b.opRange, "operator '" + std::string(ast::binaryOpSpelling(b.op)) + "' cannot be used in an " +
                              what + " (use + - * // % min max)");
      return std::nullopt;
  }
}

}  // namespace

std::optional<IndexExpr> lowerIndexExpr(LoweringContext& cx, const ast::Expr& e,
                                        const std::vector<std::string>& dims, const std::string& what) {
  if (auto* i = e.as<ast::IntLit>()) return IndexExpr(i->value);
  if (auto* n = e.as<ast::Name>()) return lowerName(cx, e, n->name, dims, what);
  if (auto* u = e.as<ast::Unary>()) {
    if (u->op == ast::UnaryOp::Not) {
      cx.error(e.range, "'not' cannot be used in an " + what + " (use + - * // % min max)");
      return std::nullopt;
    }
    auto x = lowerIndexExpr(cx, *u->operand, dims, what);
    return x ? std::optional<IndexExpr>(-*x) : std::nullopt;
  }
  if (auto* b = e.as<ast::Binary>()) return lowerBinary(cx, e, *b, dims, what);
  if (auto* c = e.as<ast::Call>()) {
    const std::string& f = c->callee.name;
    if ((f == "min" || f == "max") && c->kwargs.empty() && c->args.size() >= 2) {
      std::optional<IndexExpr> acc;
      bool ok = true;
      for (const ast::ExprPtr& a : c->args) {
        auto x = lowerIndexExpr(cx, *a, dims, what);
        if (!x) { ok = false; continue; }
        acc = !acc ? *x : (f == "min" ? IndexExpr::min(*acc, *x) : IndexExpr::max(*acc, *x));
      }
      return ok ? acc : std::nullopt;
    }
    cx.error(e.range, "an " + what + " may only call min(a, b, ...) or max(a, b, ...), not '" + f + "'");
    return std::nullopt;
  }
  if (e.is<ast::FloatLit>()) {
    cx.error(e.range, "an " + what + " must be an integer, not a floating-point number");
    return std::nullopt;
  }
  cx.error(e.range, "this cannot be used as an " + what);
  return std::nullopt;
}

std::optional<double> applyConstFunction(const std::string& name, double x) {
  if (name == "sqrt") return std::sqrt(x);
  if (name == "exp") return std::exp(x);
  if (name == "log") return std::log(x);
  if (name == "tanh") return std::tanh(x);
  if (name == "abs") return std::fabs(x);
  if (name == "sin") return std::sin(x);
  if (name == "cos") return std::cos(x);
  if (name == "sigmoid") return 1.0 / (1.0 + std::exp(-x));
  if (name == "relu") return x > 0 ? x : 0.0;
  return std::nullopt;
}

std::optional<ConstNumber> foldConstant(LoweringContext& cx, const ast::Expr& e, bool report) {
  auto fail = [&](const std::string& msg) -> std::optional<ConstNumber> {
    if (report) cx.error(e.range, msg);
    return std::nullopt;
  };
  if (auto* i = e.as<ast::IntLit>()) return ConstNumber{static_cast<double>(i->value), true};
  if (auto* f = e.as<ast::FloatLit>()) return ConstNumber{f->value, false};
  if (auto* n = e.as<ast::Name>()) {
    if (const ConstNumber* c = cx.scope.constant(n->name)) return *c;
    if (!cx.scope.isDeclared(n->name)) return fail("unknown name '" + n->name + "'");
    return fail("'" + n->name + "' is not a compile-time constant");
  }
  if (auto* u = e.as<ast::Unary>()) {
    if (u->op == ast::UnaryOp::Not) return fail("'not' gives a bool value, not a constant number");
    auto x = foldConstant(cx, *u->operand, report);
    if (!x) return std::nullopt;
    return ConstNumber{-x->value, x->isInt};
  }
  if (auto* b = e.as<ast::Binary>()) {
    auto l = foldConstant(cx, *b->lhs, report);
    auto r = foldConstant(cx, *b->rhs, report);
    if (!l || !r) return std::nullopt;
    bool ints = l->isInt && r->isInt;
    switch (b->op) {
      case ast::BinaryOp::Add: return ConstNumber{l->value + r->value, ints};
      case ast::BinaryOp::Sub: return ConstNumber{l->value - r->value, ints};
      case ast::BinaryOp::Mul: return ConstNumber{l->value * r->value, ints};
      case ast::BinaryOp::Div:
        if (r->value == 0) return fail("division by zero in a constant expression");
        if (ints && std::fmod(l->value, r->value) == 0) return ConstNumber{l->value / r->value, true};
        return ConstNumber{l->value / r->value, false};
      case ast::BinaryOp::FloorDiv:
      case ast::BinaryOp::Mod:
        if (!ints || r->value == 0) return fail("'//' and '%' on constants need integers and a non-zero divisor");
        return b->op == ast::BinaryOp::FloorDiv ? ConstNumber{std::floor(l->value / r->value), true}
                                                : ConstNumber{l->value - r->value * std::floor(l->value / r->value), true};
      default: return fail("this operator cannot be used in a constant expression");
    }
  }
  if (auto* c = e.as<ast::Call>()) {
    if (c->args.size() == 1 && c->kwargs.empty()) {
      if (!applyConstFunction(c->callee.name, 0)) return fail("'" + c->callee.name + "' cannot be used in a constant expression");
      auto x = foldConstant(cx, *c->args[0], report);
      if (!x) return std::nullopt;
      return ConstNumber{*applyConstFunction(c->callee.name, x->value), false};
    }
    if ((c->callee.name == "min" || c->callee.name == "max" || c->callee.name == "pow") && c->args.size() == 2 && c->kwargs.empty()) {
      auto a = foldConstant(cx, *c->args[0], report), b = foldConstant(cx, *c->args[1], report);
      if (!a || !b) return std::nullopt;
      if (c->callee.name == "pow") return ConstNumber{std::pow(a->value, b->value), false};
      double v = c->callee.name == "min" ? std::min(a->value, b->value) : std::max(a->value, b->value);
      return ConstNumber{v, a->isInt && b->isInt};
    }
    return fail("'" + c->callee.name + "(...)' is not a compile-time constant");
  }
  return fail("expected a compile-time constant");
}

}  // namespace tempo
