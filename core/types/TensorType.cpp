#include "types/TensorType.h"

namespace tempo {

bool TensorType::isStaticOverDims() const {
  for (const IndexExpr& s : shape)
    if (s.dependsOnKind(SymbolKind::Dim)) return false;
  return true;
}

std::vector<int64_t> TensorType::evaluateShape(const SymbolEnv& env) const {
  std::vector<int64_t> out;
  out.reserve(shape.size());
  for (const IndexExpr& s : shape) out.push_back(s.evaluate(env));
  return out;
}

std::string TensorType::shapeStr() const {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + shape[i].str();
  return out + "]";
}

std::string TensorType::str() const { return std::string(dtypeName(dtype)) + shapeStr(); }

}  // namespace tempo
