#include "passes/ConstantFolding.h"

#include "passes/GraphRewrite.h"
#include "passes/ScalarFolding.h"

namespace tempo {

std::string ConstantFolding::description() const {
  return "When every input of an elementwise op is a scalar constant, its value is the same at every point "
         "and can be computed once, now, instead of at run time. This pass does so (with exactly the numeric "
         "rules of the runtime: f32 arithmetic in f32, transcendentals rounded once) and turns the node into "
         "a constant, producers first so that chains fold completely. It never evaluates loads or random "
         "initialisers: those values belong to a run, not to the program.";
}

namespace {

bool isScalarConstant(const Graph& g, const Edge& e) {
  const Node& p = g.node(e.producer);
  return p.op == OpKind::Constant && p.type.isScalar() && g.readType(e).isScalar();
}

std::optional<double> foldNode(const Graph& g, const Node& n) {
  OpClass cls = opClass(n.op);
  if (cls != OpClass::Unary && cls != OpClass::Binary && cls != OpClass::Ternary) return std::nullopt;
  if (!n.type.isScalar()) return std::nullopt;
  std::vector<double> values;
  auto inputs = g.inputs(n.id);
  for (const Edge* e : inputs) {
    if (!e->condition.isAlways() || !isScalarConstant(g, *e)) return std::nullopt;
    values.push_back(g.node(e->producer).attrs.value);
  }
  // `where` folds on its value operands' dtype; every other op on its first input's.
  DType inputType = g.node(inputs.back()->producer).type.dtype;
  return foldScalar(n.op, inputType, values);
}

}  // namespace

void ConstantFolding::run(Graph& graph, PassContext& context) {
  int folded = 0;
  for (const auto& component : componentsProducersFirst(graph)) {
    if (component.size() != 1) continue;
    NodeId id = component.front();
    std::optional<double> value = foldNode(graph, graph.node(id));
    if (!value) continue;
    for (const Edge* e : graph.inputs(id)) graph.removeEdge(e->id);
    Node& n = graph.node(id);
    n.op = OpKind::Constant;
    n.attrs = OpAttrs{};
    n.attrs.value = *value;
    context.change.rewritten.insert(id);
    ++folded;
  }
  if (folded) context.change.notes.push_back("folded " + std::to_string(folded) + " nodes into constants");
}

}  // namespace tempo
