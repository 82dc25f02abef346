#include "ops/Op.h"

#include "ops/FusedProgram.h"

#include <algorithm>
#include <array>
#include <sstream>

namespace tempo {

namespace {
struct OpInfo {
  OpKind kind;
  std::string_view name;
  OpClass cls;
  int arity;
};

constexpr std::array kOps = {
    OpInfo{OpKind::Constant, "constant", OpClass::Source, 0},
    OpInfo{OpKind::Load, "load", OpClass::Source, 0},
    OpInfo{OpKind::RandomNormal, "normal", OpClass::Source, 0},
    OpInfo{OpKind::RandomUniform, "uniform", OpClass::Source, 0},
    OpInfo{OpKind::HashInit, "hash_init", OpClass::Source, 0},
    OpInfo{OpKind::EvalIndex, "eval_index", OpClass::Source, 0},
    OpInfo{OpKind::Neg, "neg", OpClass::Unary, 1},
    OpInfo{OpKind::Exp, "exp", OpClass::Unary, 1},
    OpInfo{OpKind::Log, "log", OpClass::Unary, 1},
    OpInfo{OpKind::Sqrt, "sqrt", OpClass::Unary, 1},
    OpInfo{OpKind::Tanh, "tanh", OpClass::Unary, 1},
    OpInfo{OpKind::Sigmoid, "sigmoid", OpClass::Unary, 1},
    OpInfo{OpKind::Relu, "relu", OpClass::Unary, 1},
    OpInfo{OpKind::Abs, "abs", OpClass::Unary, 1},
    OpInfo{OpKind::Sin, "sin", OpClass::Unary, 1},
    OpInfo{OpKind::Cos, "cos", OpClass::Unary, 1},
    OpInfo{OpKind::Not, "not", OpClass::Unary, 1},
    OpInfo{OpKind::Add, "add", OpClass::Binary, 2},
    OpInfo{OpKind::Sub, "sub", OpClass::Binary, 2},
    OpInfo{OpKind::Mul, "mul", OpClass::Binary, 2},
    OpInfo{OpKind::Div, "div", OpClass::Binary, 2},
    OpInfo{OpKind::Pow, "pow", OpClass::Binary, 2},
    OpInfo{OpKind::Maximum, "maximum", OpClass::Binary, 2},
    OpInfo{OpKind::Minimum, "minimum", OpClass::Binary, 2},
    OpInfo{OpKind::Lt, "lt", OpClass::Binary, 2},
    OpInfo{OpKind::Le, "le", OpClass::Binary, 2},
    OpInfo{OpKind::Gt, "gt", OpClass::Binary, 2},
    OpInfo{OpKind::Ge, "ge", OpClass::Binary, 2},
    OpInfo{OpKind::Eq, "eq", OpClass::Binary, 2},
    OpInfo{OpKind::Ne, "ne", OpClass::Binary, 2},
    OpInfo{OpKind::And, "and", OpClass::Binary, 2},
    OpInfo{OpKind::Or, "or", OpClass::Binary, 2},
    OpInfo{OpKind::Where, "where", OpClass::Ternary, 3},
    OpInfo{OpKind::Cast, "cast", OpClass::Cast, 1},
    OpInfo{OpKind::MatMul, "matmul", OpClass::MatMul, 2},
    OpInfo{OpKind::ReduceSum, "reduce_sum", OpClass::Reduce, 1},
    OpInfo{OpKind::ReduceMax, "reduce_max", OpClass::Reduce, 1},
    OpInfo{OpKind::ReduceArgMax, "reduce_argmax", OpClass::Reduce, 1},
    OpInfo{OpKind::Reshape, "reshape", OpClass::Movement, 1},
    OpInfo{OpKind::Permute, "permute", OpClass::Movement, 1},
    OpInfo{OpKind::Expand, "expand", OpClass::Movement, 1},
    OpInfo{OpKind::Slice, "slice", OpClass::Movement, 1},
    OpInfo{OpKind::Cat, "cat", OpClass::Movement, -1},
    OpInfo{OpKind::Identity, "identity", OpClass::Identity, 1},
    OpInfo{OpKind::Merge, "merge", OpClass::Merge, -1},
    OpInfo{OpKind::Fused, "fused", OpClass::Fused, -1},
    OpInfo{OpKind::Gather, "gather", OpClass::Indexed, 2},
    OpInfo{OpKind::ScatterAdd, "scatter_add", OpClass::Indexed, 2},
    OpInfo{OpKind::TakeAlong, "take_along", OpClass::Indexed, 2},
    OpInfo{OpKind::ScatterAlongAdd, "scatter_along_add", OpClass::Indexed, 2},
    OpInfo{OpKind::ArgTopK, "argtopk", OpClass::Indexed, 1},
};

/// The entry of `op`, by index (the executor asks for an op's class or arity at every point).
const OpInfo& info(OpKind op) {
  static const std::vector<const OpInfo*> byKind = [] {
    size_t n = 0;
    for (const OpInfo& i : kOps) n = std::max(n, static_cast<size_t>(i.kind) + 1);
    std::vector<const OpInfo*> table(n, &kOps[0]);
    for (const OpInfo& i : kOps) table[static_cast<size_t>(i.kind)] = &i;
    return table;
  }();
  const size_t k = static_cast<size_t>(op);
  return k < byKind.size() ? *byKind[k] : kOps[0];
}

std::string joinInts(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + ")";
}
}  // namespace

std::string numberString(double v) {
  std::ostringstream os;
  os.precision(9);
  os << v;
  return os.str();
}

std::string_view opName(OpKind op) { return info(op).name; }

std::optional<OpKind> opFromName(std::string_view name) {
  for (const OpInfo& i : kOps)
    if (i.name == name) return i.kind;
  return std::nullopt;
}

OpClass opClass(OpKind op) { return info(op).cls; }
int opArity(OpKind op) { return info(op).arity; }
bool isComparison(OpKind op) { return op >= OpKind::Lt && op <= OpKind::Ne; }

bool isWholeArraySource(OpKind op) {
  return op == OpKind::Load || op == OpKind::RandomNormal || op == OpKind::RandomUniform || op == OpKind::HashInit;
}

bool isFusable(OpKind op) {
  OpClass c = opClass(op);
  return c == OpClass::Unary || c == OpClass::Binary || c == OpClass::Ternary || c == OpClass::Cast;
}

std::string opLabel(OpKind op, const OpAttrs& attrs) {
  if (op == OpKind::Fused) return "fused[" + fusedExpression(attrs.program) + "]";
  return std::string(opName(op));
}

bool readsStridedViews(OpKind op) {
  switch (opClass(op)) {
    case OpClass::Unary:
    case OpClass::Binary:
    case OpClass::Ternary:
    case OpClass::Fused: return true;
    case OpClass::Reduce: return op == OpKind::ReduceSum || op == OpKind::ReduceMax;
    default: return false;
  }
}

std::string attrsString(OpKind op, const OpAttrs& a) {
  switch (op) {
    case OpKind::Constant: return "value=" + numberString(a.value);
    case OpKind::Load:
      return "path=\"" + a.displayPath + "\"" + (a.tensor.empty() ? "" : ", tensor=\"" + a.tensor + "\"");
    case OpKind::RandomNormal:
      return "seed=" + std::to_string(a.seed) + ", mean=" + numberString(a.a) + ", std=" + numberString(a.b);
    case OpKind::RandomUniform:
      return "seed=" + std::to_string(a.seed) + ", low=" + numberString(a.a) + ", high=" + numberString(a.b);
    case OpKind::HashInit:
      return "key=" + (a.index ? a.index->str() : std::to_string(a.seed)) + ", scale=" + numberString(a.b);
    case OpKind::EvalIndex: return "index=" + (a.index ? a.index->str() : std::string("?"));
    case OpKind::ReduceSum:
    case OpKind::ReduceMax:
    case OpKind::ReduceArgMax:
      return "axes=" + joinInts(a.axes) + (a.keepDims ? ", keepdims" : "");
    case OpKind::Permute: return "perm=" + joinInts(a.perm) + (a.view ? ", view" : "");
    case OpKind::Slice:
      return "axis=" + std::to_string(a.axis) + ", start=" + a.start.str() + ", stop=" + a.stop.str();
    case OpKind::Cat:
    case OpKind::Gather:
    case OpKind::TakeAlong: return "axis=" + std::to_string(a.axis);
    case OpKind::ArgTopK: return "axis=" + std::to_string(a.axis) + ", k=" + std::to_string(a.k);
    case OpKind::Fused: {
      std::string s = "from=(";
      for (size_t i = 0; i < a.fusedFrom.size(); ++i) s += (i ? ", %" : "%") + std::to_string(a.fusedFrom[i]);
      return s + ")";
    }
    case OpKind::Cast: return "dtype=" + std::string(dtypeName(a.dtype));
    case OpKind::MatMul:
      return std::string(a.permA.empty() ? "" : "perm_a=" + joinInts(a.permA)) +
             (!a.permA.empty() && !a.permB.empty() ? ", " : "") + (a.permB.empty() ? "" : "perm_b=" + joinInts(a.permB));
    case OpKind::Reshape:
    case OpKind::Expand:
    case OpKind::ScatterAdd:
    case OpKind::ScatterAlongAdd: {
      std::string s = op == OpKind::ScatterAdd || op == OpKind::ScatterAlongAdd ? "axis=" + std::to_string(a.axis) + ", shape=("
                                                                                 : "shape=(";
      for (size_t i = 0; i < a.shape.size(); ++i) s += (i ? ", " : "") + a.shape[i].str();
      return s + ")" + (op == OpKind::Expand && a.view ? ", view" : "");
    }
    default: return "";
  }
}

}  // namespace tempo
