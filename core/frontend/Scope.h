// Scope: what each name of a program means while it is being lowered.
//
// The language has one flat namespace: dimensions (`t`), bounds (`T`),
// compile-time constants (`H`, `GAMMA`) and tensors (inputs, params,
// recurrent tensors and let-bindings). Names must be declared before use;
// recurrent tensors are declared by their type declaration, so branches and
// lets may read them before their branches appear (that is how cycles are
// written). A tensor whose declaration had an error is kept as "poisoned" so
// later uses do not repeat the error.
#pragma once

#include "diag/Diagnostics.h"
#include "graph/Graph.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tempo {

/// A compile-time number: `const H = 8`, `const GAMMA = 0.9`, or folded arithmetic on them.
struct ConstNumber {
  double value = 0;
  bool isInt = false;
};

struct TensorSymbol {
  enum class Kind { Input, Param, Recurrent, Let };
  Kind kind = Kind::Let;
  std::string name;
  NodeId node = -1;
  std::vector<std::string> domain;
  TensorType type;
  SourceRange declRange;
  bool poisoned = false;

  /// For recurrent tensors: the guards of the branches so far, in order.
  struct BranchInfo {
    Condition guard;
    SourceRange range;
  };
  std::vector<BranchInfo> branches;
};

class Scope {
public:
  enum class NameKind { None, Dim, Bound, Const, Tensor };

  NameKind kindOf(const std::string& name) const;
  bool isDeclared(const std::string& name) const { return kindOf(name) != NameKind::None; }
  /// Where `name` was declared (invalid range if it is not).
  SourceRange declaration(const std::string& name) const;

  void addDim(const std::string& dim, const std::string& bound, SourceRange range);
  void addConst(const std::string& name, ConstNumber value, SourceRange range);
  TensorSymbol& addTensor(TensorSymbol symbol);

  /// The bound of a dimension ("" if not a dimension).
  std::string boundOf(const std::string& dim) const;
  const ConstNumber* constant(const std::string& name) const;
  TensorSymbol* tensor(const std::string& name);
  const TensorSymbol* tensor(const std::string& name) const;
  /// Dimension names in declaration order.
  const std::vector<std::string>& dimOrder() const { return dimOrder_; }
  /// Recurrent tensors in declaration order.
  std::vector<const TensorSymbol*> recurrentTensors() const;
  /// Sorts dimension names into declaration order, dropping duplicates.
  std::vector<std::string> inDeclarationOrder(const std::vector<std::string>& dims) const;

private:
  std::map<std::string, std::string> dimBounds_;   // dim -> bound
  std::map<std::string, std::string> boundDims_;   // bound -> dim
  std::vector<std::string> dimOrder_;
  std::map<std::string, ConstNumber> consts_;
  std::map<std::string, TensorSymbol> tensors_;
  std::vector<std::string> tensorOrder_;
  std::map<std::string, SourceRange> declared_;
};

}  // namespace tempo
