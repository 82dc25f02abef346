// Kernel cases shared by the code generators' tests; see KernelCases.h.
#include "support/KernelCases.h"

#include "codegen/LlvmKernels.h"
#include "frontend/Frontend.h"
#include "kernels/ReferenceKernels.h"
#include "kernels/cpu/Reduce.h"
#include "lowering/Lowering.h"
#include "pass/PassRegistry.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>

namespace tempo::testing {

const DType kKernelDTypes[5] = {DType::F32, DType::F64, DType::I32, DType::I64, DType::Bool};

const std::vector<OpKind>& elementwiseOps() {
  static const std::vector<OpKind> ops{
      OpKind::Neg, OpKind::Exp, OpKind::Log, OpKind::Sqrt, OpKind::Tanh, OpKind::Sigmoid, OpKind::Relu, OpKind::Abs,
      OpKind::Sin, OpKind::Cos, OpKind::Not, OpKind::Add, OpKind::Sub, OpKind::Mul, OpKind::Div, OpKind::Pow,
      OpKind::Maximum, OpKind::Minimum, OpKind::Lt, OpKind::Le, OpKind::Gt, OpKind::Ge, OpKind::Eq, OpKind::Ne,
      OpKind::And, OpKind::Or, OpKind::Where, OpKind::Cast};
  return ops;
}

/// Values at the edges first, then random ones of a spread that reaches the clamps.
Tensor edgyTensor(DType dtype, const std::vector<int64_t>& shape, uint32_t seed) {
  Tensor t(dtype, shape);
  std::mt19937 rng(seed);
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> floats{0.0, -0.0, 1.0, -1.0, 0.03, -0.05, 0.0625, 20.5, -25.0, 100.5, -120.0,
                                   inf, -inf, nan, 1e20, -1e20, 3.7, -3.7, 2.5e9, -9.3e18};
  std::uniform_real_distribution<double> wide(-8.0, 8.0);
  for (int64_t i = 0; i < t.numel(); ++i) {
    double v;
    if (dtype == DType::Bool) v = static_cast<double>(rng() % 2);
    else if (dtype == DType::I32 || dtype == DType::I64) v = static_cast<double>(static_cast<int32_t>(rng() % 200001) - 100000);
    else v = i < static_cast<int64_t>(floats.size()) ? floats[(i + seed) % floats.size()] : wide(rng);
    t.set(i, v);
  }
  return t;
}

Tensor moderateTensor(DType dtype, const std::vector<int64_t>& shape, uint32_t seed) {
  Tensor t(dtype, shape);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> spread(-8.0, 8.0);
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (dtype == DType::Bool) t.set(i, static_cast<double>(rng() % 2));
    else if (isInteger(dtype)) t.set(i, static_cast<double>(static_cast<int32_t>(rng() % 2001) - 1000));
    else t.set(i, spread(rng));
  }
  return t;
}

std::string firstDifference(const Tensor& want, const Tensor& got) {
  if (want.dtype() != got.dtype() || want.shape() != got.shape()) return "dtype or shape differ";
  size_t size = dtypeSize(want.dtype());
  const auto* a = static_cast<const unsigned char*>(want.raw());
  const auto* b = static_cast<const unsigned char*>(got.raw());
  for (int64_t i = 0; i < want.numel(); ++i) {
    if (std::memcmp(a + i * size, b + i * size, size) == 0) continue;
    double x = want.at(i), y = got.at(i);
    if (x != x && y != y) continue;  // both NaN: payloads may differ
    return "element " + std::to_string(i) + ": library " + std::to_string(x) + ", generated " + std::to_string(y);
  }
  return "";
}

std::string Case::label() const {
  return std::string(opName(op)) + " " + std::string(dtypeName(operand)) + " -> " + std::string(dtypeName(result));
}

std::vector<Case> loweredCases() {
  std::vector<Case> out;
  for (OpKind op : elementwiseOps())
    for (DType operand : kKernelDTypes) {
      std::vector<DType> results;
      if (op == OpKind::Cast) results.assign(std::begin(kKernelDTypes), std::end(kKernelDTypes));
      else results.push_back(isComparison(op) ? DType::Bool : operand);
      for (DType result : results)
        if (llvmLowersStep(op, operand, result)) out.push_back({op, operand, result});
    }
  return out;
}

/// A one-step kernel over inputs [R, C], [C] (broadcast along dim 0) and [R, 1] (along dim 1).
Kernel oneStepKernel(const Case& c, int id, int64_t cols) {
  Kernel k;
  k.name = "k" + std::to_string(id) + "_case";
  k.node = id;
  k.op = c.op;
  k.kind = KernelKind::Generated;
  k.dtype = c.result;
  k.shape = {IndexExpr::bound("R"), IndexExpr(cols)};
  const int arity = opArity(c.op);
  for (int i = 0; i < arity; ++i) {
    KernelInput in;
    in.dtype = c.op == OpKind::Where && i == 0 ? DType::Bool : c.operand;
    if (i == 0) in.shape = k.shape, in.broadcast = {false, false};
    else if (i == 1) in.shape = {IndexExpr(cols)}, in.broadcast = {true, false};
    else in.shape = {IndexExpr::bound("R"), IndexExpr(1)}, in.broadcast = {false, true};
    k.inputs.push_back(in);
  }
  FusedStep step{c.op, {}, c.result};
  for (int i = 0; i < arity; ++i) step.operands.push_back({FusedOperand::Kind::Input, i, 0, DType::F32});
  k.program = {step};
  return k;
}

std::vector<Tensor> inputsFor(const Kernel& k, int64_t rows, uint32_t seed) {
  std::vector<Tensor> out;
  for (size_t i = 0; i < k.inputs.size(); ++i) {
    std::vector<int64_t> shape = i == 0 ? std::vector<int64_t>{rows, 37} : i == 1 ? std::vector<int64_t>{37}
                                                                                 : std::vector<int64_t>{rows, 1};
    out.push_back(edgyTensor(k.inputs[i].dtype, shape, seed + static_cast<uint32_t>(i) * 7919));
  }
  return out;
}

LoweredKernels lowerKernels(const std::string& text, const std::string& name, const std::string& dir) {
  FrontendResult r = compileSource(text, name, dir);
  if (!r.ok()) throw std::runtime_error(name + ": " + r.renderedDiagnostics());
  Graph g = r.graph;
  PassContext context;
  defaultPipeline().run(g, context);
  IslContext isl;
  LoweringOptions options;
  options.codegen = false;
  LoweredProgram lowered = lowerProgram(g, isl, options);
  SymbolEnv env = g.withDerivedBounds(SymbolEnv(g.boundDefaults.begin(), g.boundDefaults.end()));
  // Shapes that vary with a dimension (a window x[0:t+1]) at its last point, the largest.
  for (const DimDecl& d : g.dims)
    if (env.count(d.bound)) env[d.name] = env[d.bound] - 1;
  return {lowered.kernels, env};
}

Tensor cpuOrReferenceReduce(const Kernel& k, const Tensor& x) {
  if (std::optional<Tensor> fast = cpu::reduce(k.op, x, k.axes, k.keepDims)) return *fast;
  OpAttrs attrs;
  attrs.axes = k.axes, attrs.keepDims = k.keepDims;
  std::vector<int64_t> shape;
  for (size_t j = 0; j < x.shape().size(); ++j) {
    const bool reduced = std::find(k.axes.begin(), k.axes.end(), static_cast<int64_t>(j)) != k.axes.end();
    if (!reduced || k.keepDims) shape.push_back(reduced ? 1 : x.shape()[j]);
  }
  return ref::evalOp(k.op, attrs, {x}, k.dtype, shape);
}

std::vector<int64_t> evaluated(const std::vector<IndexExpr>& shape, const SymbolEnv& env) {
  std::vector<int64_t> out;
  for (const IndexExpr& e : shape) out.push_back(e.evaluate(env));
  return out;
}

}  // namespace tempo::testing
