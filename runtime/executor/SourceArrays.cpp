#include "executor/SourceArrays.h"

#include "executor/ExecError.h"
#include "init/Initializers.h"
#include "npy/Npy.h"

namespace tempo {

bool isWholeArraySource(OpKind op) {
  return op == OpKind::Load || op == OpKind::RandomNormal || op == OpKind::RandomUniform || op == OpKind::HashInit;
}

const Tensor& SourceArrays::get(const Node& n, const std::vector<int64_t>& domainBounds, const SymbolEnv& bounds,
                                const std::string& label) {
  if (auto it = arrays_.find(n.id); it != arrays_.end()) return it->second;
  std::vector<int64_t> shape = domainBounds;
  try {
    for (int64_t s : n.type.evaluateShape(bounds)) shape.push_back(s);
  } catch (const std::exception& ex) {
    throw ExecError(label + ": cannot evaluate the element shape " + n.type.shapeStr() + ": " + ex.what(), n.id);
  }
  const OpAttrs& a = n.attrs;
  Tensor whole;
  switch (n.op) {
    case OpKind::Load: {
      std::string shown = a.displayPath.empty() ? a.path : a.displayPath;
      try {
        whole = readNpy(a.path);
      } catch (const std::exception& ex) {
        throw ExecError(label + ": cannot load '" + shown + "': " + ex.what(), n.id);
      }
      if (whole.shape() != shape)
        throw ExecError(label + ": '" + shown + "' holds an array of shape " + shapeString(whole.shape()) +
                            ", expected " + shapeString(shape),
                        n.id);
      if (whole.dtype() != n.type.dtype)
        throw ExecError(label + ": '" + shown + "' holds " + std::string(dtypeName(whole.dtype())) +
                            " values, expected " + std::string(dtypeName(n.type.dtype)),
                        n.id);
      break;
    }
    case OpKind::RandomNormal: whole = normalInit(n.type.dtype, shape, a.seed, a.a, a.b); break;
    case OpKind::RandomUniform: whole = uniformInit(n.type.dtype, shape, a.seed, a.a, a.b); break;
    case OpKind::HashInit: whole = hashInit(n.type.dtype, shape, a.seed, a.b); break;
    default: throw ExecError(label + ": not a whole-array source", n.id);
  }
  if (tracker_) tracker_->allocate(n.id, static_cast<int64_t>(whole.nbytes()));
  return arrays_.emplace(n.id, std::move(whole)).first->second;
}

}  // namespace tempo
