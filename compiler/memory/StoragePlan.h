// StoragePlan: which kind of tensor store holds each node's values.
//
// A plan maps a node to a StoreSpec: `whole` keeps every point of the domain,
// `point` only the latest point written (for values read only at the point
// they were computed, in the same loop iteration), `circular` a window of the
// last `window` coordinates along one domain dimension (slot = coord mod
// window; `h[t-1]` needs 2, a sliding window of W needs W: the window is an
// expression of the bounds, such as `W`, evaluated when the store is made; `in one buffer`
// when every read is a window along that dimension by a kernel that makes a fresh value:
// the values then live in one buffer of 2 * window lanes per combination of the other
// coordinates, each written into two lanes, so that any run of at most `window` consecutive
// coordinates is one window of it, read in place), `block` every
// point like whole, reserved `window` coordinates at a time along one
// dimension (block ds = coordinates [BS*ds, BS*ds + BS): the producer of a
// statically tiled window, read a block at a time). The spec carries
// the planner's predicted bytes and a one-line reason for people reading a
// plan. Nodes missing from a plan get a whole store.
#pragma once

#include "symbolic/IndexExpr.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tempo {

enum class StoreKind { Whole, Point, Circular, Block };

struct StoreSpec {
  StoreKind kind = StoreKind::Whole;
  int dim = -1;             ///< Circular, Block: index into the node's domain
  IndexExpr window = 0;     ///< Circular: coordinates kept along `dim` (in the bounds); Block: the block size (a constant)
  int64_t predictedBytes = 0;
  std::string reason;       ///< why the planner chose this kind
  /// Circular: dims the loops around the circular one pin (identity reads
  /// only): one coordinate of each is live at a time, so its slots hold one.
  std::vector<int> oneAtATime;
  /// Circular: the values kept in one buffer of 2 * window lanes (the kind's comment above).
  bool oneBuffer = false;

  static StoreSpec whole(std::string why = "") { return {StoreKind::Whole, -1, 0, 0, std::move(why), {}}; }
  static StoreSpec point(std::string why = "") { return {StoreKind::Point, -1, 0, 0, std::move(why), {}}; }
  static StoreSpec circular(int dim, IndexExpr window, std::string why = "", std::vector<int> oneAtATime = {}) {
    return {StoreKind::Circular, dim, std::move(window), 0, std::move(why), std::move(oneAtATime)};
  }
  static StoreSpec block(int dim, int64_t size, std::string why = "") {
    return {StoreKind::Block, dim, size, 0, std::move(why), {}};
  }

  /// The coordinates kept along `dim` at these bound values, at most `extent` and at least 1.
  int64_t windowAt(const SymbolEnv& bounds, int64_t extent) const {
    return std::max<int64_t>(1, std::min(window.evaluate(bounds), extent));
  }
  /// Circular: values the store has room for per combination of the other coordinates, for
  /// `kept` coordinates kept (twice as many in one buffer).
  int64_t lanesFor(int64_t kept) const { return oneBuffer ? 2 * kept : kept; }
  /// Block: the block size.
  int64_t blockSize() const { return window.constantValue().value_or(1); }
};

using StoragePlan = std::map<int, StoreSpec>;  ///< NodeId -> spec

inline const char* storeKindName(StoreKind k) {
  switch (k) {
    case StoreKind::Whole: return "whole";
    case StoreKind::Point: return "point";
    case StoreKind::Circular: return "circular";
    case StoreKind::Block: return "block";
  }
  return "?";
}

/// `whole`, `point`, `circular(t, 2)`, `circular(t, W) in one buffer`, `block(t, 16)` for a node of this domain.
inline std::string storeSpecName(const StoreSpec& spec, const std::vector<std::string>& domain) {
  std::string kind = storeKindName(spec.kind);
  bool alongDim = spec.kind == StoreKind::Circular || spec.kind == StoreKind::Block;
  if (alongDim && spec.dim >= 0 && spec.dim < static_cast<int>(domain.size()))
    kind += "(" + domain[static_cast<size_t>(spec.dim)] + ", " + spec.window.str() + ")";
  if (spec.kind == StoreKind::Circular && spec.oneBuffer) kind += " in one buffer";
  return kind;
}

}  // namespace tempo
