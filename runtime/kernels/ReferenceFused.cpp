// Reference kernel for a fused node: its program evaluated step by step, each
// step by the reference kernel of its op on whole tensors (so it is exactly
// the unfused graph's arithmetic: same kernels, same order, same rounding).
#include "kernels/Broadcast.h"
#include "kernels/KernelParts.h"
#include "kernels/ReferenceKernels.h"

#include <stdexcept>

namespace tempo::ref::detail {

Tensor evalFused(const std::vector<FusedStep>& program, const std::vector<Tensor>& inputs) {
  if (program.empty()) throw std::invalid_argument(errorPrefix(OpKind::Fused) + "the program has no steps");
  std::vector<Tensor> steps;
  for (const FusedStep& step : program) {
    std::vector<Tensor> operands;
    for (const FusedOperand& o : step.operands) {
      const std::vector<Tensor>& from = o.kind == FusedOperand::Kind::Input ? inputs : steps;
      if (o.kind == FusedOperand::Kind::Literal) {
        operands.push_back(Tensor::scalar(o.dtype, o.value));
      } else if (o.index < 0 || static_cast<size_t>(o.index) >= from.size()) {
        throw std::invalid_argument(errorPrefix(OpKind::Fused) + "operand " + std::to_string(o.index) +
                                    " of step " + std::to_string(steps.size()) + " does not exist");
      } else {
        operands.push_back(from[static_cast<size_t>(o.index)]);
      }
    }
    if (operands.empty()) throw std::invalid_argument(errorPrefix(OpKind::Fused) + "a step has no operands");
    std::vector<int64_t> shape = operands.front().shape();
    for (const Tensor& t : operands) shape = broadcastShapes(shape, t.shape());
    OpAttrs attrs;
    attrs.dtype = step.dtype;
    steps.push_back(evalOp(step.op, attrs, operands, step.dtype, shape));
  }
  return steps.back();
}

}  // namespace tempo::ref::detail
