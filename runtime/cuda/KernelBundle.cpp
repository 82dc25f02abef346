// The kernel bundle's files; see KernelBundle.h.
#include "cuda/KernelBundle.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace tempo::cuda {

size_t bundleDTypeSize(const std::string& dtype) {
  if (dtype == "f32" || dtype == "i32") return 4;
  if (dtype == "f64" || dtype == "i64") return 8;
  if (dtype == "bool") return 1;
  throw std::runtime_error("unknown dtype in a kernel bundle: " + dtype);
}

void writeBundleCases(const std::string& dir, const std::vector<BundleCase>& cases) {
  std::ofstream text(dir + "/cases.txt"), blob(dir + "/cases.bin", std::ios::binary);
  uint64_t offset = 0;
  auto put = [&](const std::vector<char>& bytes) {
    blob.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    std::string where = std::to_string(offset) + ":" + std::to_string(bytes.size());
    offset += bytes.size();
    return where;
  };
  for (const BundleCase& c : cases) {
    text << c.id << " " << c.module << " " << c.function << " " << c.launch << " " << c.dtype << " " << c.ulps << " "
         << c.dims.size();
    for (int64_t d : c.dims) text << " " << d;
    text << " " << c.inputs.size();
    for (const BundleInput& in : c.inputs) text << " " << in.dtype << " " << (in.broadcast.empty() ? "-" : in.broadcast) << " " << put(in.bytes);
    text << " " << put(c.expected);
    if (!c.scale.empty()) text << " scale " << put(c.scale) << " " << std::setprecision(17) << c.rtol;
    text << "\n";
  }
  if (!text || !blob) throw std::runtime_error("cannot write the kernel bundle in " + dir);
}

namespace {

std::vector<char> slice(const std::string& blob, const std::string& where, int line) {
  size_t colon = where.find(':');
  if (colon == std::string::npos) throw std::runtime_error("cases.txt line " + std::to_string(line) + ": bad extent " + where);
  uint64_t offset = std::stoull(where.substr(0, colon)), size = std::stoull(where.substr(colon + 1));
  if (offset + size > blob.size()) throw std::runtime_error("cases.txt line " + std::to_string(line) + ": extent past cases.bin");
  return std::vector<char>(blob.begin() + static_cast<std::ptrdiff_t>(offset), blob.begin() + static_cast<std::ptrdiff_t>(offset + size));
}

}  // namespace

std::vector<BundleCase> readBundleCases(const std::string& dir) {
  std::ifstream text(dir + "/cases.txt"), blobFile(dir + "/cases.bin", std::ios::binary);
  if (!text || !blobFile) throw std::runtime_error("no kernel bundle in " + dir + " (cases.txt, cases.bin)");
  const std::string blob((std::istreambuf_iterator<char>(blobFile)), std::istreambuf_iterator<char>());
  std::vector<BundleCase> out;
  std::string lineText;
  int line = 0;
  while (std::getline(text, lineText)) {
    ++line;
    std::istringstream in(lineText);
    BundleCase c;
    size_t rank = 0, inputs = 0;
    if (!(in >> c.id >> c.module >> c.function >> c.launch >> c.dtype >> c.ulps >> rank) ||
        (c.launch != "elementwise" && c.launch != "reduce" && c.launch != "matmul"))
      throw std::runtime_error("cases.txt line " + std::to_string(line) + ": malformed");
    c.dims.resize(rank);
    for (int64_t& d : c.dims) in >> d;
    in >> inputs;
    for (size_t i = 0; i < inputs && in; ++i) {
      BundleInput input;
      std::string where;
      in >> input.dtype >> input.broadcast >> where;
      if (input.broadcast == "-") input.broadcast.clear();
      input.bytes = slice(blob, where, line);
      c.inputs.push_back(std::move(input));
    }
    std::string where;
    if (!(in >> where)) throw std::runtime_error("cases.txt line " + std::to_string(line) + ": malformed");
    c.expected = slice(blob, where, line);
    std::string word;
    if (in >> word && word == "scale") {
      in >> where >> c.rtol;
      c.scale = slice(blob, where, line);
    }
    bundleDTypeSize(c.dtype);
    out.push_back(std::move(c));
  }
  return out;
}

namespace {

/// A float's bits mapped to an integer line on which neighbouring floats differ by 1.
template <class Bits, class F>
int64_t ordered(F v) {
  Bits b;
  std::memcpy(&b, &v, sizeof b);
  using S = std::make_signed_t<Bits>;
  S s = static_cast<S>(b);
  return s < 0 ? static_cast<int64_t>(std::numeric_limits<S>::min()) - static_cast<int64_t>(s) : static_cast<int64_t>(s);
}

template <class F, class Bits>
uint64_t floatUlps(const std::vector<char>& want, const std::vector<char>& got) {
  uint64_t worst = 0;
  for (size_t i = 0; i + sizeof(F) <= want.size(); i += sizeof(F)) {
    F a, b;
    std::memcpy(&a, want.data() + i, sizeof(F));
    std::memcpy(&b, got.data() + i, sizeof(F));
    if (std::isnan(a) || std::isnan(b)) {
      if (std::isnan(a) != std::isnan(b)) return std::numeric_limits<uint64_t>::max();
      continue;
    }
    int64_t x = ordered<Bits>(a), y = ordered<Bits>(b);
    uint64_t d = x > y ? static_cast<uint64_t>(x - y) : static_cast<uint64_t>(y - x);
    worst = std::max(worst, d);
  }
  return worst;
}

}  // namespace

uint64_t maxUlpDifference(const std::string& dtype, const std::vector<char>& want, const std::vector<char>& got) {
  if (want.size() != got.size()) return std::numeric_limits<uint64_t>::max();
  if (dtype == "f32") return floatUlps<float, uint32_t>(want, got);
  if (dtype == "f64") return floatUlps<double, uint64_t>(want, got);
  return std::memcmp(want.data(), got.data(), want.size()) == 0 ? 0 : std::numeric_limits<uint64_t>::max();
}

namespace {

template <class F>
std::string relativeMismatch(const BundleCase& c, const std::vector<char>& got) {
  const size_t n = c.expected.size() / sizeof(F);
  for (size_t i = 0; i < n; ++i) {
    F want, have, scale;
    std::memcpy(&want, c.expected.data() + i * sizeof(F), sizeof(F));
    std::memcpy(&have, got.data() + i * sizeof(F), sizeof(F));
    std::memcpy(&scale, c.scale.data() + i * sizeof(F), sizeof(F));
    if (want != want && have != have) continue;
    if (!(std::fabs(static_cast<double>(want) - static_cast<double>(have)) <= c.rtol * static_cast<double>(scale)))
      return "element " + std::to_string(i) + ": expected " + std::to_string(want) + ", got " + std::to_string(have) +
             " (allowed " + std::to_string(c.rtol * static_cast<double>(scale)) + ")";
  }
  return "";
}

}  // namespace

std::string bundleMismatch(const BundleCase& c, const std::vector<char>& got, uint64_t& ulps) {
  ulps = maxUlpDifference(c.dtype, c.expected, got);
  if (c.scale.empty() || got.size() != c.expected.size())
    return ulps <= static_cast<uint64_t>(c.ulps)
               ? ""
               : (ulps == std::numeric_limits<uint64_t>::max() ? "differs" : std::to_string(ulps) + " ulps") +
                     ", allowed " + std::to_string(c.ulps);
  return c.dtype == "f32" ? relativeMismatch<float>(c, got) : relativeMismatch<double>(c, got);
}

}  // namespace tempo::cuda
