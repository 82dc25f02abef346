// grad(loss, W) and detach(x) in the language: the gradient has W's type over
// W's domain (whatever the loss's domain), and misuse is a diagnostic at the
// call. The values are checked against finite differences in
// tests/compiler/AutodiffGraphTest.cpp.
#include "frontend/Frontend.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

const std::string kHeader =
    "dim t < T\nset T = 4\n"
    "param W : f64[2, 3] = normal(seed=1)\n"
    "input x : f64[2] over (t) = normal(seed=2)\n"
    "y = tanh(x @ W)\n";

const Node& outputNode(const FrontendResult& r, const std::string& name) {
  for (const GraphOutput& o : r.graph.outputs)
    if (o.name == name) return r.graph.node(o.node);
  throw std::runtime_error("no output " + name);
}

TEST(GradBuiltin, GradientHasTheTargetsTypeAndDomain) {
  FrontendResult r = compileSource(kHeader + "loss = sum(y * y)\nout gW = grad(loss, W)\nout gx = grad(loss, x)\n",
                                   "grad.tpo", ".");
  ASSERT_TRUE(r.ok()) << r.renderedDiagnostics();
  const Node& gW = outputNode(r, "gW");
  EXPECT_EQ(gW.type.str(), "f64[2, 3]");
  EXPECT_TRUE(gW.domain.empty());
  const Node& gx = outputNode(r, "gx");
  EXPECT_EQ(gx.type.str(), "f64[2]");
  EXPECT_EQ(gx.domain, std::vector<std::string>{"t"});
}

TEST(GradBuiltin, ANonScalarLossIsAnErrorAtTheCall) {
  FrontendResult r = compileSource(kHeader + "out g = grad(y, W)\n", "grad.tpo", ".");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.renderedDiagnostics().find("must be a float scalar"), std::string::npos) << r.renderedDiagnostics();
  EXPECT_NE(r.renderedDiagnostics().find("grad.tpo:6:"), std::string::npos) << r.renderedDiagnostics();
}

TEST(GradBuiltin, ArgumentsMustBeTensorNames) {
  FrontendResult r = compileSource(kHeader + "loss = sum(y)\nout g = grad(loss * 2.0, W)\n", "grad.tpo", ".");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.renderedDiagnostics().find("grad() expects the name of a loss tensor"), std::string::npos)
      << r.renderedDiagnostics();
  FrontendResult r2 = compileSource(kHeader + "loss = sum(y)\nout g = grad(loss, 3.0)\n", "grad.tpo", ".");
  ASSERT_FALSE(r2.ok());
  EXPECT_NE(r2.renderedDiagnostics().find("grad() expects the name of a tensor"), std::string::npos)
      << r2.renderedDiagnostics();
}

TEST(GradBuiltin, DetachIsAnIdentity) {
  FrontendResult r = compileSource(kHeader + "out z = detach(y)\n", "grad.tpo", ".");
  ASSERT_TRUE(r.ok()) << r.renderedDiagnostics();
  EXPECT_EQ(outputNode(r, "z").op, OpKind::Identity);
}

}  // namespace
}  // namespace tempo
