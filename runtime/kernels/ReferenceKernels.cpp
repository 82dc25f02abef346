#include "kernels/ReferenceKernels.h"

#include "kernels/KernelParts.h"

#include <stdexcept>

namespace tempo::ref {
namespace detail {

std::string errorPrefix(OpKind op) { return std::string(opName(op)) + ": "; }

void requireSameDType(OpKind op, const std::vector<const Tensor*>& tensors) {
  for (const Tensor* t : tensors)
    if (t->dtype() != tensors.front()->dtype())
      throw std::invalid_argument(errorPrefix(op) + "inputs have different dtypes (" +
                                  std::string(dtypeName(tensors.front()->dtype())) + " and " +
                                  std::string(dtypeName(t->dtype())) + ")");
}

}  // namespace detail

namespace {

using namespace detail;

void checkArity(OpKind op, size_t given) {
  int arity = opArity(op);
  bool ok = arity < 0 ? given >= 1 : given == static_cast<size_t>(arity);
  if (!ok)
    throw std::invalid_argument(errorPrefix(op) + "expects " + (arity < 0 ? "at least 1" : std::to_string(arity)) +
                                " inputs, got " + std::to_string(given));
}

int64_t constantOf(OpKind op, const IndexExpr& e, const char* what) {
  auto v = e.constantValue();
  if (!v) throw std::invalid_argument(errorPrefix(op) + what + " `" + e.str() + "` is not a constant");
  return *v;
}

Tensor compute(OpKind op, const OpAttrs& attrs, const std::vector<Tensor>& in, DType outDType,
               const std::vector<int64_t>& outShape) {
  switch (opClass(op)) {
    case OpClass::Unary: return evalUnary(op, in[0]);
    case OpClass::Binary: return evalBinary(op, in[0], in[1]);
    case OpClass::Ternary: return evalWhere(in[0], in[1], in[2]);
    case OpClass::Cast: return in[0].converted(outDType);
    case OpClass::MatMul:  // an operand read transposed (view-selection) is transposed first
      return evalMatMul(attrs.permA.empty() ? in[0] : in[0].permutedView(attrs.permA).contiguous(),
                        attrs.permB.empty() ? in[1] : in[1].permutedView(attrs.permB).contiguous());
    case OpClass::Reduce: return evalReduce(op, in[0], attrs.axes, attrs.keepDims);
    case OpClass::Identity: return in[0];
    case OpClass::Fused: return evalFused(attrs.program, in);
    case OpClass::Indexed:
      if (op == OpKind::ArgTopK) return evalArgTopK(in[0], attrs.axis, attrs.k);
      if (op == OpKind::TakeAlong) return evalTakeAlong(in[0], in[1], attrs.axis);
      if (op == OpKind::ScatterAlongAdd) return evalScatterAlongAdd(in[0], in[1], attrs.axis, outShape);
      return op == OpKind::Gather ? evalGather(in[0], in[1], attrs.axis) : evalScatterAdd(in[0], in[1], attrs.axis, outShape);
    case OpClass::Movement: break;
    case OpClass::Source:
    case OpClass::Merge:
      throw std::invalid_argument(errorPrefix(op) + "sources and merges are not evaluated by evalOp");
  }
  switch (op) {
    case OpKind::Reshape: return in[0].reshaped(outShape);
    case OpKind::Permute: return evalPermute(in[0], attrs.perm);
    case OpKind::Expand: return evalExpand(in[0], outShape);
    case OpKind::Slice:
      return evalSlice(in[0], attrs.axis, constantOf(op, attrs.start, "start"), constantOf(op, attrs.stop, "stop"));
    case OpKind::Cat: return evalCat(in, attrs.axis);
    default: throw std::invalid_argument(errorPrefix(op) + "no reference kernel");
  }
}

}  // namespace

Tensor evalOp(OpKind op, const OpAttrs& attrs, const std::vector<Tensor>& inputs, DType outDType,
              const std::vector<int64_t>& outShape) {
  if (opClass(op) == OpClass::Source || opClass(op) == OpClass::Merge)
    throw std::invalid_argument(errorPrefix(op) + "sources and merges are not evaluated by evalOp");
  checkArity(op, inputs.size());
  Tensor result = compute(op, attrs, inputs, outDType, outShape);
  if (result.dtype() != outDType || result.shape() != outShape)
    throw std::invalid_argument(errorPrefix(op) + "result is " + std::string(dtypeName(result.dtype())) +
                                shapeString(result.shape()) + " but the node declares " +
                                std::string(dtypeName(outDType)) + shapeString(outShape));
  return result;
}

}  // namespace tempo::ref
