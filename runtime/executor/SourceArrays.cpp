#include "executor/SourceArrays.h"

#include "executor/ExecError.h"
#include "init/SourceArray.h"

namespace tempo {

const Tensor& SourceArrays::get(const Node& n, const std::vector<int64_t>& domainBounds, const SymbolEnv& bounds,
                                const std::string& label) {
  swapIn(n.id);
  if (auto it = arrays_.find(n.id); it != arrays_.end()) return it->second;
  std::vector<int64_t> shape = domainBounds;
  try {
    for (int64_t s : n.type.evaluateShape(bounds)) shape.push_back(s);
  } catch (const std::exception& ex) {
    throw ExecError(label + ": cannot evaluate the element shape " + n.type.shapeStr() + ": " + ex.what(), n.id);
  }
  Tensor whole;
  const Tensor* given = nullptr;
  if (given_)
    if (auto it = given_->find(n.id); it != given_->end()) given = &it->second;
  if (given) {
    if (given->shape() != shape || given->dtype() != n.type.dtype)
      throw ExecError(label + ": the array given for it is " + std::string(dtypeName(given->dtype())) +
                          shapeString(given->shape()) + ", the source is " + std::string(dtypeName(n.type.dtype)) +
                          shapeString(shape) + " at these bounds",
                      n.id);
    whole = *given;
  } else {
    try {
      whole = buildSourceArray(n, shape);
    } catch (const SourceArrayError& ex) {
      throw ExecError(label + ": " + ex.what(), n.id);
    }
  }
  if (tracker_) tracker_->hold(n.id, whole);
  return arrays_.emplace(n.id, std::move(whole)).first->second;
}

void SourceArrays::release(NodeId id) {
  if (auto it = swapped_.find(id); it != swapped_.end()) {
    if (tracker_) tracker_->dropSwapped(it->second);
    swapped_.erase(it);
  }
  auto it = arrays_.find(id);
  if (it == arrays_.end()) return;
  if (tracker_) tracker_->drop(id, it->second);
  arrays_.erase(it);
}

void SourceArrays::swapOut(NodeId id) {
  auto it = arrays_.find(id);
  if (it == arrays_.end()) return;
  if (tracker_) tracker_->swapOut(id, it->second);
  swapped_.emplace(id, std::move(it->second));
  arrays_.erase(it);
}

void SourceArrays::swapIn(NodeId id) {
  auto it = swapped_.find(id);
  if (it == swapped_.end()) return;
  if (tracker_) tracker_->swapIn(id, it->second);
  arrays_.emplace(id, std::move(it->second));
  swapped_.erase(it);
}

}  // namespace tempo
