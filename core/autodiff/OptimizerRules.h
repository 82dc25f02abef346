// OptimizerRules: the optimisers of `optimize` and their updates as SDG nodes.
//
// An optimiser turns the gradient of a param at iteration i into the param at
// iteration i + 1. OptimizerSpec holds which optimiser and its
// hyperparameters (the front end fills it from `adam(lr=1e-3, ...)`, checking
// each value with `setHyperParameter`). The node builders follow PyTorch's
// torch.optim implementations (SGD without dampening or Nesterov, Adam and
// AdamW without amsgrad) and clip_grad_norm_, formula for formula:
//
//   clip     n = sqrt(sum over every param of sum(g^2));  g *= min(c / (n + 1e-6), 1)
//   sgd      g += wd p;  buf = g at i == 0, else momentum buf[i-1] + g;  p -= lr buf
//   adam     g += wd p;  m = b1 m[i-1] + (1 - b1) g;  v = b2 v[i-1] + (1 - b2) g^2
//            (m, v start at 0);  with t = i + 1:
//            p -= (lr / (1 - b1^t)) * m / (sqrt(v) / sqrt(1 - b2^t) + eps)
//   adamw    p *= 1 - lr wd, then the adam step without the wd term in g
//
// Every node lives over the param's domain (the iteration dimension and the
// param's own dimensions); optimiser state (buf, m, v) is a merge that is
// recurrent over the iteration dimension like the param itself. Per-iteration
// scalars (the bias corrections, the clip coefficient) live over the
// iteration dimension alone.
#pragma once

#include "graph/Graph.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tempo {

struct OptimizerSpec {
  enum class Kind { Sgd, Adam, AdamW };
  Kind kind = Kind::Sgd;
  double lr = 1e-3;
  double momentum = 0;                            ///< sgd
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;  ///< adam, adamw
  double weightDecay = 0;  ///< sgd, adam: L2 added to the gradient; adamw: decoupled decay
  std::optional<double> clipNorm;  ///< the global gradient norm is clipped to this
};

std::optional<OptimizerSpec::Kind> optimizerFromName(std::string_view name);
std::string_view optimizerName(OptimizerSpec::Kind kind);
/// The defaults of an optimiser (PyTorch's; adamw's weight decay is 0.01).
OptimizerSpec defaultOptimizer(OptimizerSpec::Kind kind);
/// The keyword arguments an optimiser accepts, in documentation order.
std::vector<std::string> optimizerArguments(OptimizerSpec::Kind kind);
/// True for the arguments without a default (sgd's lr).
bool isRequiredArgument(OptimizerSpec::Kind kind, const std::string& name);
/// True for the arguments given as a pair (`betas=(0.9, 0.999)`).
bool isPairArgument(const std::string& name);
/// Sets `name` to `values` (one number, two for a pair); returns "" or why the value is not allowed.
std::string setHyperParameter(OptimizerSpec& spec, const std::string& name, const std::vector<double>& values);

/// The per-iteration scalars the updates share, built once per dtype: nodes
/// over the iteration dimension alone.
class IterationScalars {
public:
  IterationScalars(Graph& g, std::string dim, SourceRange loc) : g_(g), dim_(std::move(dim)), loc_(loc) {}
  /// `1 - beta^(i + 1)`.
  NodeId biasCorrection(DType dtype, double beta);
  Graph& graph() { return g_; }
  const std::string& dim() const { return dim_; }
  SourceRange loc() const { return loc_; }

private:
  NodeId step(DType dtype);  ///< i + 1 as a value
  Graph& g_;
  std::string dim_;
  SourceRange loc_;
  std::map<DType, NodeId> steps_;
  std::map<std::pair<DType, double>, NodeId> corrections_;
};

/// The gradients scaled so that their global L2 norm is at most `maxNorm`
/// (clip_grad_norm_): one node per gradient, in order.
std::vector<NodeId> addGradientClipping(IterationScalars& scalars, const std::vector<NodeId>& grads, double maxNorm);

/// The param after one optimiser step at every iteration, over the param's
/// domain, from the param `param` and its gradient `grad` (same domain).
NodeId addParamUpdate(IterationScalars& scalars, const OptimizerSpec& spec, NodeId param, NodeId grad);

}  // namespace tempo
