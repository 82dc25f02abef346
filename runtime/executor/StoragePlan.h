// StoragePlan: which kind of tensor store holds each node's values.
//
// A plan maps a node to a StoreSpec: `whole` keeps every point of the domain,
// `point` only the latest point written (for values read only at the point
// they were computed, in the same loop iteration), `circular` a window of the
// last `window` coordinates along one domain dimension (slot = coord mod
// window; `h[t-1]` needs 2, a sliding window of W needs W), `block` every
// point like whole, reserved `window` coordinates at a time along one
// dimension (block ds = coordinates [BS*ds, BS*ds + BS): the producer of a
// statically tiled window, read a block at a time). The spec carries
// the planner's predicted bytes and a one-line reason for people reading a
// plan. Nodes missing from a plan get a whole store.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace tempo {

enum class StoreKind { Whole, Point, Circular, Block };

struct StoreSpec {
  StoreKind kind = StoreKind::Whole;
  int dim = -1;             ///< Circular, Block: index into the node's domain
  int64_t window = 0;       ///< Circular: number of coordinates kept along `dim`; Block: the block size
  int64_t predictedBytes = 0;
  std::string reason;       ///< why the planner chose this kind

  static StoreSpec whole(std::string why = "") { return {StoreKind::Whole, -1, 0, 0, std::move(why)}; }
  static StoreSpec point(std::string why = "") { return {StoreKind::Point, -1, 0, 0, std::move(why)}; }
  static StoreSpec circular(int dim, int64_t window, std::string why = "") {
    return {StoreKind::Circular, dim, window, 0, std::move(why)};
  }
  static StoreSpec block(int dim, int64_t size, std::string why = "") {
    return {StoreKind::Block, dim, size, 0, std::move(why)};
  }
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

}  // namespace tempo
