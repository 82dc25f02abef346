// The CUDA C++ emitter of reductions; see CudaReductions.h.
#include "codegen/CudaReductions.h"

#include "codegen/CudaKernels.h"
#include "codegen/CudaText.h"

#include <limits>

namespace tempo {

bool cudaReduces(const Kernel& k) {
  const bool argmax = k.op == OpKind::ReduceArgMax;
  if (k.op != OpKind::ReduceSum && k.op != OpKind::ReduceMax && !argmax) return false;
  if (k.inputs.size() != 1 || k.inputs[0].shape.empty() || k.axes.empty()) return false;
  const DType in = k.inputs[0].dtype;
  if (!isFloat(in) && !isInteger(in)) return false;  // bool: the library kernel's business
  for (int64_t a : k.axes)
    if (a < 0 || a >= static_cast<int64_t>(k.inputs[0].shape.size())) return false;
  return argmax ? k.axes.size() == 1 && k.dtype == DType::I64 : k.dtype == in;
}

namespace {

/// Whether (vb, ib) beats (va, ia) for argmax: the first NaN, else the largest value, the
/// smaller index on ties (the reference's scan order); an index below 0 is no candidate.
std::string argmaxBetter(const std::string& va, const std::string& ia, const std::string& vb, const std::string& ib) {
  return "(" + ib + " >= 0 && (" + ia + " < 0 || (" + vb + " != " + vb + " ? (" + va + " == " + va + " || " + ib + " < " + ia +
         ") : (" + va + " == " + va + " && (" + vb + " > " + va + " || (" + vb + " == " + va + " && " + ib + " < " + ia + "))))))";
}

}  // namespace

std::string cudaReductionKey(const Kernel& k) {
  std::string key = "reduce " + std::string(opName(k.op)) + " " + std::string(dtypeName(k.inputs[0].dtype)) + " -> " +
                    std::string(dtypeName(k.dtype)) + " rank " + std::to_string(k.inputs[0].shape.size()) + " axes";
  for (int64_t a : k.axes) key += " " + std::to_string(a);
  return key;
}

std::string emitCudaReduction(const Kernel& k, const std::string& name) {
  const DType in = k.inputs[0].dtype;
  const size_t rank = k.inputs[0].shape.size();
  const bool sum = k.op == OpKind::ReduceSum, argmax = k.op == OpKind::ReduceArgMax;
  const std::string T = storageType(in);
  const std::string acc = sum ? (isFloat(in) ? "double" : unsignedType(in)) : T;
  std::vector<bool> reduced(rank, false);
  for (int64_t a : k.axes) reduced.at(static_cast<size_t>(a)) = true;
  std::string s = "extern \"C\" __global__ void __launch_bounds__(256) " + name + "(" + storageType(k.dtype) +
                  "* __restrict__ out, const " + T + "* __restrict__ in0";
  for (size_t j = 0; j < rank; ++j) s += ", tempo_i64 d" + std::to_string(j);
  s += ", tempo_i64 n) {\n  __shared__ " + acc + " partial[256];\n";
  if (argmax) s += "  __shared__ tempo_i64 where[256];  // argmax: the index of each partial's value\n";
  // Row-major strides of the input.
  auto product = [](const std::vector<size_t>& dims) {
    std::string p;
    for (size_t j : dims) p += (p.empty() ? "d" : " * d") + std::to_string(j);
    return p.empty() ? std::string("1") : p;
  };
  std::vector<size_t> reducedDims;
  for (size_t j = 0; j < rank; ++j) {
    std::vector<size_t> after;
    for (size_t i = j + 1; i < rank; ++i) after.push_back(i);
    s += "  const tempo_i64 s" + std::to_string(j) + " = " + product(after) + ";\n";
    if (reduced[j]) reducedDims.push_back(j);
  }
  s += "  const tempo_i64 count = " + product(reducedDims) + ";\n";
  const double lowest = -std::numeric_limits<double>::infinity();  // literal() saturates it for integers
  const std::string init = sum ? "(" + acc + ")0" : literal(in, lowest);
  auto combine = [&](const std::string& a, const std::string& b) {
    if (sum) return a + " + " + b;
    if (isFloat(in)) return "(" + a + " != " + a + " ? " + a + " : " + b + " != " + b + " ? " + b + " : " + a + " < " + b + " ? " + b + " : " + a + ")";
    return "(" + a + " < " + b + " ? " + b + " : " + a + ")";
  };
  s += "  for (tempo_i64 o = blockIdx.x; o < n; o += gridDim.x) {\n    tempo_i64 rest = o, base = 0;\n";
  for (size_t j = rank; j-- > 0;)
    if (!reduced[j]) s += "    base += (rest % d" + std::to_string(j) + ") * s" + std::to_string(j) + "; rest /= d" + std::to_string(j) + ";\n";
  s += "    " + acc + " acc = " + (argmax ? "(" + T + ")0" : init) + ";\n" + (argmax ? "    tempo_i64 at = -1;\n" : "") +
       "    for (tempo_i64 r = threadIdx.x; r < count; r += blockDim.x) {\n"
       "      tempo_i64 left = r, offset = base;\n";
  for (size_t j = rank; j-- > 0;)
    if (reduced[j]) s += "      offset += (left % d" + std::to_string(j) + ") * s" + std::to_string(j) + "; left /= d" + std::to_string(j) + ";\n";
  s += "      const " + acc + " v = (" + acc + ")in0[offset];\n";
  // argmax reduces one axis: r is the index along it.
  s += argmax ? "      if " + argmaxBetter("acc", "at", "v", "r") + " acc = v, at = r;\n    }\n"
              : "      acc = " + combine("acc", "v") + ";\n    }\n";
  s += "    partial[threadIdx.x] = acc;\n" + std::string(argmax ? "    where[threadIdx.x] = at;\n" : "") +
       "    __syncthreads();\n"
       "    for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {\n"
       "      if (threadIdx.x < half) {\n";
  if (argmax) {
    s += "        const unsigned t = threadIdx.x, u = threadIdx.x + half;\n"
         "        if " + argmaxBetter("partial[t]", "where[t]", "partial[u]", "where[u]") +
         " partial[t] = partial[u], where[t] = where[u];\n";
  } else {
    s += "        const " + acc + " a = partial[threadIdx.x], b = partial[threadIdx.x + half];\n"
         "        partial[threadIdx.x] = " + combine("a", "b") + ";\n";
  }
  s += "      }\n      __syncthreads();\n    }\n";
  s += argmax ? "    if (threadIdx.x == 0) out[o] = where[0] < 0 ? 0 : where[0];  // an empty axis: 0\n"
              : "    if (threadIdx.x == 0) out[o] = (" + storageType(k.dtype) + ")partial[0];\n";
  s += "    __syncthreads();  // partial is reused for the next output\n  }\n}\n";
  return s;
}

std::string emitCudaReductionHostEntry(const Kernel& k, const std::string& name) {
  const size_t rank = k.inputs[0].shape.size();
  std::vector<bool> reduced(rank, false);
  for (int64_t a : k.axes) reduced.at(static_cast<size_t>(a)) = true;
  std::string s = "extern \"C\" void " + cudaHostEntryName(name) +
                  "(void* out, const void* const* in, const int64_t* dims, int blocks, int threads) {\n"
                  "  tempo_i64 n = 1;\n";
  for (size_t j = 0; j < rank; ++j)
    if (!reduced[j]) s += "  n *= dims[" + std::to_string(j) + "];\n";
  s += "  for (int b = 0; b < blocks; ++b)\n    tempo_run_block(b, blocks, threads, [&] { " + name + "((" +
       storageType(k.dtype) + "*)out, (const " + storageType(k.inputs[0].dtype) + "*)in[0]";
  for (size_t j = 0; j < rank; ++j) s += ", dims[" + std::to_string(j) + "]";
  s += ", n); });\n}\n";
  return s;
}

}  // namespace tempo
