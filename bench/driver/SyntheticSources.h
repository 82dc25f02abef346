// SyntheticSources: lets a program that loads .npy files run at any bounds.
//
// The examples read their inputs with load("data/....npy"), whose shapes are
// fixed by the files (an input over (b, t) is a (B, T, ...) array), so they
// only run at their default bounds. For timing, the values do not matter:
// this replaces every load() source of a graph by a hash(key=K, scale=1)
// initialiser of the same type and domain (K = 1000 + the node id, so sources
// differ), which both engines generate at whatever bounds they are given.
// Timings of a synthetic run say nothing about the outputs' values.
#pragma once

#include "graph/Graph.h"

namespace tempo::bench {

/// Replaces every Load node of `g` by a HashInit node; returns how many.
int replaceLoadsWithHash(Graph& g);

}  // namespace tempo::bench
