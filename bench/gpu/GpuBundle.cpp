// gpu_bundle OUTDIR [--generated N]: writes the kernel bundle (runtime/cuda/KernelBundle.h)
// that the device check runs on a GPU machine: every (op, dtype) case on inputs at the
// edges, every generated kernel of every example and of the first N generated programs
// (default 100), each compiled by NVRTC to a CUBIN for sm_90, with the CPU kernels'
// results to compare against. Runs where Tempo builds; needs no GPU.
#include "codegen/CudaKernels.h"
#include "codegen/Nvrtc.h"
#include "cuda/CudaBlas.h"
#include "cuda/KernelBundle.h"
#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/Fused.h"
#include "kernels/cpu/Matmul.h"
#include "kernels/cpu/Reduce.h"
#include "support/GoldenFiles.h"
#include "support/KernelCases.h"
#include "support/RandomProgram.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace tempo {
namespace {

std::string bundleDType(DType d) { return std::string(dtypeName(d)); }  // f32 ... bool, as the bundle names them

std::vector<char> bytesOf(const Tensor& t) {
  Tensor c = t.contiguous();
  const char* p = static_cast<const char*>(c.raw());
  return std::vector<char>(p, p + c.nbytes());
}

/// 0 where the GPU computes with the CPU's own operations; else CUDA's double-precision
/// functions stand in for glibc's and may round differently by an ulp, which later steps
/// of a fused group can grow; and sums in another order: f32 ones accumulate in double
/// either way (one rounding apart), f64 ones by the reordering's rounding, which grows with
/// cancellation (moderate random data: well under 4096 ulps).
int ulpsAllowed(const Kernel& k) {
  if (k.op == OpKind::ReduceSum) return k.dtype == DType::F32 ? 1 : k.dtype == DType::F64 ? 4096 : 0;
  if (k.op == OpKind::ReduceMax || k.op == OpKind::ReduceArgMax) return 0;
  for (const FusedStep& s : k.program) {
    bool libm = s.op == OpKind::Log || s.op == OpKind::Sin || s.op == OpKind::Cos || s.op == OpKind::Pow;
    bool f64 = s.dtype == DType::F64 && (s.op == OpKind::Exp || s.op == OpKind::Tanh || s.op == OpKind::Sigmoid);
    if (libm || f64) return 16;
  }
  return 0;
}

cuda::BundleCase caseOf(const std::string& program, const std::string& module, const std::string& function,
                        const Kernel& k, const std::vector<int64_t>& shape, const std::vector<Tensor>& inputs,
                        const Tensor& expected) {
  cuda::BundleCase c{program + "/" + k.name, module, function, bundleDType(k.dtype), ulpsAllowed(k), "elementwise", shape, {}, bytesOf(expected)};
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string broadcast;
    for (bool b : k.inputs[i].broadcast) broadcast += b ? 'b' : '.';
    c.inputs.push_back({bundleDType(k.inputs[i].dtype), broadcast, bytesOf(inputs[i])});
  }
  return c;
}

void writeModule(const std::filesystem::path& dir, const std::string& module, const std::string& source) {
  NvrtcOutput out = compileCuda(source, module);
  std::ofstream(dir / module, std::ios::binary).write(out.cubin.data(), static_cast<std::streamsize>(out.cubin.size()));
  std::ofstream(dir / (module + ".cu")) << source;
}

/// A matmul kernel as a cuBLAS case: operands of moderate values as they are stored, read
/// through the kernel's permutations (decode's K and V per head), the CPU's product of the
/// same views accumulated in double, and the scale |a| @ |b| against which the GPU's float
/// accumulation is judged (K 2^-23, f64: K 2^-52).
std::optional<cuda::BundleCase> matmulCase(const std::string& name, const Kernel& k, const testing::LoweredKernels& lowered,
                                           uint32_t seed) {
  if (k.inputs.size() != 2 || !isFloat(k.dtype)) return std::nullopt;
  std::vector<int64_t> storedA = testing::evaluated(k.inputs[0].shape, lowered.bounds);
  std::vector<int64_t> storedB = testing::evaluated(k.inputs[1].shape, lowered.bounds);
  std::string why;
  std::optional<cuda::MatmulPlan> plan = cuda::planPermutedMatmul(storedA, k.permA, storedB, k.permB, why);
  if (!plan) return std::nullopt;
  Tensor a = testing::moderateTensor(k.inputs[0].dtype, storedA, seed), b = testing::moderateTensor(k.inputs[1].dtype, storedB, seed + 1);
  auto viewOf = [](const Tensor& t, const std::vector<int64_t>& perm) { return perm.empty() ? t : t.permutedView(perm); };
  auto magnitudes = [](const Tensor& t) {
    Tensor out(t.dtype(), t.shape());
    for (int64_t i = 0; i < t.numel(); ++i) out.set(i, std::fabs(t.at(i)));
    return out;
  };
  std::optional<Tensor> want = cpu::matmul(viewOf(a, k.permA), viewOf(b, k.permB), cpu::MatmulAccumulation::F64);
  std::optional<Tensor> scale =
      cpu::matmul(viewOf(magnitudes(a), k.permA), viewOf(magnitudes(b), k.permB), cpu::MatmulAccumulation::F64);
  if (!want || !scale || want->shape() != plan->outShape) return std::nullopt;
  std::vector<int64_t> dims{static_cast<int64_t>(storedA.size()), static_cast<int64_t>(storedB.size()),
                            k.permA.empty() ? 0 : 1, k.permB.empty() ? 0 : 1};
  for (const std::vector<int64_t>& part : {storedA, storedB, k.permA, k.permB}) dims.insert(dims.end(), part.begin(), part.end());
  cuda::BundleCase c{name + "/" + k.name, "-", "cublas", bundleDType(k.dtype), 0, "matmul", dims, {}, bytesOf(*want)};
  c.inputs = {{bundleDType(a.dtype()), "", bytesOf(a)}, {bundleDType(b.dtype()), "", bytesOf(b)}};
  c.scale = bytesOf(*scale);
  c.rtol = static_cast<double>(std::max<int64_t>(plan->k, 1)) * (k.dtype == DType::F32 ? 0x1p-23 : 0x1p-52);
  return c;
}

/// Every generated kernel and reduction of `lowered` as a case of `module`, at the program's
/// default bounds (reductions of moderate values, elementwise kernels of values at the edges).
void addProgram(const std::string& name, const std::string& module, const testing::LoweredKernels& lowered,
                const CudaSource& source, std::vector<cuda::BundleCase>& cases) {
  uint32_t seed = 11;
  for (const Kernel& k : lowered.kernels.kernels) {
    if (k.op == OpKind::MatMul) {
      if (auto c = matmulCase(name, k, lowered, seed++)) cases.push_back(std::move(*c));
      continue;
    }
    if (!source.function.count(k.name)) continue;
    const std::string& function = source.function.at(k.name);
    const bool reduce = source.reductions.count(function) != 0;
    std::vector<int64_t> shape = testing::evaluated(k.shape, lowered.bounds);
    std::vector<Tensor> inputs;
    for (const KernelInput& in : k.inputs) {
      std::vector<int64_t> inShape = testing::evaluated(in.shape, lowered.bounds);
      inputs.push_back(reduce ? testing::moderateTensor(in.dtype, inShape, seed++) : testing::edgyTensor(in.dtype, inShape, seed++));
    }
    std::optional<Tensor> want = reduce ? std::optional<Tensor>(testing::cpuOrReferenceReduce(k, inputs[0]))
                                        : cpu::fused(k.program, inputs, k.dtype, shape);
    if (!want) throw std::runtime_error(name + " " + k.name + ": the CPU's kernel does not take its inputs");
    cuda::BundleCase c = caseOf(name, module, function, k, reduce ? inputs[0].shape() : shape, inputs, *want);
    c.launch = reduce ? "reduce" : "elementwise";
    cases.push_back(std::move(c));
  }
}

int run(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: gpu_bundle OUTDIR [--generated N]\n";
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  int generated = argc >= 4 && std::string(argv[2]) == "--generated" ? std::stoi(argv[3]) : 100;
  std::filesystem::create_directories(dir);
  std::vector<cuda::BundleCase> cases;

  // Every (op, dtype) pair, 200 x 37 with both broadcasts.
  KernelProgram ops;
  const std::vector<testing::Case> kinds = testing::loweredCases();
  for (size_t i = 0; i < kinds.size(); ++i) ops.kernels.push_back(testing::oneStepKernel(kinds[i], static_cast<int>(i)));
  CudaSource opsSource = emitCudaKernels(ops);
  writeModule(dir, "ops.cubin", opsSource.text);
  for (size_t i = 0; i < kinds.size(); ++i) {
    const Kernel& k = ops.kernels[i];
    std::vector<Tensor> args = testing::inputsFor(k, 200, static_cast<uint32_t>(i + 1));
    OpAttrs attrs;
    attrs.dtype = kinds[i].result;
    Tensor want = cpu::evalOp(kinds[i].op, attrs, args, kinds[i].result, {200, 37});
    cases.push_back(caseOf("ops", "ops.cubin", opsSource.function.at(k.name), k, {200, 37}, args, want));
  }

  std::vector<std::filesystem::path> examples = testing::examplePrograms();
  for (const auto& rl : testing::filesWithExtension(testing::sourceDir() / "resources/examples/rl", ".tpo")) examples.push_back(rl);
  for (const auto& path : examples) {
    testing::LoweredKernels lowered = testing::lowerKernels(testing::readFile(path), path.filename().string(), path.parent_path().string());
    CudaSource source = emitCudaKernels(lowered.kernels);
    const std::string module = path.stem().string() + ".cubin";
    if (!source.functions.empty()) writeModule(dir, module, source.text);
    addProgram(path.filename().string(), module, lowered, source, cases);
  }

  CudaSource all;
  std::vector<std::pair<std::string, testing::LoweredKernels>> programs;
  std::vector<CudaSource> sources;
  for (int seed = 1; seed <= generated; ++seed) {
    const std::string name = "random" + std::to_string(seed) + ".tpo";
    programs.emplace_back(name, testing::lowerKernels(testing::generateRandomProgram(static_cast<uint64_t>(seed)), name, "."));
    sources.push_back(emitCudaKernels(programs.back().second.kernels, "p" + std::to_string(seed) + "_"));
    for (const std::string& f : sources.back().functions) all.text += "\n" + sources.back().functionText.at(f);
  }
  if (generated > 0) {
    writeModule(dir, "generated.cubin", cudaDevicePrelude() + all.text);  // matmul cases need no module
    for (size_t i = 0; i < programs.size(); ++i) addProgram(programs[i].first, "generated.cubin", programs[i].second, sources[i], cases);
  }
  cuda::writeBundleCases(dir.string(), cases);
  std::cout << "gpu_bundle: " << cases.size() << " cases in " << dir.string() << " (NVRTC " << nvrtcVersion() << ", sm_90)\n";
  return 0;
}

}  // namespace
}  // namespace tempo

int main(int argc, char** argv) {
  try {
    return tempo::run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "gpu_bundle: " << e.what() << "\n";
    return 1;
  }
}
