// FusionGroups: the chains the fusion pass would fuse, as NodeGroups.
//
// Before the fusion pass runs (the input graph, any earlier snapshot, the
// "before" graph of the fusion step), the graph view can draw each chain of
// elementwise nodes that fusion merges into one `fused` node as a group: a
// frame around its members, or collapsed into one box. The groups are not
// guessed: `fusionGroups` runs the compiler's Fusion pass on a copy of the
// graph and reads back each fused node's `fusedFrom` (the ids of the nodes
// it replaced, which are ids of the graph given). A group's id is its
// smallest member id and its title the fused node's label
// (`fused[in1 - in0 / 16] xc1`), the very box the graph after fusion shows.
// A graph already fused (or with nothing to fuse) has no groups.
#pragma once

#include "layout/NodeGroups.h"

namespace tempo::views {

tempo::NodeGroups fusionGroups(const tempo::Graph& g);

}  // namespace tempo::views
