#include "frontend/Builtins.h"

#include "autodiff/Autodiff.h"
#include "frontend/CallArgs.h"
#include "frontend/IndexLowering.h"
#include "frontend/SamplingBuiltins.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace tempo {

namespace {

std::optional<std::vector<int64_t>> intList(LoweringContext& cx, const ast::Expr& e) {
  std::vector<int64_t> out;
  for (const ast::Expr* x : tupleItems(e)) {
    auto c = foldConstant(cx, *x);
    if (!c) return std::nullopt;
    if (!c->isInt) {
      cx.error(x->range, "expected an integer");
      return std::nullopt;
    }
    out.push_back(static_cast<int64_t>(c->value));
  }
  return out;
}

std::optional<std::vector<IndexExpr>> shapeList(ExprLowering& low, const ast::Expr& e) {
  std::vector<IndexExpr> out;
  for (const ast::Expr* x : tupleItems(e)) {
    auto s = lowerIndexExpr(low.context(), *x, low.site().domain, "shape size");
    if (!s) return std::nullopt;
    out.push_back(*s);
  }
  return out;
}

/// Normalises dims against a rank: negative dims count from the end.
std::optional<std::vector<int64_t>> normaliseAxes(LoweringContext& cx, std::vector<int64_t> axes, int rank,
                                                  SourceRange range) {
  for (int64_t& a : axes) {
    int64_t orig = a;
    if (a < 0) a += rank;
    if (a < 0 || a >= rank) {
      cx.error(range, "dim " + std::to_string(orig) + " is out of range for a value of rank " + std::to_string(rank));
      return std::nullopt;
    }
  }
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  return axes;
}

Value unaryFn(CallArgs& a, OpKind op) {
  if (!a.expect(1, 1, {})) return Value::error(a.range);
  Value x = a.arg(0);
  if (x.kind == Value::Kind::Number)
    if (auto v = applyConstFunction(a.call.callee.name, x.number.value)) return Value::ofNumber({*v, false}, a.range);
  return a.low.makeOp(op, {}, {x}, a.range);
}

Value binaryFn(CallArgs& a, OpKind op) {
  if (!a.expect(2, 2, {})) return Value::error(a.range);
  return a.low.makeOp(op, {}, {a.arg(0), a.arg(1)}, a.range);
}

/// Reduction axes from `dim=` (all axes when absent).
std::optional<std::vector<int64_t>> reductionAxes(CallArgs& a, const Value& x) {
  int rank = x.type.rank();
  std::vector<int64_t> axes;
  if (const ast::Expr* d = a.kw("dim")) {
    auto l = intList(a.low.context(), *d);
    if (!l) return std::nullopt;
    axes = *l;
  } else {
    for (int i = 0; i < rank; ++i) axes.push_back(i);
  }
  return normaliseAxes(a.low.context(), axes, rank, a.range);
}

bool keepDims(CallArgs& a) {
  const ast::Expr* k = a.kw("keepdim");
  if (!k) return false;
  if (auto* b = k->as<ast::BoolLit>()) return b->value;
  a.low.context().error(k->range, "keepdim must be true or false");
  return false;
}

Value reduce(ExprLowering& low, OpKind op, const Value& x, std::vector<int64_t> axes, bool keep, SourceRange r) {
  OpAttrs attrs;
  attrs.axes = std::move(axes);
  attrs.keepDims = keep;
  return low.makeOp(op, attrs, {x}, r);
}

Value reduction(CallArgs& a, const std::string& kind) {
  if (kind == "max" && a.call.args.size() >= 2 && !a.kw("dim")) {
    // max(a, b) of index values is an index value; of tensors it is ambiguous.
    std::vector<Value> vals;
    for (size_t i = 0; i < a.call.args.size(); ++i) vals.push_back(a.arg(i));
    bool allIndex = std::all_of(vals.begin(), vals.end(), [](const Value& v) { return v.isAdaptive() && (v.kind == Value::Kind::Index || v.number.isInt); });
    if (allIndex) {
      auto asIndex = [](const Value& v) { return v.kind == Value::Kind::Index ? v.index : IndexExpr(static_cast<int64_t>(v.number.value)); };
      IndexExpr acc = asIndex(vals[0]);
      for (size_t i = 1; i < vals.size(); ++i) acc = IndexExpr::max(acc, asIndex(vals[i]));
      return Value::ofIndex(acc, a.range);
    }
    a.low.context().error(a.range, "max(a, b) of tensors is ambiguous: use maximum(a, b) for the elementwise maximum or max(x, dim=...) to reduce");
    return Value::error(a.range);
  }
  if (!a.expect(1, 1, {"dim", "keepdim"})) return Value::error(a.range);
  Value x = a.arg(0);
  if (x.isError()) return x;
  if (x.isAdaptive()) {
    a.low.context().error(a.range, kind + "() needs a tensor, not a number");
    return Value::error(a.range);
  }
  auto axes = reductionAxes(a, x);
  if (!axes) return Value::error(a.range);
  bool keep = keepDims(a);
  if (kind == "mean" && !isFloat(x.type.dtype)) {
    a.low.context().error(a.range, "mean() needs floating-point values, not " + x.type.str() + " (cast first)");
    return Value::error(a.range);
  }
  if (kind == "sum") return reduce(a.low, OpKind::ReduceSum, x, *axes, keep, a.range);
  if (kind == "max") return reduce(a.low, OpKind::ReduceMax, x, *axes, keep, a.range);
  // mean = sum / count, where count may be symbolic (a growing window's t + 1).
  IndexExpr count(1);
  for (int64_t ax : *axes) {
    auto p = IndexExpr::multiply(count, x.type.shape[ax]);
    if (!p) {
      a.low.context().error(a.range, "mean() over several symbolically sized dims is not supported");
      return Value::error(a.range);
    }
    count = *p;
  }
  Value s = reduce(a.low, OpKind::ReduceSum, x, *axes, keep, a.range);
  return a.low.makeOp(OpKind::Div, {}, {s, Value::ofIndex(count, a.range)}, a.range);
}

Value softmax(CallArgs& a, bool logarithm) {
  if (!a.expect(1, 1, {"dim"})) return Value::error(a.range);
  Value x = a.arg(0);
  if (x.isError()) return x;
  if (x.isAdaptive() || x.type.rank() == 0) {
    a.low.context().error(a.range, a.call.callee.name + "() needs a tensor with at least one dimension");
    return Value::error(a.range);
  }
  std::vector<int64_t> axes{-1};
  if (const ast::Expr* d = a.kw("dim")) {
    auto l = intList(a.low.context(), *d);
    if (!l) return Value::error(a.range);
    axes = *l;
  }
  auto norm = normaliseAxes(a.low.context(), axes, x.type.rank(), a.range);
  if (!norm) return Value::error(a.range);
  return lowerSoftmax(a.low, x, *norm, logarithm, a.range);
}

/// The one axis of x that `dim=` names (`byDefault` without it), normalised; an error for a
/// list of several, or out of range.
std::optional<int64_t> oneAxis(CallArgs& a, const Value& x, int64_t byDefault) {
  std::vector<int64_t> axes{byDefault};
  if (const ast::Expr* d = a.kw("dim")) {
    auto l = intList(a.low.context(), *d);
    if (!l) return std::nullopt;
    if (l->size() != 1) {
      a.low.context().error(d->range, a.call.callee.name + "() takes one dim, not " + std::to_string(l->size()));
      return std::nullopt;
    }
    axes = *l;
  }
  auto norm = normaliseAxes(a.low.context(), axes, x.type.rank(), a.range);
  if (!norm) return std::nullopt;
  return norm->front();
}

/// argmax(x, dim=-1, keepdim=false): the i64 index of the first maximum along one axis.
Value argmaxFn(CallArgs& a) {
  if (!a.expect(1, 1, {"dim", "keepdim"})) return Value::error(a.range);
  Value x = a.arg(0);
  if (x.isError()) return x;
  if (x.isAdaptive() || x.type.rank() == 0) {
    a.low.context().error(a.range, "argmax() needs a tensor with at least one dimension");
    return Value::error(a.range);
  }
  if (x.type.dtype == DType::Bool) {
    a.low.context().error(a.range, "argmax() needs numbers, not " + x.type.str() + " (cast first)");
    return Value::error(a.range);
  }
  auto axis = oneAxis(a, x, -1);
  if (!axis) return Value::error(a.range);
  return reduce(a.low, OpKind::ReduceArgMax, x, {*axis}, keepDims(a), a.range);
}

/// argtopk(x, k, dim=-1) and topk(x, k, dim=-1): the i64 positions of the k largest values
/// along one axis, largest first (ties: the lower position first; a NaN counts as the
/// largest), and those values: take_along(x, argtopk(x, k, dim), dim), so its gradient is
/// take_along's (gather's for a 1-D x, where the two agree).
Value topkFn(CallArgs& a, bool values) {
  const std::string name = values ? "topk" : "argtopk";
  if (!a.expect(2, 2, {"dim"})) return Value::error(a.range);
  Value x = a.arg(0);
  if (x.isError()) return x;
  if (x.isAdaptive() || x.type.rank() == 0) return a.fail(name + "() needs a tensor with at least one dimension");
  if (x.type.dtype == DType::Bool) return a.fail(name + "() needs numbers, not " + x.type.str() + " (cast first)");
  auto k = foldConstant(a.low.context(), *a.call.args[1]);
  if (!k) return Value::error(a.range);
  if (!k->isInt || k->value < 1) {
    a.low.context().error(a.call.args[1]->range, name + "() needs a positive integer constant k");
    return Value::error(a.range);
  }
  auto axis = oneAxis(a, x, -1);
  if (!axis) return Value::error(a.range);
  if (auto n = x.type.shape[*axis].constantValue(); n && k->value > static_cast<double>(*n)) {
    a.low.context().error(a.call.args[1]->range, name + "() asks for the " + numberString(k->value) +
                                                     " largest of " + std::to_string(*n) + " values along dim " +
                                                     std::to_string(*axis) + " of " + x.type.str());
    return Value::error(a.range);
  }
  OpAttrs attrs;
  attrs.axis = *axis;
  attrs.k = static_cast<int64_t>(k->value);
  Value ids = a.low.makeOp(OpKind::ArgTopK, attrs, {x}, a.range);
  if (!values) return ids;
  OpAttrs along;
  along.axis = *axis;
  return a.low.makeOp(x.type.rank() == 1 ? OpKind::Gather : OpKind::TakeAlong, along, {x, ids}, a.range);
}

/// take_along(x, ids, dim=-1): per row, x at the integer ids along `dim` (NumPy's
/// take_along_axis, torch.gather): ids has x's rank and sizes except along `dim`, and the
/// result has ids's shape.
Value takeAlongFn(CallArgs& a) {
  if (!a.expect(2, 2, {"dim"})) return Value::error(a.range);
  Value x = a.arg(0), ids = a.arg(1);
  if (x.isError() || ids.isError()) return Value::error(a.range);
  if (x.isAdaptive() || x.type.rank() == 0) {
    a.low.context().error(a.call.args[0]->range, "take_along() needs a tensor with at least one dimension to pick from");
    return Value::error(a.range);
  }
  if (ids.isAdaptive() || (ids.type.dtype != DType::I32 && ids.type.dtype != DType::I64)) {
    a.low.context().error(a.call.args[1]->range, "take_along() needs integer ids (i32 or i64), not " +
                                                     (ids.isAdaptive() ? std::string("a number") : ids.type.str()) +
                                                     " (cast them first)");
    return Value::error(a.range);
  }
  auto axis = oneAxis(a, x, -1);
  if (!axis) return Value::error(a.range);
  bool fits = ids.type.rank() == x.type.rank();
  for (int64_t d = 0; fits && d < x.type.rank(); ++d) fits = d == *axis || ids.type.shape[d] == x.type.shape[d];
  if (!fits) {
    a.low.context().error(a.call.args[1]->range, "take_along() needs ids of " + x.type.str() + "'s shape except along dim " +
                                                     std::to_string(*axis) + ", not " + ids.type.str());
    return Value::error(a.range);
  }
  OpAttrs attrs;
  attrs.axis = *axis;
  return a.low.makeOp(OpKind::TakeAlong, attrs, {x, ids}, a.range);
}

/// gather(x, ids, dim=0): x's slices along `dim` at the integer ids (NumPy's take):
/// [pre..., n, post...] at ids of shape s gives [pre..., s..., post...]; an integer index
/// value (`t`, `l + 1`) is an i64 scalar id.
Value gatherFn(CallArgs& a) {
  if (!a.expect(2, 2, {"dim"})) return Value::error(a.range);
  Value x = a.arg(0), ids = a.arg(1);
  if (x.isError() || ids.isError()) return Value::error(a.range);
  if (x.isAdaptive() || x.type.rank() == 0) {
    a.low.context().error(a.call.args[0]->range, "gather() needs a tensor with at least one dimension to pick from");
    return Value::error(a.range);
  }
  const bool integerIndex = ids.kind == Value::Kind::Index || (ids.kind == Value::Kind::Number && ids.number.isInt);
  if (integerIndex) {  // gather(E, t): the index value as an i64 scalar
    OpAttrs asI64;
    asI64.dtype = DType::I64;
    ids = a.low.makeOp(OpKind::Cast, asI64, {ids}, a.call.args[1]->range);
  }
  if (ids.isAdaptive() || (ids.type.dtype != DType::I32 && ids.type.dtype != DType::I64)) {
    a.low.context().error(a.call.args[1]->range, "gather() needs integer ids (i32 or i64), not " +
                                                     (ids.isAdaptive() ? std::string("a number") : ids.type.str()) +
                                                     " (cast them first)");
    return Value::error(a.range);
  }
  auto axis = oneAxis(a, x, 0);
  if (!axis) return Value::error(a.range);
  OpAttrs attrs;
  attrs.axis = *axis;
  return a.low.makeOp(OpKind::Gather, attrs, {x, ids}, a.range);
}

/// reshape(x, (..)) and expand(x, (..)): an op whose attribute is a target shape.
Value toShapeFn(CallArgs& a, OpKind op) {
  if (!a.expect(2, 2, {})) return Value::error(a.range);
  Value x = a.arg(0);
  auto shape = shapeList(a.low, *a.call.args[1]);
  if (!shape || x.isError()) return Value::error(a.range);
  OpAttrs attrs;
  attrs.shape = *shape;
  return a.low.makeOp(op, attrs, {x}, a.range);
}

Value permuteFn(CallArgs& a, bool transpose) {
  if (!a.expect(transpose ? 1 : 2, transpose ? 1 : 2, {})) return Value::error(a.range);
  Value x = a.arg(0);
  if (x.isError()) return x;
  int rank = x.isAdaptive() ? 0 : x.type.rank();
  OpAttrs attrs;
  if (transpose) {
    if (rank < 2) {
      a.low.context().error(a.range, "transpose() needs at least two dimensions, got " + x.type.str());
      return Value::error(a.range);
    }
    for (int i = 0; i < rank; ++i) attrs.perm.push_back(i);
    std::swap(attrs.perm[rank - 1], attrs.perm[rank - 2]);
  } else {
    auto p = intList(a.low.context(), *a.call.args[1]);
    if (!p) return Value::error(a.range);
    for (int64_t& v : *p)
      if (v < 0) v += rank;
    attrs.perm = *p;
  }
  return a.low.makeOp(OpKind::Permute, attrs, {x}, a.range);
}

Value catFn(CallArgs& a) {
  if (!a.expect(1, 64, {"dim"})) return Value::error(a.range);
  std::vector<Value> parts;
  if (a.call.args.size() == 1 && a.call.args[0]->is<ast::Tuple>()) {
    for (const ast::ExprPtr& e : a.call.args[0]->as<ast::Tuple>()->elems) parts.push_back(a.low.lower(*e));
  } else {
    for (size_t i = 0; i < a.call.args.size(); ++i) parts.push_back(a.arg(i));
  }
  if (parts.empty()) {
    a.low.context().error(a.range, "cat() needs at least one tensor");
    return Value::error(a.range);
  }
  for (const Value& p : parts)
    if (p.isError()) return Value::error(a.range);
  int64_t axis = 0;
  if (const ast::Expr* d = a.kw("dim")) {
    auto l = intList(a.low.context(), *d);
    if (!l || l->size() != 1) return Value::error(a.range);
    axis = (*l)[0];
  }
  int rank = parts[0].isAdaptive() ? 0 : parts[0].type.rank();
  if (axis < 0) axis += rank;
  OpAttrs attrs;
  attrs.axis = axis;
  return a.low.makeOp(OpKind::Cat, attrs, parts, a.range);
}

Value castFn(CallArgs& a) {
  if (!a.expect(2, 2, {})) return Value::error(a.range);
  Value x = a.arg(0);
  const ast::Name* n = a.call.args[1]->as<ast::Name>();
  std::optional<DType> dt = n ? parseDType(n->name) : std::nullopt;
  if (!dt) {
    a.low.context().error(a.call.args[1]->range, "cast() expects a dtype: f32, f64, i32, i64 or bool");
    return Value::error(a.range);
  }
  OpAttrs attrs;
  attrs.dtype = *dt;
  return a.low.makeOp(OpKind::Cast, attrs, {x}, a.range);
}

Value whereFn(CallArgs& a) {
  if (!a.expect(3, 3, {})) return Value::error(a.range);
  return a.low.makeOp(OpKind::Where, {}, {a.arg(0), a.arg(1), a.arg(2)}, a.range);
}

Value minFn(CallArgs& a) {
  std::vector<Value> vals;
  for (size_t i = 0; i < a.call.args.size(); ++i) vals.push_back(a.arg(i));
  if (vals.size() >= 2 && a.call.kwargs.empty() &&
      std::all_of(vals.begin(), vals.end(), [](const Value& v) { return v.kind == Value::Kind::Index || (v.kind == Value::Kind::Number && v.number.isInt); })) {
    auto asIndex = [](const Value& v) { return v.kind == Value::Kind::Index ? v.index : IndexExpr(static_cast<int64_t>(v.number.value)); };
    IndexExpr acc = asIndex(vals[0]);
    for (size_t i = 1; i < vals.size(); ++i) acc = IndexExpr::min(acc, asIndex(vals[i]));
    return Value::ofIndex(acc, a.range);
  }
  a.low.context().error(a.range, "min() works on index values only; use minimum(a, b) for tensors");
  return Value::error(a.range);
}

/// detach(x): the value of x, through which grad() passes no gradient.
Value detachFn(CallArgs& a) {
  if (!a.expect(1, 1, {})) return Value::error(a.range);
  Value v = a.low.makeOp(OpKind::Identity, {}, {a.arg(0)}, a.range);
  if (v.kind == Value::Kind::Node) a.low.context().detached.insert(v.node);
  return v;
}

/// The backward graph of `loss` with the current detached nodes, made on first use.
BackwardGraph& backwardGraphOf(LoweringContext& cx, NodeId loss) {
  for (const std::unique_ptr<BackwardGraph>& bg : cx.backwardGraphs)
    if (bg->loss() == loss && bg->options().stopGradient == cx.detached) return *bg;
  AutodiffOptions options;
  options.stopGradient = cx.detached;
  return *cx.backwardGraphs.emplace_back(std::make_unique<BackwardGraph>(cx.graph, loss, options));
}

/// grad(loss, W): the gradient of the sum of `loss` over its domain with
/// respect to W, a tensor of W's type over W's domain, read like W itself.
/// Every grad() of one loss shares its backward graph (a let of it copies the
/// gradient into a node of its own).
Value gradFn(CallArgs& a) {
  if (!a.expect(2, 2, {})) return Value::error(a.range);
  LoweringContext& cx = a.low.context();
  const ast::Name* lossName = a.call.args[0]->as<ast::Name>();
  const TensorSymbol* loss = lossName ? cx.scope.tensor(lossName->name) : nullptr;
  if (!loss) {
    cx.error(a.call.args[0]->range, "grad() expects the name of a loss tensor as its first argument");
    return Value::error(a.range);
  }
  const ast::Name* targetName = a.call.args[1]->as<ast::Name>();
  const TensorSymbol* target = targetName ? cx.scope.tensor(targetName->name) : nullptr;
  if (!target) {
    cx.error(a.call.args[1]->range, "grad() expects the name of a tensor (such as a param) as its second argument");
    return Value::error(a.range);
  }
  if (loss->poisoned || target->poisoned) return Value::error(a.range);
  Value read = a.arg(1);  // W at this point: the gradient is read the same way
  if (read.isError()) return read;
  try {
    read.node = backwardGraphOf(cx, loss->node).gradients({target->node}).at(0);
  } catch (const AutodiffError& e) {
    cx.error(a.range, e.what());
    return Value::error(a.range);
  }
  return read;
}

}  // namespace

Value lowerSoftmax(ExprLowering& low, const Value& x, const std::vector<int64_t>& axes, bool logarithm,
                   SourceRange range) {
  Value m = reduce(low, OpKind::ReduceMax, x, axes, true, range);
  Value shifted = low.makeOp(OpKind::Sub, {}, {x, m}, range);
  Value e = low.makeOp(OpKind::Exp, {}, {shifted}, range);
  Value s = reduce(low, OpKind::ReduceSum, e, axes, true, range);
  if (!logarithm) return low.makeOp(OpKind::Div, {}, {e, s}, range);
  Value ls = low.makeOp(OpKind::Log, {}, {s}, range);
  return low.makeOp(OpKind::Sub, {}, {shifted, ls}, range);
}

namespace {

using Handler = std::function<Value(CallArgs&)>;

const std::map<std::string, Handler>& table() {
  static const std::map<std::string, Handler> t = {
      {"exp", [](CallArgs& a) { return unaryFn(a, OpKind::Exp); }},
      {"log", [](CallArgs& a) { return unaryFn(a, OpKind::Log); }},
      {"sqrt", [](CallArgs& a) { return unaryFn(a, OpKind::Sqrt); }},
      {"tanh", [](CallArgs& a) { return unaryFn(a, OpKind::Tanh); }},
      {"sigmoid", [](CallArgs& a) { return unaryFn(a, OpKind::Sigmoid); }},
      {"relu", [](CallArgs& a) { return unaryFn(a, OpKind::Relu); }},
      {"abs", [](CallArgs& a) { return unaryFn(a, OpKind::Abs); }},
      {"sin", [](CallArgs& a) { return unaryFn(a, OpKind::Sin); }},
      {"cos", [](CallArgs& a) { return unaryFn(a, OpKind::Cos); }},
      {"pow", [](CallArgs& a) { return binaryFn(a, OpKind::Pow); }},
      {"maximum", [](CallArgs& a) { return binaryFn(a, OpKind::Maximum); }},
      {"minimum", [](CallArgs& a) { return binaryFn(a, OpKind::Minimum); }},
      {"where", whereFn},
      {"sum", [](CallArgs& a) { return reduction(a, "sum"); }},
      {"mean", [](CallArgs& a) { return reduction(a, "mean"); }},
      {"max", [](CallArgs& a) { return reduction(a, "max"); }},
      {"argmax", argmaxFn},
      {"gather", gatherFn},
      {"take_along", takeAlongFn},
      {"topk", [](CallArgs& a) { return topkFn(a, true); }},
      {"argtopk", [](CallArgs& a) { return topkFn(a, false); }},
      {"min", minFn},
      {"softmax", [](CallArgs& a) { return softmax(a, false); }},
      {"log_softmax", [](CallArgs& a) { return softmax(a, true); }},
      {"reshape", [](CallArgs& a) { return toShapeFn(a, OpKind::Reshape); }},
      {"expand", [](CallArgs& a) { return toShapeFn(a, OpKind::Expand); }},
      {"transpose", [](CallArgs& a) { return permuteFn(a, true); }},
      {"permute", [](CallArgs& a) { return permuteFn(a, false); }},
      {"cat", catFn},
      {"cast", castFn},
      {"detach", detachFn},
      {"grad", gradFn},
      {"categorical", categoricalFn},
      {"normal", normalFn},
      {"uniform", uniformFn},
      {"one_hot", oneHotFn},
  };
  return t;
}

}  // namespace

std::vector<std::string> builtinNames() {
  std::vector<std::string> out;
  for (const auto& [name, h] : table()) out.push_back(name);
  return out;
}

Value lowerCall(ExprLowering& lowering, const ast::Call& call, SourceRange range) {
  const std::string& f = call.callee.name;
  auto it = table().find(f);
  if (it == table().end()) {
    static const std::set<std::string> initialisers = {"load", "zeros", "ones", "hash"};
    if (initialisers.count(f))
      lowering.context().error(call.callee.range, f + "() can only initialise an input or param declaration");
    else
      lowering.context().error(call.callee.range, "unknown function '" + f + "'");
    return Value::error(range);
  }
  CallArgs args(lowering, call, range);
  return it->second(args);
}

}  // namespace tempo
