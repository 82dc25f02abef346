// The trace of a compiled run (runtime/trace): every exec statement instance is
// counted once, under its statement and node, the aggregates stay exact when
// the spans hit their cap, a second run starts afresh, and the profile summary
// adds up (nodes and source lines to the statements' total, within the run).
#include "executor/CompiledEngine.h"
#include "frontend/Frontend.h"
#include "pass/PassRegistry.h"
#include "support/GoldenFiles.h"
#include "trace/ProfileSummary.h"

#include <gtest/gtest.h>

#include <map>
#include <utility>
#include <numeric>

namespace tempo {
namespace {

CompiledProgram compiledExample(const std::string& name, std::string* source = nullptr) {
  std::filesystem::path path = testing::sourceDir() / "resources/examples" / name;
  FrontendResult r = compileSource(testing::readFile(path), path.filename().string(), path.parent_path().string());
  EXPECT_TRUE(r.ok()) << r.renderedDiagnostics();
  if (source) *source = r.source;
  return compileProgram(r.graph, defaultPipeline());
}

TEST(Trace, EveryStatementInstanceIsCountedOnceUnderItsStatementAndNode) {
  CompiledProgram p = compiledExample("rnn.tpo");
  TraceCollector trace;
  CompiledRunOptions options;
  options.trace = &trace;
  CompiledRunResult r = runCompiled(p, {}, options);
  EXPECT_EQ(trace.instances(), r.stats.execs);
  EXPECT_EQ(static_cast<int64_t>(trace.spans().size()), r.stats.execs);
  EXPECT_EQ(trace.droppedSpans(), 0);
  int64_t calls = 0, generated = 0;
  std::map<NodeId, int64_t> perNode;
  for (const StatementProfile& s : trace.statements()) {
    ASSERT_LT(static_cast<size_t>(s.statement), r.execStatements.size());
    EXPECT_EQ(r.execStatements[s.statement], s.node);
    EXPECT_LE(s.minNs, s.maxNs);
    EXPECT_LE(s.maxNs, s.totalNs);
    calls += s.calls;
    generated += s.generatedCalls;
    perNode[s.node] += s.calls;
  }
  EXPECT_EQ(calls, r.stats.execs);
  EXPECT_EQ(generated, r.stats.nativeCalls);
  EXPECT_GT(generated, 0);
  std::map<NodeId, int64_t> spansPerNode;
  for (const TraceSpan& span : trace.spans()) {
    ++spansPerNode[span.node];
    EXPECT_GE(span.durationNs, 0);
    EXPECT_LE(span.startNs + span.durationNs, trace.runNs());
  }
  EXPECT_EQ(spansPerNode, perNode);
  // h runs once per (b, t) point: B * T instances at the example's bounds (B=4, T=16) if not vectorised,
  // or T if b is a batch axis; either way its spans carry increasing t coordinates.
  EXPECT_GT(trace.runNs(), 0);
}

// The generated kernels' hook (KernelTimer): the time inside generated code is charged to the
// statement running it, within its span, and only to statements a generated kernel computed.
TEST(Trace, TimeInsideGeneratedCodeIsChargedToTheStatementRunningIt) {
  CompiledProgram p = compiledExample("rnn.tpo");
  ASSERT_TRUE(p.native);
  TraceCollector trace;
  CompiledRunOptions options;
  options.trace = &trace;
  runCompiled(p, {}, options);
  int64_t inCode = 0;
  for (const StatementProfile& s : trace.statements()) {
    EXPECT_LE(s.kernelNs, s.totalNs) << "statement " << s.statement;
    if (s.generatedCalls == 0) EXPECT_EQ(s.kernelNs, 0) << "statement " << s.statement << " ran no generated code";
    inCode += s.kernelNs;
  }
  EXPECT_GT(inCode, 0);
  EXPECT_EQ(inCode, trace.kernelNs());
  int64_t spansInCode = 0;
  for (const TraceSpan& span : trace.spans()) {
    EXPECT_LE(span.kernelNs, span.durationNs);
    if (span.kernelNs == 0) continue;
    EXPECT_TRUE(span.generated);
    EXPECT_GE(span.kernelStartNs, span.startNs);
    EXPECT_LE(span.kernelStartNs + span.kernelNs, span.startNs + span.durationNs);
    spansInCode += span.kernelNs;
  }
  EXPECT_EQ(spansInCode, inCode);
  ProfileSummary summary = summariseProfile(p.graph, trace, &p.kernels);
  EXPECT_EQ(summary.kernelNs, inCode);
  // Without a trace nobody listens, and a run after the traced one charges nothing to it.
  const int64_t before = trace.kernelNs();
  runCompiled(p, {}, CompiledRunOptions{});
  EXPECT_EQ(trace.kernelNs(), before);
}

TEST(Trace, AggregatesStayExactBeyondTheSpanCapAndARunStartsAfresh) {
  CompiledProgram p = compiledExample("rnn.tpo");
  TraceCollector full, capped(10);
  CompiledRunOptions options;
  options.trace = &full;
  runCompiled(p, {}, options);
  options.trace = &capped;
  runCompiled(p, {}, options);
  runCompiled(p, {}, options);  // the second run replaces the first
  EXPECT_EQ(capped.spans().size(), 10u);
  EXPECT_EQ(capped.droppedSpans(), capped.instances() - 10);
  EXPECT_EQ(capped.instances(), full.instances());
  std::vector<StatementProfile> a = full.statements(), b = capped.statements();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].statement, b[i].statement);
    EXPECT_EQ(a[i].calls, b[i].calls);
    EXPECT_EQ(a[i].bytes, b[i].bytes);
  }
}

TEST(Trace, TheSummaryAddsUpByNodeAndByLine) {
  std::string source;
  CompiledProgram p = compiledExample("rnn.tpo", &source);
  TraceCollector trace;
  CompiledRunOptions options;
  options.trace = &trace;
  runCompiled(p, {}, options);
  ProfileSummary s = summariseProfile(p.graph, trace, &p.kernels);
  int64_t nodes = 0, lines = 0, calls = 0;
  for (size_t i = 0; i < s.nodes.size(); ++i) {
    nodes += s.nodes[i].totalNs;
    calls += s.nodes[i].calls;
    if (i) EXPECT_GE(s.nodes[i - 1].totalNs, s.nodes[i].totalNs);
    EXPECT_FALSE(s.nodes[i].kernel.empty()) << s.nodes[i].label;
  }
  for (const LineProfile& l : s.lines) lines += l.totalNs;
  EXPECT_EQ(nodes, s.statementNs);
  EXPECT_EQ(lines, s.statementNs);
  EXPECT_EQ(calls, s.instances);
  EXPECT_LE(s.statementNs, s.runNs);
  std::string text = printProfileSummary(s, source, "rnn.tpo", 5);
  EXPECT_NE(text.find("by node:"), std::string::npos) << text;
  EXPECT_NE(text.find("more nodes"), std::string::npos) << text;  // only the top 5
  EXPECT_NE(text.find("rnn.tpo:17  h[b, t] = tanh(x[b, t] @ W + h[b, t-1] @ U + bias)"), std::string::npos) << text;
  EXPECT_NE(text.find("(loops, memory statements and the executor between statements)"), std::string::npos);
}

/// Instances per statement within the steps, summed over the steps.
std::map<int32_t, int64_t> stepCalls(const TraceCollector& t) {
  std::map<int32_t, int64_t> calls;
  for (const StepStatement& s : t.stepStatements()) calls[s.statement] += s.calls;
  return calls;
}

TEST(Trace, EveryIterationOfATopLevelLoopIsAStepWithItsStatementsInstances) {
  CompiledProgram p = compiledExample("rnn.tpo");
  TraceCollector trace;
  CompiledRunOptions options;
  options.trace = &trace;
  CompiledRunResult r = runCompiled(p, {}, options);
  std::vector<std::string> vars;
  topLevelLoopVars(p.loops.body, vars);
  ASSERT_FALSE(vars.empty());
  ASSERT_FALSE(trace.steps().empty());
  int64_t instances = 0, iterations = 0;
  for (size_t i = 0; i < trace.steps().size(); ++i) {
    const StepProfile& s = trace.steps()[i];
    EXPECT_GE(s.loop, 0);
    EXPECT_LT(static_cast<size_t>(s.loop), vars.size());
    EXPECT_EQ(s.iterations, 1);  // far below the cap: one step per iteration
    EXPECT_LE(s.startNs, s.endNs);
    if (i) EXPECT_GE(s.startNs, trace.steps()[i - 1].endNs);  // steps follow each other
    instances += s.instances;
    iterations += s.iterations;
  }
  EXPECT_LE(instances, trace.instances());  // statements outside every loop are in no step
  EXPECT_LE(iterations, r.stats.loopIterations);
  int64_t perStep = 0;
  for (const StepStatement& s : trace.stepStatements()) {
    ASSERT_LT(static_cast<size_t>(s.step), trace.steps().size());
    perStep += s.calls;
    EXPECT_EQ(r.execStatements[static_cast<size_t>(s.statement)], s.node);
  }
  EXPECT_EQ(perStep, instances);
  // By loop: every iteration counted, the slowest one named.
  std::vector<LoopStepSummary> loops = summariseSteps(trace.steps(), vars);
  int64_t summed = 0;
  for (const LoopStepSummary& l : loops) {
    summed += l.iterations;
    EXPECT_LE(l.minNs, l.maxNs);
    EXPECT_EQ(l.var, vars[static_cast<size_t>(l.loop)]);
  }
  EXPECT_EQ(summed, iterations);
  EXPECT_NE(printStepSummary(loops, trace.runNs()).find("iterations, "), std::string::npos);
}

TEST(Trace, PastTheStepCapNeighbouringStepsMergeAndStayExact) {
  CompiledProgram p = compiledExample("rnn.tpo");
  TraceCollector full, capped(size_t(1) << 20, 4);
  CompiledRunOptions options;
  options.trace = &full;
  runCompiled(p, {}, options);
  options.trace = &capped;
  runCompiled(p, {}, options);
  ASSERT_GT(full.steps().size(), 8u);
  EXPECT_LE(capped.steps().size(), 4u + 2);  // a few steps, each covering many iterations
  EXPECT_GT(capped.stepStride(), 1);
  auto totals = [](const TraceCollector& t) {
    int64_t iterations = 0, instances = 0;
    for (const StepProfile& s : t.steps()) iterations += s.iterations, instances += s.instances;
    return std::pair{iterations, instances};
  };
  EXPECT_EQ(totals(capped), totals(full));
  EXPECT_EQ(stepCalls(capped), stepCalls(full));
}

TEST(Trace, OffByDefault) {
  CompiledProgram p = compiledExample("rnn.tpo");
  CompiledRunResult r = runCompiled(p, {});  // no collector: nothing to record into, and nothing fails
  EXPECT_GT(r.stats.execs, 0);
}

}  // namespace
}  // namespace tempo
