// InstanceReads: which producer instances one consumer instance reads.
//
// An SDG edge says, for every consumer point, which producer points it reads
// (one IndexAtom per producer dimension, a point or a slice) and when it is
// live (its Condition; for a merge, also only where no earlier branch's
// condition holds — branches are ordered). At concrete bounds this turns into
// explicit instance pairs: `edgeLiveAt` decides liveness at one consumer
// point and `forEachReadPoint` lists the producer points read there, clipped
// to the producer's domain (reads outside a domain are padding, not
// dependences). Domains are boxes cut by the graph's dimension guards: a
// node over static tiling's block dimension ds exists only where its guard
// (`BS*ds <= t`) holds. The iteration-space picture draws one arrow per pair.
#pragma once

#include "graph/Graph.h"

#include <functional>
#include <vector>

namespace tempo {

/// Values of the bound names and of the consumer's dimensions at `point`.
SymbolEnv instanceEnv(const Node& consumer, const std::vector<int64_t>& point, const SymbolEnv& bounds);

/// True when `e` is read at the consumer instance whose values are `env`.
bool edgeLiveAt(const Graph& g, const Edge& e, const SymbolEnv& env);

/// Calls `f` with every producer point `e` reads at `env` (a live instance),
/// clipped to the producer's (guarded) domain at `bounds`.
void forEachReadPoint(const Graph& g, const Edge& e, const SymbolEnv& env, const SymbolEnv& bounds,
                      const std::function<void(const std::vector<int64_t>&)>& f);

/// The number of points of `n`'s domain box at `bounds` (1 for an empty
/// domain; guards not applied, so an upper bound for a guarded node).
int64_t domainSize(const Graph& g, const Node& n, const SymbolEnv& bounds);

/// Calls `f` with every point of `n`'s guarded domain at `bounds`, in row-major order.
void forEachDomainPoint(const Graph& g, const Node& n, const SymbolEnv& bounds,
                        const std::function<void(const std::vector<int64_t>&)>& f);

}  // namespace tempo
