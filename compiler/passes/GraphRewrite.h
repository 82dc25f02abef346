// GraphRewrite: graph surgery shared by the optimisation passes.
//
// Passes rewrite the SDG with a few recurring moves, kept here once: walk the
// graph producers-first by strongly connected components (a recurrence is
// one component), find what the outputs need, point every reader of one node
// at another, keep a consumer's input slots contiguous, and compose reads —
// when `n` only forwards a value it reads from `x` through edge `r`, a reader
// of `n` can read `x` directly with the index atoms of `r` after substituting
// `n`'s dimensions by the reader's own atoms.
#pragma once

#include "graph/Graph.h"
#include "pass/Pass.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace tempo {

/// Strongly connected components, producers before their consumers.
std::vector<std::vector<NodeId>> componentsProducersFirst(const Graph& g);
/// The same over the edges `follow` accepts.
std::vector<std::vector<NodeId>> componentsProducersFirst(const Graph& g, const std::function<bool(const Edge&)>& follow);
/// The same over the reads within one training iteration (every trained param's dim read at its
/// own coordinate): the values of one step, without the cycle the iterations close through all.
std::vector<std::vector<NodeId>> componentsWithinAnIteration(const Graph& g);
/// Nodes that are part of a cycle (a component of 2+ nodes or a self-read).
std::set<NodeId> nodesInCycles(const Graph& g);
/// The nodes computed step by step along `dim`: a read inside their strongly
/// connected component reads `dim` at another coordinate (h[t-1] feeds h[t]),
/// so the loop over `dim` is sequential whatever the passes do. Reads of an
/// earlier training iteration (the `optimize` dim) are not followed: they tie
/// every value of a step into one cycle over the iterations. Each maps to the
/// loop's direction: +1 when every such read is at a lower coordinate, -1
/// when every one is at a higher one (the backward pass: g[t+1] feeds g[t]),
/// 0 otherwise (mixed shifts, windows).
std::map<NodeId, int> sequentialDirections(const Graph& g, const std::string& dim);
/// The order in which the values of `x` along `dim` come to exist: its own
/// recurrence's direction, or else that of the values it reads at its own
/// coordinate of `dim`, followed back (a weight gradient's product at step t,
/// fed by the backward recurrence at t). When both a forward and a backward
/// recurrence feed it, the order of the one that reads the other's values (it
/// runs after it: REINFORCE's returns read the rewards of the forward pass); 0
/// when neither or both do, or a feeding recurrence has no single direction.
/// nullopt when no recurrence feeds it step by step: its values can be made all at once.
std::optional<int> stepwiseOrder(const Graph& g, NodeId x, const std::string& dim);

/// Calls `rewrite` on every node, again and again until no call returns true (a node a
/// call removed is skipped).
void rewriteToFixpoint(Graph& g, const std::function<bool(NodeId)>& rewrite);

/// `%4 h`: how the passes' notes name a node.
std::string shortLabel(const Node& n);

/// Nodes the outputs depend on (following edges towards producers).
std::set<NodeId> reachableFromOutputs(const Graph& g);
bool isOutput(const Graph& g, NodeId id);

/// Whether the atom's start, stop or block lanes mention dimension `dim`.
bool atomUses(const IndexAtom& a, const std::string& dim);

/// Records that `n` was removed: a node added earlier in the same change was
/// never there, so it leaves `added` instead of joining `removed`.
void recordRemoval(GraphChange& change, NodeId n);

/// The only input of `n` when there is one and it is unconditional, else nullptr.
const Edge* soleUnconditionalInput(const Graph& g, const Node& n);

/// Every edge reading `from` and every output naming it now refer to `to`.
void redirectUsers(Graph& g, NodeId from, NodeId to);
/// Gives the readers and outputs of `from` to `to` (which takes its name and source
/// location) and removes `from`.
void replaceNode(Graph& g, NodeId from, NodeId to, GraphChange& change);
/// Removes `n` when nothing reads it any more and it is not an output.
void removeIfUnread(Graph& g, NodeId n, GraphChange& change);
/// An unconditional read of `producer` through `atoms` (consumer and slot still to set).
Edge readOf(NodeId producer, std::vector<IndexAtom> atoms, const SourceRange& loc);
/// A new node applying `like`'s op and attributes over `like`'s domain to the reads `a` and
/// `b` (copied, as its inputs 0 and 1), its type inferred from theirs; nullopt when the op
/// does not type on them (nothing is added then).
std::optional<NodeId> addBinaryLike(Graph& g, const Node& like, const Edge& a, const Edge& b, GraphChange& change);
/// Renumbers the input slots of `consumer` to 0..k-1, keeping their order.
void compactInputSlots(Graph& g, NodeId consumer);

/// The atoms through which `user` (a reader of a node over `middleDomain`)
/// reads the producer of `forwarded` (an unconditional read by that node),
/// or nullopt when the composition is not a plain read (e.g. the user slices
/// a dimension the forwarded read does not keep as is).
std::optional<std::vector<IndexAtom>> composeReads(const std::vector<std::string>& middleDomain,
                                                   const Edge& forwarded, const Edge& user);

/// Makes readers of `n` read `forwarded.producer` directly where the reads
/// compose with the same read type; removes `n` when nothing reads it any more
/// and it is not an output. Returns true if any reader moved.
bool forwardReaders(Graph& g, NodeId n, const Edge& forwarded, GraphChange& change);

}  // namespace tempo
