// KernelParts: the per-family reference kernels behind ref::evalOp.
//
// Internal to runtime/kernels: evalOp checks arity and the declared result
// type, and dispatches to one of these by op class. Each function validates
// its own inputs and attributes and throws std::invalid_argument with a
// message naming the op.
#pragma once

#include "ops/Op.h"
#include "tensor/Tensor.h"

#include <string>
#include <vector>

namespace tempo::ref::detail {

Tensor evalUnary(OpKind op, const Tensor& x);
Tensor evalBinary(OpKind op, const Tensor& a, const Tensor& b);
Tensor evalWhere(const Tensor& cond, const Tensor& a, const Tensor& b);
Tensor evalMatMul(const Tensor& a, const Tensor& b);
Tensor evalReduce(OpKind op, const Tensor& x, const std::vector<int64_t>& axes, bool keepDims);
Tensor evalPermute(const Tensor& x, const std::vector<int64_t>& perm);
Tensor evalExpand(const Tensor& x, const std::vector<int64_t>& outShape);
Tensor evalSlice(const Tensor& x, int64_t axis, int64_t start, int64_t stop);
Tensor evalCat(const std::vector<Tensor>& parts, int64_t axis);
Tensor evalGather(const Tensor& x, const Tensor& ids, int64_t axis);
Tensor evalScatterAdd(const Tensor& ids, const Tensor& g, int64_t axis, const std::vector<int64_t>& outShape);
Tensor evalTakeAlong(const Tensor& x, const Tensor& ids, int64_t axis);
Tensor evalScatterAlongAdd(const Tensor& ids, const Tensor& g, int64_t axis, const std::vector<int64_t>& outShape);
/// The positions of the k largest values along `axis`, largest first (ReferenceTopK.cpp).
Tensor evalArgTopK(const Tensor& x, int64_t axis, int64_t k);
/// A fused node's program, step by step with the kernels above (ReferenceFused.cpp).
Tensor evalFused(const std::vector<FusedStep>& program, const std::vector<Tensor>& inputs);

/// "add: " — the prefix of every kernel error message.
std::string errorPrefix(OpKind op);
/// Throws std::invalid_argument unless all tensors share a dtype.
void requireSameDType(OpKind op, const std::vector<const Tensor*>& tensors);

}  // namespace tempo::ref::detail
