// Graph::inputs comes from an index by consumer kept by addEdge, removeEdge
// and removeNode: inputs in slot order after every kind of change, a copy
// keeps its own index, and checkInputIndex (which validateGraph reports)
// catches an edge whose consumer was changed in place.
#include "graph/Graph.h"
#include "graph/GraphValidator.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

NodeId node(Graph& g) { return g.addNode(Node{}); }

EdgeId read(Graph& g, NodeId consumer, int slot, NodeId producer) {
  Edge e;
  e.consumer = consumer;
  e.inputIndex = slot;
  e.producer = producer;
  return g.addEdge(e);
}

std::vector<NodeId> producersOf(const Graph& g, NodeId consumer) {
  std::vector<NodeId> out;
  for (const Edge* e : g.inputs(consumer)) out.push_back(e->producer);
  return out;
}

TEST(GraphInputs, InSlotOrderThroughAddsAndRemovals) {
  Graph g;
  NodeId a = node(g), b = node(g), c = node(g), sum = node(g);
  read(g, sum, 2, c);
  EdgeId fromA = read(g, sum, 0, a);
  read(g, sum, 1, b);
  EXPECT_EQ(producersOf(g, sum), (std::vector<NodeId>{a, b, c}));
  g.removeEdge(fromA);
  EXPECT_EQ(producersOf(g, sum), (std::vector<NodeId>{b, c}));
  g.removeNode(b);  // its edge into sum goes too
  EXPECT_EQ(producersOf(g, sum), (std::vector<NodeId>{c}));
  Graph copy = g;
  read(copy, sum, 1, a);
  EXPECT_EQ(producersOf(copy, sum), (std::vector<NodeId>{a, c}));  // slot 1, then slot 2
  EXPECT_EQ(producersOf(g, sum), (std::vector<NodeId>{c}));
  g.removeNode(sum);
  EXPECT_TRUE(g.inputs(sum).empty());
  EXPECT_EQ(g.checkInputIndex(), "");
}

TEST(GraphInputs, AProducerMayChangeInPlaceAConsumerMayNot) {
  Graph g;
  NodeId a = node(g), b = node(g), x = node(g), y = node(g);
  EdgeId e = read(g, x, 0, a);
  g.edge(e).producer = b;  // redirecting a reader is how passes rewrite
  EXPECT_EQ(producersOf(g, x), (std::vector<NodeId>{b}));
  EXPECT_EQ(g.checkInputIndex(), "");
  g.edge(e).consumer = y;
  EXPECT_NE(g.checkInputIndex().find("must not change"), std::string::npos) << g.checkInputIndex();
  bool reported = false;
  for (const std::string& p : validateGraph(g)) reported = reported || p.find("must not change") != std::string::npos;
  EXPECT_TRUE(reported);
}

}  // namespace
}  // namespace tempo
