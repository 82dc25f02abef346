#include "init/SourceArray.h"

#include "init/Initializers.h"
#include "npy/Npy.h"

namespace tempo {

bool isWholeArraySource(OpKind op) {
  return op == OpKind::Load || op == OpKind::RandomNormal || op == OpKind::RandomUniform || op == OpKind::HashInit;
}

namespace {

Tensor loadChecked(const Node& n, const std::vector<int64_t>& shape) {
  const OpAttrs& a = n.attrs;
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

}  // namespace

Tensor buildSourceArray(const Node& n, const std::vector<int64_t>& shape) {
  const OpAttrs& a = n.attrs;
  switch (n.op) {
    case OpKind::Load: return loadChecked(n, shape);
    case OpKind::RandomNormal: return normalInit(n.type.dtype, shape, a.seed, a.a, a.b);
    case OpKind::RandomUniform: return uniformInit(n.type.dtype, shape, a.seed, a.a, a.b);
    case OpKind::HashInit: return hashInit(n.type.dtype, shape, a.seed, a.b);
    default: throw SourceArrayError(std::string(opName(n.op)) + " is not a whole-array source op");
  }
}

}  // namespace tempo
