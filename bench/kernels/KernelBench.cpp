// kernel_bench: reference (ref::evalOp) vs fast (cpu::evalOp) kernels on the
// shapes of a small transformer step: 32x256 @ 256x256 matmul (reported in
// GFLOP/s), tanh and add of 32x256, a softmax over the last axis of 32x256
// (reduce_max, sub, exp, reduce_sum, div), and an add sweep over sizes that
// locates the parallel threshold (compare with OMP_NUM_THREADS=1), and the
// fast matmul over the project's shapes (MatmulShape).
// Run: build/bench/kernel_bench [--benchmark_filter=Matmul]
#include "kernels/ReferenceKernels.h"
#include "kernels/cpu/CpuKernels.h"

#include <benchmark/benchmark.h>

#include <random>

namespace tempo {
namespace {

const OpAttrs& none() {
  static const OpAttrs attrs;
  return attrs;
}

using EvalFn = Tensor (*)(OpKind, const OpAttrs&, const std::vector<Tensor>&, DType, const std::vector<int64_t>&);

Tensor randomF32(std::vector<int64_t> shape, uint32_t seed) {
  Tensor t(DType::F32, std::move(shape));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1, 1);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = u(rng);
  return t;
}

template <EvalFn Eval>
void Matmul(benchmark::State& state) {
  Tensor a = randomF32({32, 256}, 1), b = randomF32({256, 256}, 2);
  for (auto _ : state) benchmark::DoNotOptimize(Eval(OpKind::MatMul, none(), {a, b}, DType::F32, {32, 256}));
  state.counters["FLOP/s"] = benchmark::Counter(2.0 * 32 * 256 * 256, benchmark::Counter::kIsIterationInvariantRate);
}

/// The fast matmul at {m, n, k} = the benchmark's three arguments: the project's shapes, small
/// (a step's h @ U, a decoder's projections) to large (a hoisted x @ W over every step).
/// TEMPO_GEMM=openblas runs the same shapes through OpenBLAS alone (the A/B of Matmul.cpp).
void MatmulShape(benchmark::State& state) {
  int64_t m = state.range(0), n = state.range(1), k = state.range(2);
  Tensor a = randomF32({m, k}, 1), b = randomF32({k, n}, 2);
  for (auto _ : state) benchmark::DoNotOptimize(cpu::evalOp(OpKind::MatMul, none(), {a, b}, DType::F32, {m, n}));
  state.counters["FLOP/s"] = benchmark::Counter(2.0 * m * n * k, benchmark::Counter::kIsIterationInvariantRate);
}

/// A decoder's products: M rows against weights streamed from memory, as a decode step meets
/// them (the layers' 50 MB of weights exceed the L3 cache). Each iteration multiplies by the
/// next of enough weight matrices to fill 96 MiB, so none is cached from its last use; the
/// counter is the weights' bytes per second.
void MatmulStreamed(benchmark::State& state) {
  int64_t m = state.range(0), n = state.range(1), k = state.range(2);
  Tensor a = randomF32({m, k}, 1);
  const int64_t count = std::max<int64_t>(2, (int64_t(96) << 20) / (4 * k * n));
  std::vector<Tensor> weights;
  for (int64_t i = 0; i < count; ++i) weights.push_back(randomF32({k, n}, uint32_t(2 + i)));
  size_t next = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(cpu::evalOp(OpKind::MatMul, none(), {a, weights[next]}, DType::F32, {m, n}));
    next = (next + 1) % weights.size();
  }
  state.counters["weights"] = benchmark::Counter(4.0 * k * n, benchmark::Counter::kIsIterationInvariantRate);
}

/// Decode's attention over one block of the KV cache, per sequence and head: q [B, NH, 1, D]
/// times the block's keys [BS, B, NH, D] read as [B, NH, D, BS] (scores), and the scores
/// times its values read as [B, NH, BS, D]; B = 8, NH = 8, D = 64, BS = 32. The blocks come
/// from a 64 MiB cache in turn, as a decode step reads them (L = 4 layers at S = 1024).
void AttentionBlock(benchmark::State& state) {
  const int64_t B = 8, NH = 8, D = 64, BS = 32;
  const int64_t blocks = (int64_t(64) << 20) / (4 * BS * B * NH * D);
  Tensor cache = randomF32({blocks, BS, B, NH, D}, 7);
  Tensor q = randomF32({B, NH, 1, D}, 8), p = randomF32({B, NH, 1, BS}, 9);
  OpAttrs scores, weighted;
  scores.permB = {1, 2, 3, 0};
  weighted.permB = {1, 2, 0, 3};
  int64_t next = 0;
  for (auto _ : state) {
    Tensor block = cache.viewAt({next});
    benchmark::DoNotOptimize(cpu::evalOp(OpKind::MatMul, scores, {q, block}, DType::F32, {B, NH, 1, BS}));
    benchmark::DoNotOptimize(cpu::evalOp(OpKind::MatMul, weighted, {p, block}, DType::F32, {B, NH, 1, D}));
    next = (next + 1) % blocks;
  }
}

template <EvalFn Eval>
void Tanh(benchmark::State& state) {
  Tensor x = randomF32({32, 256}, 3);
  for (auto _ : state) benchmark::DoNotOptimize(Eval(OpKind::Tanh, none(), {x}, DType::F32, {32, 256}));
  state.SetItemsProcessed(state.iterations() * x.numel());
}

template <EvalFn Eval>
void Add(benchmark::State& state) {
  Tensor x = randomF32({32, 256}, 4), y = randomF32({32, 256}, 5);
  for (auto _ : state) benchmark::DoNotOptimize(Eval(OpKind::Add, none(), {x, y}, DType::F32, {32, 256}));
  state.SetItemsProcessed(state.iterations() * x.numel());
}

template <EvalFn Eval>
void AddRowBroadcast(benchmark::State& state) {
  Tensor x = randomF32({32, 256}, 4), y = randomF32({256}, 5);
  for (auto _ : state) benchmark::DoNotOptimize(Eval(OpKind::Add, none(), {x, y}, DType::F32, {32, 256}));
  state.SetItemsProcessed(state.iterations() * x.numel());
}

template <EvalFn Eval>
void Softmax(benchmark::State& state) {
  Tensor x = randomF32({32, 256}, 6);
  OpAttrs last;
  last.axes = {1};
  last.keepDims = true;
  for (auto _ : state) {
    Tensor m = Eval(OpKind::ReduceMax, last, {x}, DType::F32, {32, 1});
    Tensor e = Eval(OpKind::Exp, none(), {Eval(OpKind::Sub, none(), {x, m}, DType::F32, {32, 256})}, DType::F32, {32, 256});
    Tensor s = Eval(OpKind::ReduceSum, last, {e}, DType::F32, {32, 1});
    benchmark::DoNotOptimize(Eval(OpKind::Div, none(), {e, s}, DType::F32, {32, 256}));
  }
  state.SetItemsProcessed(state.iterations() * x.numel());
}

void AddSweep(benchmark::State& state) {
  int64_t n = state.range(0);
  Tensor x = randomF32({n}, 7), y = randomF32({n}, 8);
  for (auto _ : state) benchmark::DoNotOptimize(cpu::evalOp(OpKind::Add, none(), {x, y}, DType::F32, {n}));
  state.SetItemsProcessed(state.iterations() * n);
}

void TanhSweep(benchmark::State& state) {
  int64_t n = state.range(0);
  Tensor x = randomF32({n}, 9);
  for (auto _ : state) benchmark::DoNotOptimize(cpu::evalOp(OpKind::Tanh, none(), {x}, DType::F32, {n}));
  state.SetItemsProcessed(state.iterations() * n);
}

BENCHMARK(Matmul<ref::evalOp>)->Name("Matmul_32x256x256/ref");
BENCHMARK(Matmul<cpu::evalOp>)->Name("Matmul_32x256x256/cpu");
BENCHMARK(MatmulShape)
    ->ArgNames({"m", "n", "k"})
    ->Args({16, 64, 64})
    ->Args({16, 128, 128})
    ->Args({8, 256, 256})
    ->Args({16, 256, 256})
    ->Args({32, 256, 256})
    ->Args({8, 512, 512})
    ->Args({8, 2048, 512})
    ->Args({8, 512, 2048})
    ->Args({256, 512, 512})
    ->Args({1024, 1024, 1024})
    ->Args({16384, 256, 256})
    ->Args({4096, 512, 2048});
BENCHMARK(MatmulStreamed)
    ->ArgNames({"m", "n", "k"})
    ->Args({8, 512, 512})
    ->Args({8, 2048, 512})
    ->Args({8, 512, 2048})
    ->Args({32, 2048, 512});
BENCHMARK(AttentionBlock);
BENCHMARK(Tanh<ref::evalOp>)->Name("Tanh_32x256/ref");
BENCHMARK(Tanh<cpu::evalOp>)->Name("Tanh_32x256/cpu");
BENCHMARK(Add<ref::evalOp>)->Name("Add_32x256/ref");
BENCHMARK(Add<cpu::evalOp>)->Name("Add_32x256/cpu");
BENCHMARK(AddRowBroadcast<ref::evalOp>)->Name("AddRow_32x256+256/ref");
BENCHMARK(AddRowBroadcast<cpu::evalOp>)->Name("AddRow_32x256+256/cpu");
BENCHMARK(Softmax<ref::evalOp>)->Name("Softmax_32x256/ref");
BENCHMARK(Softmax<cpu::evalOp>)->Name("Softmax_32x256/cpu");
BENCHMARK(AddSweep)->RangeMultiplier(2)->Range(1 << 12, 1 << 20);
BENCHMARK(TanhSweep)->RangeMultiplier(2)->Range(1 << 9, 1 << 16);

}  // namespace
}  // namespace tempo

BENCHMARK_MAIN();
