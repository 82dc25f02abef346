// TemporalReadAdjoint: the gradient of a temporal read, by inverting it.
//
// An edge lets consumer c read producer p: at c's point s it reads p at the
// index atoms e(s) (`t - 1`, `min(t + 1, T - 1)`, `T - 1`, `0:T`, `0:t + 1`,
// `max(0, t - W + 1):t + 1`, `t:T`, ...). Given G, the gradient of that read
// value over c's domain (zero wherever the edge is not live), the adjoint of
// p at q is the sum, over every consumer point s whose read contains q, of
// the element of G[s] that corresponds to q. It is built as SDG nodes over p's
// domain in two ways, per producer dimension:
//  - an *invertible* point atom `s_j + k` (unit coefficient on one consumer
//    dimension that no other atom uses) is inverted exactly: s_j = q_i - k,
//    read only where 0 <= q_i - k < S_j — this boundary condition (computed
//    and simplified with isl over p's domain) guards the read with a merge
//    whose other branch is zero;
//  - a *constant point* (`T - 1`, `0`) contributes where q equals it;
//  - any other atom (a clamped or strided point, any slice) is *scattered*:
//    G's element(s) for that atom are padded with zeros to the producer
//    dimension's full extent (position e(s), or the window [lo(s), hi(s))),
//    so the element for q sits at position q for every s; the adjoint reads
//    the consumer points along the consumer dimensions that no invertible
//    atom fixes, takes position q and sums.
// Consumer dimensions not fixed by an invertible atom are summed over the
// readers of q (ReaderRange), or their whole extent when those cannot be
// derived (a broadcast read contributes from every consumer point). So that
// this costs O(extent) per q rather than O(readers * extent), a dimension no
// atom mentions is summed once for all q, and a single remaining one becomes
// a running-sum recurrence (suffix or prefix, following time when the
// consumer feeds the producer) that q reads at its first or last reader.
#pragma once

#include "autodiff/AdjointBuilder.h"
#include "symbolic/PointSet.h"

namespace tempo {

/// The contribution of edge `e` to the gradient of its producer, as a node
/// over the producer's domain with the producer's type. `readGrad` is the
/// gradient of the value read through `e`, over the consumer's domain.
/// `guard` (over the consumer's domain) says where `readGrad` may be
/// evaluated; elsewhere it is taken as zero.
NodeId temporalReadAdjoint(Graph& g, IslContext& ctx, const Edge& e, NodeId readGrad, const Condition& guard);

}  // namespace tempo
