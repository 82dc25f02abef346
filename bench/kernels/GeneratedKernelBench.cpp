// The kernels row of issue 11, measured: generated elementwise kernels against the bandwidth
// a plain copy reaches, and the library matmul against bare sgemm at the same shapes.
//
// GeneratedVsCopy/<kernel>/<elements>: one generated kernel (compiled here through
// NativeModule, as kernel formation would make it) called on one thread over the whole
// output, bytes read and written per second; the counter `of_copy` divides that by what
// memcpy of the same number of bytes reaches on this thread, measured just before in the
// same process. MatmulVsSgemm/<m>/<n>/<k>: cpu::evalOp's f32 matmul (the executor's call:
// a fresh output tensor, the library the shape picks) against the fastest bare call on raw
// buffers of oneDNN's and OpenBLAS's sgemm into a reused output; the counter
// `of_sgemm` is the bare call's time over evalOp's (1 = as fast, 0.9 = 10% slower).
// Run: build/bench/kernel_bench --benchmark_filter='GeneratedVsCopy|MatmulVsSgemm'
#include "codegen/NativeModule.h"
#include "kernels/Kernel.h"
#include "kernels/cpu/CpuKernels.h"

#include <benchmark/benchmark.h>
#include <cblas.h>
#include <dnnl.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <random>

namespace tempo {
namespace {

using O = FusedOperand;

/// The benchmark's kernels over [R, C]: what REINFORCE's and the RNN's steps run.
struct Shape {
  const char* name;
  int inputs;
  std::vector<std::vector<bool>> broadcast;  ///< per input, per output dim
  std::vector<FusedStep> program;
};

const std::vector<Shape>& shapes() {
  static const std::vector<Shape> all{
      {"add", 2, {{false, false}, {false, false}}, {{OpKind::Add, {{O::Kind::Input, 0}, {O::Kind::Input, 1}}, DType::F32}}},
      {"bias_add", 2, {{false, false}, {true, false}}, {{OpKind::Add, {{O::Kind::Input, 0}, {O::Kind::Input, 1}}, DType::F32}}},
      {"tanh_gate", 3, {{false, false}, {false, false}, {true, false}},
       {{OpKind::Add, {{O::Kind::Input, 0}, {O::Kind::Input, 1}}, DType::F32},
        {OpKind::Add, {{O::Kind::Step, 0}, {O::Kind::Input, 2}}, DType::F32},
        {OpKind::Tanh, {{O::Kind::Step, 1}}, DType::F32}}},
      {"sigmoid_mul", 2, {{false, false}, {false, false}},
       {{OpKind::Sigmoid, {{O::Kind::Input, 0}}, DType::F32},
        {OpKind::Mul, {{O::Kind::Step, 0}, {O::Kind::Input, 1}}, DType::F32}}},
  };
  return all;
}

const NativeModule& module() {
  static const std::shared_ptr<const NativeModule> native = [] {
    KernelProgram program;
    int id = 0;
    for (const Shape& s : shapes()) {
      Kernel k;
      k.name = std::string("k") + std::to_string(id) + "_" + s.name;
      k.node = id++;
      k.op = OpKind::Fused;
      k.kind = KernelKind::Generated;
      k.dtype = DType::F32;
      k.shape = {IndexExpr::bound("R"), IndexExpr::bound("C")};
      for (int i = 0; i < s.inputs; ++i) {
        KernelInput in;
        in.dtype = DType::F32;
        in.broadcast = s.broadcast[static_cast<size_t>(i)];
        for (size_t j = 0; j < 2; ++j) in.shape.push_back(in.broadcast[j] ? IndexExpr(1) : k.shape[j]);
        k.inputs.push_back(in);
      }
      k.program = s.program;
      program.kernels.push_back(k);
    }
    return NativeModule::compile(program);
  }();
  return *native;
}

std::vector<float> randomFloats(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-2, 2);
  for (float& x : v) x = u(rng);
  return v;
}

/// Seconds per call of `call`: the best of 5 batches (the machine is noisy; the best is the
/// speed the code reaches, which is what the ratios compare).
template <class F>
double bestSeconds(F call, int reps) {
  double best = 1e30;
  for (int round = 0; round < 5; ++round) {
    auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) call();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / reps);
  }
  return best;
}

/// Bytes per second memcpy reaches over `bytes` on this thread (best of a few timed batches).
double copyBandwidth(size_t bytes) {
  // One buffer made once and written before use (no page is first touched while timed); the
  // destination starts half a page after a page boundary past the source: glibc's memcpy
  // (rep movsb) runs at a fraction of its speed on some CPUs when the two are a small
  // distance apart modulo 4 KiB, which two vectors allocated in turn can be.
  static std::vector<char> buffer;
  const size_t gap = (bytes + 4095) / 4096 * 4096 + 2048;
  if (buffer.size() < gap + bytes + 4096) buffer.assign(gap + bytes + 4096, 1);
  char* from = buffer.data() + (4096 - reinterpret_cast<uintptr_t>(buffer.data()) % 4096) % 4096;
  char* to = from + gap;
  const int reps = static_cast<int>(std::max<size_t>(4, (size_t(64) << 20) / bytes));
  const double seconds = bestSeconds([&] {
    std::memcpy(to, from, bytes);
    benchmark::DoNotOptimize(to);
    benchmark::ClobberMemory();
  }, reps);
  return 2.0 * static_cast<double>(bytes) / seconds;  // read + written
}

void GeneratedVsCopy(benchmark::State& state) {
  const Shape& shape = shapes().at(static_cast<size_t>(state.range(0)));
  const int64_t cols = 256, rows = state.range(1) / cols;
  const NativeKernel& kernel = *module().forNode(static_cast<int>(state.range(0)));
  std::vector<std::vector<float>> inputs;
  std::vector<const void*> pointers;
  size_t bytes = 0;
  for (int i = 0; i < shape.inputs; ++i) {
    const auto& b = shape.broadcast[static_cast<size_t>(i)];
    inputs.push_back(randomFloats(static_cast<size_t>((b[0] ? 1 : rows) * (b[1] ? 1 : cols)), 10u + static_cast<uint32_t>(i)));
    pointers.push_back(inputs.back().data());
    bytes += inputs.back().size() * sizeof(float);
  }
  std::vector<float> out(static_cast<size_t>(rows * cols));
  bytes += out.size() * sizeof(float);
  const int64_t dims[] = {rows, cols};
  auto call = [&] {
    kernel.fn(out.data(), pointers.data(), dims, 0, rows);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  };
  for (auto _ : state) call();
  state.SetLabel(shape.name);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  const int reps = static_cast<int>(std::max<size_t>(4, (size_t(64) << 20) / bytes));
  const double kernelRate = static_cast<double>(bytes) / bestSeconds(call, reps);
  const double copyRate = copyBandwidth(bytes / 2);  // memcpy of half the bytes moves them all (read + write)
  state.counters["GB/s"] = kernelRate * 1e-9;
  state.counters["copy_GB/s"] = copyRate * 1e-9;
  state.counters["of_copy"] = kernelRate / copyRate;
}

void MatmulVsSgemm(benchmark::State& state) {
  const int64_t m = state.range(0), n = state.range(1), k = state.range(2);
  std::vector<float> a = randomFloats(static_cast<size_t>(m * k), 1), b = randomFloats(static_cast<size_t>(k * n), 2);
  Tensor ta(DType::F32, {m, k}), tb(DType::F32, {k, n});
  std::copy(a.begin(), a.end(), ta.data<float>());
  std::copy(b.begin(), b.end(), tb.data<float>());
  std::vector<float> c(static_cast<size_t>(m * n));
  const double dnnl = bestSeconds([&] { dnnl_sgemm('N', 'N', m, n, k, 1.0f, a.data(), k, b.data(), n, 0.0f, c.data(), n); }, 50);
  const double blas = bestSeconds([&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(m), static_cast<blasint>(n),
                static_cast<blasint>(k), 1.0f, a.data(), static_cast<blasint>(k), b.data(), static_cast<blasint>(n), 0.0f,
                c.data(), static_cast<blasint>(n));
  }, 50);
  const OpAttrs none;
  auto product = [&] { benchmark::DoNotOptimize(cpu::evalOp(OpKind::MatMul, none, {ta, tb}, DType::F32, {m, n})); };
  for (auto _ : state) product();
  const double ours = bestSeconds(product, 50);
  state.counters["FLOP/s"] = benchmark::Counter(2.0 * m * n * k, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["ours_us"] = ours * 1e6;
  state.counters["bare_us"] = std::min(dnnl, blas) * 1e6;
  state.counters["of_sgemm"] = std::min(dnnl, blas) / ours;
  state.SetLabel(dnnl <= blas ? "bare: oneDNN" : "bare: OpenBLAS");
}

// Kernels: 32 x 256 (a step's value, in L1), 64 Ki elements (L2), 16 Mi (64 MiB per operand: memory).
BENCHMARK(GeneratedVsCopy)->ArgsProduct({{0, 1, 2, 3}, {32 * 256, 256 * 256, 16 << 20}})->UseRealTime();
// The project's products: the RNN step, REINFORCE's policy layers at N = 64, decode's projections.
BENCHMARK(MatmulVsSgemm)
    ->Args({32, 256, 256})
    ->Args({64, 64, 4})
    ->Args({64, 64, 64})
    ->Args({512, 64, 64})
    ->Args({8, 2048, 512})
    ->Args({8, 512, 2048})
    ->Args({16384, 256, 256})
    ->UseRealTime();

}  // namespace
}  // namespace tempo
