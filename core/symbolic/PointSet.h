// PointSet: exact sets of integer points, parametric in bounds, backed by isl.
//
// The checker and the compiler ask questions such as "can `t+1` reach `T` for
// some `t < T`?" or "do the branches of `h` cover its whole domain?". A
// PointSet answers them exactly: it is a (possibly non-convex) set of integer
// points over named variables (dimensions, or any tuple of names), with bounds
// as symbolic parameters that are always at least 1. Sets are built from
// Constraints between IndexExprs and combined with set algebra; every question
// reduces to an isl emptiness test. An IslContext owns the isl_ctx and is
// passed down explicitly (no global state).
#pragma once

#include "symbolic/IndexExpr.h"

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

struct isl_ctx;
struct isl_set;

namespace tempo {

/// Owns one isl_ctx. Not copyable; outlives every PointSet made with it.
/// Remembers the sets PointSet::fromConstraints parsed, by their text: the
/// checker and the passes ask for the same few boxes and comparisons
/// thousands of times (64 distinct texts in the first 2000 calls on a
/// training program), and parsing and simplifying is what costs.
class IslContext {
public:
  IslContext();
  ~IslContext();
  IslContext(const IslContext&) = delete;
  IslContext& operator=(const IslContext&) = delete;
  isl_ctx* get() const { return ctx_; }
  /// The version string of the linked isl library (must say isl-0.25).
  static std::string version();
  /// A copy of the set parsed and simplified from `text`, parsing it the first time only.
  isl_set* parsedSet(const std::string& text);

private:
  isl_ctx* ctx_;
  std::unordered_map<std::string, isl_set*> parsed_;  ///< owned; freed before the context
};

/// `lhs rel rhs` between two index expressions.
struct Constraint {
  enum class Rel { Eq, Ne, Lt, Le, Gt, Ge };
  IndexExpr lhs;
  Rel rel = Rel::Eq;
  IndexExpr rhs;
  std::string str() const;  ///< e.g. `t == 0`, `t - 1 >= 0`
};

class PointSet {
public:
  /// Every integer point over `vars`, for all values of `params` (each >= 1).
  static PointSet universe(IslContext& ctx, std::vector<std::string> vars,
                           std::vector<std::string> params);
  /// Points satisfying every constraint (a conjunction). Throws
  /// std::invalid_argument if a constraint mentions a name that is neither a
  /// var nor a param.
  static PointSet fromConstraints(IslContext& ctx, std::vector<std::string> vars,
                                  std::vector<std::string> params,
                                  const std::vector<Constraint>& conjunction);
  /// The box 0 <= v < bound(v) for each var, with bounds[i] the bound of vars[i].
  static PointSet box(IslContext& ctx, std::vector<std::string> vars,
                      const std::vector<IndexExpr>& bounds, std::vector<std::string> params);

  PointSet intersect(const PointSet& other) const;  ///< same vars and params required
  PointSet unite(const PointSet& other) const;
  PointSet subtract(const PointSet& other) const;

  bool isEmpty() const;
  bool isSubsetOf(const PointSet& other) const;
  /// One point of the set with values for its vars and its params, preferring
  /// small parameter values; std::nullopt if empty.
  std::optional<SymbolEnv> sample() const;

  const std::vector<std::string>& vars() const { return vars_; }
  const std::vector<std::string>& params() const { return params_; }
  std::string str() const;  ///< isl's printed form

  PointSet(const PointSet& other);
  PointSet& operator=(const PointSet& other);
  PointSet(PointSet&&) noexcept;
  PointSet& operator=(PointSet&&) noexcept;
  ~PointSet();

private:
  PointSet(IslContext* ctx, isl_set* set, std::vector<std::string> vars,
           std::vector<std::string> params);
  IslContext* ctx_ = nullptr;
  isl_set* set_ = nullptr;
  std::vector<std::string> vars_;
  std::vector<std::string> params_;
};

}  // namespace tempo
