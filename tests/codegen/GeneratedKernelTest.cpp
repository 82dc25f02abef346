// Generated kernels (compiler/codegen) against the library kernels they
// replace, bit for bit: every (op, dtype) pair llvmLowersStep accepts, with
// inputs that broadcast along either dimension and values at the edges (NaN,
// infinities, signed zeros, saturating casts, the tanh series/exp switch),
// then fused programs with literals, the fallback when shapes do not fit, and
// the kernel table of an example.
#include "codegen/KernelCache.h"
#include "codegen/SharedLibrary.h"
#include "codegen/LlvmKernels.h"
#include "codegen/NativeModule.h"
#include "executor/CompiledEngine.h"
#include "executor/NativeCall.h"
#include "frontend/Frontend.h"
#include "kernels/KernelFormation.h"
#include "lowering/Lowering.h"
#include "kernels/cpu/CpuKernels.h"
#include "kernels/cpu/Fused.h"
#include "pass/PassRegistry.h"
#include "support/GoldenFiles.h"
#include "support/KernelCases.h"
#include "symbolic/PointSet.h"
#include "tensor/DTypeDispatch.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <array>
#include <cmath>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <cstring>
#include <limits>
#include <random>

namespace tempo {
namespace {

using testing::Case;
using testing::firstDifference;
using testing::inputsFor;
using testing::loweredCases;
using testing::oneStepKernel;

TEST(GeneratedKernels, EveryLoweredOpEqualsTheLibraryKernelBitForBit) {
  const std::vector<Case> cases = loweredCases();
  ASSERT_GE(cases.size(), 60u);  // float, integer and bool arithmetic, comparisons, where, 25 casts
  KernelProgram program;
  for (size_t i = 0; i < cases.size(); ++i) program.kernels.push_back(oneStepKernel(cases[i], static_cast<int>(i)));
  std::shared_ptr<const NativeModule> native = NativeModule::compile(program);
  ASSERT_EQ(native->kernels().size(), cases.size());
  for (int64_t rows : {int64_t(5), int64_t(1000)}) {  // 1000 rows: split over the cores
    for (size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      const Kernel& k = program.kernels[i];
      std::vector<Tensor> args = inputsFor(k, rows, static_cast<uint32_t>(i + 1));
      OpAttrs attrs;
      attrs.dtype = c.result;
      Tensor want = cpu::evalOp(c.op, attrs, args, c.result, {rows, 37});
      std::optional<Tensor> got = callNative(*native->forNode(static_cast<int>(i)), args, {rows, 37});
      ASSERT_TRUE(got) << c.label();
      EXPECT_EQ(firstDifference(want, *got), "") << c.label() << " at " << rows << " rows";
    }
  }
}

TEST(GeneratedKernels, FusedProgramsWithLiteralsEqualTheChunkedKernel) {
  // tanh(in0 * 0.5 + in1) - maximum(in0, 0), and where(in0 < in1, exp(in0), sigmoid(in1)) / 3
  using O = FusedOperand;
  std::vector<FusedStep> first{{OpKind::Mul, {{O::Kind::Input, 0}, {O::Kind::Literal, 0, 0.5, DType::F32}}, DType::F32},
                               {OpKind::Add, {{O::Kind::Step, 0}, {O::Kind::Input, 1}}, DType::F32},
                               {OpKind::Tanh, {{O::Kind::Step, 1}}, DType::F32},
                               {OpKind::Maximum, {{O::Kind::Input, 0}, {O::Kind::Literal, 0, 0.0, DType::F32}}, DType::F32},
                               {OpKind::Sub, {{O::Kind::Step, 2}, {O::Kind::Step, 3}}, DType::F32}};
  std::vector<FusedStep> second{{OpKind::Lt, {{O::Kind::Input, 0}, {O::Kind::Input, 1}}, DType::Bool},
                                {OpKind::Exp, {{O::Kind::Input, 0}}, DType::F32},
                                {OpKind::Sigmoid, {{O::Kind::Input, 1}}, DType::F32},
                                {OpKind::Where, {{O::Kind::Step, 0}, {O::Kind::Step, 1}, {O::Kind::Step, 2}}, DType::F32},
                                {OpKind::Div, {{O::Kind::Step, 3}, {O::Kind::Literal, 0, 3.0, DType::F32}}, DType::F32}};
  KernelProgram program;
  int id = 0;
  for (const auto& steps : {first, second}) {
    Kernel k = oneStepKernel({OpKind::Add, DType::F32, DType::F32}, id++);
    k.op = OpKind::Fused;
    k.program = steps;
    program.kernels.push_back(k);
  }
  std::shared_ptr<const NativeModule> native = NativeModule::compile(program);
  for (const Kernel& k : program.kernels) {
    std::vector<Tensor> args = inputsFor(k, 7, 99);
    std::optional<Tensor> want = cpu::fused(k.program, args, DType::F32, {7, 37});
    ASSERT_TRUE(want);
    std::optional<Tensor> got = callNative(*native->forNode(k.node), args, {7, 37});
    ASSERT_TRUE(got);
    EXPECT_EQ(firstDifference(*want, *got), "") << k.name;
  }
}

TEST(GeneratedKernels, DimensionsReadAlikeAreOneLoopOverAnyRangeOfRows) {
  // a * b over [R, 3, 5]: b repeated along dim 0 (one loop over dims 1-2), along dim 2 (one
  // loop over dims 0-1, whose rows the executor splits over the cores), or not at all (one loop).
  const std::vector<std::vector<bool>> patterns{{true, false, false}, {false, false, true}, {false, false, false}};
  KernelProgram program;
  for (size_t i = 0; i < patterns.size(); ++i) {
    Kernel k = oneStepKernel({OpKind::Mul, DType::F32, DType::F32}, static_cast<int>(i));
    k.shape = {IndexExpr::bound("R"), IndexExpr(3), IndexExpr(5)};
    k.inputs[0].shape = k.shape, k.inputs[0].broadcast = {false, false, false};
    k.inputs[1].broadcast = patterns[i];
    k.inputs[1].shape.clear();
    for (size_t j = 0; j < 3; ++j) k.inputs[1].shape.push_back(patterns[i][j] ? IndexExpr(1) : k.shape[j]);
    program.kernels.push_back(k);
  }
  std::shared_ptr<const NativeModule> native = NativeModule::compile(program);
  for (int64_t rows : {int64_t(1), int64_t(7), int64_t(5000)}) {  // 5000 rows: split over the cores
    for (size_t i = 0; i < patterns.size(); ++i) {
      std::vector<int64_t> bShape{patterns[i][0] ? 1 : rows, patterns[i][1] ? 1 : 3, patterns[i][2] ? 1 : 5};
      std::vector<Tensor> args{testing::edgyTensor(DType::F32, {rows, 3, 5}, 11),
                               testing::edgyTensor(DType::F32, bShape, 12)};
      Tensor want = cpu::evalOp(OpKind::Mul, OpAttrs{}, args, DType::F32, {rows, 3, 5});
      std::optional<Tensor> got = callNative(*native->forNode(static_cast<int>(i)), args, {rows, 3, 5});
      ASSERT_TRUE(got) << "pattern " << i;
      EXPECT_EQ(firstDifference(want, *got), "") << "pattern " << i << " at " << rows << " rows";
      // A range of rows alone, as one core's share: only those rows are written.
      const NativeKernel& k = *native->forNode(static_cast<int>(i));
      Tensor part = Tensor::full(DType::F32, {rows, 3, 5}, -7.0);
      const void* inputs[] = {args[0].raw(), args[1].raw()};
      const int64_t dims[] = {rows, 3, 5};
      const int64_t begin = rows / 3, end = rows - rows / 4;
      k.fn(part.raw(), inputs, dims, begin, end);
      for (int64_t e = 0; e < rows * 15; ++e) {
        const int64_t row = e / 15;
        const float expected = row >= begin && row < end ? want.data<float>()[e] : -7.0f;
        const float value = part.data<float>()[e];
        ASSERT_TRUE(value == expected || (value != value && expected != expected))
            << "pattern " << i << ", element " << e << " of " << rows << " rows";
      }
    }
  }
}

// The profiler's hook (LlvmKernels.h): every generated function calls it at its entry and its
// exit, with its index and the range's first row, only while a holder has set it.
std::vector<std::array<int64_t, 3>> hookCalls;
void countingHook(int32_t function, int32_t phase, int64_t begin) { hookCalls.push_back({function, phase, begin}); }

TEST(GeneratedKernels, EveryFunctionCallsTheHookAtEntryAndExitWhileItIsHeld) {
  KernelProgram program;
  program.kernels.push_back(oneStepKernel({OpKind::Add, DType::F32, DType::F32}, 0));
  program.kernels.push_back(oneStepKernel({OpKind::Mul, DType::F32, DType::F32}, 1));
  std::shared_ptr<const NativeModule> native = NativeModule::compile(program);
  Tensor a = testing::edgyTensor(DType::F32, {4, 37}, 1), b = testing::edgyTensor(DType::F32, {37}, 2);
  const void* inputs[] = {a.raw(), b.raw()};
  const int64_t dims[] = {4, 37};
  Tensor out(DType::F32, {4, 37});
  hookCalls.clear();
  native->forNode(1)->fn(out.raw(), inputs, dims, 0, 4);
  EXPECT_TRUE(hookCalls.empty()) << "nobody holds the hook: no call";
  native->holdHook(&countingHook);
  native->holdHook(&countingHook);  // a second holder (another traced run)
  native->forNode(1)->fn(out.raw(), inputs, dims, 1, 3);
  native->forNode(0)->fn(out.raw(), inputs, dims, 0, 4);
  const std::vector<std::array<int64_t, 3>> want{{1, 0, 1}, {1, 1, 1}, {0, 0, 0}, {0, 1, 0}};
  EXPECT_EQ(hookCalls, want);
  native->releaseHook();
  native->forNode(0)->fn(out.raw(), inputs, dims, 0, 4);
  EXPECT_EQ(hookCalls.size(), 6u) << "one holder left: still called";
  native->releaseHook();
  native->forNode(0)->fn(out.raw(), inputs, dims, 0, 4);
  EXPECT_EQ(hookCalls.size(), 6u) << "released by every holder: no call";
  native->releaseHook();  // one release too many is harmless
  Tensor want2 = cpu::evalOp(OpKind::Add, OpAttrs{}, {a, b}, DType::F32, {4, 37});
  EXPECT_EQ(firstDifference(want2, out), "") << "the hook changes nothing computed";
}

TEST(GeneratedKernels, InputsThatDoNotFitTheKernelAreLeftToTheLibrary) {
  KernelProgram program;
  program.kernels.push_back(oneStepKernel({OpKind::Add, DType::F32, DType::F32}, 0));
  std::shared_ptr<const NativeModule> native = NativeModule::compile(program);
  const NativeKernel& k = *native->forNode(0);
  Tensor a(DType::F32, {4, 37}), row(DType::F32, {37}), wide(DType::F32, {4, 37}), other(DType::F64, {37});
  EXPECT_TRUE(nativeCallFits(k, {a, row}, {4, 37}));
  EXPECT_FALSE(nativeCallFits(k, {a, wide}, {4, 37}));   // in1 was formed as broadcast along dim 0
  EXPECT_FALSE(nativeCallFits(k, {a, other}, {4, 37}));  // a dtype it was not formed for
  EXPECT_FALSE(nativeCallFits(k, {a}, {4, 37}));
  EXPECT_FALSE(nativeCallFits(k, {a, row}, {4, 36}));
  EXPECT_FALSE(callNative(k, {a, wide}, {4, 37}).has_value());
}

TEST(GeneratedKernels, IrAndAssemblyAreKeptPerKernel) {
  KernelProgram program;
  program.kernels.push_back(oneStepKernel({OpKind::Tanh, DType::F32, DType::F32}, 3));
  std::shared_ptr<const NativeModule> native = NativeModule::compile(program, CodegenOptions{true, true});
  std::string ir = native->kernelIr("k3_case"), assembly = native->kernelAssembly("k3_case");
  EXPECT_NE(ir.find("define void @k3_case("), std::string::npos) << native->ir();
  EXPECT_NE(ir.find("<"), std::string::npos) << "the loop was not vectorised:\n" << ir;  // vector types: <8 x double>
  EXPECT_EQ(assembly.rfind("k3_case:", 0), 0u) << native->assembly();
  EXPECT_NE(assembly.find("ret"), std::string::npos);
  EXPECT_FALSE(native->cpu().empty());
}

TEST(GeneratedKernels, ASecondCompileLoadsTheCachedLibrary) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tempo-kernel-cache-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  KernelProgram program;
  program.kernels.push_back(oneStepKernel({OpKind::Tanh, DType::F32, DType::F32}, 0));
  program.kernels.push_back(oneStepKernel({OpKind::Maximum, DType::F32, DType::F32}, 1));
  CodegenOptions options;
  options.cacheDirectory = dir;
  {
    auto compiled = NativeModule::compile(program, options);
    EXPECT_FALSE(compiled->fromCache());
    auto cached = NativeModule::compile(program, options);
    EXPECT_TRUE(cached->fromCache());
    for (const Kernel& k : program.kernels) {
      std::vector<Tensor> args = inputsFor(k, 9, 5);
      auto want = callNative(*compiled->forNode(k.node), args, {9, 37});
      auto got = callNative(*cached->forNode(k.node), args, {9, 37});
      ASSERT_TRUE(want && got);
      EXPECT_EQ(firstDifference(*want, *got), "") << k.name;
    }
  }
  // Other code is another key.
  KernelProgram other = program;
  other.kernels[0].program[0].op = OpKind::Sigmoid;
  EXPECT_FALSE(NativeModule::compile(other, options)->fromCache());
  // The entries are shared libraries that name their key. A truncated entry reads as a miss and is
  // rewritten (no library of it is loaded here: a loaded library's file is never rewritten in place).
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) files.push_back(entry.path());
  ASSERT_EQ(files.size(), 2u);
  for (const auto& f : files) {
    EXPECT_EQ(f.extension(), ".so");
    std::filesystem::resize_file(f, std::filesystem::file_size(f) / 2);
  }
  EXPECT_FALSE(NativeModule::compile(program, options)->fromCache());
  EXPECT_TRUE(NativeModule::compile(program, options)->fromCache());
  EXPECT_FALSE(NativeModule::compile(other, options)->fromCache());
  // An entry holding another key at this key's file (a hash collision) is a miss.
  const KernelCache cache(dir);
  std::vector<std::string> keys;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    auto library = SharedLibrary::open(entry.path());
    ASSERT_NE(library, nullptr) << entry.path();
    const auto* key = static_cast<const char*>(library->symbol(KernelCache::kKeySymbol));
    ASSERT_NE(key, nullptr);
    keys.emplace_back(key);
    EXPECT_EQ(cache.pathFor(key), entry.path());
    EXPECT_NE(cache.load(key), nullptr);
  }
  ASSERT_EQ(keys.size(), 2u);
  std::filesystem::rename(cache.pathFor(keys[0]), cache.pathFor(keys[1]));
  EXPECT_EQ(cache.load(keys[0]), nullptr);  // no file
  EXPECT_EQ(cache.load(keys[1]), nullptr);  // the other key's library
  EXPECT_FALSE(NativeModule::compile(program, options)->fromCache());
  EXPECT_FALSE(NativeModule::compile(other, options)->fromCache());
  EXPECT_TRUE(NativeModule::compile(program, options)->fromCache());
  // The IR and the assembly need the compile itself: asking for them bypasses the cache.
  options.keepIr = true;
  auto withIr = NativeModule::compile(program, options);
  EXPECT_FALSE(withIr->fromCache());
  EXPECT_NE(withIr->kernelIr("k0_case").find("define void @k0_case("), std::string::npos);
  // Off: nothing read or written in the cache; the library is loaded from a temporary file.
  options = CodegenOptions{};
  options.useCache = false;
  auto uncached = NativeModule::compile(program, options);
  EXPECT_FALSE(uncached->fromCache());
  std::vector<Tensor> args = inputsFor(program.kernels[0], 9, 5);
  EXPECT_TRUE(callNative(*uncached->forNode(0), args, {9, 37}).has_value());
  std::filesystem::remove_all(dir);
}

TEST(GeneratedKernels, IslIsTheSystemLibraryNotLlvmsPrivateCopy) {
  // libLLVM exports Polly's isl; linked before libisl it would take every isl call.
  EXPECT_EQ(IslContext::version().find("IMath"), std::string::npos) << IslContext::version();
}

TEST(GeneratedKernels, TheRnnExamplesKernelsRunNatively) {
  std::filesystem::path path = testing::sourceDir() / "resources/examples/rnn.tpo";
  FrontendResult r = compileSource(testing::readFile(path), path.filename().string(), path.parent_path().string());
  ASSERT_TRUE(r.ok()) << r.renderedDiagnostics();
  CompiledProgram p = compileProgram(r.graph, defaultPipeline());
  testing::expectGolden(testing::sourceDir() / "tests/golden/kernels/rnn.txt", printKernelProgram(p.graph, p.kernels));
  ASSERT_TRUE(p.native);
  ASSERT_GT(p.kernels.count(KernelKind::Generated), 0);
  CompiledRunResult native = runCompiled(p, {});
  CompiledRunOptions libraryOnly;
  libraryOnly.generatedKernels = false;
  CompiledRunResult library = runCompiled(p, {}, libraryOnly);
  EXPECT_GT(native.stats.nativeCalls, 0);
  EXPECT_LE(native.stats.nativeCalls, native.stats.execs);
  EXPECT_EQ(library.stats.nativeCalls, 0);
  ASSERT_EQ(native.outputs.size(), library.outputs.size());
  for (size_t i = 0; i < native.outputs.size(); ++i)
    EXPECT_EQ(firstDifference(library.outputs[i].second, native.outputs[i].second), "") << native.outputs[i].first;
}

TEST(GeneratedKernels, KernelsCompiledBesideTheScheduleAreTheLoopsKernels) {
  // Without snapshots lowerProgram compiles every node's kernel while it schedules; with them it
  // compiles the kernels of the loops afterwards. The two must give the same functions per node.
  std::filesystem::path path = testing::sourceDir() / "bench/programs/reinforce_peer.tpo";
  FrontendResult r = compileSource(testing::readFile(path), path.filename().string(), path.parent_path().string());
  ASSERT_TRUE(r.ok()) << r.renderedDiagnostics();
  Graph g = r.graph;
  PassContext context;
  defaultPipeline().run(g, context);
  auto lower = [&](bool snapshots) {
    IslContext isl;
    LoweringOptions options;
    options.snapshots = snapshots;
    return lowerProgram(g, isl, options);
  };
  LoweredProgram beside = lower(false), after = lower(true);
  ASSERT_TRUE(beside.native && after.native);
  auto functions = [](const NativeModule& m) {
    std::vector<std::string> out;
    for (const NativeKernel& k : m.kernels()) out.push_back(std::to_string(k.node) + " " + k.name + " " + k.function);
    return out;
  };
  EXPECT_GT(beside.native->kernels().size(), 10u);
  EXPECT_EQ(functions(*beside.native), functions(*after.native));
  std::vector<std::string> formed;
  for (const Kernel& k : after.kernels.kernels)
    if (k.kind == KernelKind::Generated) formed.push_back(std::to_string(k.node) + " " + k.name);
  std::vector<std::string> compiled;
  for (const NativeKernel& k : beside.native->kernels()) compiled.push_back(std::to_string(k.node) + " " + k.name);
  EXPECT_EQ(compiled, formed);
  // Every node's kernels, formed before the schedule, are the loops' kernels where a node runs.
  KernelProgram every = formKernelsOfEveryNode(g);
  for (const Kernel& k : after.kernels.kernels) {
    auto same = std::find_if(every.kernels.begin(), every.kernels.end(), [&](const Kernel& e) { return e.node == k.node; });
    ASSERT_NE(same, every.kernels.end()) << k.name;
    EXPECT_EQ(same->kind, k.kind) << k.name;
    EXPECT_EQ(same->name, k.name);
  }
}

}  // namespace
}  // namespace tempo
