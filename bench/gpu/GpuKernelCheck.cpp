// gpu_kernel_check BUNDLE [--json FILE] [--bench [--trace FILE]]: runs a kernel bundle
// (runtime/cuda/KernelBundle.h, written by gpu_bundle) on the GPU and compares
// every case with the CPU kernels' results; with --bench, also times the
// examples' kernels at about 64M elements against the device's copy bandwidth,
// and with --trace writes what CUPTI recorded of the timed part as a Chrome trace.
// Links runtime/cuda alone (CUDA's runtime, no compiler), so it runs on a GPU
// machine that has none of Tempo's build dependencies. Exit 0: every case
// passed; 1: a case failed or CUDA failed; 77: no GPU here (a skip, with why).
#include "cuda/CudaBlas.h"
#include "cuda/CudaRuntime.h"
#include "cuda/CuptiCollector.h"
#include "cuda/KernelBundle.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <set>

namespace tempo::cuda {
namespace {

constexpr unsigned kThreads = 256;

std::vector<char> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

int64_t product(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

/// Elements an input holds at output `dims`: the sizes along the dimensions it is read on.
int64_t inputElements(const BundleInput& in, const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (size_t j = 0; j < dims.size(); ++j)
    if (j >= in.broadcast.size() || in.broadcast[j] != 'b') n *= dims[j];
  return n;
}

/// Launches `c`'s function with `out`, `inputs` and `dims` (the uniform parameter list of
/// CudaKernels.h): a thread per output element, or for a reduction a block per one.
void launch(const CudaModule& module, const CudaDevice& device, const BundleCase& c, const DeviceBuffer& out,
            const std::vector<DeviceBuffer>& inputs, std::vector<int64_t> dims, unsigned maxBlocks) {
  const bool reduce = c.launch == "reduce";
  int64_t n = reduce ? static_cast<int64_t>(out.bytes() / bundleDTypeSize(c.dtype)) : product(dims);
  std::vector<void*> pointers{out.data()};
  for (const DeviceBuffer& b : inputs) pointers.push_back(b.data());
  std::vector<void*> args;
  for (void*& p : pointers) args.push_back(&p);
  for (int64_t& d : dims) args.push_back(&d);
  args.push_back(&n);
  const int64_t wanted = reduce ? n : (n + kThreads - 1) / kThreads;
  unsigned blocks = static_cast<unsigned>(std::min<int64_t>(std::max<int64_t>(wanted, 1), maxBlocks));
  module.launch(c.function, blocks, kThreads, args.data(), device.stream());
}

/// A matmul case's plan. Its dims: the two operands' ranks, whether each is read through a
/// permutation (0/1), their stored sizes, then the permutations (KernelBundle.h).
MatmulPlan matmulPlanOf(const BundleCase& c) {
  auto at = c.dims.begin();
  const int64_t rankA = at[0], rankB = at[1], hasPermA = at[2], hasPermB = at[3];
  at += 4;
  auto take = [&](int64_t count) {
    std::vector<int64_t> v(at, at + count);
    at += count;
    return v;
  };
  std::vector<int64_t> a = take(rankA), b = take(rankB);
  std::vector<int64_t> permA = take(hasPermA ? rankA : 0), permB = take(hasPermB ? rankB : 0);
  std::string why;
  std::optional<MatmulPlan> plan = planPermutedMatmul(a, permA, b, permB, why);
  if (!plan) throw std::runtime_error(c.id + ": " + why);
  return *plan;
}

/// Device-to-device copy of 1 GiB: the bandwidth a streaming kernel can hope for (bytes read + written).
double copyBandwidth(const CudaDevice& device) {
  const size_t bytes = size_t(1) << 30;
  DeviceBuffer a(bytes), b(bytes);
  a.fill(0);
  CudaTimer timer(device.stream());
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    timer.start();
    b.copyFrom(a, device.stream());
    double ms = timer.stopMilliseconds();
    best = std::max(best, 2.0 * bytes / (ms * 1e-3));
  }
  return best;
}

int run(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: gpu_kernel_check BUNDLE [--json FILE] [--bench]\n";
    return 2;
  }
  const std::string dir = argv[1];
  std::string jsonPath, tracePath;
  bool bench = false;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--json" && i + 1 < argc) jsonPath = argv[++i];
    else if (a == "--bench") bench = true;
    else if (a == "--trace" && i + 1 < argc) tracePath = argv[++i];
  }
  nlohmann::json report;
  CudaProbe probe = probeCuda();
  report["runtime_version"] = probe.runtimeVersion;
  report["driver_version"] = probe.driverVersion;
  if (!probe.usable) {
    std::cout << "gpu_kernel_check: skipped: " << probe.reason << "\n";
    report["skipped"] = probe.reason;
    if (!jsonPath.empty()) std::ofstream(jsonPath) << report.dump(2) << "\n";
    return 77;
  }
  CudaDevice device(0);
  const DeviceInfo& info = device.info();
  std::cout << "device: " << info.name << " (" << info.arch() << ", " << info.multiprocessors << " SMs, "
            << info.memoryBytes / (1 << 20) << " MiB)\n";
  report["device"] = {{"name", info.name}, {"arch", info.arch()}, {"sms", info.multiprocessors}, {"memory_bytes", info.memoryBytes}};

  std::vector<BundleCase> cases = readBundleCases(dir);
  std::map<std::string, std::unique_ptr<CudaModule>> modules;
  for (const BundleCase& c : cases)
    if (c.launch != "matmul" && !modules.count(c.module)) modules[c.module] = std::make_unique<CudaModule>(readFile(dir + "/" + c.module));
  CublasHandle blas(device.stream());

  // Correctness: a small grid (4 blocks of 256 threads) so the grid-stride loop runs several rounds.
  int passed = 0, exact = 0, matmuls = 0;
  uint64_t worstTolerated = 0;
  nlohmann::json failures = nlohmann::json::array();
  for (const BundleCase& c : cases) {
    std::vector<DeviceBuffer> inputs;
    for (const BundleInput& in : c.inputs) {
      inputs.emplace_back(in.bytes.size());
      inputs.back().upload(in.bytes.data(), in.bytes.size());
    }
    DeviceBuffer out(c.expected.size());
    if (c.launch == "matmul") {
      blas.matmul(matmulPlanOf(c), bundleDTypeSize(c.dtype), inputs.at(0).data(), inputs.at(1).data(), out.data());
      ++matmuls;
    } else {
      launch(*modules.at(c.module), device, c, out, inputs, c.dims, 4);
    }
    device.synchronize();
    std::vector<char> got(c.expected.size());
    out.download(got.data(), got.size());
    uint64_t ulps = 0;
    const std::string mismatch = bundleMismatch(c, got, ulps);
    if (ulps == 0) ++exact;
    if (mismatch.empty()) {
      ++passed;
      if (c.scale.empty()) worstTolerated = std::max(worstTolerated, ulps);
    } else {
      if (failures.size() < 50) std::cout << "FAIL " << c.id << " (" << c.function << "): " << mismatch << "\n";
      failures.push_back({{"id", c.id}, {"function", c.function}, {"difference", mismatch}});
    }
  }
  std::cout << "cases: " << passed << "/" << cases.size() << " passed (" << exact << " bit for bit; " << matmuls
            << " cuBLAS products within K 2^-23 of |a| @ |b|; the others within " << worstTolerated
            << " ulps: CUDA's libm in place of glibc's, sums in another order)\n";
  report["matmuls"] = matmuls;
  report["cases"] = cases.size();
  report["passed"] = passed;
  report["bit_for_bit"] = exact;
  report["max_tolerated_ulps"] = worstTolerated;
  report["failures"] = failures;

  if (bench) {
    CuptiCollector cupti;
    std::string whyNoCupti;
    const bool recording = !tracePath.empty() && cupti.start(whyNoCupti);
    if (!tracePath.empty() && !recording) std::cout << "cupti: " << whyNoCupti << "\n";
    double copy = copyBandwidth(device);
    std::cout << "device-to-device copy: " << copy / 1e9 << " GB/s (read + written)\n";
    report["copy_bandwidth_gbs"] = copy / 1e9;
    CudaTimer timer(device.stream());
    {
      // Launch cost: a one-element kernel, 2000 launches back to back on one stream.
      const BundleCase& tiny = cases.front();  // the first op case: elementwise
      std::vector<DeviceBuffer> inputs;
      for (const BundleInput& in : tiny.inputs) inputs.emplace_back(bundleDTypeSize(in.dtype));
      DeviceBuffer out(bundleDTypeSize(tiny.dtype));
      std::vector<int64_t> one(tiny.dims.size(), 1);
      launch(*modules.at(tiny.module), device, tiny, out, inputs, one, 1);
      timer.start();
      for (int r = 0; r < 2000; ++r) launch(*modules.at(tiny.module), device, tiny, out, inputs, one, 1);
      double us = timer.stopMilliseconds() * 1e3 / 2000;
      std::cout << "launch: " << us << " us per kernel, back to back on one stream\n";
      report["launch_us"] = us;
    }
    nlohmann::json kernels = nlohmann::json::array();
    std::set<std::string> seen;
    for (const BundleCase& c : cases) {
      if (c.id.rfind("ops/", 0) == 0 || c.id.rfind("random", 0) == 0 || c.dims.empty() || c.launch != "elementwise") continue;
      if (!seen.insert(c.module + "/" + c.function).second) continue;
      std::vector<int64_t> dims = c.dims;
      const int64_t inner = product(dims) / std::max<int64_t>(dims[0], 1);
      dims[0] = std::max<int64_t>(1, (int64_t(1) << 26) / std::max<int64_t>(inner, 1));
      const int64_t n = product(dims);
      size_t bytes = static_cast<size_t>(n) * bundleDTypeSize(c.dtype);
      std::vector<DeviceBuffer> inputs;
      for (const BundleInput& in : c.inputs) {
        size_t b = static_cast<size_t>(inputElements(in, dims)) * bundleDTypeSize(in.dtype);
        inputs.emplace_back(b);
        inputs.back().fill(0);
        bytes += b;
      }
      DeviceBuffer out(static_cast<size_t>(n) * bundleDTypeSize(c.dtype));
      const unsigned maxBlocks = static_cast<unsigned>(info.multiprocessors) * 32;
      for (int w = 0; w < 3; ++w) launch(*modules.at(c.module), device, c, out, inputs, dims, maxBlocks);
      const int reps = 20;
      timer.start();
      for (int r = 0; r < reps; ++r) launch(*modules.at(c.module), device, c, out, inputs, dims, maxBlocks);
      double ms = timer.stopMilliseconds() / reps;
      double gbs = bytes / (ms * 1e-3) / 1e9;
      std::printf("  %-40s %10lld elements %8.3f ms %8.1f GB/s  %5.1f%% of copy\n", c.id.c_str(), static_cast<long long>(n), ms, gbs,
                  100.0 * gbs * 1e9 / copy);
      kernels.push_back({{"id", c.id}, {"function", c.function}, {"elements", n}, {"bytes", bytes}, {"ms", ms},
                         {"gbs", gbs}, {"fraction_of_copy", gbs * 1e9 / copy}});
    }
    report["kernels"] = kernels;
    if (recording) {
      std::vector<GpuActivity> activity = cupti.stop();
      std::map<std::string, int> counts;
      double kernelNs = 0;
      for (const GpuActivity& a : activity) {
        ++counts[a.kind == GpuActivity::Kind::Kernel ? "kernels" : a.kind == GpuActivity::Kind::Memcpy ? "memcpy" : "memset"];
        if (a.kind == GpuActivity::Kind::Kernel) kernelNs += static_cast<double>(a.endNs - a.startNs);
      }
      std::cout << "cupti: " << activity.size() << " records (" << counts["kernels"] << " kernels, " << counts["memcpy"]
                << " copies, " << counts["memset"] << " memsets; kernels busy " << kernelNs / 1e6 << " ms)\n";
      report["cupti"] = {{"records", activity.size()}, {"kernels", counts["kernels"]}, {"memcpy", counts["memcpy"]},
                         {"memset", counts["memset"]}, {"kernel_ms", kernelNs / 1e6}};
      std::ofstream(tracePath) << gpuActivityChromeTrace(activity, info.name);
    } else if (!tracePath.empty()) {
      report["cupti"] = {{"unavailable", whyNoCupti}};
    }
  }
  if (!jsonPath.empty()) std::ofstream(jsonPath) << report.dump(2) << "\n";
  return failures.empty() ? 0 : 1;
}

}  // namespace
}  // namespace tempo::cuda

int main(int argc, char** argv) {
  try {
    return tempo::cuda::run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "gpu_kernel_check: " << e.what() << "\n";
    return 1;
  }
}
