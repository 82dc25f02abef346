// Failures of the reference interpreter: each is an EvalError whose message
// names the node (with its source position) and the point.
#include "InterpTestGraphs.h"

#include "interp/ReferenceInterpreter.h"
#include "npy/Npy.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <unistd.h>

namespace tempo {
namespace {

using namespace interp_test;
using Rel = Constraint::Rel;

const IndexExpr t = dim("t");
const IndexExpr T = bound("T");

/// Runs `f`, expects an EvalError and returns its message.
std::string evalErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const EvalError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected EvalError, got another exception: " << e.what();
    return "";
  }
  ADD_FAILURE() << "expected EvalError, nothing was thrown";
  return "";
}

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << "in: " << (haystack)

TEST(ReferenceInterpreterErrors, ReadOutsideProducerDomainNamesBothNodes) {
  Graph g;
  g.file = "prog.tpo";
  g.dims = {{"t", "T"}};
  NodeId x = addNode(g, OpKind::EvalIndex, {"t"}, f32(), indexAttrs(t), "x");
  NodeId y = addNode(g, OpKind::Identity, {"t"}, f32(), {}, "y");
  g.node(y).loc = {{3, 5}, {3, 12}};
  addEdge(g, y, 0, x, {at(t + 1)});
  ReferenceInterpreter interp(g, {{{"T", 4}}});
  EXPECT_EQ(interp.valueAt(y, {2}).at(0), 3.0);
  std::string msg = evalErrorOf([&] { interp.valueAt(y, {3}); });
  EXPECT_CONTAINS(msg, "'y'");
  EXPECT_CONTAINS(msg, "'x'");
  EXPECT_CONTAINS(msg, "prog.tpo:3:5");
  EXPECT_CONTAINS(msg, "t=3");
  EXPECT_CONTAINS(msg, "outside its domain");
}

TEST(ReferenceInterpreterErrors, SliceBeyondProducerDomain) {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId x = addNode(g, OpKind::EvalIndex, {"t"}, f32(), indexAttrs(t), "x");
  NodeId w = addNode(g, OpKind::Identity, {"t"}, f32({2}), {}, "w");
  addEdge(g, w, 0, x, {range(t, t + 2)});
  ReferenceInterpreter interp(g, {{{"T", 3}}});
  EXPECT_EQ(interp.valueAt(w, {1}).shape(), (std::vector<int64_t>{2}));
  EXPECT_CONTAINS(evalErrorOf([&] { interp.valueAt(w, {2}); }), "[2, 4)");
}

TEST(ReferenceInterpreterErrors, MergeWithNoCoveringBranch) {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId one = addNode(g, OpKind::Constant, {}, f32(), constantAttrs(1));
  NodeId m = addNode(g, OpKind::Merge, {"t"}, f32(), {}, "m");
  addEdge(g, m, 0, one, {}, when(t, Rel::Eq, 0));
  ReferenceInterpreter interp(g, {{{"T", 3}}});
  EXPECT_EQ(interp.valueAt(m, {0}).at(0), 1.0);
  std::string msg = evalErrorOf([&] { interp.valueAt(m, {1}); });
  EXPECT_CONTAINS(msg, "no branch covers point");
  EXPECT_CONTAINS(msg, "'m'");
}

TEST(ReferenceInterpreterErrors, MutualCycleIsReported) {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId a = addNode(g, OpKind::Identity, {"t"}, f32(), {}, "a");
  NodeId b = addNode(g, OpKind::Identity, {"t"}, f32(), {}, "b");
  addEdge(g, a, 0, b, {at(t)});
  addEdge(g, b, 0, a, {at(t)});
  ReferenceInterpreter interp(g, {{{"T", 3}}});
  std::string msg = evalErrorOf([&] { interp.valueAt(a, {1}); });
  EXPECT_CONTAINS(msg, "cycle at");
  EXPECT_CONTAINS(msg, "'a'");
  EXPECT_CONTAINS(msg, "'b'");
}

TEST(ReferenceInterpreterErrors, LongCycleIsAbbreviated) {
  Graph g;
  g.dims = {{"t", "T"}};
  const int ring = 20;
  std::vector<NodeId> ids;
  for (int i = 0; i < ring; ++i)
    ids.push_back(addNode(g, OpKind::Identity, {"t"}, f32(), {}, "n" + std::to_string(i)));
  for (int i = 0; i < ring; ++i) addEdge(g, ids[i], 0, ids[(i + 1) % ring], {at(t)});
  ReferenceInterpreter interp(g, {{{"T", 1}}});
  std::string msg = evalErrorOf([&] { interp.valueAt(ids[0], {0}); });
  EXPECT_CONTAINS(msg, "cycle at node %0 'n0'");
  EXPECT_CONTAINS(msg, "'n0' (identity) at (t=0) needs %1 'n1'");
  EXPECT_CONTAINS(msg, "... (12 more) needs %16 'n16'");
  EXPECT_CONTAINS(msg, "%19 'n19' (identity) at (t=0) needs %0 'n0' (identity) at (t=0)");
}

TEST(ReferenceInterpreterErrors, SelfCycleThroughARecurrenceIsReported) {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId one = addNode(g, OpKind::Constant, {}, f32(), constantAttrs(1));
  NodeId h = addNode(g, OpKind::Add, {"t"}, f32(), {}, "h");
  addEdge(g, h, 0, h, {at(t)});  // h[t] = h[t] + 1: needs itself
  addEdge(g, h, 1, one, {});
  ReferenceInterpreter interp(g, {{{"T", 2}}});
  EXPECT_CONTAINS(evalErrorOf([&] { interp.valueAt(h, {0}); }), "cycle at node %1 'h'");
  // The failed evaluation leaves the interpreter usable.
  EXPECT_CONTAINS(evalErrorOf([&] { interp.valueAt(h, {1}); }), "cycle at");
}

TEST(ReferenceInterpreterErrors, FalseConditionOnNonMergeInput) {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId x = addNode(g, OpKind::EvalIndex, {"t"}, f32(), indexAttrs(t), "x");
  NodeId y = addNode(g, OpKind::Identity, {"t"}, f32(), {}, "y");
  addEdge(g, y, 0, x, {at(t)}, when(t, Rel::Ge, 1));
  ReferenceInterpreter interp(g, {{{"T", 3}}});
  EXPECT_EQ(interp.valueAt(y, {1}).at(0), 1.0);
  EXPECT_CONTAINS(evalErrorOf([&] { interp.valueAt(y, {0}); }), "does not hold");
}

TEST(ReferenceInterpreterErrors, PointOutsideDomainOrWrongArity) {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId x = addNode(g, OpKind::EvalIndex, {"t"}, f32(), indexAttrs(t), "x");
  ReferenceInterpreter interp(g, {{{"T", 3}}});
  EXPECT_CONTAINS(evalErrorOf([&] { interp.valueAt(x, {3}); }), "outside the domain");
  EXPECT_CONTAINS(evalErrorOf([&] { interp.valueAt(x, {-1}); }), "outside the domain");
  EXPECT_CONTAINS(evalErrorOf([&] { interp.valueAt(x, {0, 0}); }), "2 coordinates");
  EXPECT_CONTAINS(evalErrorOf([&] { interp.valueAt(99, {}); }), "no node %99");
}

TEST(ReferenceInterpreterErrors, MissingBoundValue) {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId x = addNode(g, OpKind::EvalIndex, {"t"}, f32(), indexAttrs(t), "x");
  ReferenceInterpreter interp(g, {});
  EXPECT_CONTAINS(evalErrorOf([&] { interp.valueAt(x, {0}); }), "no value for bound 'T'");
}

TEST(ReferenceInterpreterErrors, ShapeMismatchIsAnEngineBugReportedClearly) {
  Graph g;
  g.dims = {{"t", "T"}};
  NodeId x = addNode(g, OpKind::Constant, {"t"}, f32({2}), constantAttrs(1), "x");
  NodeId m = addNode(g, OpKind::Merge, {"t"}, f32({3}), {}, "m");  // claims 3, gets 2
  addEdge(g, m, 0, x, {at(t)});
  ReferenceInterpreter interp(g, {{{"T", 1}}});
  EXPECT_CONTAINS(evalErrorOf([&] { interp.valueAt(m, {0}); }), "computed f32[2]");
}

class LoadErrors : public ::testing::Test {
protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("tempo_interp_" + std::string(info->name()) + "_" + std::to_string(getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  /// x[t] : f32[2] loaded from `file`, with T = 4.
  std::string loadError(const std::string& file) {
    Graph g;
    g.dims = {{"t", "T"}};
    NodeId x = addNode(g, OpKind::Load, {"t"}, f32({2}), loadAttrs((dir_ / file).string()), "x");
    ReferenceInterpreter interp(g, {{{"T", 4}}});
    return evalErrorOf([&] { interp.valueAt(x, {0}); });
  }

  std::filesystem::path dir_;
};

TEST_F(LoadErrors, WrongShapeNamesFileExpectedAndActual) {
  writeNpy((dir_ / "x.npy").string(), Tensor(DType::F32, {3, 2}));
  std::string msg = loadError("x.npy");
  EXPECT_CONTAINS(msg, "x.npy");
  EXPECT_CONTAINS(msg, "[3, 2]");
  EXPECT_CONTAINS(msg, "expected [4, 2]");
}

TEST_F(LoadErrors, WrongDType) {
  writeNpy((dir_ / "x.npy").string(), Tensor(DType::F64, {4, 2}));
  std::string msg = loadError("x.npy");
  EXPECT_CONTAINS(msg, "f64");
  EXPECT_CONTAINS(msg, "expected f32");
}

TEST_F(LoadErrors, MissingFile) {
  EXPECT_CONTAINS(loadError("absent.npy"), "cannot load");
}

}  // namespace
}  // namespace tempo
