// CompiledIndex: index expressions and conditions pre-compiled for fast evaluation.
//
// The executor evaluates loop bounds, If guards, exec points, read atoms and
// shapes millions of times. Instead of looking symbols up in a std::map each
// time (IndexExpr::evaluate), every expression is compiled once against a
// SlotLayout — a numbering of the symbols in scope (bounds first, then loop
// variables or a node's dimensions) — and then evaluated over a plain array of
// int64 slot values. Affine expressions become `constant + sum(coeff * slot)`;
// min, max, floor-div and mod compile their operands recursively, and so does a
// sum with such terms (`t + max(0, t - 3)`: its atoms, each times its
// coefficient), so no evaluation allocates. Compiling a symbol the layout does not
// know is an ExecError, so an out-of-scope loop variable is caught up front.
#pragma once

#include "graph/Condition.h"
#include "symbolic/IndexExpr.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tempo {

/// Names in scope, each with a slot in the value array.
class SlotLayout {
public:
  /// The slot of `name` (added at the end if new).
  int add(const std::string& name);
  /// The slot of `name`, or -1.
  int find(const std::string& name) const;
  size_t size() const { return names_.size(); }
  const std::vector<std::string>& names() const { return names_; }

private:
  std::map<std::string, int> slots_;
  std::vector<std::string> names_;
};

class CompiledIndex {
public:
  CompiledIndex() = default;  ///< the constant 0
  /// `what` describes the expression's role for error messages ("the bound of loop t").
  CompiledIndex(const IndexExpr& e, const SlotLayout& layout, const std::string& what);

  int64_t eval(const int64_t* slots) const;
  bool isConstant() const { return op_ == Op::Affine && terms_.empty(); }

private:
  enum class Op : unsigned char { Affine, Min, Max, FloorDiv, Mod, Sum };
  Op op_ = Op::Affine;
  int64_t constant_ = 0;
  int64_t divisor_ = 0;
  std::vector<std::pair<int, int64_t>> terms_;  ///< Affine: (slot, coefficient)
  std::vector<CompiledIndex> children_;        ///< Min/Max operands, FloorDiv/Mod operand, Sum atoms
  std::vector<int64_t> coefficients_;          ///< Sum: the coefficient of each atom
};

/// A Condition (DNF of constraints) compiled against a layout.
class CompiledCondition {
public:
  CompiledCondition() = default;  ///< always true
  CompiledCondition(const Condition& c, const SlotLayout& layout, const std::string& what);
  bool holds(const int64_t* slots) const;
  bool isAlways() const { return always_; }

private:
  struct Atom {
    CompiledIndex lhs, rhs;
    Constraint::Rel rel;
  };
  bool always_ = true;
  std::vector<std::vector<Atom>> disjuncts_;
};

}  // namespace tempo
