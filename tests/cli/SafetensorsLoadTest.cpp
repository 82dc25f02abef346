// load("m.safetensors", tensor="layers.{l}.w"): per-layer tensors fill a param over (l)
// and both engines compute with them; `tempo check` reports a missing tensor and one of
// the wrong shape at the declaration; the front end refuses a placeholder that is not a
// leading dimension and a .safetensors file without tensor=.
#include "CliTestUtil.h"

#include "frontend/Frontend.h"
#include "npy/LoadCheck.h"
#include "safetensors/Safetensors.h"

#include <gtest/gtest.h>

namespace tempo::cli::test {
namespace {

const char* const kProgram =
    "dim l < L\n"
    "set L = 2\n"
    "param W : f32[2, 3] over (l) = load(\"m.safetensors\", tensor=\"layers.{l}.w\")\n"
    "param v : f32[2] = load(\"m.safetensors\", tensor=\"v\")\n"
    "out y = v @ W[l]\n";

Tensor matrix(double first) {
  Tensor t(DType::F32, {2, 3});
  for (int64_t i = 0; i < 6; ++i) t.set(i, first + double(i));
  return t;
}

void writeCheckpoint(const TempDir& dir, const Tensor& layer1) {
  Tensor v(DType::F32, {2});
  v.set(0, 1.0);
  v.set(1, 10.0);
  writeFile(dir.str("m.safetensors"),
            serializeSafetensors({{"layers.0.w", matrix(0)}, {"layers.1.w", layer1}, {"v", v}}));
  writeFile(dir.str("p.tpo"), kProgram);
}

TEST(SafetensorsLoad, PerLayerTensorsFillTheParamOnBothEngines) {
  TempDir dir("safetensors_run");
  writeCheckpoint(dir, matrix(100));
  // y[l] = [1, 10] @ W[l]: layer 0 rows (0 1 2), (3 4 5) -> 30 41 52; layer 1 adds 11 * 100.
  for (const char* engine : {"reference", "compiled"}) {
    CliResult r = tempo({"run", dir.str("p.tpo"), "--engine", engine});
    EXPECT_EQ(r.code, 0) << engine << ": " << r.err;
    EXPECT_NE(r.out.find("30"), std::string::npos) << engine << ": " << r.out;
    EXPECT_NE(r.out.find("1152"), std::string::npos) << engine << ": " << r.out;
  }
  CliResult check = tempo({"check", dir.str("p.tpo")});
  EXPECT_EQ(check.code, 0) << check.err << check.out;
}

TEST(SafetensorsLoad, CheckReportsAMissingTensorAndAWrongShapeAtTheDeclaration) {
  TempDir dir("safetensors_check");
  writeCheckpoint(dir, Tensor(DType::F32, {3, 2}));
  FrontendResult program = compileFile(dir.str("p.tpo"));
  ASSERT_TRUE(program.ok()) << program.renderedDiagnostics();
  DiagnosticBag diags;
  checkLoadedArrays(program.graph, {{"L", 3}}, diags);
  ASSERT_EQ(diags.items().size(), 2u);
  EXPECT_EQ(diags.items()[0].message, "m.safetensors: tensor 'layers.1.w' has shape [3, 2] but W over (l) needs [2, 3] from it");
  EXPECT_EQ(diags.items()[1].message,
            "m.safetensors: has no tensor 'layers.2.w' (3 tensors; nearest: 'layers.0.w', 'layers.1.w')");
  EXPECT_EQ(diags.items()[0].range.begin.line, 3);
  CliResult run = tempo({"run", dir.str("p.tpo"), "--engine", "compiled"});
  EXPECT_NE(run.code, 0);
  EXPECT_NE((run.err + run.out).find("layers.1.w"), std::string::npos) << run.err << run.out;
}

TEST(SafetensorsLoad, TheFrontEndChecksTheTensorName) {
  TempDir dir("safetensors_frontend");
  auto errorOf = [&](const std::string& declaration) {
    writeFile(dir.str("q.tpo"), "dim l < L\ndim h < H\nset L = 2, H = 2\n" + declaration + "\nout y = W[l, h] * 2.0\n");
    FrontendResult r = compileFile(dir.str("q.tpo"));
    return r.ok() ? std::string("(no error)") : r.renderedDiagnostics();
  };
  EXPECT_NE(errorOf("param W : f32[3] over (l, h) = load(\"m.safetensors\")")
                .find("load() of a .safetensors file needs the tensor's name: tensor=\"...\""),
            std::string::npos);
  EXPECT_NE(errorOf("param W : f32[3] over (l, h) = load(\"m.safetensors\", tensor=\"x.{k}\")")
                .find("{k} is not a dimension of the domain (l, h)"),
            std::string::npos);
  EXPECT_NE(errorOf("param W : f32[3] over (l, h) = load(\"m.safetensors\", tensor=\"x.{h}\")")
                .find("the dimensions named in {} must lead the domain"),
            std::string::npos);
  EXPECT_NE(errorOf("param W : f32[3] over (l, h) = load(\"m.safetensors\", tensor=\"x.{l\")").find("an unclosed '{'"),
            std::string::npos);
  EXPECT_NE(errorOf("param W : f32[3] over (l, h) = load(\"w.npy\", tensor=\"x\")").find("'w.npy' is not one"),
            std::string::npos);
  EXPECT_EQ(errorOf("param W : f32[3] over (l, h) = load(\"m.safetensors\", tensor=\"x.{l}.{{h}}\")"), "(no error)");
}

}  // namespace
}  // namespace tempo::cli::test
