// `tempo compile`: the pass list, the summary table, --print-after,
// --stop-after, --disable and their usage errors, driven in-process.
#include "CliTestUtil.h"

#include <gtest/gtest.h>

namespace tempo::cli::test {
namespace {

const std::vector<std::string> kPasses = {"branch-lowering",
                                          "constant-folding",
                                          "algebraic-simplification",
                                          "common-subexpression-elimination",
                                          "domain-reduction",
                                          "dead-code-elimination",
                                          "slice-sinking",
                                          "vectorisation", "permute-sinking", "static-tiling", "fusion", "view-selection", "weight-panels"};

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(CliCompile, PassesListsThePipelineInOrderWithDescriptions) {
  CliResult r = tempo({"compile", "--passes"});
  ASSERT_EQ(r.code, 0) << r.err;
  size_t last = 0;
  for (const std::string& pass : kPasses) {
    size_t at = r.out.find(pass);
    ASSERT_NE(at, std::string::npos) << pass << "\n" << r.out;
    EXPECT_GT(at, last) << pass;
    last = at;
  }
  EXPECT_NE(r.out.find("first branch whose guard holds"), std::string::npos) << r.out;
}

TEST(CliCompile, DefaultPrintsASummaryTableAndTheFinalGraph) {
  CliResult r = tempo({"compile", example("small/counter.tpo")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("pass"), std::string::npos);
  EXPECT_NE(r.out.find("changed nodes"), std::string::npos);
  for (const std::string& pass : kPasses) EXPECT_NE(r.out.find(pass), std::string::npos) << pass;
  EXPECT_NE(r.out.find(" ms"), std::string::npos);
  EXPECT_NE(r.out.find("no change"), std::string::npos) << r.out;  // nothing folds in counter
  EXPECT_NE(r.out.find("graph \""), std::string::npos);
  EXPECT_NE(r.out.find("if t > 0"), std::string::npos) << r.out;  // branch lowering ran
  EXPECT_NE(r.out.find("out c = %0"), std::string::npos) << r.out;
}

TEST(CliCompile, PrintAfterAllShowsEveryPassWithDescriptionAndChange) {
  CliResult r = tempo({"compile", example("gpt_decode.tpo"), "--print-after=all"});
  ASSERT_EQ(r.code, 0) << r.err;
  for (const std::string& pass : kPasses) EXPECT_NE(r.out.find("=== after " + pass), std::string::npos) << pass;
  EXPECT_EQ(count(r.out, "=== after "), kPasses.size() + 7);  // and the seven lowering stages
  EXPECT_EQ(count(r.out, "\ngraph \""), kPasses.size());
  EXPECT_NE(r.out.find("change: "), std::string::npos);
  EXPECT_NE(r.out.find("note: "), std::string::npos) << r.out;
}

TEST(CliCompile, PrintAfterOnePassPrintsOnlyIt) {
  CliResult r = tempo({"compile", example("small/counter.tpo"), "--print-after", "constant-folding"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(count(r.out, "=== after "), 1u) << r.out;
  EXPECT_NE(r.out.find("=== after constant-folding (2/" + std::to_string(kPasses.size()) + ") [no change]"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("change: no change"), std::string::npos) << r.out;
}

TEST(CliCompile, PrintAfterALoweringStagePrintsTheProgramAfterIt) {
  CliResult summary = tempo({"compile", example("small/counter.tpo")});
  ASSERT_EQ(summary.code, 0) << summary.err;
  for (const char* stage : {"schedule", "storage-plan", "memory-placement", "kernel-formation", "llvm-ir", "machine-code", "cuda"})
    EXPECT_NE(summary.out.find(std::string(stage) + " "), std::string::npos) << stage << "\n" << summary.out;
  EXPECT_EQ(count(summary.out, "(lowering)"), 7u) << summary.out;

  CliResult schedule = tempo({"compile", example("small/counter.tpo"), "--print-after", "schedule"});
  ASSERT_EQ(schedule.code, 0) << schedule.err;
  EXPECT_EQ(count(schedule.out, "=== after "), 1u) << schedule.out;
  EXPECT_NE(schedule.out.find("=== after schedule (lowering 1/7) ==="), std::string::npos) << schedule.out;
  EXPECT_NE(schedule.out.find("for c0 in 0..T:"), std::string::npos) << schedule.out;
  EXPECT_EQ(schedule.out.find("alloc %"), std::string::npos) << schedule.out;  // before memory placement

  CliResult stores = tempo({"compile", example("small/counter.tpo"), "--print-after=storage-plan"});
  ASSERT_EQ(stores.code, 0) << stores.err;
  EXPECT_NE(stores.out.find("=== after storage-plan (lowering 2/7) ==="), std::string::npos) << stores.out;
  EXPECT_NE(stores.out.find("%0 c"), std::string::npos) << stores.out;

  CliResult placed = tempo({"compile", example("small/counter.tpo"), "--print-after=memory-placement"});
  ASSERT_EQ(placed.code, 0) << placed.err;
  EXPECT_NE(placed.out.find("=== after memory-placement (lowering 3/7) ==="), std::string::npos) << placed.out;
  EXPECT_NE(placed.out.find("alloc %"), std::string::npos) << placed.out;

  CliResult early = tempo({"compile", example("small/counter.tpo"), "--stop-after=branch-lowering",
                           "--print-after=schedule"});
  ASSERT_EQ(early.code, 0) << early.err;
  EXPECT_NE(early.out.find("(stage schedule did not run"), std::string::npos) << early.out;
}

TEST(CliCompile, PrintAfterTheCodegenStagesShowsKernelsIrAndAssembly) {
  CliResult kernels = tempo({"compile", example("rnn.tpo"), "--print-after=kernel-formation"});
  ASSERT_EQ(kernels.code, 0) << kernels.err;
  EXPECT_NE(kernels.out.find("=== after kernel-formation (lowering 4/7) ==="), std::string::npos) << kernels.out;
  EXPECT_NE(kernels.out.find(" generated  %"), std::string::npos) << kernels.out;
  EXPECT_NE(kernels.out.find(" library  %"), std::string::npos) << kernels.out;  // the matmuls
  CliResult ir = tempo({"compile", example("rnn.tpo"), "--print-after=llvm-ir"});
  ASSERT_EQ(ir.code, 0) << ir.err;
  EXPECT_NE(ir.out.find("optimised at -O3 for "), std::string::npos) << ir.out;
  EXPECT_NE(ir.out.find("define void @k"), std::string::npos) << ir.out;
  CliResult code = tempo({"compile", example("rnn.tpo"), "--print-after=machine-code"});
  ASSERT_EQ(code.code, 0) << code.err;
  EXPECT_NE(code.out.find("compiled for "), std::string::npos) << code.out;
  EXPECT_NE(code.out.find("ret"), std::string::npos) << code.out;
  CliResult cuda = tempo({"compile", example("rnn.tpo"), "--print-after=cuda"});
  ASSERT_EQ(cuda.code, 0) << cuda.err;
  EXPECT_NE(cuda.out.find("=== after cuda (lowering 7/7) ==="), std::string::npos) << cuda.out;
  EXPECT_NE(cuda.out.find("extern \"C\" __global__ void"), std::string::npos) << cuda.out;
}

TEST(CliCompile, EmitCudaAndPtxNeedTheCudaDevice) {
  CliResult source = tempo({"compile", example("rnn.tpo"), "--device", "cuda", "--emit", "cuda", "--kernel", "k15_y"});
  ASSERT_EQ(source.code, 0) << source.err;
  EXPECT_NE(source.out.find("__global__ void __launch_bounds__(256) k15_y("), std::string::npos) << source.out;
  EXPECT_EQ(count(source.out, "__global__"), 1u) << source.out;
  CliResult cpu = tempo({"compile", example("rnn.tpo"), "--emit", "cuda"});
  EXPECT_EQ(cpu.code, 2);
  EXPECT_NE(cpu.err.find("add --device cuda"), std::string::npos) << cpu.err;
  CliResult bad = tempo({"compile", example("rnn.tpo"), "--device", "tpu", "--emit", "cuda"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("use cpu, cuda or cuda:N"), std::string::npos) << bad.err;
  CliResult ir = tempo({"compile", example("rnn.tpo"), "--device", "cuda", "--emit", "llvm"});
  EXPECT_EQ(ir.code, 2);
  EXPECT_NE(ir.err.find("is the CPU's code"), std::string::npos) << ir.err;
#ifdef TEMPO_HAVE_CUDA
  CliResult ptx = tempo({"compile", example("rnn.tpo"), "--device", "cuda", "--emit", "ptx", "--kernel", "k15_y"});
  ASSERT_EQ(ptx.code, 0) << ptx.err;
  EXPECT_NE(ptx.out.find(".target sm_90"), std::string::npos) << ptx.out;
  EXPECT_NE(ptx.out.find(".entry k15_y("), std::string::npos) << ptx.out;
#endif
}

TEST(CliDevices, ListsTheCpuAndSaysWhereTheGpuStands) {
  CliResult r = tempo({"devices"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("cpu      ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("programs run here"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\ncuda"), std::string::npos) << r.out;  // `cuda     none: why`, or one line per GPU
  EXPECT_NE(r.out.find("\nkernels  "), std::string::npos) << r.out;
}

TEST(CliRun, ADeviceWithoutAGpuIsAClearError) {
  CliResult cuda = tempo({"run", example("small/counter.tpo"), "--device", "cuda"});
  EXPECT_EQ(cuda.code, 3) << cuda.out;  // no GPU here (CI), or no GPU engine yet where there is one
  EXPECT_NE(cuda.err.find("tempo run: --device cuda: "), std::string::npos) << cuda.err;
  CliResult reference = tempo({"run", example("small/counter.tpo"), "--device", "cuda:1", "--engine", "reference"});
  EXPECT_EQ(reference.code, 2);
  EXPECT_NE(reference.err.find("needs the compiled engine"), std::string::npos) << reference.err;
}

TEST(CliCompile, EmitPrintsTheGeneratedCodeOfOneKernel) {
  CliResult table = tempo({"compile", example("rnn.tpo"), "--emit", "kernels"});
  ASSERT_EQ(table.code, 0) << table.err;
  size_t at = table.out.find(" generated  %");
  ASSERT_NE(at, std::string::npos) << table.out;
  size_t begin = table.out.rfind("kernel ", at) + 7;
  std::string name = table.out.substr(begin, table.out.find(' ', begin) - begin);
  CliResult ir = tempo({"compile", example("rnn.tpo"), "--emit", "llvm", "--kernel", name});
  ASSERT_EQ(ir.code, 0) << ir.err;
  EXPECT_EQ(ir.out.rfind("define void @" + name + "(", 0), 0u) << ir.out;
  EXPECT_EQ(count(ir.out, "define "), 1u) << ir.out;
  CliResult assembly = tempo({"compile", example("rnn.tpo"), "--emit=asm", "--kernel=" + name});
  ASSERT_EQ(assembly.code, 0) << assembly.err;
  EXPECT_EQ(assembly.out.rfind(name + ":", 0), 0u) << assembly.out;
  CliResult unknown = tempo({"compile", example("rnn.tpo"), "--emit", "llvm", "--kernel", "k999_nothing"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("no kernel 'k999_nothing'; the kernels are: k"), std::string::npos) << unknown.err;
  CliResult alone = tempo({"compile", example("rnn.tpo"), "--kernel", name});
  EXPECT_EQ(alone.code, 2);
  EXPECT_NE(alone.err.find("--kernel needs --emit"), std::string::npos) << alone.err;
  CliResult bad = tempo({"compile", example("rnn.tpo"), "--emit", "ptx"});
  EXPECT_EQ(bad.code, 2) << bad.out;
}

TEST(CliProfile, PrintsWhereTheTimeWentByNodeAndSourceLine) {
  CliResult r = tempo({"profile", example("rnn.tpo"), "--top", "4", "--no-store"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("profile of "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("generated kernels, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("by node:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("more nodes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("by source line:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rnn.tpo:17  h[b, t] = tanh("), std::string::npos) << r.out;
  CliResult bad = tempo({"profile", example("rnn.tpo"), "--set", "T"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("expected NAME=INT"), std::string::npos) << bad.err;
}

TEST(CliCompile, StopAfterAndDisableShapeTheRun) {
  CliResult r = tempo({"compile", example("small/counter.tpo"), "--stop-after=branch-lowering"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("not run"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("%3 = constant"), std::string::npos) << r.out;  // CSE did not run

  r = tempo({"compile", example("small/counter.tpo"), "--disable=branch-lowering", "--disable",
             "common-subexpression-elimination"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(count(r.out, "disabled"), 2u) << r.out;
  EXPECT_EQ(r.out.find("if t > 0"), std::string::npos) << r.out;
}

TEST(CliCompile, UnknownPassNamesAreUsageErrorsListingValidNames) {
  for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
           {"compile", example("small/counter.tpo"), "--disable=nope"},
           {"compile", example("small/counter.tpo"), "--stop-after=nope"},
           {"compile", example("small/counter.tpo"), "--print-after=nope"}}) {
    CliResult r = tempo(args);
    EXPECT_EQ(r.code, 2) << args[2] << "\n" << r.err;
    EXPECT_NE(r.err.find("unknown pass 'nope'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("dead-code-elimination"), std::string::npos) << r.err;
  }
}

TEST(CliCompile, MissingFileAndBadProgramsGiveTheDocumentedCodes) {
  EXPECT_EQ(tempo({"compile"}).code, 2);
  CliResult r = tempo({"compile", "/nonexistent/x.tpo"});
  EXPECT_EQ(r.code, 1) << r.err;
  TempDir dir("compile");
  writeFile(dir.str("bad.tpo"), "dim t < T\nset T = 3\nout y = q[t] + 1.0\n");
  r = tempo({"compile", dir.str("bad.tpo")});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("error"), std::string::npos);
}

TEST(CliCompile, EveryExampleCompiles) {
  for (const auto& program : allExamples()) {
    CliResult r = tempo({"compile", program.string()});
    EXPECT_EQ(r.code, 0) << program << "\n" << r.err;
  }
}

TEST(CliCompile, SetSizesTheCostModelsForTheBoundsOfARun) {
  // gpt_decode's growing window: blocks of 8 at its own T, 4 when sized for T = 4 (the block
  // size the run `tempo run --set T=4` would compile with); an unknown bound is a usage error.
  CliResult plain = tempo({"compile", example("gpt_decode.tpo"), "--print-after", "static-tiling"});
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_NE(plain.out.find("into blocks of 8 (cost model)"), std::string::npos) << plain.out;
  CliResult sized = tempo({"compile", example("gpt_decode.tpo"), "--print-after", "static-tiling", "--set", "T=4"});
  ASSERT_EQ(sized.code, 0) << sized.err;
  EXPECT_NE(sized.out.find("into blocks of 4 (cost model)"), std::string::npos) << sized.out;
  CliResult unknown = tempo({"compile", example("gpt_decode.tpo"), "--set", "Q=3"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("'Q' is not a bound of this program"), std::string::npos) << unknown.err;
}

}  // namespace
}  // namespace tempo::cli::test
