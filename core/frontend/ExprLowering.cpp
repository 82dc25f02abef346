#include "frontend/ExprLowering.h"

#include "frontend/Builtins.h"
#include "frontend/IndexLowering.h"
#include "ops/TypeInference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tempo {

Value Value::ofNumber(ConstNumber n, SourceRange r) {
  Value v;
  v.kind = Kind::Number;
  v.number = n;
  v.range = r;
  return v;
}

Value Value::ofIndex(IndexExpr e, SourceRange r) {
  if (auto c = e.constantValue()) return ofNumber({static_cast<double>(*c), true}, r);
  Value v;
  v.kind = Kind::Index;
  v.index = std::move(e);
  v.range = r;
  return v;
}

namespace {

std::optional<OpKind> binaryOpKind(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::Add: return OpKind::Add;
    case ast::BinaryOp::Sub: return OpKind::Sub;
    case ast::BinaryOp::Mul: return OpKind::Mul;
    case ast::BinaryOp::Div: return OpKind::Div;
    case ast::BinaryOp::MatMul: return OpKind::MatMul;
    case ast::BinaryOp::Lt: return OpKind::Lt;
    case ast::BinaryOp::Le: return OpKind::Le;
    case ast::BinaryOp::Gt: return OpKind::Gt;
    case ast::BinaryOp::Ge: return OpKind::Ge;
    case ast::BinaryOp::Eq: return OpKind::Eq;
    case ast::BinaryOp::Ne: return OpKind::Ne;
    case ast::BinaryOp::And: return OpKind::And;
    case ast::BinaryOp::Or: return OpKind::Or;
    default: return std::nullopt;
  }
}

std::optional<ConstNumber> foldBinary(ast::BinaryOp op, ConstNumber a, ConstNumber b) {
  bool ints = a.isInt && b.isInt;
  switch (op) {
    case ast::BinaryOp::Add: return ConstNumber{a.value + b.value, ints};
    case ast::BinaryOp::Sub: return ConstNumber{a.value - b.value, ints};
    case ast::BinaryOp::Mul: return ConstNumber{a.value * b.value, ints};
    case ast::BinaryOp::Div:
      if (b.value == 0) return std::nullopt;
      return ConstNumber{a.value / b.value, ints && std::fmod(a.value, b.value) == 0};
    default: return std::nullopt;
  }
}

std::string formatNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string atomsText(const std::string& name, const std::vector<IndexAtom>& atoms) {
  std::string s = name + "[";
  for (size_t i = 0; i < atoms.size(); ++i) s += (i ? ", " : "") + atoms[i].str();
  return s + "]";
}

std::string exampleText(const SymbolEnv& env, const std::vector<std::string>& dims,
                         const std::vector<std::string>& bounds) {
  std::string s;
  for (const std::string& d : dims)
    if (env.count(d)) s += (s.empty() ? "" : ", ") + d + " = " + std::to_string(env.at(d));
  std::string b;
  for (const std::string& n : bounds)
    if (env.count(n)) b += (b.empty() ? "" : ", ") + n + " = " + std::to_string(env.at(n));
  if (s.empty()) return "when " + b;
  return "at " + s + " when " + b;
}

}  // namespace

NodeId ExprLowering::addNode(OpKind op, OpAttrs attrs, std::vector<std::string> domain, TensorType type,
                             SourceRange range) {
  Node n;
  n.op = op;
  n.attrs = std::move(attrs);
  n.domain = std::move(domain);
  n.type = std::move(type);
  n.loc = range;
  NodeId id = cx_.graph.addNode(std::move(n));
  if (!site_.region.isAlways()) cx_.nodeRegion[id] = site_.region;
  return id;
}

Value ExprLowering::lower(const ast::Expr& e) {
  if (auto* i = e.as<ast::IntLit>()) return Value::ofNumber({static_cast<double>(i->value), true}, e.range);
  if (auto* f = e.as<ast::FloatLit>()) return Value::ofNumber({f->value, false}, e.range);
  if (auto* b = e.as<ast::BoolLit>()) {
    OpAttrs a;
    a.value = b->value ? 1 : 0;
    Value v;
    v.kind = Value::Kind::Read;
    v.node = addNode(OpKind::Constant, a, {}, TensorType{DType::Bool, {}}, e.range);
    v.type = TensorType{DType::Bool, {}};
    v.range = e.range;
    return v;
  }
  if (e.is<ast::StringLit>()) {
    cx_.error(e.range, "a string can only be the path of load(\"...\")");
    return Value::error(e.range);
  }
  if (auto* n = e.as<ast::Name>()) return lowerName(e, n->name);
  if (auto* u = e.as<ast::Unary>()) {
    Value x = lower(*u->operand);
    if (x.isError()) return x;
    if (u->op == ast::UnaryOp::Not) return makeOp(OpKind::Not, {}, {x}, e.range);
    if (x.kind == Value::Kind::Number) return Value::ofNumber({-x.number.value, x.number.isInt}, e.range);
    if (x.kind == Value::Kind::Index) return Value::ofIndex(-x.index, e.range);
    return makeOp(OpKind::Neg, {}, {x}, e.range);
  }
  if (auto* b = e.as<ast::Binary>()) return lowerBinary(e, *b);
  if (auto* ix = e.as<ast::Index>()) return lowerIndex(e, *ix);
  if (auto* c = e.as<ast::Call>()) return lowerCall(*this, *c, e.range);
  cx_.error(e.range, "a tuple cannot be used as a value here");
  return Value::error(e.range);
}

Value ExprLowering::lowerName(const ast::Expr& e, const std::string& name) {
  switch (cx_.scope.kindOf(name)) {
    case Scope::NameKind::Dim:
      if (std::find(site_.domain.begin(), site_.domain.end(), name) == site_.domain.end()) {
        cx_.error(e.range, "dimension '" + name + "' is not in the domain " + tupleString(site_.domain) +
                               " of this expression");
        return Value::error(e.range);
      }
      return Value::ofIndex(IndexExpr::dim(name), e.range);
    case Scope::NameKind::Bound: return Value::ofIndex(IndexExpr::bound(name), e.range);
    case Scope::NameKind::Const: return Value::ofNumber(*cx_.scope.constant(name), e.range);
    case Scope::NameKind::Tensor: {
      const TensorSymbol& t = *cx_.scope.tensor(name);
      if (t.poisoned) return Value::error(e.range);
      return lowerRead(t, {}, e.range);
    }
    case Scope::NameKind::None:
      if (parseDType(name))
        cx_.error(e.range, "'" + name + "' is a dtype; it can only be used as in cast(x, " + name + ")");
      else
        cx_.error(e.range, "unknown name '" + name + "'");
      return Value::error(e.range);
  }
  return Value::error(e.range);
}

Value ExprLowering::lowerBinary(const ast::Expr& e, const ast::Binary& b) {
  Value l = lower(*b.lhs);
  Value r = lower(*b.rhs);
  if (l.isError() || r.isError()) return Value::error(e.range);
  if (l.kind == Value::Kind::Number && r.kind == Value::Kind::Number) {
    if (auto folded = foldBinary(b.op, l.number, r.number)) return Value::ofNumber(*folded, e.range);
  }
  bool indexArith = l.isAdaptive() && r.isAdaptive() && (l.kind == Value::Kind::Index || r.kind == Value::Kind::Index);
  if (indexArith && (l.kind == Value::Kind::Index || l.number.isInt) && (r.kind == Value::Kind::Index || r.number.isInt)) {
    IndexExpr li = l.kind == Value::Kind::Index ? l.index : IndexExpr(static_cast<int64_t>(l.number.value));
    IndexExpr ri = r.kind == Value::Kind::Index ? r.index : IndexExpr(static_cast<int64_t>(r.number.value));
    if (b.op == ast::BinaryOp::Add) return Value::ofIndex(li + ri, e.range);
    if (b.op == ast::BinaryOp::Sub) return Value::ofIndex(li - ri, e.range);
    if (b.op == ast::BinaryOp::Mul)
      if (auto p = IndexExpr::multiply(li, ri)) return Value::ofIndex(*p, e.range);
  }
  bool divOrMod = b.op == ast::BinaryOp::FloorDiv || b.op == ast::BinaryOp::Mod;
  if (divOrMod && l.isAdaptive() && r.isAdaptive() && (l.kind == Value::Kind::Index || l.number.isInt) &&
      r.kind == Value::Kind::Number && r.number.isInt && r.number.value > 0) {
    IndexExpr li = l.kind == Value::Kind::Index ? l.index : IndexExpr(static_cast<int64_t>(l.number.value));
    auto c = static_cast<int64_t>(r.number.value);
    return Value::ofIndex(b.op == ast::BinaryOp::FloorDiv ? IndexExpr::floorDiv(li, c) : IndexExpr::mod(li, c), e.range);
  }
  auto op = binaryOpKind(b.op);
  if (!op) {
    cx_.error(b.opRange, "operator '" + std::string(ast::binaryOpSpelling(b.op)) +
                             "' works on integer index values and constants only (its right side must be a positive integer)");
    return Value::error(e.range);
  }
  return makeOp(*op, {}, {l, r}, e.range);
}

Value ExprLowering::lowerIndex(const ast::Expr& e, const ast::Index& ix) {
  const ast::Name* base = ix.base->as<ast::Name>();
  if (!base) {
    cx_.error(ix.base->range, "only a named tensor can be indexed (write the value as a let first)");
    return Value::error(e.range);
  }
  const TensorSymbol* t = cx_.scope.tensor(base->name);
  if (!t) {
    if (!cx_.scope.isDeclared(base->name)) cx_.error(ix.base->range, "unknown name '" + base->name + "'");
    else cx_.error(ix.base->range, "'" + base->name + "' is not a tensor, so it cannot be indexed");
    return Value::error(e.range);
  }
  if (t->poisoned) return Value::error(e.range);
  Value v = lowerRead(*t, ix.items, e.range);
  if (!ix.hasSpatial || v.isError()) return v;
  return lowerSpatial(v, ix.spatial, t->name, e.range);
}

Value ExprLowering::lowerSpatial(Value v, const std::vector<ast::IndexItem>& items, const std::string& name,
                                 SourceRange range) {
  const TensorType type = typeOf(v, DType::F32);
  if (items.size() > type.shape.size()) {
    cx_.error(items[type.shape.size()].range, "'" + name + "' has " + std::to_string(type.shape.size()) +
                                                  " spatial axes (" + type.str() + ") but " +
                                                  std::to_string(items.size()) + " indices follow ';'");
    return Value::error(range);
  }
  std::vector<bool> point(type.shape.size(), false);
  for (size_t axis = 0; axis < items.size(); ++axis) {
    const ast::IndexItem& item = items[axis];
    const IndexExpr size = type.shape[axis];
    auto bound = [&](const ast::ExprPtr& e, IndexExpr fallback) -> std::optional<IndexExpr> {
      if (!e) return fallback;
      std::optional<IndexExpr> x = lowerIndexExpr(cx_, *e, site_.domain, "index");
      // A negative constant counts from the end of an axis of constant size, as in NumPy.
      if (x && x->constantValue() && *x->constantValue() < 0 && size.constantValue()) x = *x + size;
      return x;
    };
    bool isPoint = item.kind == ast::IndexItem::Kind::Point;
    std::optional<IndexExpr> lo = bound(isPoint ? item.point : item.lo, IndexExpr(0));
    if (!lo) return Value::error(range);
    std::optional<IndexExpr> hi = isPoint ? std::optional<IndexExpr>(*lo + 1) : bound(item.hi, size);
    if (!hi) return Value::error(range);
    auto l = lo->constantValue(), h = hi->constantValue(), n = size.constantValue();
    if (l && h && n && (*l < 0 || *h > *n || *l >= *h)) {
      std::string what = isPoint ? "index " + std::to_string(*l) : "slice " + std::to_string(*l) + ":" + std::to_string(*h);
      bool empty = *l >= *h && !isPoint;
      cx_.error(item.range, what + (empty ? " is empty" : " is outside an axis of " + std::to_string(*n)) + " (axis " +
                                std::to_string(axis) + " of '" + name + "', " + type.str() + ")");
      return Value::error(range);
    }
    point[axis] = isPoint;
    if (*lo == IndexExpr(0) && *hi == size) continue;  // the whole axis
    OpAttrs attrs;
    attrs.axis = static_cast<int64_t>(axis);
    attrs.start = *lo;
    attrs.stop = *hi;
    v = makeOp(OpKind::Slice, attrs, {v}, range);
    if (v.isError()) return v;
  }
  if (std::find(point.begin(), point.end(), true) == point.end()) return v;
  const TensorType sliced = typeOf(v, DType::F32);
  OpAttrs attrs;
  for (size_t axis = 0; axis < sliced.shape.size(); ++axis)
    if (!point[axis]) attrs.shape.push_back(sliced.shape[axis]);
  return makeOp(OpKind::Reshape, attrs, {v}, range);
}

Value ExprLowering::lowerRead(const TensorSymbol& t, const std::vector<ast::IndexItem>& items, SourceRange range) {
  const auto& pd = t.domain;
  bool named = !items.empty() && items[0].dim.has_value();
  if (!items.empty() && !named && items.size() != pd.size()) {
    cx_.error(range, "'" + t.name + "' has " + std::to_string(pd.size()) + " dimension" + (pd.size() == 1 ? "" : "s") +
                         " " + tupleString(pd) + " but is indexed with " + std::to_string(items.size()));
    return Value::error(range);
  }
  std::vector<const ast::IndexItem*> byDim(pd.size(), nullptr);
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].dim.has_value() != named) {
      cx_.error(items[i].range, "do not mix named (t=...) and positional indices");
      return Value::error(range);
    }
    if (!named) { byDim[i] = &items[i]; continue; }
    auto it = std::find(pd.begin(), pd.end(), items[i].dim->name);
    if (it == pd.end()) {
      cx_.error(items[i].dim->range, "'" + t.name + "' has no dimension '" + items[i].dim->name + "'; its domain is " + tupleString(pd));
      return Value::error(range);
    }
    byDim[it - pd.begin()] = &items[i];
  }
  std::vector<IndexAtom> atoms;
  std::vector<SourceRange> itemRanges;
  bool ok = true;
  for (size_t i = 0; i < pd.size(); ++i) {
    const ast::IndexItem* item = byDim[i];
    if (!item) {
      if (std::find(site_.domain.begin(), site_.domain.end(), pd[i]) == site_.domain.end()) {
        cx_.error(range, "'" + t.name + "' is defined over " + tupleString(pd) + ", but dimension '" + pd[i] +
                             "' is not in the domain " + tupleString(site_.domain) + " of this expression; index it, e.g. " +
                             t.name + "[" + pd[i] + "=0]");
        return Value::error(range);
      }
      atoms.push_back(IndexAtom::point(IndexExpr::dim(pd[i])));
      itemRanges.push_back(range);
      continue;
    }
    itemRanges.push_back(item->range);
    if (item->kind == ast::IndexItem::Kind::Point) {
      auto e = lowerIndexExpr(cx_, *item->point, site_.domain, "index");
      if (!e) { ok = false; continue; }
      atoms.push_back(IndexAtom::point(*e));
    } else {
      auto lo = item->lo ? lowerIndexExpr(cx_, *item->lo, site_.domain, "slice bound") : std::optional<IndexExpr>(0);
      auto hi = item->hi ? lowerIndexExpr(cx_, *item->hi, site_.domain, "slice bound")
                         : std::optional<IndexExpr>(IndexExpr::bound(cx_.scope.boundOf(pd[i])));
      if (!lo || !hi) { ok = false; continue; }
      atoms.push_back(IndexAtom::slice(*lo, *hi));
    }
  }
  if (!ok) return Value::error(range);
  // The producer's shape may mention its own dimensions: substitute the read point.
  std::map<std::string, IndexExpr> subst;
  for (size_t i = 0; i < pd.size(); ++i) {
    bool inShape = false;
    for (const IndexExpr& s : t.type.shape) inShape = inShape || s.dependsOn(pd[i]);
    if (!inShape) continue;
    if (atoms[i].isSlice()) {
      cx_.error(itemRanges[i], "cannot slice '" + t.name + "' along '" + pd[i] + "': its shape depends on '" + pd[i] + "'");
      return Value::error(range);
    }
    subst[pd[i]] = atoms[i].start;
  }
  if (!checkReadInBounds(t, atoms, itemRanges, range)) return Value::error(range);
  Value v;
  v.kind = Value::Kind::Read;
  v.node = t.node;
  v.atoms = atoms;
  v.range = range;
  v.type = t.type;
  for (IndexExpr& s : v.type.shape) s = s.substitute(subst);
  std::vector<IndexExpr> lead;
  for (const IndexAtom& a : atoms)
    if (a.isSlice()) lead.push_back(a.size());
  v.type.shape.insert(v.type.shape.begin(), lead.begin(), lead.end());
  return v;
}

bool ExprLowering::checkReadInBounds(const TensorSymbol& t, const std::vector<IndexAtom>& atoms,
                                     const std::vector<SourceRange>& itemRanges, SourceRange range) {
  if (atoms.empty()) return true;
  PointSet points = cx_.sitePoints(site_);
  if (points.isEmpty()) return true;
  auto params = cx_.params();
  bool ok = true;
  auto violation = [&](size_t i, const std::vector<Constraint>& c, const std::string& what) {
    PointSet bad = points.intersect(PointSet::fromConstraints(cx_.isl, site_.domain, params, c));
    if (bad.isEmpty()) return false;
    auto ex = bad.sample();
    std::string msg = "'" + atomsText(t.name, atoms) + "' reads outside the domain of '" + t.name + "': " + what;
    if (ex) msg += " (for example " + exampleText(*ex, site_.domain, params) + ")";
    cx_.error(itemRanges[i].valid() ? itemRanges[i] : range, msg);
    ok = false;
    return true;
  };
  using R = Constraint::Rel;
  for (size_t i = 0; i < atoms.size(); ++i) {
    IndexExpr bound = IndexExpr::bound(cx_.scope.boundOf(t.domain[i]));
    const IndexAtom& a = atoms[i];
    std::string bn = bound.str();
    if (!a.isSlice()) {
      if (violation(i, {{a.start, R::Ge, bound}}, a.start.str() + " can reach " + bn)) continue;
      violation(i, {{a.start, R::Lt, IndexExpr(0)}}, a.start.str() + " can be negative");
    } else {
      if (violation(i, {{a.start, R::Lt, IndexExpr(0)}}, "the slice start " + a.start.str() + " can be negative")) continue;
      if (violation(i, {{*a.stop, R::Gt, bound}}, "the slice end " + a.stop->str() + " can exceed " + bn)) continue;
      violation(i, {{a.start, R::Gt, *a.stop}}, "the slice start " + a.start.str() + " can exceed its end " + a.stop->str());
    }
  }
  return ok;
}

DType ExprLowering::commonDType(const std::vector<Value>& operands) const {
  for (const Value& v : operands)
    if (!v.isAdaptive() && !v.isError() && v.type.dtype != DType::Bool) return v.type.dtype;
  for (const Value& v : operands)
    if (!v.isAdaptive() && !v.isError()) return v.type.dtype;
  for (const Value& v : operands)
    if (v.kind == Value::Kind::Number && !v.number.isInt) return DType::F32;
  return DType::I64;
}

TensorType ExprLowering::typeOf(const Value& v, DType dtype) const {
  if (v.isAdaptive()) return TensorType{dtype, {}};
  return v.type;
}

std::pair<NodeId, std::vector<IndexAtom>> ExprLowering::materialize(const Value& v, DType dtype) {
  if (v.kind == Value::Kind::Number) {
    OpAttrs a;
    a.value = v.number.value;
    return {addNode(OpKind::Constant, a, {}, TensorType{dtype, {}}, v.range), {}};
  }
  if (v.kind == Value::Kind::Index) {
    std::vector<std::string> used;
    for (const Symbol& s : v.index.symbols())
      if (s.kind == SymbolKind::Dim) used.push_back(s.name);
    std::vector<std::string> domain = cx_.scope.inDeclarationOrder(used);
    OpAttrs a;
    a.index = v.index;
    NodeId id = addNode(OpKind::EvalIndex, a, domain, TensorType{dtype, {}}, v.range);
    std::vector<IndexAtom> atoms;
    for (const std::string& d : domain) atoms.push_back(IndexAtom::point(IndexExpr::dim(d)));
    return {id, atoms};
  }
  if (v.kind == Value::Kind::Node) {
    std::vector<IndexAtom> atoms;
    for (const std::string& d : cx_.graph.node(v.node).domain) atoms.push_back(IndexAtom::point(IndexExpr::dim(d)));
    return {v.node, atoms};
  }
  return {v.node, v.atoms};
}

void ExprLowering::connect(NodeId consumer, int slot, const Value& v, DType dtype, Condition cond) {
  auto [producer, atoms] = materialize(v, dtype);
  Edge e;
  e.consumer = consumer;
  e.inputIndex = slot;
  e.producer = producer;
  e.index = std::move(atoms);
  e.condition = std::move(cond);
  if (v.kind == Value::Kind::Read) e.loc = v.range;
  cx_.graph.addEdge(std::move(e));
}

Value ExprLowering::makeSource(OpKind op, OpAttrs attrs, std::vector<std::string> domain, TensorType type,
                               SourceRange range) {
  Value v;
  v.kind = Value::Kind::Node;
  v.node = addNode(op, std::move(attrs), std::move(domain), type, range);
  v.type = std::move(type);
  v.range = range;
  return v;
}

Value ExprLowering::makeOp(OpKind op, OpAttrs attrs, const std::vector<Value>& operands, SourceRange range) {
  for (const Value& v : operands)
    if (v.isError()) return Value::error(range);
  std::vector<Value> values(operands.begin(), operands.end());
  if (op == OpKind::Where) values.erase(values.begin());
  DType dtype = commonDType(values);
  bool allAdaptive = std::all_of(values.begin(), values.end(), [](const Value& v) { return v.isAdaptive(); });
  if (op == OpKind::Div && allAdaptive) dtype = DType::F32;  // `/` is true division, even of index values
  if (op == OpKind::Where && operands[0].isAdaptive()) {
    cx_.error(operands[0].range, "the condition of where() must be a bool tensor, such as a comparison");
    return Value::error(range);
  }
  for (const Value& v : values)
    if (v.kind == Value::Kind::Number && !v.number.isInt && !isFloat(dtype)) {
      cx_.error(v.range, "the number " + formatNumber(v.number.value) + " is not an integer, so it cannot be used as " +
                             std::string(dtypeName(dtype)) + " (cast the other operand to a float type)");
      return Value::error(range);
    }
  std::vector<TensorType> types;
  for (size_t i = 0; i < operands.size(); ++i)
    types.push_back(typeOf(operands[i], op == OpKind::Where && i == 0 ? DType::Bool : dtype));
  TypeResult r = inferType(op, attrs, types);
  if (auto* msg = std::get_if<std::string>(&r)) {
    cx_.error(range, *msg);
    return Value::error(range);
  }
  TensorType type = std::get<TensorType>(r);
  NodeId id = addNode(op, attrs, site_.domain, type, range);
  for (size_t i = 0; i < operands.size(); ++i)
    connect(id, static_cast<int>(i), operands[i], op == OpKind::Where && i == 0 ? DType::Bool : dtype);
  Value v;
  v.kind = Value::Kind::Node;
  v.node = id;
  v.type = type;
  v.range = range;
  return v;
}

}  // namespace tempo
