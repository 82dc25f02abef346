// OptimizeLowering: the `optimize LOSS over i with OPTIMISER(...)` statement.
//
// The statement is checked where it stands — the loss must name a float
// scalar tensor, `i` a declared dimension, the optimiser one of sgd, adam or
// adamw with keyword hyperparameters that fold to allowed constants, and a
// program has at most one optimize — and the request is kept. It is applied
// (core/autodiff/Optimize: params recurrent over i, gradients, updates) only
// once every statement is lowered and checked without errors, because it
// rewrites the whole graph: everything the loss depends on, wherever it was
// declared. Errors of the transformation point at the statement.
#pragma once

#include "autodiff/Optimize.h"
#include "frontend/Ast.h"
#include "frontend/LoweringContext.h"

#include <optional>

namespace tempo {

class OptimizeLowering {
public:
  explicit OptimizeLowering(LoweringContext& cx) : cx_(cx) {}

  /// Checks the statement and keeps its request (reporting what is wrong).
  void lower(const ast::Stmt& stmt, const ast::Optimize& o);
  /// True when an optimize statement was given (even a wrong one).
  bool given() const { return firstRange_.has_value(); }
  /// Rewrites the graph for the kept request, if any.
  void apply();

private:
  std::optional<OptimizerSpec> lowerOptimizer(const ast::Expr& e);
  std::optional<std::vector<double>> numbers(const ast::Expr& value, bool pair);

  LoweringContext& cx_;
  std::optional<SourceRange> firstRange_;
  std::optional<OptimizeRequest> request_;
};

}  // namespace tempo
