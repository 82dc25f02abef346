#include "autodiff/AdjointBuilder.h"

#include "ops/TypeInference.h"

#include <algorithm>

namespace tempo {

bool isDifferentiableType(const TensorType& t) { return isFloat(t.dtype); }

std::vector<IndexAtom> AdjointBuilder::identityAtoms(NodeId producer) const {
  std::vector<IndexAtom> atoms;
  for (const std::string& d : g_.node(producer).domain) {
    if (std::find(domain_.begin(), domain_.end(), d) == domain_.end())
      throw AutodiffError("autodiff: cannot read %" + std::to_string(producer) + " over dimension '" + d +
                          "' from a node without it");
    atoms.push_back(IndexAtom::point(IndexExpr::dim(d)));
  }
  return atoms;
}

TensorType AdjointBuilder::readType(const AdjointInput& in) const {
  Edge e;
  e.producer = in.node;
  e.index = in.identity ? identityAtoms(in.node) : in.index;
  return g_.readType(e);
}

NodeId AdjointBuilder::typed(OpKind op, const TensorType& type, std::vector<AdjointInput> inputs, OpAttrs attrs) {
  Node n;
  n.op = op;
  n.attrs = std::move(attrs);
  n.domain = domain_;
  n.type = type;
  n.loc = loc_;
  NodeId id = g_.addNode(std::move(n));
  for (size_t i = 0; i < inputs.size(); ++i) connect(id, static_cast<int>(i), inputs[i]);
  return id;
}

void AdjointBuilder::connect(NodeId consumer, int slot, const AdjointInput& in) {
  Edge e;
  e.consumer = consumer;
  e.inputIndex = slot;
  e.producer = in.node;
  e.index = in.identity ? identityAtoms(in.node) : in.index;
  e.condition = in.condition;
  e.loc = loc_;
  g_.addEdge(std::move(e));
}

NodeId AdjointBuilder::op(OpKind op, std::vector<AdjointInput> inputs, OpAttrs attrs) {
  std::vector<TensorType> types;
  for (const AdjointInput& in : inputs) types.push_back(readType(in));
  TypeResult r = inferType(op, attrs, types);
  if (auto* err = std::get_if<std::string>(&r))
    throw AutodiffError("autodiff: internal typing error building " + std::string(opName(op)) + ": " + *err);
  return typed(op, std::get<TensorType>(r), std::move(inputs), std::move(attrs));
}

NodeId AdjointBuilder::constant(const TensorType& type, double value) {
  // A constant only needs the dimensions its shape mentions.
  std::vector<std::string> dims;
  for (const std::string& d : domain_)
    for (const IndexExpr& s : type.shape)
      if (s.dependsOn(d)) {
        dims.push_back(d);
        break;
      }
  Node n;
  n.op = OpKind::Constant;
  n.attrs.value = value;
  n.domain = dims;
  n.type = type;
  n.loc = loc_;
  return g_.addNode(std::move(n));
}

NodeId AdjointBuilder::where(NodeId cond, NodeId a, NodeId b) {
  return op(OpKind::Where, {AdjointInput::at(cond), AdjointInput::at(a), AdjointInput::at(b)});
}

NodeId AdjointBuilder::reshape(NodeId a, std::vector<IndexExpr> shape) {
  if (typeOf(a).shape == shape) return a;
  OpAttrs at;
  at.shape = std::move(shape);
  return op(OpKind::Reshape, {AdjointInput::at(a)}, at);
}

NodeId AdjointBuilder::expand(NodeId a, std::vector<IndexExpr> shape) {
  if (typeOf(a).shape == shape) return a;
  OpAttrs at;
  at.shape = std::move(shape);
  return op(OpKind::Expand, {AdjointInput::at(a)}, at);
}

NodeId AdjointBuilder::permute(NodeId a, std::vector<int64_t> perm) {
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i) identity = identity && perm[i] == static_cast<int64_t>(i);
  if (identity) return a;
  OpAttrs at;
  at.perm = std::move(perm);
  return op(OpKind::Permute, {AdjointInput::at(a)}, at);
}

NodeId AdjointBuilder::reduceSum(NodeId a, std::vector<int64_t> axes, bool keepDims) {
  if (axes.empty()) return a;
  std::sort(axes.begin(), axes.end());
  OpAttrs at;
  at.axes = std::move(axes);
  at.keepDims = keepDims;
  return op(OpKind::ReduceSum, {AdjointInput::at(a)}, at);
}

NodeId AdjointBuilder::slice(NodeId a, int64_t axis, IndexExpr start, IndexExpr stop) {
  OpAttrs at;
  at.axis = axis;
  at.start = std::move(start);
  at.stop = std::move(stop);
  return op(OpKind::Slice, {AdjointInput::at(a)}, at);
}

NodeId AdjointBuilder::pad(NodeId a, int64_t axis, IndexExpr before, IndexExpr after) {
  const TensorType& t = typeOf(a);
  std::vector<AdjointInput> parts;
  const std::vector<const IndexExpr*> pieces = {&before, nullptr, &after};
  for (const IndexExpr* size : pieces) {
    if (!size) {
      parts.push_back(AdjointInput::at(a));
      continue;
    }
    if (size->constantValue() == 0) continue;
    TensorType zt = t;
    zt.shape[axis] = *size;
    parts.push_back(AdjointInput::at(zeros(zt)));
  }
  if (parts.size() == 1) return a;
  OpAttrs at;
  at.axis = axis;
  return op(OpKind::Cat, std::move(parts), at);
}

NodeId AdjointBuilder::placeAt(NodeId a, int64_t axis, const IndexExpr& offset, const IndexExpr& extent) {
  // A window over the whole extent (`0:T`) already sits at its positions.
  if (offset == IndexExpr(0) && typeOf(a).shape[static_cast<size_t>(axis)] == extent) return a;
  NodeId padded = pad(a, axis, extent, extent);
  IndexExpr clamped = IndexExpr::min(IndexExpr::max(offset, 0), extent);
  return slice(padded, axis, extent - clamped, extent * 2 - clamped);
}

NodeId AdjointBuilder::sumToShape(NodeId g, const std::vector<IndexExpr>& shape) {
  const std::vector<IndexExpr>& gs = typeOf(g).shape;
  if (gs == shape) return g;
  size_t lead = gs.size() - shape.size();
  std::vector<int64_t> leading;
  for (size_t i = 0; i < lead; ++i) leading.push_back(static_cast<int64_t>(i));
  NodeId r = reduceSum(g, leading, false);
  std::vector<int64_t> ones;
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i].constantValue() == 1 && gs[lead + i].constantValue() != 1) ones.push_back(static_cast<int64_t>(i));
  return reduceSum(r, ones, true);
}

NodeId AdjointBuilder::guarded(NodeId v, const Condition& cond) {
  if (cond.isAlways()) return v;
  const TensorType t = typeOf(v);
  NodeId z = zeros(t);
  // A constant has no domain; readers of a guarded value read it over this builder's domain.
  if (cond.isNever()) return typed(OpKind::Identity, t, {AdjointInput::at(z)});
  return typed(OpKind::Merge, t, {AdjointInput{v, {}, true, cond}, AdjointInput::at(z)});
}

NodeId AdjointBuilder::guardedRead(AdjointInput in) {
  if (in.condition.isAlways()) return op(OpKind::Identity, {std::move(in)});
  const TensorType t = readType(in);
  NodeId z = zeros(t);
  return typed(OpKind::Merge, t, {std::move(in), AdjointInput::at(z)});
}

}  // namespace tempo
