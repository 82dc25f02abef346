#include "executor/SourceArrays.h"

#include "executor/ExecError.h"
#include "init/SourceArray.h"

namespace tempo {

const Tensor& SourceArrays::get(const Node& n, const std::vector<int64_t>& domainBounds, const SymbolEnv& bounds,
                                const std::string& label) {
  if (auto it = arrays_.find(n.id); it != arrays_.end()) return it->second;
  std::vector<int64_t> shape = domainBounds;
  try {
    for (int64_t s : n.type.evaluateShape(bounds)) shape.push_back(s);
  } catch (const std::exception& ex) {
    throw ExecError(label + ": cannot evaluate the element shape " + n.type.shapeStr() + ": " + ex.what(), n.id);
  }
  Tensor whole;
  try {
    whole = buildSourceArray(n, shape);
  } catch (const SourceArrayError& ex) {
    throw ExecError(label + ": " + ex.what(), n.id);
  }
  if (tracker_) tracker_->allocate(n.id, static_cast<int64_t>(whole.nbytes()));
  return arrays_.emplace(n.id, std::move(whole)).first->second;
}

void SourceArrays::release(NodeId id) {
  auto it = arrays_.find(id);
  if (it == arrays_.end()) return;
  if (tracker_) tracker_->release(id, static_cast<int64_t>(it->second.nbytes()));
  arrays_.erase(it);
}

}  // namespace tempo
