// The CUDA C++ emitter of generated kernels; see CudaKernels.h. Each step is
// written as the C++ expression whose semantics equal LlvmKernels.cpp's lowering
// of it (unsigned wrap-around for integer arithmetic, selects for NaN-propagating
// maximum and minimum, fromDouble's saturation for float-to-integer casts).
#include "codegen/CudaKernels.h"

#include "codegen/CudaReductions.h"
#include "codegen/CudaText.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace tempo {
std::string storageType(DType d) {
  switch (d) {
    case DType::F32: return "float";
    case DType::F64: return "double";
    case DType::I32: return "tempo_i32";
    case DType::I64: return "tempo_i64";
    case DType::Bool: return "tempo_u8";
  }
  return "?";
}

std::string valueType(DType d) { return d == DType::Bool ? "bool" : storageType(d); }
std::string unsignedType(DType d) { return d == DType::I32 ? "tempo_u32" : "tempo_u64"; }

std::string literal(DType d, double v) {
  char buf[64];
  switch (d) {
    case DType::F32: {
      float f = static_cast<float>(v);
      if (std::isfinite(f)) {
        std::snprintf(buf, sizeof buf, "%af", static_cast<double>(f));
      } else {
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        std::snprintf(buf, sizeof buf, "__int_as_float((int)0x%08xu)", bits);
      }
      return buf;
    }
    case DType::F64: {
      if (std::isfinite(v)) {
        std::snprintf(buf, sizeof buf, "%a", v);
      } else {
        uint64_t bits;
        std::memcpy(&bits, &v, 8);
        std::snprintf(buf, sizeof buf, "__longlong_as_double((tempo_i64)0x%016llxull)", static_cast<unsigned long long>(bits));
      }
      return buf;
    }
    case DType::I32: {
      if (v != v) return "0";
      if (v <= -2147483648.0) return "(-2147483647 - 1)";
      if (v >= 2147483647.0) return "2147483647";
      return std::to_string(static_cast<int32_t>(v));
    }
    case DType::I64: {
      if (v != v) return "0LL";
      if (v <= -9223372036854775808.0) return "(-9223372036854775807LL - 1)";
      if (v >= 9223372036854775807.0) return "9223372036854775807LL";
      return std::to_string(static_cast<int64_t>(v)) + "LL";
    }
    case DType::Bool: return v != 0 ? "true" : "false";
  }
  return "?";
}

namespace {

std::string floatStep(OpKind op, DType t, const std::vector<std::string>& a) {
  const bool f32 = t == DType::F32;
  const std::string T = storageType(t), sfx = f32 ? "f" : "";
  auto viaDouble = [&](const std::string& fn, const std::string& args) { return "(" + T + ")" + fn + "(" + args + ")"; };
  switch (op) {
    case OpKind::Neg: return "(-" + a[0] + ")";
    case OpKind::Sqrt: return "sqrt" + sfx + "(" + a[0] + ")";
    case OpKind::Abs: return "fabs" + sfx + "(" + a[0] + ")";
    case OpKind::Relu: return "(" + a[0] + " < (" + T + ")0 ? (" + T + ")0 : " + a[0] + ")";
    case OpKind::Exp: return f32 ? "tempo_exp_f32(" + a[0] + ")" : "exp(" + a[0] + ")";
    case OpKind::Tanh: return f32 ? "tempo_tanh_f32(" + a[0] + ")" : "tanh(" + a[0] + ")";
    case OpKind::Sigmoid: return f32 ? "tempo_sigmoid_f32(" + a[0] + ")" : "(1.0 / (1.0 + exp(-" + a[0] + ")))";
    case OpKind::Log: return viaDouble("log", "(double)" + a[0]);
    case OpKind::Sin: return viaDouble("sin", "(double)" + a[0]);
    case OpKind::Cos: return viaDouble("cos", "(double)" + a[0]);
    case OpKind::Pow: return viaDouble("pow", "(double)" + a[0] + ", (double)" + a[1]);
    case OpKind::Add: return a[0] + " + " + a[1];
    case OpKind::Sub: return a[0] + " - " + a[1];
    case OpKind::Mul: return a[0] + " * " + a[1];
    case OpKind::Div: return a[0] + " / " + a[1];
    case OpKind::Maximum:
      return "(" + a[0] + " != " + a[0] + " ? " + a[0] + " : " + a[1] + " != " + a[1] + " ? " + a[1] + " : " + a[0] +
             " < " + a[1] + " ? " + a[1] + " : " + a[0] + ")";
    case OpKind::Minimum:
      return "(" + a[0] + " != " + a[0] + " ? " + a[0] + " : " + a[1] + " != " + a[1] + " ? " + a[1] + " : " + a[1] +
             " < " + a[0] + " ? " + a[1] + " : " + a[0] + ")";
    default: break;
  }
  throw std::logic_error("no CUDA lowering of " + std::string(opName(op)) + " on " + std::string(dtypeName(t)));
}

std::string intStep(OpKind op, DType t, const std::vector<std::string>& a) {
  const std::string T = storageType(t), U = unsignedType(t);
  auto wrap = [&](const std::string& x, const char* o, const std::string& y) {
    return "(" + T + ")((" + U + ")" + x + " " + o + " (" + U + ")" + y + ")";
  };
  switch (op) {
    case OpKind::Neg: return wrap("0", "-", a[0]);
    case OpKind::Relu: return "(" + a[0] + " < 0 ? (" + T + ")0 : " + a[0] + ")";
    case OpKind::Abs: return "(" + a[0] + " < 0 ? " + wrap("0", "-", a[0]) + " : " + a[0] + ")";
    case OpKind::Add: return wrap(a[0], "+", a[1]);
    case OpKind::Sub: return wrap(a[0], "-", a[1]);
    case OpKind::Mul: return wrap(a[0], "*", a[1]);
    case OpKind::Maximum: return "(" + a[0] + " < " + a[1] + " ? " + a[1] + " : " + a[0] + ")";
    case OpKind::Minimum: return "(" + a[1] + " < " + a[0] + " ? " + a[1] + " : " + a[0] + ")";
    default: break;
  }
  throw std::logic_error("no CUDA lowering of " + std::string(opName(op)) + " on " + std::string(dtypeName(t)));
}

std::string comparison(OpKind op, const std::vector<std::string>& a) {
  const char* o = op == OpKind::Lt ? "<" : op == OpKind::Le ? "<=" : op == OpKind::Gt ? ">" : op == OpKind::Ge ? ">=" : op == OpKind::Eq ? "==" : "!=";
  return "(" + a[0] + " " + o + " " + a[1] + ")";
}

std::string boolStep(OpKind op, const std::vector<std::string>& a) {
  switch (op) {
    case OpKind::Not: return "!" + a[0];
    case OpKind::And: case OpKind::Minimum: return "(" + a[0] + " && " + a[1] + ")";
    case OpKind::Or: case OpKind::Maximum: return "(" + a[0] + " || " + a[1] + ")";
    default: break;
  }
  throw std::logic_error("no CUDA lowering of " + std::string(opName(op)) + " on bool");
}

/// DTypeDispatch.h's convertElement, as LlvmKernels.cpp lowers it.
std::string cast(const std::string& v, DType from, DType to) {
  if (from == to) return v;
  const std::string T = storageType(to);
  if (!isFloat(from)) {
    if (to == DType::Bool) return "(" + v + " != 0)";
    if (isInteger(to)) return "(" + T + ")" + v;
    return "(" + T + ")(double)" + v;
  }
  if (isFloat(to)) return "(" + T + ")(double)" + v;
  if (to == DType::Bool) return "((double)" + v + " != 0.0)";
  return (to == DType::I32 ? "tempo_to_i32((double)" : "tempo_to_i64((double)") + v + ")";
}

std::string step(OpKind op, DType operand, DType result, const std::vector<std::string>& a) {
  if (op == OpKind::Cast) return cast(a[0], operand, result);
  if (op == OpKind::Where) return "(" + a[0] + " ? " + a[1] + " : " + a[2] + ")";
  if (isComparison(op)) return comparison(op, a);
  if (isFloat(operand)) return floatStep(op, operand, a);
  if (isInteger(operand)) return intStep(op, operand, a);
  return boolStep(op, a);
}

/// An input's offset: its coordinates along the dimensions it is not broadcast on, in Horner form.
std::string offsetOf(const std::vector<bool>& broadcast) {
  bool any = false;
  for (bool b : broadcast) any = any || b;
  if (!any) return "e";
  std::string off;
  for (size_t j = 0; j < broadcast.size(); ++j) {
    if (broadcast[j]) continue;
    std::string i = "i" + std::to_string(j);
    off = off.empty() ? i : "(" + off + ") * d" + std::to_string(j) + " + " + i;
  }
  return off.empty() ? "0" : off;
}

/// The parameter list after `out`: the inputs, then the sizes and the element count as `index`.
std::string parameters(const Kernel& k, const std::string& index) {
  std::string s;
  for (size_t i = 0; i < k.inputs.size(); ++i)
    s += ", const " + storageType(k.inputs[i].dtype) + "* __restrict__ in" + std::to_string(i);
  for (size_t j = 0; j < k.shape.size(); ++j) s += ", " + index + " d" + std::to_string(j);
  return s + ", " + index + " n";
}

/// The kernel: a grid-stride loop over the output in the index type I (32-bit below 2^30
/// elements, where integer division is several times cheaper, else 64-bit), as a template
/// the entry point instantiates for both.
std::string emitFunction(const Kernel& k, const std::string& name) {
  const size_t rank = k.shape.size();
  const std::string out = storageType(k.dtype) + "* __restrict__ out";
  std::string s = "template <class I>\n__device__ __forceinline__ void " + name + "_elements(" + out + parameters(k, "I") +
                  ") {\n"
                  "  const I stride = (I)gridDim.x * (I)blockDim.x;\n"
                  "  for (I e = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; e < n; e += stride) {\n";
  bool coordinates = false;
  for (const KernelInput& in : k.inputs) coordinates = coordinates || offsetOf(in.broadcast) != "e";
  if (coordinates && rank > 0) {
    s += "    I rest = e;\n";
    for (size_t j = rank; j-- > 1;)
      s += "    const I i" + std::to_string(j) + " = rest % d" + std::to_string(j) + "; rest /= d" + std::to_string(j) + ";\n";
    s += "    const I i0 = rest;\n";
  }
  std::vector<std::string> inputs;
  for (size_t i = 0; i < k.inputs.size(); ++i) {
    const std::string a = "a" + std::to_string(i), load = "in" + std::to_string(i) + "[" + offsetOf(k.inputs[i].broadcast) + "]";
    s += "    const " + valueType(k.inputs[i].dtype) + " " + a + " = " + (k.inputs[i].dtype == DType::Bool ? load + " != 0" : load) + ";\n";
    inputs.push_back(a);
  }
  std::vector<DType> stepDTypes;
  for (size_t n = 0; n < k.program.size(); ++n) {
    const FusedStep& st = k.program[n];
    std::vector<std::string> args;
    std::vector<DType> argDTypes;
    for (const FusedOperand& o : st.operands) {
      if (o.kind == FusedOperand::Kind::Input) args.push_back(inputs.at(o.index)), argDTypes.push_back(k.inputs[o.index].dtype);
      else if (o.kind == FusedOperand::Kind::Step) args.push_back("s" + std::to_string(o.index)), argDTypes.push_back(stepDTypes.at(o.index));
      else args.push_back(literal(o.dtype, o.value)), argDTypes.push_back(o.dtype);
    }
    DType operand = argDTypes.at(st.op == OpKind::Where ? 1 : 0);
    s += "    const " + valueType(st.dtype) + " s" + std::to_string(n) + " = " + step(st.op, operand, st.dtype, args) + ";\n";
    stepDTypes.push_back(st.dtype);
  }
  const std::string result = "s" + std::to_string(k.program.size() - 1);
  s += "    out[e] = " + (k.dtype == DType::Bool ? "(tempo_u8)(" + result + " ? 1 : 0)" : result) + ";\n  }\n}\n";
  std::string narrow = "out", wide = "out";
  for (size_t i = 0; i < k.inputs.size(); ++i) narrow += ", in" + std::to_string(i), wide += ", in" + std::to_string(i);
  for (size_t j = 0; j < rank; ++j) narrow += ", (int)d" + std::to_string(j), wide += ", d" + std::to_string(j);
  s += "extern \"C\" __global__ void __launch_bounds__(256) " + name + "(" + out + parameters(k, "tempo_i64") + ") {\n"
       "  if (n < (1LL << 30)) " + name + "_elements<int>(" + narrow + ", (int)n);\n"
       "  else " + name + "_elements<tempo_i64>(" + wide + ", n);\n}\n";
  return s;
}

/// The host entry: the kernel's grid as loops over blocks and threads, with the uniform arguments.
std::string emitHostEntry(const Kernel& k, const std::string& name) {
  const size_t rank = k.shape.size();
  std::string s = "extern \"C\" void " + cudaHostEntryName(name) +
                  "(void* out, const void* const* in, const int64_t* dims, int blocks, int threads) {\n"
                  "  tempo_i64 n = 1;\n"
                  "  for (int j = 0; j < " + std::to_string(rank) + "; ++j) n *= dims[j];\n"
                  "  gridDim.x = (unsigned)blocks; blockDim.x = (unsigned)threads;\n"
                  "  for (int b = 0; b < blocks; ++b)\n"
                  "    for (int t = 0; t < threads; ++t) {\n"
                  "      blockIdx.x = (unsigned)b; threadIdx.x = (unsigned)t;\n"
                  "      " + name + "((" + storageType(k.dtype) + "*)out";
  for (size_t i = 0; i < k.inputs.size(); ++i)
    s += ", (const " + storageType(k.inputs[i].dtype) + "*)in[" + std::to_string(i) + "]";
  for (size_t j = 0; j < rank; ++j) s += ", dims[" + std::to_string(j) + "]";
  s += ", n);\n    }\n}\n";
  return s;
}

}  // namespace

CudaSource emitCudaKernels(const KernelProgram& kernels, const std::string& prefix) {
  CudaSource out;
  std::map<std::string, std::string> functionOfKey;
  std::string host;
  for (const Kernel& k : kernels.kernels) {
    const bool reduction = cudaReduces(k);
    if (k.kind != KernelKind::Generated && !reduction) continue;
    auto [it, fresh] = functionOfKey.emplace(reduction ? cudaReductionKey(k) : kernelCodeKey(k), prefix + k.name);
    out.function[k.name] = it->second;
    if (!fresh) continue;
    out.functions.push_back(it->second);
    out.functionText[it->second] = reduction ? emitCudaReduction(k, it->second) : emitFunction(k, it->second);
    if (reduction) out.reductions.insert(it->second);
    host += reduction ? emitCudaReductionHostEntry(k, it->second) : emitHostEntry(k, it->second);
  }
  out.text = cudaDevicePrelude();
  for (const std::string& f : out.functions) out.text += "\n" + out.functionText[f];
  out.hostEntries = host;
  return out;
}

}  // namespace tempo
