// The chunked fused kernel; see Fused.h.
#include "kernels/cpu/Fused.h"

#include "kernels/Broadcast.h"
#include "kernels/cpu/Elementwise.h"
#include "kernels/cpu/Parallel.h"
#include "kernels/cpu/Strided.h"
#include "tensor/DTypeDispatch.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace tempo::cpu {
namespace {

using Bytes = const std::byte*;

/// Where one operand's elements for the current chunk are: `at` with stride 0 or 1.
struct Span {
  Bytes at = nullptr;
  int64_t stride = 0;
};

/// How a fused node's input is read chunk by chunk.
struct InputPlan {
  DType dtype = DType::F32;
  Bytes data = nullptr;
  enum class Kind { Constant, InPlace, Gather } kind = Kind::Gather;
  std::optional<StridedLoop<2>> loop;  ///< Gather: output position -> input element
};

/// A step with the dtypes of its operands resolved.
struct PlannedStep {
  const FusedStep* step = nullptr;
  DType operandDType = DType::F32;  ///< the first value operand's dtype (where: operand 1)
};

std::optional<DType> resultDTypeOf(OpKind op, DType operand, DType declared) {
  switch (opClass(op)) {
    case OpClass::Cast: return declared;
    case OpClass::Unary:
    case OpClass::Ternary: return operand;
    case OpClass::Binary: return isComparison(op) ? DType::Bool : operand;
    default: return std::nullopt;
  }
}

/// The most operands a step has (where).
constexpr size_t kMaxOperands = 3;

/// Runs one step over `n` elements; false when its op is not specialised for the dtype.
bool runStep(const PlannedStep& p, const Span* in, std::byte* out, int64_t n) {
  const FusedStep& s = *p.step;
  switch (opClass(s.op)) {
    case OpClass::Unary: return unarySpan(s.op, p.operandDType, in[0].at, in[0].stride, out, n);
    case OpClass::Binary:
      return binarySpan(s.op, p.operandDType, in[0].at, in[0].stride, in[1].at, in[1].stride, out, n);
    case OpClass::Ternary:
      whereSpan(p.operandDType, reinterpret_cast<const bool*>(in[0].at), in[0].stride, in[1].at, in[1].stride,
                in[2].at, in[2].stride, out, n);
      return true;
    case OpClass::Cast: castSpan(p.operandDType, s.dtype, in[0].at, in[0].stride, out, n); return true;
    default: return false;
  }
}

class FusedKernel {
public:
  FusedKernel(const std::vector<FusedStep>& program, const std::vector<Tensor>& inputs, std::vector<int64_t> shape)
      : program_(program), inputs_(inputs), shape_(std::move(shape)) {}

  /// Checks that every step can run on spans and plans the inputs; false if not.
  bool plan(DType outDType) {
    steps_.reserve(program_.size());
    for (const FusedStep& s : program_) {
      int arity = opArity(s.op);
      if (arity < 1 || s.operands.size() != static_cast<size_t>(arity) || s.operands.size() > kMaxOperands)
        return false;
      std::array<DType, kMaxOperands> operands{};
      for (size_t i = 0; i < s.operands.size(); ++i) {
        const FusedOperand& o = s.operands[i];
        size_t limit = o.kind == FusedOperand::Kind::Input ? inputs_.size() : steps_.size();
        if (o.kind != FusedOperand::Kind::Literal && (o.index < 0 || static_cast<size_t>(o.index) >= limit))
          return false;
        operands[i] = o.kind == FusedOperand::Kind::Literal ? o.dtype
                      : o.kind == FusedOperand::Kind::Input ? inputs_[o.index].dtype()
                                                            : steps_[o.index].step->dtype;
      }
      size_t first = s.op == OpKind::Where ? 1 : 0;
      if (s.op == OpKind::Where && operands[0] != DType::Bool) return false;
      for (size_t i = first; i < s.operands.size(); ++i)
        if (operands[i] != operands[first]) return false;
      if (resultDTypeOf(s.op, operands[first], s.dtype) != s.dtype) return false;
      PlannedStep planned{&s, operands[first]};
      std::array<Span, kMaxOperands> none{};
      if (!runStep(planned, none.data(), nullptr, 0)) return false;  // an empty run only asks whether it is specialised
      steps_.push_back(planned);
    }
    if (steps_.empty() || steps_.back().step->dtype != outDType) return false;
    const std::vector<int64_t> contiguous = ref::contiguousStrides(shape_);
    plans_.reserve(inputs_.size());
    for (const Tensor& t : inputs_) {
      InputPlan p;
      p.dtype = t.dtype();
      p.data = static_cast<Bytes>(t.viewRaw());
      std::vector<int64_t> strides;
      try {
        strides = operandStrides(t, shape_);
      } catch (const std::invalid_argument&) {
        return false;
      }
      if (t.numel() == 1 || std::all_of(strides.begin(), strides.end(), [](int64_t s) { return s == 0; }))
        p.kind = InputPlan::Kind::Constant;
      else if (strides == contiguous) p.kind = InputPlan::Kind::InPlace;
      else p.loop.emplace(shape_, std::array{contiguous, strides});
      plans_.push_back(std::move(p));
    }
    for (const PlannedStep& p : steps_)
      for (const FusedOperand& o : p.step->operands)
        if (o.kind == FusedOperand::Kind::Literal) literals_.push_back(literalBytes(o));
    return true;
  }

  void run(Tensor& out) const {
    int64_t total = out.numel();
    int64_t chunks = (total + kFusedChunk - 1) / kFusedChunk;
    auto* result = static_cast<std::byte*>(out.raw());
    size_t outSize = dtypeSize(out.dtype());
    size_t slot = static_cast<size_t>(std::min(total, kFusedChunk)) * 8;  // bytes of one chunk of any dtype
    parallelFor(chunks, kFusedChunk * static_cast<int64_t>(steps_.size()), [&](int64_t first, int64_t last) {
      std::unique_ptr<std::byte[]> scratch(new std::byte[(plans_.size() + steps_.size()) * slot]);
      std::vector<Span> spans(plans_.size() + steps_.size());
      for (int64_t c = first; c < last; ++c) {
        int64_t begin = c * kFusedChunk, n = std::min(kFusedChunk, total - begin);
        runChunk(begin, n, scratch.get(), slot, spans.data(), result + static_cast<size_t>(begin) * outSize);
      }
    });
  }

private:
  static std::array<std::byte, 8> literalBytes(const FusedOperand& o) {
    std::array<std::byte, 8> bytes{};
    visitDType(o.dtype, [&]<class T>() {
      T v = fromDouble<T>(o.value);
      std::memcpy(bytes.data(), &v, sizeof v);
    });
    return bytes;
  }

  Span inputSpan(size_t k, int64_t begin, int64_t n, std::byte* buffer) const {
    const InputPlan& p = plans_[k];
    size_t size = dtypeSize(p.dtype);
    switch (p.kind) {
      case InputPlan::Kind::Constant: return {p.data, 0};
      case InputPlan::Kind::InPlace: return {p.data + static_cast<size_t>(begin) * size, 1};
      case InputPlan::Kind::Gather: break;
    }
    int64_t stride = p.loop->innerStrides()[1];
    visitDType(p.dtype, [&]<class T>() {
      const T* src = reinterpret_cast<const T*>(p.data);
      T* dst = reinterpret_cast<T*>(buffer);
      p.loop->forSpans(begin, begin + n, [&](const StridedLoop<2>::Offsets& off, int64_t count) {
        T* to = dst + (off[0] - begin);
        const T* from = src + off[1];
        if (stride == 1) std::memcpy(to, from, static_cast<size_t>(count) * sizeof(T));
        else for (int64_t i = 0; i < count; ++i) to[i] = from[i * stride];
      });
    });
    return {buffer, 1};
  }

  /// One chunk: `spans` holds one Span per input, then one per step.
  void runChunk(int64_t begin, int64_t n, std::byte* scratch, size_t slot, Span* spans, std::byte* result) const {
    Span* inputSpans = spans;
    Span* stepSpans = spans + plans_.size();
    for (size_t k = 0; k < plans_.size(); ++k) inputSpans[k] = inputSpan(k, begin, n, scratch + k * slot);
    size_t literal = 0;
    for (size_t k = 0; k < steps_.size(); ++k) {
      std::array<Span, kMaxOperands> operands{};
      const std::vector<FusedOperand>& from = steps_[k].step->operands;
      // A step whose operands are all one value (scalars, literals) is computed once per chunk.
      bool single = true;
      for (size_t i = 0; i < from.size(); ++i) {
        const FusedOperand& o = from[i];
        if (o.kind == FusedOperand::Kind::Input) operands[i] = inputSpans[o.index];
        else if (o.kind == FusedOperand::Kind::Step) operands[i] = stepSpans[o.index];
        else operands[i] = {literals_[literal++].data(), 0};
        single &= operands[i].stride == 0;
      }
      bool last = k + 1 == steps_.size();
      std::byte* out = last && !single ? result : scratch + (plans_.size() + k) * slot;
      runStep(steps_[k], operands.data(), out, single ? std::min<int64_t>(n, 1) : n);
      stepSpans[k] = {out, single ? 0 : 1};
      if (last && single) {
        size_t size = dtypeSize(steps_[k].step->dtype);
        for (int64_t i = 0; i < n; ++i) std::memcpy(result + static_cast<size_t>(i) * size, out, size);
      }
    }
  }

  const std::vector<FusedStep>& program_;
  const std::vector<Tensor>& inputs_;
  std::vector<int64_t> shape_;
  std::vector<PlannedStep> steps_;
  std::vector<InputPlan> plans_;
  std::vector<std::array<std::byte, 8>> literals_;
};

}  // namespace

std::optional<Tensor> fused(const std::vector<FusedStep>& program, const std::vector<Tensor>& inputs,
                            DType outDType, const std::vector<int64_t>& outShape) {
  FusedKernel kernel(program, inputs, outShape);
  if (!kernel.plan(outDType)) return std::nullopt;
  Tensor out = Tensor::uninitialized(outDType, outShape);
  kernel.run(out);
  return out;
}

}  // namespace tempo::cpu
