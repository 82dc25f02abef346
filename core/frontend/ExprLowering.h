// ExprLowering: value expressions of the language lowered into SDG nodes.
//
// An expression is lowered at a Site (its domain and region). The result is a
// Value: a compile-time number (`0.9`), an index value (`t + 1` used as a
// number), a node created at this site, or a read of another tensor through
// index atoms (`h[b, t-1]`, `k[l, 0:t+1]`) that becomes an edge of whichever
// op consumes it. Numbers and index values adapt to the dtype of the other
// operand; they are materialised as constant or eval_index nodes only when an
// op consumes them. Every read is checked against the producer's domain with
// isl: an index that can leave it is an error with an example point.
#pragma once

#include "frontend/Ast.h"
#include "frontend/LoweringContext.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tempo {

struct Value {
  enum class Kind { Error, Number, Index, Node, Read };
  Kind kind = Kind::Error;
  ConstNumber number;           ///< Number
  IndexExpr index;              ///< Index
  NodeId node = -1;             ///< Node (made at this site) or Read (the producer)
  std::vector<IndexAtom> atoms; ///< Read
  TensorType type;              ///< Node and Read: the type the reader sees
  SourceRange range;

  bool isError() const { return kind == Kind::Error; }
  bool isAdaptive() const { return kind == Kind::Number || kind == Kind::Index; }
  static Value error(SourceRange r) { Value v; v.range = r; return v; }
  static Value ofNumber(ConstNumber n, SourceRange r);
  static Value ofIndex(IndexExpr e, SourceRange r);
};

class ExprLowering {
public:
  ExprLowering(LoweringContext& cx, Site site) : cx_(cx), site_(std::move(site)) {}

  Value lower(const ast::Expr& e);

  /// Creates an op node at this site consuming `operands`; reports type errors at `range`.
  Value makeOp(OpKind op, OpAttrs attrs, const std::vector<Value>& operands, SourceRange range);
  /// Creates a source node (no operands) of `type` over `domain` (a sub-list of the site's
  /// dimensions, in declaration order); the value reads it at the same point.
  Value makeSource(OpKind op, OpAttrs attrs, std::vector<std::string> domain, TensorType type, SourceRange range);
  /// A read of tensor `t` through explicit index items.
  Value lowerRead(const TensorSymbol& t, const std::vector<ast::IndexItem>& items, SourceRange range);
  /// `v[...; items]`: a slice of each indexed leading axis of the element, then the axes
  /// read at a point dropped. `name` is the tensor's, for messages.
  Value lowerSpatial(Value v, const std::vector<ast::IndexItem>& items, const std::string& name, SourceRange range);
  /// The type `v` has when it adapts to `dtype` (numbers and index values are scalars).
  TensorType typeOf(const Value& v, DType dtype) const;
  /// The producer and index atoms through which a consumer reads `v`
  /// (numbers and index values become constant / eval_index nodes of `dtype`).
  std::pair<NodeId, std::vector<IndexAtom>> materialize(const Value& v, DType dtype);
  /// Adds the edge `consumer[slot] <- v` with an optional condition.
  void connect(NodeId consumer, int slot, const Value& v, DType dtype, Condition cond = Condition::always());
  /// The dtype adaptive operands take among `operands` (first tensor operand's dtype).
  DType commonDType(const std::vector<Value>& operands) const;

  const Site& site() const { return site_; }
  LoweringContext& context() { return cx_; }

private:
  Value lowerName(const ast::Expr& e, const std::string& name);
  Value lowerBinary(const ast::Expr& e, const ast::Binary& b);
  Value lowerIndex(const ast::Expr& e, const ast::Index& ix);
  NodeId addNode(OpKind op, OpAttrs attrs, std::vector<std::string> domain, TensorType type, SourceRange range);
  bool checkReadInBounds(const TensorSymbol& t, const std::vector<IndexAtom>& atoms,
                         const std::vector<SourceRange>& itemRanges, SourceRange range);

  LoweringContext& cx_;
  Site site_;
};

}  // namespace tempo
