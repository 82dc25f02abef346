#include "kernels/Kernel.h"

#include "ops/FusedProgram.h"
#include "types/TensorType.h"

#include <algorithm>
#include <cstdio>

namespace tempo {

std::string_view kernelKindName(KernelKind kind) {
  switch (kind) {
    case KernelKind::Generated: return "generated";
    case KernelKind::Library: return "library";
    case KernelKind::Runtime: return "runtime";
  }
  return "?";
}

std::string kernelCodeKey(const Kernel& k) {
  std::string key = std::to_string(static_cast<int>(k.dtype)) + "/" + std::to_string(k.shape.size()) + "|";
  for (const KernelInput& in : k.inputs) {
    key += std::to_string(static_cast<int>(in.dtype)) + ":";
    for (bool b : in.broadcast) key += b ? 'b' : '.';
    key += ",";
  }
  char value[32];
  for (const FusedStep& step : k.program) {
    key += "|" + std::to_string(static_cast<int>(step.op)) + ":" + std::to_string(static_cast<int>(step.dtype));
    for (const FusedOperand& o : step.operands) {
      std::snprintf(value, sizeof value, "%a", o.value);
      key += "," + std::to_string(static_cast<int>(o.kind)) + ":" + std::to_string(o.index) + ":" + value + ":" +
             std::to_string(static_cast<int>(o.dtype));
    }
  }
  return key;
}

const Kernel* KernelProgram::forNode(NodeId node) const {
  auto it = std::lower_bound(kernels.begin(), kernels.end(), node,
                             [](const Kernel& k, NodeId id) { return k.node < id; });
  return it != kernels.end() && it->node == node ? &*it : nullptr;
}

const Kernel* KernelProgram::find(const std::string& nameOrNode) const {
  for (const Kernel& k : kernels)
    if (k.name == nameOrNode) return &k;
  std::string digits = !nameOrNode.empty() && nameOrNode[0] == '%' ? nameOrNode.substr(1) : nameOrNode;
  if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return nullptr;
  return forNode(std::stoi(digits));
}

int KernelProgram::count(KernelKind kind) const {
  return static_cast<int>(std::count_if(kernels.begin(), kernels.end(), [&](const Kernel& k) { return k.kind == kind; }));
}

namespace {

std::string nodeText(const Graph& g, NodeId id) {
  if (!g.hasNode(id)) return "%" + std::to_string(id);
  const Node& n = g.node(id);
  std::string s = "%" + std::to_string(id);
  if (!n.name.empty()) s += " '" + n.name + "'";
  return s + " (" + std::string(opName(n.op)) + ")";
}

std::string typeText(DType dtype, const std::vector<IndexExpr>& shape) { return TensorType{dtype, shape}.str(); }

}  // namespace

std::string printKernel(const Graph& g, const Kernel& k) {
  std::string s = "kernel " + k.name + "  " + std::string(kernelKindName(k.kind)) + "  " + nodeText(g, k.node);
  if (k.loc.valid())
    s += " at " + (g.file.empty() ? std::string() : g.file + ":") + std::to_string(k.loc.begin.line) + ":" +
         std::to_string(k.loc.begin.col);
  s += "  " + typeText(k.dtype, k.shape);
  s += k.execs == 1 ? "  (1 exec statement)\n" : "  (" + std::to_string(k.execs) + " exec statements)\n";
  for (size_t i = 0; i < k.inputs.size(); ++i) {
    const KernelInput& in = k.inputs[i];
    s += "  in" + std::to_string(i) + " " + typeText(in.dtype, in.shape) + " from " + nodeText(g, in.producer);
    std::string along;
    int dims = 0;
    for (size_t d = 0; d < in.broadcast.size(); ++d)
      if (in.broadcast[d]) along += (dims++ ? ", " : "") + std::to_string(d);
    if (dims) s += (dims == 1 ? ", broadcast along dim " : ", broadcast along dims ") + along;
    s += "\n";
  }
  if (k.kind == KernelKind::Generated) s += "  = " + fusedExpression(k.program) + "\n";
  else if (!k.reason.empty()) s += "  " + k.reason + "\n";
  return s;
}

std::string printKernelProgram(const Graph& g, const KernelProgram& p) {
  std::string s = std::to_string(p.kernels.size()) + " kernels: " + std::to_string(p.count(KernelKind::Generated)) +
                  " generated, " + std::to_string(p.count(KernelKind::Library)) + " library, " +
                  std::to_string(p.count(KernelKind::Runtime)) + " runtime\n";
  for (const Kernel& k : p.kernels) s += "\n" + printKernel(g, k);
  return s;
}

}  // namespace tempo
