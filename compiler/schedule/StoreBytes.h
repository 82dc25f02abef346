// StoreBytes: the symbolic size of a memory statement (alloc, free, swap).
//
// A store's size is a product of index expressions (element bytes x element
// shape x the number of points it holds), but it is not always affine: a
// whole store of `h : f32[8] over (b, t)` holds `32*B*T` bytes, and a store
// whose element shape depends on the point (`K : f32[t + 1, 8]`) holds a sum
// over its points. So a StoreBytes is a sum of terms; each term is
// `scale * factor1 * factor2 ...`, summed over some dims and maximised over
// others (`sum(t < T: 32*(t + 1))`, `max(t < T: ...)` for a store that holds
// one point at a time). Factors are IndexExprs over bounds and the enclosing
// loop variables, so one schedule states its sizes for every `--set`.
// Evaluating at concrete bounds enumerates only the summed / maximised dims
// that a factor actually depends on.
#pragma once

#include "symbolic/IndexExpr.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tempo {

struct StoreBytesTerm {
  int64_t scale = 1;
  std::vector<IndexExpr> factors;  ///< non-constant factors (constants are folded into scale)
  std::vector<std::pair<std::string, IndexExpr>> summed;  ///< dim in [0, extent), summed over
  std::vector<std::pair<std::string, IndexExpr>> maxed;   ///< dim in [0, extent), maximised over
  bool operator==(const StoreBytesTerm&) const = default;
};

class StoreBytes {
public:
  StoreBytes() = default;
  StoreBytes(IndexExpr bytes);  ///< one factor (implicit: `AllocStmt{h, bound("T") * 32}`)
  StoreBytes(int64_t bytes) : StoreBytes(IndexExpr(bytes)) {}
  StoreBytes(int bytes) : StoreBytes(IndexExpr(static_cast<int64_t>(bytes))) {}

  /// `scale * factors...`, summed over `summed` and maximised over `maxed`;
  /// dims no factor uses are folded (a summed one becomes its extent, a maximised one disappears).
  static StoreBytes term(int64_t scale, std::vector<IndexExpr> factors,
                         std::vector<std::pair<std::string, IndexExpr>> summed = {},
                         std::vector<std::pair<std::string, IndexExpr>> maxed = {});

  StoreBytes& operator+=(const StoreBytes& other);

  /// Bytes at `env` (bounds and loop variables); a negative factor counts as 0.
  /// Throws std::out_of_range naming a symbol missing from env.
  int64_t evaluate(const SymbolEnv& env) const;

  /// `32*B*T`, `4*min(2, T)*B`, `sum(t < T: 32*(t + 1))`, terms joined by ` + `; `0` if empty.
  std::string str() const;

  const std::vector<StoreBytesTerm>& terms() const { return terms_; }
  bool operator==(const StoreBytes&) const = default;

private:
  std::vector<StoreBytesTerm> terms_;
};

}  // namespace tempo
