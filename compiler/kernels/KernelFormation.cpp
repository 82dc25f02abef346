#include "kernels/KernelFormation.h"

#include "codegen/LlvmKernels.h"
#include "types/TensorType.h"

#include <map>
#include <optional>

namespace tempo {
namespace {

void countExecs(const LoopBody& body, std::map<NodeId, int>& execs) {
  for (const LoopStmt& s : body) {
    if (const auto* f = s.as<ForStmt>()) countExecs(f->body, execs);
    else if (const auto* i = s.as<IfStmt>()) countExecs(i->thenBody, execs), countExecs(i->elseBody, execs);
    else if (const auto* e = s.as<ExecStmt>()) ++execs[e->node];
  }
}

/// `k7_h`, or `k7_fused` for an intermediate; only [A-Za-z0-9_].
std::string kernelName(const Node& n) {
  std::string label = n.name.empty() ? std::string(opName(n.op)) : n.name;
  std::string s = "k" + std::to_string(n.id) + "_";
  for (char c : label) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  return s;
}

bool dependsOnADim(const std::vector<IndexExpr>& shape) {
  for (const IndexExpr& e : shape)
    if (e.dependsOnKind(SymbolKind::Dim)) return true;
  return false;
}

std::string shapeText(const std::vector<IndexExpr>& shape) { return TensorType{DType::F32, shape}.shapeStr(); }

/// The steps of an elementwise node: its fused program, or one step over its inputs.
std::vector<FusedStep> stepsOf(const Node& n) {
  if (n.op == OpKind::Fused) return n.attrs.program;
  FusedStep step;
  step.op = n.op;
  step.dtype = n.type.dtype;
  for (int i = 0; i < opArity(n.op); ++i) step.operands.push_back({FusedOperand::Kind::Input, i, 0, DType::F32});
  return {step};
}

/// Why the steps cannot be generated for these input dtypes, or nullopt when they can.
std::optional<std::string> checkSteps(const std::vector<FusedStep>& steps, const std::vector<KernelInput>& inputs,
                                      DType outDType) {
  std::vector<DType> stepDTypes;
  for (size_t k = 0; k < steps.size(); ++k) {
    const FusedStep& s = steps[k];
    int arity = opArity(s.op);
    if (arity < 1 || s.operands.size() != static_cast<size_t>(arity)) return "step " + std::to_string(k) + " is malformed";
    std::vector<DType> operands;
    for (const FusedOperand& o : s.operands) {
      if (o.kind == FusedOperand::Kind::Literal) operands.push_back(o.dtype);
      else if (o.kind == FusedOperand::Kind::Input && o.index >= 0 && static_cast<size_t>(o.index) < inputs.size())
        operands.push_back(inputs[o.index].dtype);
      else if (o.kind == FusedOperand::Kind::Step && o.index >= 0 && static_cast<size_t>(o.index) < k)
        operands.push_back(stepDTypes[o.index]);
      else return "step " + std::to_string(k) + " reads a missing operand";
    }
    size_t first = s.op == OpKind::Where ? 1 : 0;
    if (s.op == OpKind::Where && operands[0] != DType::Bool) return "where's condition is not bool";
    for (size_t i = first; i < operands.size(); ++i)
      if (operands[i] != operands[first]) return std::string(opName(s.op)) + " mixes operand dtypes";
    if (!llvmLowersStep(s.op, operands[first], s.dtype))
      return "no LLVM lowering of " + std::string(opName(s.op)) + " on " + std::string(dtypeName(operands[first])) +
             " (the library kernel runs it)";
    stepDTypes.push_back(s.dtype);
  }
  if (stepDTypes.empty() || stepDTypes.back() != outDType) return "the last step's dtype is not the node's";
  return std::nullopt;
}

/// Fills each input's broadcast pattern; the reason when the shapes do not broadcast statically.
std::optional<std::string> broadcastPatterns(const std::vector<IndexExpr>& out, std::vector<KernelInput>& inputs) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    KernelInput& in = inputs[i];
    if (in.shape.size() > out.size()) return "in" + std::to_string(i) + " has more dimensions than the output";
    size_t lead = out.size() - in.shape.size();
    in.broadcast.assign(out.size(), true);
    for (size_t k = 0; k < in.shape.size(); ++k) {
      const IndexExpr& size = in.shape[k];
      if (size == out[lead + k]) in.broadcast[lead + k] = false;
      else if (size.constantValue() != std::optional<int64_t>(1))
        return "in" + std::to_string(i) + " " + shapeText(in.shape) + " does not broadcast statically to " +
               shapeText(out);
    }
  }
  return std::nullopt;
}

Kernel formKernel(const Graph& g, const Node& n, int execs) {
  Kernel k;
  k.name = kernelName(n);
  k.node = n.id;
  k.op = n.op;
  k.loc = n.loc;
  k.dtype = n.type.dtype;
  k.shape = n.type.shape;
  k.execs = execs;
  for (const Edge* e : g.inputs(n.id)) {
    const Node& p = g.node(e->producer);
    KernelInput in;
    in.producer = p.id;
    in.dtype = p.type.dtype;
    for (const IndexAtom& a : e->index)
      if (a.isSlice()) in.shape.push_back(a.size());
    in.shape.insert(in.shape.end(), p.type.shape.begin(), p.type.shape.end());
    k.inputs.push_back(std::move(in));
  }
  switch (opClass(n.op)) {
    case OpClass::Source: k.kind = KernelKind::Runtime, k.reason = "a source: the executor reads its array or value"; return k;
    case OpClass::Merge: k.kind = KernelKind::Runtime, k.reason = "a merge: the executor takes the first live branch"; return k;
    case OpClass::Identity: k.kind = KernelKind::Runtime, k.reason = "an identity: a view of its input"; return k;
    case OpClass::MatMul:
      k.kind = KernelKind::Library, k.reason = "gemm (libxsmm, oneDNN; OpenBLAS for f64)";
      k.permA = n.attrs.permA, k.permB = n.attrs.permB;
      return k;
    case OpClass::Reduce:
      k.kind = KernelKind::Library, k.reason = "the vectorised reduction kernel";
      k.axes = n.attrs.axes, k.keepDims = n.attrs.keepDims;
      return k;
    case OpClass::Indexed: k.kind = KernelKind::Library, k.reason = "the " + std::string(opName(n.op)) + " kernel"; return k;
    case OpClass::Movement:
      k.kind = n.op == OpKind::Reshape ? KernelKind::Runtime : KernelKind::Library;
      k.reason = n.op == OpKind::Reshape ? "a reshape: a view of its input" : "the movement kernel";
      return k;
    default: break;
  }
  k.kind = KernelKind::Library;
  bool dynamic = dependsOnADim(k.shape);
  for (const KernelInput& in : k.inputs) dynamic = dynamic || dependsOnADim(in.shape);
  if (dynamic) {
    k.reason = "not generated: a shape depends on a domain dimension";
    return k;
  }
  if (auto why = broadcastPatterns(k.shape, k.inputs)) {
    for (KernelInput& in : k.inputs) in.broadcast.clear();
    k.reason = "not generated: " + *why;
    return k;
  }
  std::vector<FusedStep> steps = stepsOf(n);
  if (auto why = checkSteps(steps, k.inputs, n.type.dtype)) {
    for (KernelInput& in : k.inputs) in.broadcast.clear();
    k.reason = "not generated: " + *why;
    return k;
  }
  k.kind = KernelKind::Generated;
  k.program = std::move(steps);
  return k;
}

}  // namespace

KernelProgram formKernels(const Graph& g, const LoopProgram& loops) {
  std::map<NodeId, int> execs;
  countExecs(loops.body, execs);
  KernelProgram out;
  for (const auto& [id, count] : execs)
    if (g.hasNode(id)) out.kernels.push_back(formKernel(g, g.node(id), count));
  return out;
}

KernelProgram formKernelsOfEveryNode(const Graph& g) {
  KernelProgram out;
  for (const auto& [id, node] : g.nodes()) out.kernels.push_back(formKernel(g, node, 0));
  return out;
}

}  // namespace tempo
