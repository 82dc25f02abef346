#include "autodiff/GradientRules.h"

#include "ops/TypeInference.h"

namespace tempo {

namespace {

/// The pieces one rule works with: the builder, the node, its forward inputs
/// (materialised as identity nodes on first use) and the incoming gradient.
class RuleInputs {
public:
  RuleInputs(AdjointBuilder& b, const Node& c, const std::vector<const Edge*>& inputs, NodeId grad)
      : b(b), c(c), grad(grad), inputs_(inputs), cached_(inputs.size(), -1) {}

  /// Forward input `k` as node c reads it.
  NodeId in(size_t k) {
    if (cached_[k] < 0) {
      const Edge& e = *inputs_[k];
      cached_[k] = b.op(OpKind::Identity, {AdjointInput::through(e.producer, e.index)});
    }
    return cached_[k];
  }
  TensorType inType(size_t k) const { return b.graph().readType(*inputs_[k]); }
  NodeId out() const { return c.id; }
  NodeId scalar(double v) const { return b.scalar(c.type.dtype, v); }

  AdjointBuilder& b;
  const Node& c;
  NodeId grad;

private:
  const std::vector<const Edge*>& inputs_;
  std::vector<NodeId> cached_;
};

std::vector<int64_t> swapLastTwo(int rank) {
  std::vector<int64_t> perm;
  for (int i = 0; i < rank; ++i) perm.push_back(i);
  std::swap(perm[rank - 1], perm[rank - 2]);
  return perm;
}

std::optional<NodeId> unaryGradient(RuleInputs& r) {
  AdjointBuilder& b = r.b;
  NodeId g = r.grad;
  switch (r.c.op) {
    case OpKind::Neg: return b.unary(OpKind::Neg, g);
    case OpKind::Exp: return b.binary(OpKind::Mul, g, r.out());
    case OpKind::Log: return b.binary(OpKind::Div, g, r.in(0));
    case OpKind::Sqrt:  // g / (2 sqrt(x))
      return b.binary(OpKind::Div, g, b.binary(OpKind::Mul, r.out(), r.scalar(2.0)));
    case OpKind::Tanh: {  // g (1 - y^2)
      NodeId y2 = b.binary(OpKind::Mul, r.out(), r.out());
      return b.binary(OpKind::Mul, g, b.binary(OpKind::Sub, r.scalar(1.0), y2));
    }
    case OpKind::Sigmoid: {  // g y (1 - y)
      NodeId oneMinus = b.binary(OpKind::Sub, r.scalar(1.0), r.out());
      return b.binary(OpKind::Mul, g, b.binary(OpKind::Mul, r.out(), oneMinus));
    }
    case OpKind::Relu:
      return b.where(b.binary(OpKind::Gt, r.in(0), r.scalar(0.0)), g, r.scalar(0.0));
    case OpKind::Abs: {  // g sign(x), 0 at 0
      NodeId pos = b.where(b.binary(OpKind::Gt, r.in(0), r.scalar(0.0)), g, r.scalar(0.0));
      NodeId neg = b.where(b.binary(OpKind::Lt, r.in(0), r.scalar(0.0)), g, r.scalar(0.0));
      return b.binary(OpKind::Sub, pos, neg);
    }
    case OpKind::Sin: return b.binary(OpKind::Mul, g, b.unary(OpKind::Cos, r.in(0)));                 // g cos(x)
    case OpKind::Cos: return b.unary(OpKind::Neg, b.binary(OpKind::Mul, g, b.unary(OpKind::Sin, r.in(0))));  // -g sin(x)
    default: return std::nullopt;
  }
}

std::optional<NodeId> binaryGradient(RuleInputs& r, int slot) {
  AdjointBuilder& b = r.b;
  NodeId g = r.grad;
  NodeId local = -1;
  bool first = slot == 0;
  switch (r.c.op) {
    case OpKind::Add: local = g; break;
    case OpKind::Sub: local = first ? g : b.unary(OpKind::Neg, g); break;
    case OpKind::Mul: local = b.binary(OpKind::Mul, g, r.in(first ? 1 : 0)); break;
    case OpKind::Div:  // d(a/b)/da = 1/b, d(a/b)/db = -y/b
      local = first ? b.binary(OpKind::Div, g, r.in(1))
                    : b.unary(OpKind::Neg, b.binary(OpKind::Div, b.binary(OpKind::Mul, g, r.out()), r.in(1)));
      break;
    case OpKind::Pow:  // d(a^b)/da = b a^(b-1), d(a^b)/db = y log a
      if (first) {
        NodeId bMinus1 = b.binary(OpKind::Sub, r.in(1), r.scalar(1.0));
        NodeId d = b.binary(OpKind::Mul, r.in(1), b.binary(OpKind::Pow, r.in(0), bMinus1));
        local = b.binary(OpKind::Mul, g, d);
      } else {
        local = b.binary(OpKind::Mul, g, b.binary(OpKind::Mul, r.out(), b.unary(OpKind::Log, r.in(0))));
      }
      break;
    case OpKind::Maximum:
    case OpKind::Minimum: {  // ties go to the first operand
      OpKind firstWins = r.c.op == OpKind::Maximum ? OpKind::Ge : OpKind::Le;
      NodeId cond = b.binary(firstWins, r.in(0), r.in(1));
      local = first ? b.where(cond, g, r.scalar(0.0)) : b.where(cond, r.scalar(0.0), g);
      break;
    }
    default: return std::nullopt;
  }
  return b.sumToShape(local, r.inType(slot).shape);
}

std::optional<NodeId> matmulGradient(RuleInputs& r, int slot) {
  AdjointBuilder& b = r.b;
  // Promote 1-D operands to matrices ([k] -> [1, k] on the left, [k, 1] on the right).
  auto promoted = [&](int k) {
    std::vector<IndexExpr> s = r.inType(k).shape;
    if (s.size() >= 2) return r.in(k);
    return b.reshape(r.in(k), k == 0 ? std::vector<IndexExpr>{1, s[0]} : std::vector<IndexExpr>{s[0], 1});
  };
  NodeId a = promoted(0), m = promoted(1);
  TypeResult yt = inferType(OpKind::MatMul, {}, {b.typeOf(a), b.typeOf(m)});
  NodeId gy = b.reshape(r.grad, std::get<TensorType>(yt).shape);
  NodeId local;
  if (slot == 0) {
    NodeId mT = b.permute(m, swapLastTwo(b.typeOf(m).rank()));
    local = b.sumToShape(b.binary(OpKind::MatMul, gy, mT), b.typeOf(a).shape);
  } else {
    NodeId aT = b.permute(a, swapLastTwo(b.typeOf(a).rank()));
    local = b.sumToShape(b.binary(OpKind::MatMul, aT, gy), b.typeOf(m).shape);
  }
  return b.reshape(local, r.inType(slot).shape);
}

std::optional<NodeId> reduceGradient(RuleInputs& r) {
  AdjointBuilder& b = r.b;
  std::vector<IndexExpr> inShape = r.inType(0).shape;
  std::vector<IndexExpr> kept = inShape;
  for (int64_t a : r.c.attrs.axes) kept[a] = 1;
  NodeId g = b.expand(b.reshape(r.grad, kept), inShape);
  if (r.c.op == OpKind::ReduceSum) return g;
  // reduce_max: the gradient goes to every element equal to the maximum.
  NodeId maxAll = b.expand(b.reshape(r.out(), kept), inShape);
  return b.where(b.binary(OpKind::Eq, r.in(0), maxAll), g, r.scalar(0.0));
}

/// gather(x, ids): the gradient's slices added into zeros of x's shape at the ids (a
/// repeated id accumulates); scatter_add(ids, g): the gradient gathered back at the ids.
/// take_along and scatter_along_add pair up the same way, one id per position of a row.
std::optional<NodeId> indexedGradient(RuleInputs& r, int slot) {
  OpAttrs at;
  at.axis = r.c.attrs.axis;
  if (r.c.op == OpKind::TakeAlong) {
    if (slot != 0) return std::nullopt;
    at.shape = r.inType(0).shape;
    return r.b.op(OpKind::ScatterAlongAdd, {AdjointInput::at(r.in(1)), AdjointInput::at(r.grad)}, at);
  }
  if (r.c.op == OpKind::ScatterAlongAdd) {
    if (slot != 1) return std::nullopt;
    return r.b.op(OpKind::TakeAlong, {AdjointInput::at(r.grad), AdjointInput::at(r.in(0))}, at);
  }
  if (r.c.op == OpKind::Gather) {
    if (slot != 0) return std::nullopt;
    at.shape = r.inType(0).shape;
    return r.b.op(OpKind::ScatterAdd, {AdjointInput::at(r.in(1)), AdjointInput::at(r.grad)}, at);
  }
  if (slot != 1) return std::nullopt;
  return r.b.op(OpKind::Gather, {AdjointInput::at(r.grad), AdjointInput::at(r.in(0))}, at);
}

std::optional<NodeId> movementGradient(RuleInputs& r, const std::vector<const Edge*>& inputs, int slot) {
  AdjointBuilder& b = r.b;
  const OpAttrs& at = r.c.attrs;
  std::vector<IndexExpr> inShape = r.inType(slot).shape;
  switch (r.c.op) {
    case OpKind::Reshape: return b.reshape(r.grad, inShape);
    case OpKind::Permute: {
      std::vector<int64_t> inverse(at.perm.size());
      for (size_t i = 0; i < at.perm.size(); ++i) inverse[at.perm[i]] = static_cast<int64_t>(i);
      return b.permute(r.grad, inverse);
    }
    case OpKind::Expand: return b.sumToShape(r.grad, inShape);
    case OpKind::Slice: return b.pad(r.grad, at.axis, at.start, inShape[at.axis] - at.stop);
    case OpKind::Cat: {
      IndexExpr offset = 0;
      for (int k = 0; k < slot; ++k) offset = offset + b.graph().readType(*inputs[k]).shape[at.axis];
      return b.slice(r.grad, at.axis, offset, offset + inShape[at.axis]);
    }
    default: return std::nullopt;
  }
}

}  // namespace

bool isDifferentiableOp(OpKind op) {
  switch (opClass(op)) {
    case OpClass::Source: return false;
    case OpClass::Unary: return op != OpKind::Not;
    case OpClass::Reduce: return op != OpKind::ReduceArgMax;  // an index: no gradient flows through it
    case OpClass::Binary: return !isComparison(op) && op != OpKind::And && op != OpKind::Or;
    case OpClass::Indexed: return op != OpKind::ArgTopK;  // positions: no gradient flows through them
    default: return true;
  }
}

std::optional<NodeId> inputGradient(AdjointBuilder& b, const Node& c, const std::vector<const Edge*>& inputs,
                                    int slot, NodeId gradOut) {
  if (!isDifferentiableOp(c.op) || c.op == OpKind::Merge) return std::nullopt;
  if (!isDifferentiableType(b.graph().readType(*inputs[slot]))) return std::nullopt;
  RuleInputs r(b, c, inputs, gradOut);
  switch (opClass(c.op)) {
    case OpClass::Unary: return unaryGradient(r);
    case OpClass::Binary: return binaryGradient(r, slot);
    case OpClass::Ternary: {  // where(cond, a, b)
      if (slot == 0) return std::nullopt;
      NodeId z = r.scalar(0.0);
      NodeId local = slot == 1 ? b.where(r.in(0), gradOut, z) : b.where(r.in(0), z, gradOut);
      return b.sumToShape(local, r.inType(slot).shape);
    }
    case OpClass::Cast: {
      OpAttrs at;
      at.dtype = r.inType(0).dtype;
      return b.op(OpKind::Cast, {AdjointInput::at(gradOut)}, at);
    }
    case OpClass::MatMul: return matmulGradient(r, slot);
    case OpClass::Reduce: return reduceGradient(r);
    case OpClass::Movement: return movementGradient(r, inputs, slot);
    case OpClass::Indexed: return indexedGradient(r, slot);
    case OpClass::Identity: return gradOut;
    default: return std::nullopt;
  }
}

}  // namespace tempo
