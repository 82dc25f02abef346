#include "npy/Npy.h"

#include <bit>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <variant>

namespace tempo {
namespace {

static_assert(std::endian::native == std::endian::little, "the .npy reader copies little-endian data as is");

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;
constexpr size_t kAlign = 64;
constexpr size_t kGrowthAxisMaxDigits = 21;

/// A value in the header dict: a string, a bool, a tuple of integers or a
/// bare integer. Integers that are negative or do not fit in int64 are kept
/// as std::nullopt.
using HeaderInt = std::optional<int64_t>;
using HeaderTuple = std::vector<HeaderInt>;
using HeaderValue = std::variant<std::string, bool, HeaderTuple, HeaderInt>;
using HeaderDict = std::map<std::string, HeaderValue>;

/// Recursive-descent parser for the tiny Python literal subset numpy writes:
/// `{'key': value, ...}` with string, True/False and integer-tuple values.
/// Returns std::nullopt on anything else.
class HeaderParser {
public:
  explicit HeaderParser(std::string_view text) : s_(text) {}

  std::optional<HeaderDict> parseDict() {
    HeaderDict dict;
    skipSpace();
    if (!eat('{')) return std::nullopt;
    skipSpace();
    while (!eat('}')) {
      auto key = parseString();
      if (!key) return std::nullopt;
      skipSpace();
      if (!eat(':')) return std::nullopt;
      skipSpace();
      auto value = parseValue();
      if (!value) return std::nullopt;
      dict[*key] = std::move(*value);  // a repeated key: the last one wins, as in Python
      skipSpace();
      if (eat(',')) { skipSpace(); continue; }
      if (!eat('}')) return std::nullopt;
      break;
    }
    skipSpace();
    if (pos_ != s_.size()) return std::nullopt;
    return dict;
  }

private:
  bool atEnd() const { return pos_ >= s_.size(); }
  char peek() const { return atEnd() ? '\0' : s_[pos_]; }
  bool eat(char c) {
    if (atEnd() || s_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  bool eatWord(std::string_view w) {
    if (s_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }
  void skipSpace() {
    while (!atEnd() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }

  std::optional<std::string> parseString() {
    char quote = peek();
    if (quote != '\'' && quote != '"') return std::nullopt;
    ++pos_;
    size_t end = s_.find(quote, pos_);
    if (end == std::string_view::npos) return std::nullopt;
    std::string out(s_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return out;
  }

  std::optional<HeaderValue> parseValue() {
    if (peek() == '\'' || peek() == '"') {
      auto str = parseString();
      if (!str) return std::nullopt;
      return HeaderValue{*str};
    }
    if (eatWord("True")) return HeaderValue{true};
    if (eatWord("False")) return HeaderValue{false};
    if (peek() == '(') return parseTuple();
    if (auto integer = parseInt()) return HeaderValue{*integer};
    return std::nullopt;
  }

  /// `()`, `(3,)`, `(2, 3)`, `(2, 3,)`; `(3)` is an int in Python, not a tuple.
  std::optional<HeaderValue> parseTuple() {
    eat('(');
    HeaderTuple items;
    skipSpace();
    bool sawComma = false;
    while (!eat(')')) {
      auto item = parseInt();
      if (!item) return std::nullopt;
      items.push_back(*item);
      skipSpace();
      if (eat(',')) { sawComma = true; skipSpace(); continue; }
      if (!eat(')')) return std::nullopt;
      if (items.size() == 1 && !sawComma) return HeaderValue{items[0]};
      break;
    }
    return HeaderValue{std::move(items)};
  }

  /// A decimal integer literal with an optional sign; the inner optional is
  /// empty when the value is negative or does not fit in int64.
  std::optional<HeaderInt> parseInt() {
    bool negative = eat('-');
    if (!negative) eat('+');
    if (peek() < '0' || peek() > '9') return std::nullopt;
    bool overflow = false;
    int64_t v = 0;
    while (peek() >= '0' && peek() <= '9') {
      int digit = s_[pos_++] - '0';
      if (v > (std::numeric_limits<int64_t>::max() - digit) / 10) overflow = true;
      else v = v * 10 + digit;
    }
    if (overflow || (negative && v != 0)) return HeaderInt{};
    return HeaderInt{v};
  }

  std::string_view s_;
  size_t pos_ = 0;
};

[[noreturn]] void fail(const std::string& name, const std::string& what) {
  throw NpyError(name + ": " + what);
}

uint32_t readLittleEndian(std::string_view bytes, size_t offset, size_t width) {
  uint32_t v = 0;
  for (size_t i = 0; i < width; ++i) v |= uint32_t(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
  return v;
}

DType parseDescr(const std::string& descr, const std::string& name) {
  if (descr == "<f4") return DType::F32;
  if (descr == "<f8") return DType::F64;
  if (descr == "<i4") return DType::I32;
  if (descr == "<i8") return DType::I64;
  if (descr == "|b1") return DType::Bool;
  if (!descr.empty() && descr[0] == '>') fail(name, "unsupported dtype '" + descr + "' (big endian)");
  fail(name, "unsupported dtype '" + descr + "' (supported: '<f4', '<f8', '<i4', '<i8', '|b1')");
}

template <class T>
const T* lookup(const HeaderDict& dict, const std::string& key, const std::string& name, const char* expected) {
  auto it = dict.find(key);
  if (it == dict.end()) fail(name, "header is missing key '" + key + "'");
  const T* value = std::get_if<T>(&it->second);
  if (!value) fail(name, "header key '" + key + "' is not " + expected);
  return value;
}

std::vector<int64_t> parseShape(const HeaderDict& dict, const std::string& name) {
  const HeaderTuple& tuple = *lookup<HeaderTuple>(dict, "shape", name, "a tuple of integers");
  std::vector<int64_t> shape;
  for (const auto& d : tuple) {
    if (!d) fail(name, "shape has a negative or too large dimension");
    shape.push_back(*d);
  }
  return shape;
}

/// Python's repr of a shape tuple: `()`, `(3,)`, `(2, 3)`.
std::string shapeRepr(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1) s += ",";
  return s + ")";
}

std::string descrOf(DType t) {
  switch (t) {
    case DType::F32: return "<f4";
    case DType::F64: return "<f8";
    case DType::I32: return "<i4";
    case DType::I64: return "<i8";
    case DType::Bool: return "|b1";
  }
  throw std::logic_error("descrOf: unknown dtype");
}

}  // namespace

Tensor parseNpy(std::string_view bytes, const std::string& name) {
  if (bytes.size() < kMagicLen + 2 || bytes.substr(0, kMagicLen) != std::string_view(kMagic, kMagicLen))
    fail(name, "not a .npy file (bad magic)");
  int major = static_cast<unsigned char>(bytes[6]), minor = static_cast<unsigned char>(bytes[7]);
  if (major < 1 || major > 3 || minor != 0)
    fail(name, "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor));
  size_t lenWidth = major == 1 ? 2 : 4;
  size_t headerStart = kMagicLen + 2 + lenWidth;
  if (bytes.size() < headerStart) fail(name, "truncated header length");
  size_t headerLen = readLittleEndian(bytes, kMagicLen + 2, lenWidth);
  if (bytes.size() - headerStart < headerLen)
    fail(name, "truncated header: expected " + std::to_string(headerLen) + " bytes, found " +
                   std::to_string(bytes.size() - headerStart));

  auto dict = HeaderParser(bytes.substr(headerStart, headerLen)).parseDict();
  if (!dict) fail(name, "header is not a valid Python dict literal");
  for (const auto& [key, value] : *dict)
    if (key != "descr" && key != "fortran_order" && key != "shape") fail(name, "header has unexpected key '" + key + "'");

  DType dtype = parseDescr(*lookup<std::string>(*dict, "descr", name, "a string"), name);
  if (*lookup<bool>(*dict, "fortran_order", name, "True or False"))
    fail(name, "fortran_order arrays are not supported");
  std::vector<int64_t> shape = parseShape(*dict, name);

  uint64_t numel = 1;
  for (int64_t d : shape) {
    if (d != 0 && numel > (uint64_t(1) << 48) / uint64_t(d)) fail(name, "shape " + shapeRepr(shape) + " is too large");
    numel *= uint64_t(d);
  }
  uint64_t expected = numel * dtypeSize(dtype);
  size_t available = bytes.size() - headerStart - headerLen;
  if (available < expected)
    fail(name, "truncated data: expected " + std::to_string(expected) + " bytes, found " + std::to_string(available));

  Tensor t(dtype, shape);
  if (expected > 0) std::memcpy(t.raw(), bytes.data() + headerStart + headerLen, expected);
  if (dtype == DType::Bool) {
    // Any nonzero byte is true; normalise so the bool storage is always 0/1.
    auto* p = static_cast<unsigned char*>(t.raw());
    for (uint64_t i = 0; i < numel; ++i) p[i] = p[i] != 0;
  }
  return t;
}

Tensor readNpy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw NpyError("cannot open " + path);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw NpyError("cannot read " + path);
  return parseNpy(buffer.str(), path);
}

std::string serializeNpy(const Tensor& t) {
  std::string header = "{'descr': '" + descrOf(t.dtype()) + "', 'fortran_order': False, 'shape': " +
                       shapeRepr(t.shape()) + ", }";
  if (t.rank() > 0) header += std::string(kGrowthAxisMaxDigits - std::to_string(t.shape()[0]).size(), ' ');
  size_t prefix = kMagicLen + 2 + 2;
  size_t padding = kAlign - (prefix + header.size() + 1) % kAlign;  // 1..64, as numpy computes it
  header += std::string(padding, ' ') + "\n";
  if (header.size() > 0xFFFF) throw NpyError("header too long for .npy version 1.0");

  std::string out(kMagic, kMagicLen);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xFF);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.append(static_cast<const char*>(t.raw()), t.nbytes());
  return out;
}

void writeNpy(const std::string& path, const Tensor& t) {
  std::string bytes = serializeNpy(t);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw NpyError("cannot open " + path + " for writing");
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw NpyError("cannot write " + path);
}

}  // namespace tempo
