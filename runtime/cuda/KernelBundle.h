// KernelBundle: generated GPU kernels with their inputs and expected outputs,
// written where the compiler runs and checked where a GPU is (issue 13).
//
// GPU machines are lent rarely, for minutes, without Tempo's build
// dependencies; NVRTC needs no GPU. So the compiler side writes a bundle: the
// CUBINs of every program, and per kernel a case (the function, the output's
// dtype and sizes, each input's dtype, broadcast pattern and bytes, the CPU
// kernel's result, and how many ulps the GPU may differ by: 0 where the GPU
// computes with the same operations, more where CUDA's double-precision
// log/sin/cos/pow/exp/tanh stand in for glibc's). The device side (bench/gpu)
// loads the CUBINs, runs every case and compares. `cases.txt` holds one line
// per case, `cases.bin` the bytes it points into.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tempo::cuda {

/// Element types as the bundle names them: f32, f64, i32, i64, bool (one byte).
size_t bundleDTypeSize(const std::string& dtype);

struct BundleInput {
  std::string dtype;
  std::string broadcast;  ///< per output dimension: 'b' where repeated, '.' where read
  std::vector<char> bytes;
};

struct BundleCase {
  std::string id;        ///< "rnn.tpo/k15_y": program and kernel (no spaces)
  std::string module;    ///< the CUBIN's file name in the bundle
  std::string function;  ///< the kernel's function in it
  std::string dtype;     ///< the output's
  int ulps = 0;          ///< 0: equal bit for bit (NaNs equal whatever their payload)
  /// "elementwise": dims are the output's, one thread per element; "reduce": dims are the
  /// input's, one block per output element (n = the expected bytes' element count);
  /// "matmul": cuBLAS; dims are the operands' ranks, whether each is read through a
  /// permutation (0/1), their stored sizes, then those permutations.
  std::string launch = "elementwise";
  std::vector<int64_t> dims;
  std::vector<BundleInput> inputs;
  std::vector<char> expected;
  /// When not empty: compare |got - expected| <= rtol * scale element by element (scale of
  /// the output's dtype: a matmul's |a| @ |b|) instead of counting ulps.
  std::vector<char> scale;
  double rtol = 0;
};

/// "" when `got` is within `c`'s tolerance of its expected values (ulps, or rtol * scale),
/// else the first element that is not, with both values; `ulps` receives the largest
/// difference in ulps (UINT64_MAX where NaNs or integers disagree).
std::string bundleMismatch(const BundleCase& c, const std::vector<char>& got, uint64_t& ulps);

/// Writes `cases` into `dir`/cases.txt and cases.bin (the CUBINs are the caller's).
void writeBundleCases(const std::string& dir, const std::vector<BundleCase>& cases);
/// Reads them back; throws std::runtime_error naming the line on a malformed bundle.
std::vector<BundleCase> readBundleCases(const std::string& dir);

/// The largest difference in ulps between `want` and `got` (both `dtype`); NaN
/// against NaN counts 0, NaN against a number (or integers that differ) counts
/// as infinitely far (UINT64_MAX).
uint64_t maxUlpDifference(const std::string& dtype, const std::vector<char>& want, const std::vector<char>& got);

}  // namespace tempo::cuda
