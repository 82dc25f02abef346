#include "frontend/SamplingBuiltins.h"

#include "frontend/Builtins.h"
#include "frontend/IndexLowering.h"
#include "ops/TypeInference.h"

#include <optional>

namespace tempo {

namespace {

/// The non-negative integer `seed=` (required); nullopt after reporting.
std::optional<uint64_t> seedArg(CallArgs& a) {
  const ast::Expr* e = a.kw("seed");
  if (!e) {
    a.fail(a.call.callee.name + "() needs the argument seed= (a non-negative integer): draws are deterministic given it");
    return std::nullopt;
  }
  auto c = foldConstant(a.low.context(), *e);
  if (!c) return std::nullopt;
  if (!c->isInt || c->value < 0) {
    a.low.context().error(e->range, "seed= must be a non-negative integer constant");
    return std::nullopt;
  }
  return static_cast<uint64_t>(c->value);
}

/// True when no size of `shape` depends on a dimension (a source's element shape
/// is the same at every point of its domain); reports otherwise.
bool staticShape(CallArgs& a, const TensorType& type, const std::string& what) {
  for (const IndexExpr& s : type.shape)
    if (s.dependsOnKind(SymbolKind::Dim)) {
      a.fail(a.call.callee.name + "(): " + what + " has the shape " + type.shapeStr() +
             ", which changes from point to point; draws need a shape that does not depend on dimensions");
      return false;
    }
  return true;
}

/// A constant tensor (a source over no dimension).
Value constant(ExprLowering& low, double value, DType dtype, std::vector<IndexExpr> shape, SourceRange r) {
  OpAttrs attrs;
  attrs.value = value;
  return low.makeSource(OpKind::Constant, attrs, {}, TensorType{dtype, std::move(shape)}, r);
}

Value reshape(ExprLowering& low, const Value& x, std::vector<IndexExpr> shape, SourceRange r) {
  OpAttrs attrs;
  attrs.shape = std::move(shape);
  return low.makeOp(OpKind::Reshape, attrs, {x}, r);
}

Value slice(ExprLowering& low, const Value& x, int64_t axis, int64_t start, int64_t stop, SourceRange r) {
  OpAttrs attrs;
  attrs.axis = axis;
  attrs.start = IndexExpr(start);
  attrs.stop = IndexExpr(stop);
  return low.makeOp(OpKind::Slice, attrs, {x}, r);
}

Value cast(ExprLowering& low, const Value& x, DType dtype, SourceRange r) {
  if (!x.isAdaptive() && x.type.dtype == dtype) return x;
  OpAttrs attrs;
  attrs.dtype = dtype;
  return low.makeOp(OpKind::Cast, attrs, {x}, r);
}

/// U[j, c] = 1 if j <= c else 0, of shape [K, C] (C <= K), from constants only.
/// v = cat(ones[K], zeros[K]) repeated K times is periodic with period 2K; read
/// with row stride 2K - 1 (one less than the period), row j column c holds
/// v[(c - j) mod 2K], which is 1 exactly when 0 <= c - j < K, i.e. j <= c.
Value upperTriangle(ExprLowering& low, int64_t K, int64_t C, DType dtype, SourceRange r) {
  OpAttrs catAttrs;
  catAttrs.axis = 0;
  Value v = low.makeOp(OpKind::Cat, catAttrs,
                       {constant(low, 1, dtype, {IndexExpr(K)}, r), constant(low, 0, dtype, {IndexExpr(K)}, r)}, r);
  OpAttrs expand;
  expand.shape = {IndexExpr(K), IndexExpr(2 * K)};
  Value tiled = reshape(low, low.makeOp(OpKind::Expand, expand, {v}, r), {IndexExpr(2 * K * K)}, r);
  Value rows = reshape(low, slice(low, tiled, 0, 0, K * (2 * K - 1), r), {IndexExpr(K), IndexExpr(2 * K - 1)}, r);
  return slice(low, rows, 1, 0, C, r);
}

/// The constant size of `type`'s last axis (at least 1); nullopt after reporting.
std::optional<int64_t> classCount(CallArgs& a, const TensorType& type) {
  std::optional<int64_t> k = type.shape.back().constantValue();
  if (!k || *k < 1) {
    a.fail(a.call.callee.name + "() needs a constant number of classes in the last axis, not " + type.str());
    return std::nullopt;
  }
  return k;
}

/// A keyword argument lowered at the call's site, or `fallback` when absent.
Value kwValue(CallArgs& a, const std::string& name, double fallback) {
  if (const ast::Expr* e = a.kw(name)) return a.low.lower(*e);
  return Value::ofNumber({fallback, false}, a.range);
}

/// The `shape=` of a draw: a tuple of sizes made of constants and bounds; nullopt after reporting.
std::optional<std::vector<IndexExpr>> drawShape(CallArgs& a) {
  std::vector<IndexExpr> shape;
  const ast::Expr* e = a.kw("shape");
  if (!e) return shape;
  if (auto* t = e->as<ast::Tuple>(); t && t->elems.empty()) return shape;
  for (const ast::Expr* x : tupleItems(*e)) {
    auto s = lowerIndexExpr(a.low.context(), *x, {}, "shape size");
    if (!s) return std::nullopt;
    shape.push_back(*s);
  }
  return shape;
}

/// normal(mean=, std=, seed=, shape=) and uniform(low=, high=, seed=, shape=): a
/// standard draw of `op` over the site's domain, scaled by `scaleName` and shifted
/// by `shiftName` (for uniform, low + (high - low) u).
Value drawFn(CallArgs& a, OpKind op, const std::string& shiftName, const std::string& scaleName, double shift0,
             double scale0) {
  if (!a.expect(0, 0, {shiftName, scaleName, "seed", "shape"})) return Value::error(a.range);
  auto seed = seedArg(a);
  auto shape = drawShape(a);
  Value shift = kwValue(a, shiftName, shift0), second = kwValue(a, scaleName, scale0);
  if (!seed || !shape || shift.isError() || second.isError()) return Value::error(a.range);
  ExprLowering& low = a.low;
  const Site& site = low.site();
  if (shift.isAdaptive() && second.isAdaptive()) {  // the source itself draws mean + std z (low + (high - low) u)
    OpAttrs attrs;
    attrs.seed = *seed;
    attrs.a = shift.number.value;
    attrs.b = second.number.value;
    if (shift.kind == Value::Kind::Index || second.kind == Value::Kind::Index)
      return a.fail(a.call.callee.name + "(): " + shiftName + "= and " + scaleName +
                    "= must be numbers or float tensors, not index values");
    return low.makeSource(op, attrs, site.domain, TensorType{DType::F32, *shape}, a.range);
  }
  DType dtype = low.commonDType({shift, second});
  if (!isFloat(dtype))
    return a.fail(a.call.callee.name + "() needs float " + shiftName + "= and " + scaleName + "=, not " +
                  std::string(dtypeName(dtype)));
  std::vector<IndexExpr> drawn = *shape;
  for (const Value* v : {&shift, &second}) {
    if (v->isAdaptive()) continue;
    if (!staticShape(a, v->type, shiftName + "=/" + scaleName + "=")) return Value::error(a.range);
    auto b = broadcastShapes(drawn, v->type.shape);
    if (!b)
      return a.fail(a.call.callee.name + "(): the shape " + v->type.shapeStr() + " does not broadcast with " +
                    TensorType{dtype, drawn}.shapeStr());
    drawn = *b;
  }
  OpAttrs standard;
  standard.seed = *seed;
  standard.a = 0.0;
  standard.b = 1.0;
  Value z = low.makeSource(op, standard, site.domain, TensorType{dtype, drawn}, a.range);
  Value scale = second;
  if (op == OpKind::RandomUniform) scale = low.makeOp(OpKind::Sub, {}, {second, shift}, a.range);  // high - low
  Value drawnValue = low.makeOp(OpKind::Add, {}, {shift, low.makeOp(OpKind::Mul, {}, {scale, z}, a.range)}, a.range);
  Value v = low.makeOp(OpKind::Identity, {}, {drawnValue}, a.range);
  if (v.kind == Value::Kind::Node) low.context().detached.insert(v.node);  // a sample passes no gradient
  return v;
}

}  // namespace

Value categoricalFn(CallArgs& a) {
  if (!a.expect(1, 1, {"seed"})) return Value::error(a.range);
  auto seed = seedArg(a);
  Value logits = a.arg(0);
  if (logits.isError() || !seed) return Value::error(a.range);
  if (logits.isAdaptive() || logits.type.rank() == 0 || !isFloat(logits.type.dtype))
    return a.fail("categorical() needs float logits with the classes in the last axis, not " +
                  (logits.isAdaptive() ? std::string("a number") : logits.type.str()));
  if (!staticShape(a, logits.type, "the logits")) return Value::error(a.range);
  auto K = classCount(a, logits.type);
  if (!K) return Value::error(a.range);
  ExprLowering& low = a.low;
  const TensorType& t = logits.type;
  std::vector<IndexExpr> leading(t.shape.begin(), t.shape.end() - 1);
  OpAttrs uniform;
  uniform.seed = *seed;
  uniform.a = 0.0;
  uniform.b = 1.0;
  Value u = low.makeSource(OpKind::RandomUniform, uniform, low.site().domain, TensorType{t.dtype, leading}, a.range);
  if (*K == 1) return low.makeOp(OpKind::Mul, {}, {cast(low, u, DType::I64, a.range), Value::ofNumber({0, true}, a.range)}, a.range);
  // sample = #{k < K-1 : cdf[k] < u}: class k is drawn when cdf[k-1] < u <= cdf[k].
  // The last cumulative probability is left out, so rounding cannot give K.
  Value p = lowerSoftmax(low, logits, {t.rank() - 1}, false, a.range);
  Value cdf = low.makeOp(OpKind::MatMul, {}, {p, upperTriangle(low, *K, *K - 1, t.dtype, a.range)}, a.range);
  std::vector<IndexExpr> column = leading;
  column.push_back(IndexExpr(1));
  Value below = low.makeOp(OpKind::Lt, {}, {cdf, reshape(low, u, column, a.range)}, a.range);
  OpAttrs sum;
  sum.axes = {t.rank() - 1};
  return low.makeOp(OpKind::ReduceSum, sum, {cast(low, below, DType::I64, a.range)}, a.range);
}

Value normalFn(CallArgs& a) { return drawFn(a, OpKind::RandomNormal, "mean", "std", 0.0, 1.0); }

Value uniformFn(CallArgs& a) { return drawFn(a, OpKind::RandomUniform, "low", "high", 0.0, 1.0); }

Value oneHotFn(CallArgs& a) {
  if (!a.expect(2, 2, {})) return Value::error(a.range);
  Value index = a.arg(0);
  if (index.isError()) return index;
  if (index.kind == Value::Kind::Number && !index.number.isInt)
    return a.fail("one_hot() needs integer class indices, not the number " + numberString(index.number.value));
  TensorType indexType = a.low.typeOf(index, DType::I64);
  if (indexType.dtype == DType::Bool)
    return a.fail("one_hot() needs class indices (such as categorical()'s i64 samples), not " + indexType.str());
  auto k = foldConstant(a.low.context(), *a.call.args[1]);
  if (!k) return Value::error(a.range);
  if (!k->isInt || k->value < 1) {
    a.low.context().error(a.call.args[1]->range, "one_hot() needs a positive integer number of classes");
    return Value::error(a.range);
  }
  int64_t K = static_cast<int64_t>(k->value);
  ExprLowering& low = a.low;
  // iota[c] = c: the column sums of U minus one.
  Value ones = constant(low, 1, DType::F32, {IndexExpr(K)}, a.range);
  Value counts = low.makeOp(OpKind::MatMul, {}, {ones, upperTriangle(low, K, K, DType::F32, a.range)}, a.range);
  Value iota = low.makeOp(OpKind::Sub, {}, {counts, Value::ofNumber({1, true}, a.range)}, a.range);
  std::vector<IndexExpr> column = indexType.shape;
  column.push_back(IndexExpr(1));
  Value at = reshape(low, cast(low, index, DType::F32, a.range), column, a.range);
  Value hit = low.makeOp(OpKind::Eq, {}, {at, iota}, a.range);
  return cast(low, hit, DType::F32, a.range);
}

}  // namespace tempo
