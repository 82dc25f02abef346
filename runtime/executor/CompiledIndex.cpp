#include "executor/CompiledIndex.h"

#include "executor/ExecError.h"

#include <algorithm>

namespace tempo {

namespace {

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

int slotOrThrow(const SlotLayout& layout, const std::string& name, const IndexExpr& e, const std::string& what) {
  int slot = layout.find(name);
  if (slot < 0) throw ExecError(what + ": `" + e.str() + "` uses '" + name + "', which is not in scope here");
  return slot;
}

}  // namespace

int SlotLayout::add(const std::string& name) {
  auto [it, inserted] = slots_.emplace(name, static_cast<int>(names_.size()));
  if (inserted) names_.push_back(name);
  return it->second;
}

int SlotLayout::find(const std::string& name) const {
  auto it = slots_.find(name);
  return it == slots_.end() ? -1 : it->second;
}

CompiledIndex::CompiledIndex(const IndexExpr& e, const SlotLayout& layout, const std::string& what) {
  if (auto lin = e.linear()) {
    op_ = Op::Affine;
    constant_ = lin->constant;
    for (const auto& [sym, coeff] : lin->coeffs) terms_.emplace_back(slotOrThrow(layout, sym.name, e, what), coeff);
    return;
  }
  switch (e.kind()) {
    case IndexExpr::Kind::Min:
    case IndexExpr::Kind::Max:
      op_ = e.kind() == IndexExpr::Kind::Min ? Op::Min : Op::Max;
      for (const IndexExpr& o : e.operands()) children_.emplace_back(o, layout, what);
      return;
    case IndexExpr::Kind::FloorDiv:
    case IndexExpr::Kind::Mod:
      op_ = e.kind() == IndexExpr::Kind::FloorDiv ? Op::FloorDiv : Op::Mod;
      divisor_ = e.divisor();
      children_.emplace_back(e.operands().front(), layout, what);
      return;
    case IndexExpr::Kind::Sum:  // with min, max, floor or mod terms (an affine sum is handled above)
      op_ = Op::Sum;
      constant_ = e.sumConstant();
      for (const auto& [atom, coeff] : e.sumTerms()) {
        children_.emplace_back(atom, layout, what);
        coefficients_.push_back(coeff);
      }
      return;
    default:  // Const and Sym are affine
      throw ExecError(what + ": `" + e.str() + "` cannot be compiled");
  }
}

int64_t CompiledIndex::eval(const int64_t* slots) const {
  switch (op_) {
    case Op::Affine: {
      int64_t v = constant_;
      for (const auto& [slot, coeff] : terms_) v += coeff * slots[slot];
      return v;
    }
    case Op::Min:
    case Op::Max: {
      int64_t best = children_.front().eval(slots);
      for (size_t i = 1; i < children_.size(); ++i) {
        int64_t v = children_[i].eval(slots);
        best = op_ == Op::Min ? std::min(best, v) : std::max(best, v);
      }
      return best;
    }
    case Op::FloorDiv: return floorDiv(children_.front().eval(slots), divisor_);
    case Op::Mod: {
      int64_t a = children_.front().eval(slots);
      return a - floorDiv(a, divisor_) * divisor_;
    }
    case Op::Sum: {
      int64_t v = constant_;
      for (size_t i = 0; i < children_.size(); ++i) v += coefficients_[i] * children_[i].eval(slots);
      return v;
    }
  }
  return 0;
}

CompiledCondition::CompiledCondition(const Condition& c, const SlotLayout& layout, const std::string& what) {
  always_ = c.isAlways();
  if (always_) return;
  for (const auto& conj : c.disjuncts()) {
    std::vector<Atom> atoms;
    for (const Constraint& k : conj)
      atoms.push_back({CompiledIndex(k.lhs, layout, what), CompiledIndex(k.rhs, layout, what), k.rel});
    disjuncts_.push_back(std::move(atoms));
  }
}

bool CompiledCondition::holds(const int64_t* slots) const {
  if (always_) return true;
  using R = Constraint::Rel;
  for (const auto& conj : disjuncts_) {
    bool all = true;
    for (const Atom& a : conj) {
      int64_t l = a.lhs.eval(slots), r = a.rhs.eval(slots);
      bool ok = a.rel == R::Eq ? l == r : a.rel == R::Ne ? l != r : a.rel == R::Lt ? l < r
              : a.rel == R::Le ? l <= r : a.rel == R::Gt ? l > r : l >= r;
      if (!ok) { all = false; break; }
    }
    if (all) return true;
  }
  return false;
}

}  // namespace tempo
