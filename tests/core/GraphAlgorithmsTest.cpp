// Tests of GraphAlgorithms: strongly connected components in dependence order.
#include "graph/GraphAlgorithms.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

NodeId addNode(Graph& g, OpKind op) {
  Node n;
  n.op = op;
  return g.addNode(n);
}

void read(Graph& g, NodeId consumer, int slot, NodeId producer) {
  Edge e;
  e.consumer = consumer;
  e.inputIndex = slot;
  e.producer = producer;
  g.addEdge(e);
}

TEST(GraphAlgorithms, ComponentsComeInDependenceOrder) {
  // src -> a <-> b -> sink, plus an unrelated node.
  Graph g;
  NodeId sink = addNode(g, OpKind::Identity);
  NodeId a = addNode(g, OpKind::Merge);
  NodeId b = addNode(g, OpKind::Add);
  NodeId src = addNode(g, OpKind::Constant);
  NodeId lone = addNode(g, OpKind::Constant);
  read(g, a, 0, src);
  read(g, a, 1, b);
  read(g, b, 0, a);
  read(g, sink, 0, b);
  auto comps = stronglyConnectedComponents(g);
  ASSERT_EQ(comps.size(), 4u);
  auto pos = [&](NodeId n) {
    for (size_t i = 0; i < comps.size(); ++i)
      for (NodeId m : comps[i])
        if (m == n) return static_cast<int>(i);
    return -1;
  };
  EXPECT_EQ(pos(a), pos(b));
  EXPECT_LT(pos(src), pos(a));
  EXPECT_LT(pos(b), pos(sink));
  EXPECT_GE(pos(lone), 0);
  EXPECT_TRUE(isCyclic(g, comps[pos(a)]));
  EXPECT_FALSE(isCyclic(g, comps[pos(sink)]));
}

TEST(GraphAlgorithms, SelfLoopIsACycle) {
  Graph g;
  NodeId c = addNode(g, OpKind::Merge);
  read(g, c, 0, c);
  auto comps = stronglyConnectedComponents(g);
  ASSERT_EQ(comps.size(), 1u);
  EXPECT_TRUE(isCyclic(g, comps[0]));
}

TEST(GraphAlgorithms, LongChainDoesNotRecurse) {
  Graph g;
  NodeId prev = addNode(g, OpKind::Constant);
  for (int i = 0; i < 50000; ++i) {
    NodeId n = addNode(g, OpKind::Identity);
    read(g, n, 0, prev);
    prev = n;
  }
  auto comps = stronglyConnectedComponents(g);
  EXPECT_EQ(comps.size(), 50001u);
  EXPECT_EQ(comps.front().front(), 0);
  EXPECT_EQ(comps.back().front(), prev);
}

}  // namespace
}  // namespace tempo
