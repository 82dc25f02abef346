#include "tiling/StaticShapeCheck.h"

namespace tempo {

std::vector<std::string> dynamicShapes(const Graph& g) {
  std::vector<std::string> out;
  for (const auto& [id, n] : g.nodes())
    if (!n.type.isStaticOverDims()) out.push_back("%" + std::to_string(id) + ": " + n.type.str());
  for (const auto& [id, e] : g.edges())
    if (TensorType t = g.readType(e); !t.isStaticOverDims())
      out.push_back("%" + std::to_string(e.consumer) + " <- " + e.str() + ": " + t.str());
  return out;
}

}  // namespace tempo
