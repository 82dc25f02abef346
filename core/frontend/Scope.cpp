#include "frontend/Scope.h"

#include <algorithm>

namespace tempo {

Scope::NameKind Scope::kindOf(const std::string& name) const {
  if (dimBounds_.count(name)) return NameKind::Dim;
  if (boundDims_.count(name)) return NameKind::Bound;
  if (consts_.count(name)) return NameKind::Const;
  if (tensors_.count(name)) return NameKind::Tensor;
  return NameKind::None;
}

SourceRange Scope::declaration(const std::string& name) const {
  auto it = declared_.find(name);
  return it == declared_.end() ? SourceRange{} : it->second;
}

void Scope::addDim(const std::string& dim, const std::string& bound, SourceRange range) {
  dimBounds_[dim] = bound;
  boundDims_[bound] = dim;
  dimOrder_.push_back(dim);
  declared_[dim] = range;
  declared_[bound] = range;
}

void Scope::addConst(const std::string& name, ConstNumber value, SourceRange range) {
  consts_[name] = value;
  declared_[name] = range;
}

TensorSymbol& Scope::addTensor(TensorSymbol symbol) {
  std::string name = symbol.name;
  declared_[name] = symbol.declRange;
  tensorOrder_.push_back(name);
  return tensors_[name] = std::move(symbol);
}

std::string Scope::boundOf(const std::string& dim) const {
  auto it = dimBounds_.find(dim);
  return it == dimBounds_.end() ? "" : it->second;
}

const ConstNumber* Scope::constant(const std::string& name) const {
  auto it = consts_.find(name);
  return it == consts_.end() ? nullptr : &it->second;
}

TensorSymbol* Scope::tensor(const std::string& name) {
  auto it = tensors_.find(name);
  return it == tensors_.end() ? nullptr : &it->second;
}

const TensorSymbol* Scope::tensor(const std::string& name) const {
  auto it = tensors_.find(name);
  return it == tensors_.end() ? nullptr : &it->second;
}

std::vector<const TensorSymbol*> Scope::recurrentTensors() const {
  std::vector<const TensorSymbol*> out;
  for (const std::string& n : tensorOrder_) {
    const TensorSymbol& t = tensors_.at(n);
    if (t.kind == TensorSymbol::Kind::Recurrent) out.push_back(&t);
  }
  return out;
}

std::vector<std::string> Scope::inDeclarationOrder(const std::vector<std::string>& dims) const {
  std::vector<std::string> out;
  for (const std::string& d : dimOrder_)
    if (std::find(dims.begin(), dims.end(), d) != dims.end()) out.push_back(d);
  return out;
}

}  // namespace tempo
