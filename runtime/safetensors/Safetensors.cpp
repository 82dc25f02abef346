#include "safetensors/Safetensors.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace tempo {

namespace {

/// Bytes per element of a dtype the format names; 0 for a name it does not have.
size_t elementBytes(const std::string& dtype) {
  static const std::map<std::string, size_t> sizes = {
      {"BOOL", 1}, {"U8", 1}, {"I8", 1}, {"F8_E4M3", 1}, {"F8_E5M2", 1}, {"I16", 2}, {"U16", 2}, {"F16", 2},
      {"BF16", 2}, {"I32", 4}, {"U32", 4}, {"F32", 4}, {"F64", 8}, {"I64", 8}, {"U64", 8}};
  auto it = sizes.find(dtype);
  return it == sizes.end() ? 0 : it->second;
}

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw SafetensorsError(std::filesystem::path(path).filename().string() + ": " + what);
}

SafetensorsEntry parseEntry(const std::string& path, const std::string& name, const nlohmann::json& j,
                            uint64_t dataBytes) {
  const std::string what = "tensor '" + name + "'";
  if (!j.is_object()) fail(path, what + " is not an object in the header");
  SafetensorsEntry e;
  if (!j.contains("dtype") || !j["dtype"].is_string()) fail(path, what + " has no dtype");
  e.dtype = j["dtype"].get<std::string>();
  const size_t size = elementBytes(e.dtype);
  if (size == 0) fail(path, what + " has the unknown dtype '" + e.dtype + "'");
  if (!j.contains("shape") || !j["shape"].is_array()) fail(path, what + " has no shape");
  uint64_t numel = 1;
  for (const nlohmann::json& s : j["shape"]) {
    if (!s.is_number_integer() || s.get<int64_t>() < 0) fail(path, what + " has a shape that is not a list of sizes");
    const uint64_t n = s.get<uint64_t>();
    if (n != 0 && numel > (uint64_t(1) << 48) / n) fail(path, what + " has more than 2^48 elements");
    numel *= n;
    e.shape.push_back(static_cast<int64_t>(n));
  }
  const nlohmann::json& offsets = j.contains("data_offsets") ? j["data_offsets"] : nlohmann::json();
  if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned() || !offsets[1].is_number_unsigned())
    fail(path, what + " has no data_offsets [begin, end]");
  e.begin = offsets[0].get<uint64_t>();
  e.end = offsets[1].get<uint64_t>();
  if (e.end < e.begin) fail(path, what + " has data_offsets that end before they begin");
  if (e.end - e.begin != numel * size)
    fail(path, what + " (" + e.dtype + " " + shapeString(e.shape) + ") needs " + std::to_string(numel * size) +
                   " bytes but its data_offsets give " + std::to_string(e.end - e.begin));
  if (e.end > dataBytes)
    fail(path, "the file is truncated: " + what + " needs bytes " + std::to_string(e.begin) + ".." +
                   std::to_string(e.end) + " of the data, which holds " + std::to_string(dataBytes));
  return e;
}

/// Half-precision bits to float, exactly (subnormals, infinities and NaN included).
float halfToFloat(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {  // subnormal: normalise
    int shift = 0;
    uint32_t m = mantissa;
    while (!(m & 0x400u)) m <<= 1, ++shift;
    bits = sign | (uint32_t(113 - shift) << 23) | ((m & 0x3ffu) << 13);
  }
  return std::bit_cast<float>(bits);
}

float bfloatToFloat(uint16_t b) { return std::bit_cast<float>(uint32_t(b) << 16); }

template <class From>
From load(const char* p) {
  From v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

/// `bytes` (numel elements of the file's `dtype`) converted into `out` of dtype `want`;
/// false for a pair safetensorsConverts refuses.
bool convert(const std::string& dtype, const char* bytes, Tensor& out) {
  const int64_t n = out.numel();
  const DType want = out.dtype();
  auto widen = [&]<class To>(auto read, size_t size) {
    To* o = out.data<To>();
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<To>(read(bytes + i * size));
  };
  auto f16 = [](const char* p) { return halfToFloat(load<uint16_t>(p)); };
  auto bf16 = [](const char* p) { return bfloatToFloat(load<uint16_t>(p)); };
  auto f32 = [](const char* p) { return load<float>(p); };
  auto i32 = [](const char* p) { return load<int32_t>(p); };
  const bool same = (dtype == "F32" && want == DType::F32) || (dtype == "F64" && want == DType::F64) ||
                    (dtype == "I32" && want == DType::I32) || (dtype == "I64" && want == DType::I64);
  if (same) {
    std::memcpy(out.raw(), bytes, static_cast<size_t>(n) * dtypeSize(want));
  } else if (dtype == "BOOL" && want == DType::Bool) {
    bool* o = out.data<bool>();
    for (int64_t i = 0; i < n; ++i) o[i] = bytes[i] != 0;
  } else if (dtype == "F16" && want == DType::F32) {
    widen.template operator()<float>(f16, 2);
  } else if (dtype == "F16" && want == DType::F64) {
    widen.template operator()<double>(f16, 2);
  } else if (dtype == "BF16" && want == DType::F32) {
    widen.template operator()<float>(bf16, 2);
  } else if (dtype == "BF16" && want == DType::F64) {
    widen.template operator()<double>(bf16, 2);
  } else if (dtype == "F32" && want == DType::F64) {
    widen.template operator()<double>(f32, 4);
  } else if (dtype == "I32" && want == DType::I64) {
    widen.template operator()<int64_t>(i32, 4);
  } else {
    return false;
  }
  return true;
}

}  // namespace

bool safetensorsConverts(const std::string& dtype, DType want) {
  switch (want) {
    case DType::F32: return dtype == "F32" || dtype == "F16" || dtype == "BF16";
    case DType::F64: return dtype == "F64" || dtype == "F32" || dtype == "F16" || dtype == "BF16";
    case DType::I32: return dtype == "I32";
    case DType::I64: return dtype == "I64" || dtype == "I32";
    case DType::Bool: return dtype == "BOOL";
  }
  return false;
}

const SafetensorsEntry& SafetensorsIndex::at(const std::string& name) const {
  auto it = tensors.find(name);
  if (it != tensors.end()) return it->second;
  // The names sharing the longest prefix with `name`: a wrong layer number or suffix shows.
  size_t best = 0;
  for (const auto& [other, entry] : tensors) {
    size_t common = std::mismatch(name.begin(), name.end(), other.begin(), other.end()).first - name.begin();
    best = std::max(best, common);
  }
  std::vector<std::string> near;
  for (const auto& [other, entry] : tensors)
    if (best > 0 && other.compare(0, best, name, 0, best) == 0 && near.size() < 4) near.push_back(other);
  std::string message = "has no tensor '" + name + "' (" + std::to_string(tensors.size()) + " tensors";
  if (!near.empty()) {
    message += "; nearest: ";
    for (size_t i = 0; i < near.size(); ++i) message += (i ? ", '" : "'") + near[i] + "'";
  }
  fail(path, message + ")");
}

SafetensorsIndex readSafetensorsIndex(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open the file");
  std::error_code ec;
  const uint64_t fileBytes = std::filesystem::file_size(path, ec);
  if (ec) fail(path, "cannot read its size: " + ec.message());
  if (fileBytes < 8) fail(path, "the file is truncated: " + std::to_string(fileBytes) + " bytes, no header length");
  char lengthBytes[8];
  in.read(lengthBytes, 8);
  const uint64_t headerBytes = load<uint64_t>(lengthBytes);  // little endian, as the host
  if (headerBytes > fileBytes - 8)
    fail(path, "the header is " + std::to_string(headerBytes) + " bytes but the file holds " +
                   std::to_string(fileBytes - 8) + " after its length (truncated, or not a .safetensors file)");
  if (headerBytes > (uint64_t(100) << 20)) fail(path, "the header is over 100 MB: not a .safetensors file");
  std::string header(static_cast<size_t>(headerBytes), '\0');
  if (!in.read(header.data(), static_cast<std::streamsize>(headerBytes))) fail(path, "cannot read the header");
  nlohmann::json j = nlohmann::json::parse(header, nullptr, false);
  if (j.is_discarded() || !j.is_object()) fail(path, "the header is not a JSON object");
  SafetensorsIndex index;
  index.path = path;
  index.dataStart = 8 + headerBytes;
  const uint64_t dataBytes = fileBytes - index.dataStart;
  for (const auto& [name, value] : j.items()) {
    if (name == "__metadata__") {
      if (!value.is_object()) fail(path, "__metadata__ is not an object");
      for (const auto& [key, text] : value.items()) {
        if (!text.is_string()) fail(path, "__metadata__ '" + key + "' is not a string");
        index.metadata[key] = text.get<std::string>();
      }
      continue;
    }
    index.tensors[name] = parseEntry(path, name, value, dataBytes);
  }
  std::vector<std::pair<uint64_t, const std::string*>> starts;
  for (const auto& [name, e] : index.tensors)
    if (e.end > e.begin) starts.emplace_back(e.begin, &name);
  std::sort(starts.begin(), starts.end());
  for (size_t i = 1; i < starts.size(); ++i)
    if (starts[i].first < index.tensors.at(*starts[i - 1].second).end)
      fail(path, "the bytes of tensors '" + *starts[i - 1].second + "' and '" + *starts[i].second + "' overlap");
  return index;
}

Tensor readSafetensor(const SafetensorsIndex& index, const std::string& name, DType want) {
  const SafetensorsEntry& e = index.at(name);
  if (!safetensorsConverts(e.dtype, want))
    fail(index.path, "tensor '" + name + "' holds " + e.dtype + " values, which do not convert exactly to " +
                         std::string(dtypeName(want)) +
                         " (F16 and BF16 widen to f32 or f64, F32 to f64, I32 to i64; convert the file otherwise)");
  Tensor out = Tensor::uninitialized(want, e.shape);
  std::string bytes(static_cast<size_t>(e.end - e.begin), '\0');
  std::ifstream in(index.path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(index.dataStart + e.begin));
  if (!in || !in.read(bytes.data(), static_cast<std::streamsize>(bytes.size())))
    fail(index.path, "cannot read the bytes of tensor '" + name + "'");
  if (!convert(e.dtype, bytes.data(), out))
    throw std::logic_error("safetensors: no conversion " + e.dtype + " -> " + std::string(dtypeName(want)));
  return out;
}

std::string serializeSafetensors(const std::map<std::string, Tensor>& tensors,
                                 const std::map<std::string, std::string>& metadata) {
  static const std::map<DType, std::string> names = {
      {DType::F32, "F32"}, {DType::F64, "F64"}, {DType::I32, "I32"}, {DType::I64, "I64"}, {DType::Bool, "BOOL"}};
  nlohmann::ordered_json header = nlohmann::ordered_json::object();
  if (!metadata.empty()) header["__metadata__"] = metadata;
  std::string data;
  for (const auto& [name, t] : tensors) {
    const Tensor c = t.contiguous();
    const uint64_t begin = data.size();
    data.append(static_cast<const char*>(c.raw()), c.nbytes());
    header[name] = {{"dtype", names.at(c.dtype())}, {"shape", c.shape()}, {"data_offsets", {begin, uint64_t(data.size())}}};
  }
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');
  char length[8];
  const uint64_t n = text.size();
  std::memcpy(length, &n, 8);
  return std::string(length, 8) + text + data;
}

}  // namespace tempo
