#include "ops/TypeInference.h"

#include <algorithm>
#include <set>

namespace tempo {

namespace {

std::string shapeStr(const std::vector<IndexExpr>& s) { return TensorType{DType::F32, s}.shapeStr(); }

bool isOne(const IndexExpr& e) { return e.constantValue() == std::optional<int64_t>(1); }

TypeResult elementwise(OpKind op, const std::vector<TensorType>& in) {
  const char* name = opName(op).data();
  std::vector<IndexExpr> shape = in[0].shape;
  for (size_t i = 1; i < in.size(); ++i) {
    auto b = broadcastShapes(shape, in[i].shape);
    if (!b)
      return std::string(name) + ": shapes " + shapeStr(shape) + " and " + shapeStr(in[i].shape) +
             " do not broadcast";
    shape = *b;
  }
  size_t firstValue = op == OpKind::Where ? 1 : 0;
  if (op == OpKind::Where && in[0].dtype != DType::Bool)
    return std::string("where: the condition must be bool, not ") + std::string(dtypeName(in[0].dtype));
  for (size_t i = firstValue + 1; i < in.size(); ++i)
    if (in[i].dtype != in[firstValue].dtype)
      return std::string(name) + ": dtypes differ: " + std::string(dtypeName(in[firstValue].dtype)) +
             " and " + std::string(dtypeName(in[i].dtype));
  DType dt = in[firstValue].dtype;
  if (op == OpKind::And || op == OpKind::Or || op == OpKind::Not) {
    if (dt != DType::Bool) return std::string(name) + ": operands must be bool, not " + std::string(dtypeName(dt));
  } else if (op != OpKind::Where && op != OpKind::Eq && op != OpKind::Ne && op != OpKind::Identity &&
             dt == DType::Bool) {
    return std::string(name) + ": arithmetic on bool values is not allowed (use cast)";
  }
  bool floatOnly = op == OpKind::Exp || op == OpKind::Log || op == OpKind::Sqrt || op == OpKind::Tanh ||
                   op == OpKind::Sigmoid || op == OpKind::Sin || op == OpKind::Cos || op == OpKind::Pow;
  if (floatOnly && !isFloat(dt))
    return std::string(name) + ": needs a floating-point operand, not " + std::string(dtypeName(dt));
  return TensorType{isComparison(op) ? DType::Bool : dt, shape};
}

/// `in` with its axes in the order `perm` (a permute's value, or a matmul operand read through one).
TypeResult permuted(const std::vector<int64_t>& perm, const TensorType& in) {
  std::vector<int64_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  bool ok = static_cast<int>(sorted.size()) == in.rank();
  for (size_t i = 0; ok && i < sorted.size(); ++i) ok = sorted[i] == static_cast<int64_t>(i);
  if (!ok) {
    OpAttrs attrs;
    attrs.perm = perm;
    return "permute: " + attrsString(OpKind::Permute, attrs) + " is not a permutation of the " +
           std::to_string(in.rank()) + " dimensions of " + in.str();
  }
  std::vector<IndexExpr> out;
  for (int64_t p : perm) out.push_back(in.shape[p]);
  return TensorType{in.dtype, out};
}

TypeResult matmul(const std::vector<TensorType>& in, const OpAttrs& attrs) {
  TensorType a = in[0], b = in[1];
  // An operand read through a permutation (view-selection folded a permute into the product).
  for (auto [operand, perm] : {std::pair{&a, &attrs.permA}, std::pair{&b, &attrs.permB}}) {
    if (perm->empty()) continue;
    TypeResult read = permuted(*perm, *operand);
    if (auto* error = std::get_if<std::string>(&read)) return "matmul: operand " + *error;
    *operand = std::get<TensorType>(read);
  }
  if (a.dtype != b.dtype)
    return "matmul: dtypes differ: " + std::string(dtypeName(a.dtype)) + " and " + std::string(dtypeName(b.dtype));
  if (a.dtype == DType::Bool) return std::string("matmul: bool operands are not allowed");
  if (a.rank() == 0 || b.rank() == 0) return "matmul: operands must have at least one dimension, got " + a.str() + " @ " + b.str();
  std::vector<IndexExpr> as = a.shape, bs = b.shape;
  bool aVec = as.size() == 1, bVec = bs.size() == 1;
  if (aVec) as.insert(as.begin(), IndexExpr(1));
  if (bVec) bs.push_back(IndexExpr(1));
  const IndexExpr& k1 = as.back();
  const IndexExpr& k2 = bs[bs.size() - 2];
  if (k1 != k2)
    return "matmul: inner sizes differ: " + a.str() + " @ " + b.str() + " (" + k1.str() + " vs " + k2.str() + ")";
  std::vector<IndexExpr> batchA(as.begin(), as.end() - 2), batchB(bs.begin(), bs.end() - 2);
  auto batch = broadcastShapes(batchA, batchB);
  if (!batch) return "matmul: batch dimensions do not broadcast: " + a.str() + " @ " + b.str();
  std::vector<IndexExpr> out = *batch;
  if (!aVec) out.push_back(as[as.size() - 2]);
  if (!bVec) out.push_back(bs.back());
  return TensorType{a.dtype, out};
}

TypeResult reduce(OpKind op, const OpAttrs& attrs, const TensorType& in) {
  std::set<int64_t> axes(attrs.axes.begin(), attrs.axes.end());
  for (int64_t ax : axes)
    if (ax < 0 || ax >= in.rank())
      return std::string(opName(op)) + ": axis " + std::to_string(ax) + " is out of range for " + in.str();
  if (in.dtype == DType::Bool) return std::string(opName(op)) + ": bool operands are not allowed (use cast)";
  if (op == OpKind::ReduceArgMax && axes.size() != 1)
    return std::string(opName(op)) + ": exactly one axis, not " + std::to_string(axes.size());
  std::vector<IndexExpr> out;
  for (int i = 0; i < in.rank(); ++i) {
    if (!axes.count(i)) out.push_back(in.shape[i]);
    else if (attrs.keepDims) out.push_back(IndexExpr(1));
  }
  return TensorType{op == OpKind::ReduceArgMax ? DType::I64 : in.dtype, out};
}

std::vector<IndexExpr> withoutUnitSizes(const std::vector<IndexExpr>& shape) {
  std::vector<IndexExpr> out;
  for (const IndexExpr& s : shape)
    if (!isOne(s)) out.push_back(s);
  return out;
}

/// The symbolic sizes of `shape`, sorted, and the product of its constant ones:
/// two shapes with the same factors have the same element count, even where that
/// count (T * B * 4) is not affine.
std::pair<std::vector<IndexExpr>, int64_t> sizeFactors(const std::vector<IndexExpr>& shape) {
  std::vector<IndexExpr> symbolic;
  int64_t constant = 1;
  for (const IndexExpr& s : shape) {
    if (s.isConstant()) constant *= *s.constantValue();
    else symbolic.push_back(s);
  }
  std::sort(symbolic.begin(), symbolic.end());
  return {symbolic, constant};
}

TypeResult reshape(const OpAttrs& attrs, const TensorType& in) {
  // Inserting or dropping size-1 axes is always valid, even where the product
  // of two symbolic sizes (B * (t + 1)) is not an affine element count.
  if (withoutUnitSizes(in.shape) == withoutUnitSizes(attrs.shape)) return TensorType{in.dtype, attrs.shape};
  if (sizeFactors(in.shape) == sizeFactors(attrs.shape)) return TensorType{in.dtype, attrs.shape};
  auto a = shapeNumel(in.shape), b = shapeNumel(attrs.shape);
  if (!a || !b || *a != *b)
    return "reshape: cannot reshape " + in.str() + " to " + shapeStr(attrs.shape) + " (element counts differ)";
  return TensorType{in.dtype, attrs.shape};
}

TypeResult expand(const OpAttrs& attrs, const TensorType& in) {
  auto b = broadcastShapes(in.shape, attrs.shape);
  if (!b || *b != attrs.shape) return "expand: cannot broadcast " + in.str() + " to " + shapeStr(attrs.shape);
  return TensorType{in.dtype, attrs.shape};
}

TypeResult slice(const OpAttrs& attrs, const TensorType& in) {
  if (attrs.axis < 0 || attrs.axis >= in.rank())
    return "slice: axis " + std::to_string(attrs.axis) + " is out of range for " + in.str();
  TensorType out = in;
  out.shape[attrs.axis] = attrs.stop - attrs.start;
  return out;
}

TypeResult cat(const OpAttrs& attrs, const std::vector<TensorType>& in) {
  const TensorType& first = in[0];
  if (attrs.axis < 0 || attrs.axis >= first.rank())
    return "cat: axis " + std::to_string(attrs.axis) + " is out of range for " + first.str();
  TensorType out = first;
  for (size_t i = 1; i < in.size(); ++i) {
    if (in[i].dtype != first.dtype || in[i].rank() != first.rank())
      return "cat: operands " + first.str() + " and " + in[i].str() + " differ in dtype or rank";
    for (int d = 0; d < first.rank(); ++d)
      if (d != attrs.axis && in[i].shape[d] != first.shape[d])
        return "cat: operands " + first.str() + " and " + in[i].str() + " differ outside axis " + std::to_string(attrs.axis);
    out.shape[attrs.axis] = out.shape[attrs.axis] + in[i].shape[attrs.axis];
  }
  return out;
}

TypeResult fused(const OpAttrs& attrs, const std::vector<TensorType>& in) {
  if (attrs.program.empty()) return std::string("fused: the program has no steps");
  std::vector<TensorType> steps;
  for (size_t k = 0; k < attrs.program.size(); ++k) {
    const FusedStep& step = attrs.program[k];
    std::string where = "fused: step " + std::to_string(k) + " (" + std::string(opName(step.op)) + ")";
    if (!isFusable(step.op)) return where + " is not an elementwise op";
    std::vector<TensorType> operands;
    for (const FusedOperand& o : step.operands) {
      size_t limit = o.kind == FusedOperand::Kind::Input ? in.size() : steps.size();
      if (o.kind != FusedOperand::Kind::Literal && (o.index < 0 || static_cast<size_t>(o.index) >= limit))
        return where + " reads operand " + std::to_string(o.index) + " that does not exist";
      if (o.kind == FusedOperand::Kind::Input) operands.push_back(in[o.index]);
      else if (o.kind == FusedOperand::Kind::Step) operands.push_back(steps[o.index]);
      else operands.push_back(TensorType{o.dtype, {}});
    }
    OpAttrs stepAttrs;
    stepAttrs.dtype = step.dtype;
    TypeResult t = inferType(step.op, stepAttrs, operands);
    if (auto* error = std::get_if<std::string>(&t)) return where + ": " + *error;
    if (std::get<TensorType>(t).dtype != step.dtype)
      return where + " declares " + std::string(dtypeName(step.dtype)) + " but gives " + std::get<TensorType>(t).str();
    steps.push_back(std::get<TensorType>(t));
  }
  return steps.back();
}

}  // namespace

std::optional<std::vector<IndexExpr>> broadcastShapes(const std::vector<IndexExpr>& a,
                                                      const std::vector<IndexExpr>& b) {
  size_t n = std::max(a.size(), b.size());
  std::vector<IndexExpr> out(n);
  for (size_t i = 0; i < n; ++i) {
    const IndexExpr* x = i < n - a.size() ? nullptr : &a[i - (n - a.size())];
    const IndexExpr* y = i < n - b.size() ? nullptr : &b[i - (n - b.size())];
    if (!x) out[i] = *y;
    else if (!y) out[i] = *x;
    else if (*x == *y) out[i] = *x;
    else if (isOne(*x)) out[i] = *y;
    else if (isOne(*y)) out[i] = *x;
    else return std::nullopt;
  }
  return out;
}

std::optional<IndexExpr> shapeNumel(const std::vector<IndexExpr>& shape) {
  IndexExpr n(1);
  for (const IndexExpr& s : shape) {
    auto p = IndexExpr::multiply(n, s);
    if (!p) return std::nullopt;
    n = *p;
  }
  return n;
}

/// `x`'s shape with axis `axis` replaced by `ids`'s shape (NumPy's take).
std::vector<IndexExpr> gatheredShape(const std::vector<IndexExpr>& x, int64_t axis, const std::vector<IndexExpr>& ids) {
  std::vector<IndexExpr> out(x.begin(), x.begin() + axis);
  out.insert(out.end(), ids.begin(), ids.end());
  out.insert(out.end(), x.begin() + axis + 1, x.end());
  return out;
}

TypeResult gather(const OpAttrs& attrs, const TensorType& x, const TensorType& ids) {
  if (ids.dtype != DType::I32 && ids.dtype != DType::I64) return "gather: ids must be integers, not " + ids.str();
  if (attrs.axis < 0 || attrs.axis >= x.rank()) return "gather: axis " + std::to_string(attrs.axis) + " is out of range for " + x.str();
  return TensorType{x.dtype, gatheredShape(x.shape, attrs.axis, ids.shape)};
}

TypeResult scatterAdd(const OpAttrs& attrs, const TensorType& ids, const TensorType& g) {
  if (ids.dtype != DType::I32 && ids.dtype != DType::I64) return "scatter_add: ids must be integers, not " + ids.str();
  const int64_t rank = static_cast<int64_t>(attrs.shape.size());
  if (attrs.axis < 0 || attrs.axis >= rank) return "scatter_add: axis " + std::to_string(attrs.axis) + " is out of range";
  if (gatheredShape(attrs.shape, attrs.axis, ids.shape) != g.shape)
    return "scatter_add: " + g.str() + " is not " + shapeStr(attrs.shape) + " gathered at " + ids.str();
  return TensorType{g.dtype, attrs.shape};
}

/// take_along(x, ids): ids has x's rank and x's sizes but along the axis; the result has ids's shape.
std::optional<std::string> alongMismatch(const char* op, const std::vector<IndexExpr>& x, int64_t axis, const TensorType& ids) {
  if (ids.dtype != DType::I32 && ids.dtype != DType::I64) return std::string(op) + ": ids must be integers, not " + ids.str();
  if (axis < 0 || axis >= static_cast<int64_t>(x.size())) return std::string(op) + ": axis " + std::to_string(axis) + " is out of range";
  if (ids.shape.size() != x.size())
    return std::string(op) + ": ids " + ids.str() + " must have the rank of " + shapeStr(x);
  for (size_t d = 0; d < x.size(); ++d)
    if (static_cast<int64_t>(d) != axis && !(ids.shape[d] == x[d]))
      return std::string(op) + ": ids " + ids.str() + " differ from " + shapeStr(x) + " along axis " + std::to_string(d) +
             " (only axis " + std::to_string(axis) + " may differ)";
  return std::nullopt;
}

TypeResult takeAlong(const OpAttrs& attrs, const TensorType& x, const TensorType& ids) {
  if (auto why = alongMismatch("take_along", x.shape, attrs.axis, ids)) return *why;
  return TensorType{x.dtype, ids.shape};
}

TypeResult scatterAlongAdd(const OpAttrs& attrs, const TensorType& ids, const TensorType& g) {
  if (auto why = alongMismatch("scatter_along_add", attrs.shape, attrs.axis, ids)) return *why;
  if (!(g.shape == ids.shape)) return "scatter_along_add: " + g.str() + " is not the shape of the ids " + ids.str();
  return TensorType{g.dtype, attrs.shape};
}

/// i64 positions: x's shape with K along the axis (K must fit an axis of constant size).
TypeResult argTopK(const OpAttrs& attrs, const TensorType& x) {
  if (attrs.axis < 0 || attrs.axis >= x.rank())
    return "argtopk: axis " + std::to_string(attrs.axis) + " is out of range for " + x.str();
  if (x.dtype == DType::Bool) return "argtopk: bool operands are not allowed (use cast)";
  if (attrs.k < 1) return "argtopk: k must be at least 1, not " + std::to_string(attrs.k);
  std::optional<int64_t> n = x.shape[attrs.axis].constantValue();
  if (n && attrs.k > *n)
    return "argtopk: k = " + std::to_string(attrs.k) + " is more than the " + std::to_string(*n) + " values along axis " +
           std::to_string(attrs.axis) + " of " + x.str();
  std::vector<IndexExpr> out = x.shape;
  out[attrs.axis] = IndexExpr(attrs.k);
  return TensorType{DType::I64, out};
}

TypeResult inferType(OpKind op, const OpAttrs& attrs, const std::vector<TensorType>& in) {
  int arity = opArity(op);
  if ((arity >= 0 && static_cast<int>(in.size()) != arity) || (arity < 0 && in.empty()))
    return std::string(opName(op)) + ": expected " + (arity < 0 ? "at least 1" : std::to_string(arity)) +
           " inputs, got " + std::to_string(in.size());
  switch (opClass(op)) {
    case OpClass::Source: return std::string(opName(op)) + ": a source op has no inferred type";
    case OpClass::Unary:
    case OpClass::Binary:
    case OpClass::Ternary: return elementwise(op, in);
    case OpClass::Identity: return in[0];
    case OpClass::Cast: return TensorType{attrs.dtype, in[0].shape};
    case OpClass::MatMul: return matmul(in, attrs);
    case OpClass::Reduce: return reduce(op, attrs, in[0]);
    case OpClass::Fused: return fused(attrs, in);
    case OpClass::Merge:
      for (size_t i = 1; i < in.size(); ++i)
        if (!(in[i] == in[0]))
          return "branches have different types: " + in[0].str() + " and " + in[i].str();
      return in[0];
    case OpClass::Movement:
      switch (op) {
        case OpKind::Reshape: return reshape(attrs, in[0]);
        case OpKind::Permute: return permuted(attrs.perm, in[0]);
        case OpKind::Expand: return expand(attrs, in[0]);
        case OpKind::Slice: return slice(attrs, in[0]);
        case OpKind::Cat: return cat(attrs, in);
        default: break;
      }
      break;
    case OpClass::Indexed:
      if (op == OpKind::ArgTopK) return argTopK(attrs, in[0]);
      if (op == OpKind::TakeAlong) return takeAlong(attrs, in[0], in[1]);
      if (op == OpKind::ScatterAlongAdd) return scatterAlongAdd(attrs, in[0], in[1]);
      return op == OpKind::Gather ? gather(attrs, in[0], in[1]) : scatterAdd(attrs, in[0], in[1]);
  }
  return std::string("unknown op");
}

}  // namespace tempo
