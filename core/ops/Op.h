// Op: the primitive operation set of the symbolic dependence graph.
//
// The SDG deliberately has a small set of primitives: sources (constants,
// loaded arrays, random initialisers, index evaluation), elementwise unary,
// binary and ternary ops, cast, matmul, reductions, movement ops and the merge
// of ordered branches. Library functions of the language (softmax, mean, ...)
// are compositions of these, so every optimisation sees through them. OpAttrs
// holds the few attributes an op may carry; `opName` gives each op's stable
// printed name used by the SDG text form, DOT and JSON.
#pragma once

#include "symbolic/IndexExpr.h"
#include "types/DType.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tempo {

enum class OpKind {
  // Sources (no inputs).
  Constant,       ///< every element = attrs.value
  Load,           ///< array read from attrs.path (.npy); domain dims lead the array's shape
  RandomNormal,   ///< attrs.seed, attrs.mean (a), attrs.std (b)
  RandomUniform,  ///< attrs.seed, attrs.low (a), attrs.high (b)
  HashInit,       ///< deterministic hash fill in [-scale, scale): attrs.seed (key) or attrs.index (a key over dims), attrs.b (scale)
  EvalIndex,      ///< scalar: attrs.index evaluated at the domain point
  // Elementwise unary.
  Neg, Exp, Log, Sqrt, Tanh, Sigmoid, Relu, Abs, Sin, Cos, Not,
  // Elementwise binary (NumPy broadcasting).
  Add, Sub, Mul, Div, Pow, Maximum, Minimum,
  Lt, Le, Gt, Ge, Eq, Ne, And, Or,
  // Elementwise ternary.
  Where,
  Cast,           ///< to attrs.dtype
  MatMul,         ///< NumPy matmul semantics
  ReduceSum,      ///< over attrs.axes (sorted, non-negative), attrs.keepDims
  ReduceMax,
  ReduceArgMax,   ///< i64: the first index of the maximum along the one axis attrs.axes (a NaN counts as the maximum)
  Reshape,        ///< to attrs.shape
  Permute,        ///< attrs.perm
  Expand,         ///< broadcast to attrs.shape
  Slice,          ///< spatial: axis attrs.axis, [attrs.start, attrs.stop)
  Cat,            ///< concatenate inputs along attrs.axis
  Identity,       ///< copy of its single input
  Merge,          ///< ordered branches: the first input whose edge condition holds
  Fused,          ///< a chain of elementwise ops run as one: attrs.program over its inputs (FusedProgram.h)
  Gather,         ///< (x, ids): x's slices at the integer ids along attrs.axis, NumPy's take
  ScatterAdd,     ///< (ids, g): zeros of attrs.shape, g's slices added at the ids along attrs.axis (gather's adjoint)
  TakeAlong,      ///< (x, ids): per row, x at the integer ids along attrs.axis; ids has x's shape but along the axis (NumPy's take_along_axis, torch.gather)
  ScatterAlongAdd,  ///< (ids, g): zeros of attrs.shape, each g added at its row's id along attrs.axis (take_along's adjoint)
  ArgTopK,        ///< i64: the indices of the attrs.k largest values along attrs.axis, largest first (ties: lower index first; a NaN counts as the largest)
};

/// Indexed: ops whose integer operand picks positions of another (gather, scatter_add,
/// take_along, scatter_along_add), or that
/// give such positions (argtopk).
enum class OpClass { Source, Unary, Binary, Ternary, Cast, MatMul, Reduce, Movement, Identity, Merge, Fused, Indexed };

/// One operand of a fused step: input k of the fused node, the result of an
/// earlier step k, or a scalar literal (a folded constant).
struct FusedOperand {
  enum class Kind { Input, Step, Literal };
  Kind kind = Kind::Input;
  int index = 0;             ///< Input, Step
  double value = 0;          ///< Literal
  DType dtype = DType::F32;  ///< Literal
  bool operator==(const FusedOperand&) const = default;
};

/// One step of a fused program: an elementwise op (unary, binary, where) or a
/// cast applied to its operands, giving a value of `dtype` (a cast's target).
struct FusedStep {
  OpKind op = OpKind::Add;
  std::vector<FusedOperand> operands;
  DType dtype = DType::F32;
  bool operator==(const FusedStep&) const = default;
};

struct OpAttrs {
  double value = 0;               ///< Constant
  std::string path;               ///< Load (resolved path)
  std::string displayPath;        ///< Load (as written in the program)
  std::string tensor;             ///< Load from a .safetensors file: the tensor's name, with {dim} placeholders
  uint64_t seed = 0;              ///< Random*
  double a = 0, b = 0;            ///< RandomNormal: mean, std; RandomUniform: low, high
  std::optional<IndexExpr> index; ///< EvalIndex; HashInit: a key that varies with the domain
  std::vector<int64_t> axes;      ///< Reduce*
  bool keepDims = false;          ///< Reduce*
  std::vector<int64_t> perm;      ///< Permute
  bool view = false;              ///< Permute, Expand: the value is a strided view of the input's buffer (view-selection)
  std::vector<int64_t> permA;     ///< MatMul: the left operand is read through this permutation of its axes, as
                                  ///< a permute would give it (view-selection; empty: as it lies)
  std::vector<int64_t> permB;     ///< MatMul: the same for the right operand
  int64_t axis = 0;               ///< Slice, Cat, Gather, ScatterAdd, ArgTopK
  int64_t k = 0;                  ///< ArgTopK: how many positions
  IndexExpr start, stop;          ///< Slice
  std::vector<IndexExpr> shape;   ///< Reshape, Expand: the target shape; ScatterAdd: the result's
  DType dtype = DType::F32;       ///< Cast: the target dtype
  std::vector<FusedStep> program; ///< Fused: the steps in order; the last one is the result
  std::vector<int> fusedFrom;     ///< Fused: ids of the nodes it replaced (for drawing them as one box)
  bool operator==(const OpAttrs&) const = default;
};

std::string_view opName(OpKind op);            ///< stable lowercase name, e.g. "matmul"
std::optional<OpKind> opFromName(std::string_view name);
OpClass opClass(OpKind op);
/// Number of inputs the op takes; -1 for variadic (Cat: >= 1, Merge: >= 1).
int opArity(OpKind op);
bool isComparison(OpKind op);                  ///< Lt..Ne: result is bool
/// Load, RandomNormal, RandomUniform and HashInit: sources defined over their whole
/// domain at once, which the executor builds (and holds) as one array.
bool isWholeArraySource(OpKind op);
/// True for the ops whose CPU kernels read a strided view (a permute or expand marked
/// `view`) in place: elementwise, where, fused, reduce_sum and reduce_max.
bool readsStridedViews(OpKind op);
/// True for the ops a fused program may contain: unary, binary, where, cast.
bool isFusable(OpKind op);
/// The attributes that matter for `op`, printed as `k=v, ...` ("" if none).
std::string attrsString(OpKind op, const OpAttrs& attrs);
/// A number as attributes print it (9 significant digits: `0.5`, `1e-05`).
std::string numberString(double v);
/// The op as the SDG text form shows it: its name, or `fused[in0 * in1 + 2]` for a fused node.
std::string opLabel(OpKind op, const OpAttrs& attrs);

}  // namespace tempo
