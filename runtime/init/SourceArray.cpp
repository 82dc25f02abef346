#include "init/SourceArray.h"

#include "init/Initializers.h"
#include "npy/Npy.h"
#include "safetensors/Safetensors.h"
#include "safetensors/SafetensorsLoad.h"
#include "tensor/DTypeDispatch.h"

namespace tempo {

namespace {

Tensor loadChecked(const Node& n, const std::vector<int64_t>& shape) {
  const OpAttrs& a = n.attrs;
  if (!a.tensor.empty()) {
    try {
      return loadSafetensors(n, shape);
    } catch (const SafetensorsError& ex) {
      throw SourceArrayError(ex.what());
    }
  }
  std::string shown = a.displayPath.empty() ? a.path : a.displayPath;
  Tensor whole;
  try {
    whole = readNpy(a.path);
  } catch (const std::exception& ex) {
    throw SourceArrayError("cannot load '" + shown + "': " + ex.what());
  }
  if (whole.shape() != shape) {
    std::string domain;
    for (size_t i = 0; i < n.domain.size(); ++i) domain += (i ? ", " : "") + n.domain[i];
    throw SourceArrayError("'" + shown + "' holds an array of shape " + shapeString(whole.shape()) + ", expected " +
                           shapeString(shape) + " (the bounds of the domain (" + domain +
                           ") followed by the element shape " + n.type.shapeStr() + ")");
  }
  if (whole.dtype() != n.type.dtype)
    throw SourceArrayError("'" + shown + "' holds " + std::string(dtypeName(whole.dtype())) + " values, expected " +
                           std::string(dtypeName(n.type.dtype)));
  return whole;
}

/// hash(key=EXPR) whose key uses dimensions of the domain (`key=2000 + i`): the
/// element at domain point p and element e gets the key EXPR(p) and, as its flat
/// index, the row-major index of (the other coordinates of p, e) — so each value
/// of the key's dimensions holds exactly the array a constant key would give
/// over the remaining dimensions (the peers' det_tensor with key 2000 + i).
Tensor keyedHash(const Node& n, const std::vector<int64_t>& shape) {
  const IndexExpr& key = *n.attrs.index;
  size_t rank = shape.size();
  std::vector<bool> inKey(rank, false);
  for (size_t d = 0; d < n.domain.size() && d < rank; ++d) inKey[d] = key.dependsOn(n.domain[d]);
  std::vector<int64_t> restStride(rank, 0);
  int64_t stride = 1;
  for (size_t d = rank; d-- > 0;)
    if (!inKey[d]) restStride[d] = stride, stride *= shape[d];
  Tensor t(n.type.dtype, shape);
  std::vector<int64_t> at(rank, 0);
  SymbolEnv env;
  visitDType(n.type.dtype, [&]<class T>() {
    T* p = t.data<T>();
    uint64_t k = 0;
    bool keyChanged = true;
    for (int64_t flat = 0; flat < t.numel(); ++flat) {
      if (keyChanged) {
        for (size_t d = 0; d < n.domain.size() && d < rank; ++d)
          if (inKey[d]) env[n.domain[d]] = at[d];
        k = static_cast<uint64_t>(key.evaluate(env));
        keyChanged = false;
      }
      int64_t rest = 0;
      for (size_t d = 0; d < rank; ++d) rest += at[d] * restStride[d];
      p[flat] = fromDouble<T>(double(hashInitValue(uint64_t(rest), k, n.attrs.b)));
      for (size_t d = rank; d-- > 0;) {  // the next row-major position
        keyChanged = keyChanged || inKey[d];
        if (++at[d] < shape[d]) break;
        at[d] = 0;
      }
    }
  });
  return t;
}

}  // namespace

Tensor buildSourceArray(const Node& n, const std::vector<int64_t>& shape) {
  const OpAttrs& a = n.attrs;
  switch (n.op) {
    case OpKind::Load: return loadChecked(n, shape);
    case OpKind::RandomNormal: return normalInit(n.type.dtype, shape, a.seed, a.a, a.b);
    case OpKind::RandomUniform: return uniformInit(n.type.dtype, shape, a.seed, a.a, a.b);
    case OpKind::HashInit: return a.index ? keyedHash(n, shape) : hashInit(n.type.dtype, shape, a.seed, a.b);
    default: throw SourceArrayError(std::string(opName(n.op)) + " is not a whole-array source op");
  }
}

std::map<NodeId, Tensor> buildSourceArrays(const Graph& g, const SymbolEnv& bounds) {
  std::map<NodeId, Tensor> arrays;
  for (const auto& [id, n] : g.nodes()) {
    if (!isWholeArraySource(n.op)) continue;
    std::vector<int64_t> shape;
    for (const std::string& dim : n.domain) shape.push_back(bounds.at(g.boundOf(dim)));
    for (int64_t s : n.type.evaluateShape(bounds)) shape.push_back(s);
    arrays.emplace(id, buildSourceArray(n, shape));
  }
  return arrays;
}

}  // namespace tempo
