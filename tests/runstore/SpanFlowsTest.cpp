// SpanFlows: a span's value flows to exactly the spans that read it. On counter.tpo
// (c[0] = 1; c[t] = c[t-1] + 1 after optimisation: c = merge(1 if t == 0, add[t]),
// add = c[t-1] + 1) every add at t reads c at t-1 and every c at t >= 1 reads add at t;
// on every flow of rnn.tpo the producer ran first and is an input of the consumer.
#include "RunStoreTestSupport.h"

#include "runstore/SpanFlows.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace tempo {
namespace {

std::filesystem::path example(const std::string& name) { return testing::sourceDir() / "resources/examples" / name; }

TEST(SpanFlows, EachStepOfARecurrenceReadsThePreviousStepsValue) {
  testing::ProfiledExample p;
  testing::profileExample(example("small/counter.tpo"), p);
  const Graph& g = p.program.graph;
  NodeId c = -1, add = -1;
  for (const auto& [id, n] : g.nodes()) {
    if (n.name == "c" && n.op == OpKind::Merge) c = id;
    if (n.op == OpKind::Add) add = id;
  }
  ASSERT_GE(c, 0);
  ASSERT_GE(add, 0);
  std::map<std::pair<NodeId, int64_t>, int32_t> pointOf;  // (node, start) -> t
  for (const TraceSpan& s : p.trace.spans()) pointOf[{s.node, s.startNs}] = s.coords[0];
  std::set<std::pair<int32_t, int32_t>> addReadsC, cReadsAdd;  // (producer t, consumer t)
  for (const StoredFlow& f : p.record.flows) {
    EXPECT_LT(f.producerStartNs, f.consumerStartNs);
    const int32_t from = pointOf.at({f.producerNode, f.producerStartNs}), to = pointOf.at({f.consumerNode, f.consumerStartNs});
    if (f.producerNode == c && f.consumerNode == add) addReadsC.insert({from, to});
    if (f.producerNode == add && f.consumerNode == c) cReadsAdd.insert({from, to});
  }
  const int64_t T = p.bounds.at("T");
  std::set<std::pair<int32_t, int32_t>> expectedAdd, expectedC;
  for (int32_t t = 1; t < T; ++t) expectedAdd.insert({t - 1, t}), expectedC.insert({t, t});
  EXPECT_EQ(addReadsC, expectedAdd);
  EXPECT_EQ(cReadsAdd, expectedC);
  EXPECT_FALSE(p.record.flowsTruncated);
}

TEST(SpanFlows, EveryFlowGoesFromAnEarlierSpanOfAnInputToItsReader) {
  testing::ProfiledExample p;
  testing::profileExample(example("rnn.tpo"), p);
  ASSERT_FALSE(p.record.flows.empty());
  const Graph& g = p.program.graph;
  for (const StoredFlow& f : p.record.flows) {
    EXPECT_LT(f.producerStartNs, f.consumerStartNs);
    bool isInput = false;
    for (const Edge* e : g.inputs(f.consumerNode)) isInput |= e->producer == f.producerNode;
    EXPECT_TRUE(isInput) << "%" << f.producerNode << " -> %" << f.consumerNode;
  }
  // Stored and read back by span.
  testing::TempStore tmp("flows");
  RunStore store(tmp.path());
  const int64_t id = testing::storeRun(store, p);
  EXPECT_EQ(store.flows(id).size(), p.record.flows.size());
  const StoredFlow& first = p.record.flows.front();
  for (const StoredFlow& f : store.flows(id, first.consumerNode, first.consumerStartNs))
    EXPECT_TRUE((f.consumerNode == first.consumerNode && f.consumerStartNs == first.consumerStartNs) ||
                (f.producerNode == first.consumerNode && f.producerStartNs == first.consumerStartNs));
}

TEST(SpanFlows, ATraceAboveTheSpanBoundIsNotComputedAndSaysSo) {
  testing::ProfiledExample p;
  testing::profileExample(example("rnn.tpo"), p);
  SpanFlowOptions small;
  small.maxSpans = 10;
  SpanFlowList list = spanFlows(p.program.graph, p.bounds, p.trace.spans(), small);
  EXPECT_TRUE(list.flows.empty());
  EXPECT_TRUE(list.truncated);
}

}  // namespace
}  // namespace tempo
