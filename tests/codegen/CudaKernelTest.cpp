// The generated CUDA kernels (compiler/codegen/CudaKernels) without a GPU:
// every (op, dtype) pair and every kernel of every example and of the
// generated programs compiles with NVRTC to a CUBIN for sm_90, and runs under
// host emulation (support/CudaHostEmulation) bit for bit like the CPU kernels
// it stands for, on inputs at the edges and with a grid smaller than the
// output, so the grid-stride loop and the broadcast offsets are exercised.
#include "codegen/CudaKernels.h"
#include "codegen/CudaReductions.h"
#include "codegen/Nvrtc.h"
#include "cuda/KernelBundle.h"
#include "kernels/cpu/Reduce.h"
#include "kernels/cpu/Fused.h"
#include "kernels/cpu/CpuKernels.h"
#include "support/CudaHostEmulation.h"
#include "support/GoldenFiles.h"
#include "support/KernelCases.h"
#include "support/RandomProgram.h"
#include "support/TempDir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tempo {
namespace {

using testing::EmulatedCuda;
using testing::firstDifference;

/// The largest difference between two tensors of one dtype, in ulps (runtime/cuda/KernelBundle).
uint64_t ulpDifference(const Tensor& want, const Tensor& got) {
  if (want.shape() != got.shape() || want.dtype() != got.dtype()) return UINT64_MAX;
  auto bytes = [](const Tensor& t) {
    Tensor c = t.contiguous();
    const char* p = static_cast<const char*>(c.raw());
    return std::vector<char>(p, p + c.nbytes());
  };
  return cuda::maxUlpDifference(std::string(dtypeName(want.dtype())), bytes(want), bytes(got));
}

/// "" when the emulated reduction `got` of `x` agrees with the CPU's `want`, else how not. The
/// GPU sums in another order: f32 sums accumulate in double either way, so they differ by at
/// most one rounding (1 ulp); f64 sums by the order's rounding, at most 1e-14 of the sum of
/// magnitudes; maxima and integer sums exactly.
std::string reductionMismatch(const Kernel& k, const Tensor& x, const Tensor& want, const Tensor& got) {
  if (k.op != OpKind::ReduceSum || k.dtype != DType::F64) {
    uint64_t ulps = ulpDifference(want, got), allowed = k.op == OpKind::ReduceSum && k.dtype == DType::F32 ? 1 : 0;
    return ulps <= allowed ? "" : std::to_string(ulps) + " ulps apart, " + std::to_string(allowed) + " allowed";
  }
  Tensor magnitudes(x.dtype(), x.shape());
  for (int64_t i = 0; i < x.numel(); ++i) magnitudes.set(i, std::fabs(x.at(i)));
  std::optional<Tensor> scale = cpu::reduce(OpKind::ReduceSum, magnitudes, k.axes, k.keepDims);
  for (int64_t i = 0; i < want.numel(); ++i) {
    double a = want.at(i), b = got.at(i);
    if (a != a && b != b) continue;
    if (!(std::fabs(a - b) <= 1e-14 * scale->at(i)))
      return "element " + std::to_string(i) + ": CPU " + std::to_string(a) + ", GPU " + std::to_string(b);
  }
  return "";
}

using testing::LoweredKernels;
using testing::evaluated;
using testing::lowerKernels;

/// True when `cubin` is an ELF image that defines `symbol`.
bool cubinDefines(const std::vector<char>& cubin, const std::string& symbol) {
  if (cubin.size() < 4 || std::memcmp(cubin.data(), "\x7f" "ELF", 4) != 0) return false;
  const std::string needle = symbol + '\0';
  return std::search(cubin.begin(), cubin.end(), needle.begin(), needle.end()) != cubin.end();
}

/// Emulates every generated kernel and reduction of `lowered` and compares with the CPU's
/// kernels: generated ones bit for bit, reductions within reductionUlps.
void expectEmulationMatchesCpu(const LoweredKernels& lowered, const CudaSource& source, const EmulatedCuda& emulated,
                               const std::string& label) {
  uint32_t seed = 1;
  for (const Kernel& k : lowered.kernels.kernels) {
    if (!source.function.count(k.name)) continue;
    const std::vector<int64_t> shape = evaluated(k.shape, lowered.bounds);
    const bool reduction = source.reductions.count(source.function.at(k.name)) != 0;
    std::vector<Tensor> inputs;
    for (const KernelInput& in : k.inputs) {
      std::vector<int64_t> inShape = evaluated(in.shape, lowered.bounds);
      inputs.push_back(reduction ? testing::moderateTensor(in.dtype, inShape, seed++) : testing::edgyTensor(in.dtype, inShape, seed++));
    }
    std::optional<Tensor> want = reduction ? testing::cpuOrReferenceReduce(k, inputs[0]) : cpu::fused(k.program, inputs, k.dtype, shape);
    ASSERT_TRUE(want) << label << " " << k.name << ": the CPU's kernel does not take these inputs";
    Tensor got = emulated.runKernel(source, k, shape, inputs);
    if (reduction) {
      EXPECT_EQ(reductionMismatch(k, inputs[0], *want, got), "") << label << " " << k.name;
    } else {
      EXPECT_EQ(firstDifference(*want, got), "") << label << " " << k.name;
    }
  }
}

TEST(CudaKernels, EveryLoweredOpEmulatedEqualsTheLibraryKernelBitForBit) {
  const std::vector<testing::Case> cases = testing::loweredCases();
  KernelProgram program;
  for (size_t i = 0; i < cases.size(); ++i) program.kernels.push_back(testing::oneStepKernel(cases[i], static_cast<int>(i)));
  const CudaSource source = emitCudaKernels(program);
  testing::TempDir dir("cuda_ops");
  EmulatedCuda emulated(source, dir.path());
  for (int64_t rows : {int64_t(5), int64_t(1000)}) {  // 1000 rows: 37000 elements over a grid of 192 threads
    for (size_t i = 0; i < cases.size(); ++i) {
      const testing::Case& c = cases[i];
      const Kernel& k = program.kernels[i];
      std::vector<Tensor> args = testing::inputsFor(k, rows, static_cast<uint32_t>(i + 1));
      OpAttrs attrs;
      attrs.dtype = c.result;
      Tensor want = cpu::evalOp(c.op, attrs, args, c.result, {rows, 37});
      Tensor got = emulated.run(source.function.at(k.name), k.dtype, {rows, 37}, args);
      EXPECT_EQ(firstDifference(want, got), "") << c.label() << " at " << rows << " rows";
    }
  }
}

TEST(CudaKernels, EveryLoweredOpCompilesToAnSm90Cubin) {
  if (!nvrtcAvailable()) GTEST_SKIP() << "this build has no CUDA toolkit: NVRTC is not linked";
  const std::vector<testing::Case> cases = testing::loweredCases();
  KernelProgram program;
  for (size_t i = 0; i < cases.size(); ++i) program.kernels.push_back(testing::oneStepKernel(cases[i], static_cast<int>(i)));
  const CudaSource source = emitCudaKernels(program);
  NvrtcOutput out = compileCuda(source.text, "ops.cu");
  EXPECT_NE(out.ptx.find(".target sm_90"), std::string::npos);
  for (const std::string& f : source.functions) EXPECT_TRUE(cubinDefines(out.cubin, f)) << f;
}

TEST(CudaKernels, EveryExamplesKernelsCompileForSm90AndEmulateLikeTheCpu) {
  const bool nvrtc = nvrtcAvailable();
  int generated = 0, reductions = 0;
  std::vector<std::filesystem::path> examples = testing::examplePrograms();
  for (const auto& rl : testing::filesWithExtension(testing::sourceDir() / "resources/examples/rl", ".tpo")) examples.push_back(rl);
  for (const std::filesystem::path& path : examples) {
    SCOPED_TRACE(path.filename().string());
    LoweredKernels lowered = lowerKernels(testing::readFile(path), path.filename().string(), path.parent_path().string());
    const CudaSource source = emitCudaKernels(lowered.kernels);
    if (source.functions.empty()) continue;
    generated += lowered.kernels.count(KernelKind::Generated);
    reductions += static_cast<int>(source.reductions.size());
    if (nvrtc) {
      NvrtcOutput out = compileCuda(source.text, path.filename().string() + ".cu");
      for (const std::string& f : source.functions) EXPECT_TRUE(cubinDefines(out.cubin, f)) << f;
    }
    testing::TempDir dir("cuda_example");
    EmulatedCuda emulated(source, dir.path());
    expectEmulationMatchesCpu(lowered, source, emulated, path.filename().string());
  }
  EXPECT_GT(generated, 50);  // the examples' fused groups, not a vacuous pass
  EXPECT_GT(reductions, 10);
  if (!nvrtc) GTEST_SKIP() << "emulation checked; NVRTC not linked in this build, so no CUBIN was compiled";
}

TEST(CudaKernels, ReductionsEmulatedMatchTheCpuKernel) {
  struct Shape {
    std::vector<int64_t> dims;
    std::vector<int64_t> axes;
  };
  const std::vector<Shape> shapes{{{7, 33}, {1}}, {{7, 33}, {0}}, {{7, 33}, {0, 1}}, {{5, 6, 40}, {1}},
                                  {{5, 6, 40}, {0, 2}}, {{5, 6, 40}, {2}}, {{300}, {0}}, {{4, 0}, {1}}};
  KernelProgram program;
  std::vector<Shape> of;
  for (OpKind op : {OpKind::ReduceSum, OpKind::ReduceMax, OpKind::ReduceArgMax})
    for (DType d : {DType::F32, DType::F64, DType::I32, DType::I64})
      for (const Shape& sh : shapes)
        for (bool keep : {false, true}) {
          const bool argmax = op == OpKind::ReduceArgMax;
          if (argmax && (sh.axes.size() != 1 || sh.dims[static_cast<size_t>(sh.axes[0])] == 0)) continue;
          Kernel k;
          k.name = "k" + std::to_string(program.kernels.size()) + "_reduce";
          k.node = static_cast<NodeId>(program.kernels.size());
          k.op = op, k.dtype = argmax ? DType::I64 : d, k.kind = KernelKind::Library, k.axes = sh.axes, k.keepDims = keep;
          KernelInput in;
          in.dtype = d;
          for (int64_t size : sh.dims) in.shape.push_back(IndexExpr(size));
          k.inputs.push_back(in);
          for (size_t j = 0; j < sh.dims.size(); ++j) {
            bool reduced = std::find(sh.axes.begin(), sh.axes.end(), static_cast<int64_t>(j)) != sh.axes.end();
            if (!reduced || keep) k.shape.push_back(IndexExpr(reduced ? 1 : sh.dims[j]));
          }
          ASSERT_TRUE(cudaReduces(k));
          program.kernels.push_back(k);
          of.push_back(sh);
        }
  const CudaSource source = emitCudaKernels(program);
  EXPECT_EQ(source.reductions.size(), source.functions.size());
  testing::TempDir dir("cuda_reduce");
  EmulatedCuda emulated(source, dir.path());
  for (size_t i = 0; i < program.kernels.size(); ++i) {
    const Kernel& k = program.kernels[i];
    std::vector<int64_t> outShape;
    for (const IndexExpr& e : k.shape) outShape.push_back(e.evaluate({}));
    // Sums on moderate values (the order of a float sum differs from the CPU's); maxima on the edges.
    const DType in = k.inputs[0].dtype;
    Tensor x = k.op == OpKind::ReduceSum ? testing::moderateTensor(in, of[i].dims, static_cast<uint32_t>(i))
                                         : testing::edgyTensor(in, of[i].dims, static_cast<uint32_t>(i));
    std::optional<Tensor> want = testing::cpuOrReferenceReduce(k, x);
    ASSERT_TRUE(want) << k.name;
    Tensor got = emulated.runKernel(source, k, outShape, {x}, 8);
    EXPECT_EQ(reductionMismatch(k, x, *want, got), "")
        << opName(k.op) << " " << dtypeName(k.dtype) << " axes " << k.axes.size() << " keep " << k.keepDims;
  }
  if (nvrtcAvailable()) {
    NvrtcOutput out = compileCuda(source.text, "reductions.cu");
    for (const std::string& f : source.functions) EXPECT_TRUE(cubinDefines(out.cubin, f)) << f;
  }
}

TEST(CudaKernels, TheRnnExamplesSource) {
  std::filesystem::path path = testing::sourceDir() / "resources/examples/rnn.tpo";
  LoweredKernels lowered = lowerKernels(testing::readFile(path), "rnn.tpo", path.parent_path().string());
  testing::expectGolden(testing::sourceDir() / "tests/golden/cuda/rnn.cu", emitCudaKernels(lowered.kernels).text);
}

/// The generated programs, in shards: their kernels in one translation unit per shard
/// (each program's functions prefixed), compiled once by NVRTC and once for emulation.
constexpr uint64_t kSeedsPerShard = 100;
class CudaGeneratedPrograms : public ::testing::TestWithParam<uint64_t> {};

TEST_P(CudaGeneratedPrograms, CompileForSm90AndEmulateLikeTheCpu) {
  std::vector<LoweredKernels> programs;
  std::vector<CudaSource> sources;
  CudaSource all;
  for (uint64_t seed = 1 + GetParam() * kSeedsPerShard; seed <= (GetParam() + 1) * kSeedsPerShard; ++seed) {
    const std::string name = "random" + std::to_string(seed) + ".tpo";
    programs.push_back(lowerKernels(testing::generateRandomProgram(seed), name, "."));
    sources.push_back(emitCudaKernels(programs.back().kernels, "p" + std::to_string(seed) + "_"));
    const CudaSource& s = sources.back();
    for (const std::string& f : s.functions) all.text += "\n" + s.functionText.at(f);
    all.hostEntries += s.hostEntries;
    all.functions.insert(all.functions.end(), s.functions.begin(), s.functions.end());
  }
  all.text = cudaDevicePrelude() + all.text;
  ASSERT_GT(all.functions.size(), kSeedsPerShard / 2);
  testing::TempDir dir("cuda_generated");
  EmulatedCuda emulated(all, dir.path());
  for (size_t i = 0; i < programs.size(); ++i)
    expectEmulationMatchesCpu(programs[i], sources[i], emulated, "seed " + std::to_string(1 + GetParam() * kSeedsPerShard + i));
  if (!nvrtcAvailable()) GTEST_SKIP() << "emulation checked; NVRTC not linked in this build, so no CUBIN was compiled";
  NvrtcOutput out = compileCuda(all.text, "generated.cu");
  for (const std::string& f : all.functions) EXPECT_TRUE(cubinDefines(out.cubin, f)) << f;
}

INSTANTIATE_TEST_SUITE_P(Seeds, CudaGeneratedPrograms, ::testing::Range<uint64_t>(0, 3),
                         [](const ::testing::TestParamInfo<uint64_t>& info) { return "Shard" + std::to_string(info.param); });

}  // namespace
}  // namespace tempo
