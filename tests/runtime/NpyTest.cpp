#include "npy/Npy.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <random>

#include <unistd.h>

namespace tempo {
namespace {

/// Bytes of a .npy file with the given version, header text (verbatim) and data.
std::string npyBytes(int major, const std::string& header, const std::string& data = "") {
  std::string out("\x93NUMPY", 6);
  out += char(major);
  out += '\0';
  size_t n = header.size();
  out += char(n & 0xFF);
  out += char((n >> 8) & 0xFF);
  if (major >= 2) {
    out += char((n >> 16) & 0xFF);
    out += char((n >> 24) & 0xFF);
  }
  return out + header + data;
}

std::string dictText(const std::string& descr, const std::string& shape, const std::string& fortran = "False") {
  return "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }\n";
}

/// A tensor with distinct, exactly representable values.
Tensor sample(DType dtype, std::vector<int64_t> shape) {
  Tensor t(dtype, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.set(i, dtype == DType::Bool ? i % 3 == 1 : (i * 7 % 11) - 5.25 * isFloat(dtype));
  return t;
}

void expectSame(const Tensor& a, const Tensor& b) {
  ASSERT_EQ(a.dtype(), b.dtype());
  ASSERT_EQ(a.shape(), b.shape());
  for (int64_t i = 0; i < a.numel(); ++i) EXPECT_EQ(a.at(i), b.at(i)) << "at " << i;
}

std::string tempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("tempo_npy_test_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

TEST(Npy, RoundTripsAllDTypesAndRanks) {
  const std::vector<std::vector<int64_t>> shapes = {{}, {3}, {2, 3}, {2, 1, 4}, {1, 2, 3, 2}, {0}, {2, 0, 3}};
  for (DType dtype : {DType::F32, DType::F64, DType::I32, DType::I64, DType::Bool})
    for (const auto& shape : shapes) {
      SCOPED_TRACE(std::string(dtypeName(dtype)) + shapeString(shape));
      Tensor t = sample(dtype, shape);
      std::string bytes = serializeNpy(t);
      EXPECT_EQ(bytes.size() - t.nbytes(), 128u);  // every header here fits in 128 bytes
      expectSame(parseNpy(bytes, "mem.npy"), t);
    }
}

TEST(Npy, WriteAndReadFile) {
  std::string path = tempPath("rt.npy");
  Tensor t = sample(DType::F64, {3, 4});
  writeNpy(path, t);
  expectSame(readNpy(path), t);
  std::filesystem::remove(path);
}

TEST(Npy, HeaderIsByteIdenticalToNumpy) {
  std::string bytes = serializeNpy(Tensor(DType::F32, {2, 3}));
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  std::string header = dict + std::string(20, ' ') + std::string(38, ' ') + "\n";  // growth space + alignment
  EXPECT_EQ(bytes.substr(0, 10), std::string("\x93NUMPY\x01\x00\x76\x00", 10));
  EXPECT_EQ(bytes.substr(10, header.size()), header);
  EXPECT_EQ(bytes.size(), 128u + 24u);

  std::string scalar = serializeNpy(Tensor::scalar(DType::Bool, 1));
  std::string scalarDict = "{'descr': '|b1', 'fortran_order': False, 'shape': (), }";
  EXPECT_EQ(scalar.substr(10, 118), scalarDict + std::string(62, ' ') + "\n");
  EXPECT_EQ(scalar.size(), 129u);

  std::string vector = serializeNpy(Tensor(DType::I64, {12345}));
  EXPECT_NE(vector.find("'shape': (12345,), }" + std::string(16, ' ')), std::string::npos);
  EXPECT_EQ((vector.size() - 12345 * 8) % 64, 0u);
}

TEST(Npy, ReadsVersion2And3Headers) {
  std::string data(8, '\0');
  data[0] = 1;
  data[4] = 2;
  Tensor v2 = parseNpy(npyBytes(2, dictText("<i4", "(2,)"), data), "v2.npy");
  EXPECT_EQ(v2.shape(), std::vector<int64_t>{2});
  EXPECT_EQ(v2.at(0), 1.0);
  EXPECT_EQ(v2.at(1), 2.0);
  Tensor v3 = parseNpy(npyBytes(3, dictText("<i4", "(1, 2)"), data), "v3.npy");
  EXPECT_EQ(v3.shape(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(v3.at(1), 2.0);
}

TEST(Npy, AcceptsKeysInAnyOrderAndLiteralVariants) {
  std::string one(4, '\0');
  one[0] = 1;  // i32 1
  auto parse = [&](const std::string& header, const std::string& data) {
    return parseNpy(npyBytes(1, header, data), "h.npy");
  };
  Tensor t = parse("{\"shape\": (1,), \"fortran_order\": False, \"descr\": \"<i4\"}   \n", one);
  EXPECT_EQ(t.at(0), 1.0);
  EXPECT_EQ(parse("{'shape':(),'descr':'<i4','fortran_order':False}", one).rank(), 0);
  EXPECT_EQ(parse("{'shape': ( 1 , 1 , ), 'descr': '<i4', 'fortran_order': False, }\n", one).rank(), 2);
  EXPECT_EQ(parse("{'descr': '|b1', 'fortran_order': False, 'shape': (1,)}", std::string(1, '\x05')).at(0), 1.0);
  EXPECT_EQ(parse(dictText("<i4", "(1,)"), one + "trailing").numel(), 1);  // trailing bytes are ignored
}

struct Malformed {
  std::string bytes;
  std::string message;
};

TEST(Npy, MalformedFilesGiveClearMessages) {
  std::string f4x2(8, '\0');
  const std::vector<Malformed> cases = {
      {"", "x.npy: not a .npy file (bad magic)"},
      {"PK\x03\x04 this is a zip", "x.npy: not a .npy file (bad magic)"},
      {npyBytes(4, dictText("<f4", "(2,)"), f4x2), "x.npy: unsupported .npy format version 4.0"},
      {std::string("\x93NUMPY\x02\x00\x10", 9), "x.npy: truncated header length"},
      {npyBytes(1, dictText("<f4", "(2,)")).substr(0, 30), "x.npy: truncated header: expected 58 bytes, found 20"},
      {npyBytes(1, "[1, 2, 3]\n"), "x.npy: header is not a valid Python dict literal"},
      {npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)"), "x.npy: header is not a valid Python dict literal"},
      {npyBytes(1, "{'descr': '<f4, 'fortran_order': False}"), "x.npy: header is not a valid Python dict literal"},
      {npyBytes(1, "{'descr': '<f4', 'fortran_order': False}"), "x.npy: header is missing key 'shape'"},
      {npyBytes(1, dictText(">f4", "(2,)"), f4x2), "x.npy: unsupported dtype '>f4' (big endian)"},
      {npyBytes(1, dictText("<u2", "(2,)"), f4x2),
       "x.npy: unsupported dtype '<u2' (supported: '<f4', '<f8', '<i4', '<i8', '|b1')"},
      {npyBytes(1, dictText("<f4", "(2,)", "True"), f4x2), "x.npy: fortran_order arrays are not supported"},
      {npyBytes(1, dictText("<f4", "(5, 6)"), std::string(64, '\0')), "x.npy: truncated data: expected 120 bytes, found 64"},
      {npyBytes(1, dictText("<f4", "(2, -1)"), f4x2), "x.npy: shape has a negative or too large dimension"},
      {npyBytes(1, dictText("<f4", "(2)"), f4x2), "x.npy: header key 'shape' is not a tuple of integers"},
      {npyBytes(1, dictText("<f4", "(99999999999999999999,)"), f4x2), "x.npy: shape has a negative or too large dimension"},
      {npyBytes(1, dictText("<f4", "(4294967296, 4294967296)"), f4x2), "x.npy: shape (4294967296, 4294967296) is too large"},
      {npyBytes(1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}", f4x2), "x.npy: header key 'fortran_order' is not True or False"},
      {npyBytes(1, "{'descr': 4, 'fortran_order': False, 'shape': (2,)}", f4x2), "x.npy: header key 'descr' is not a string"},
      {npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': True}", f4x2),
       "x.npy: header has unexpected key 'extra'"},
  };
  for (const auto& c : cases) {
    try {
      parseNpy(c.bytes, "x.npy");
      ADD_FAILURE() << "no error for: " << c.message;
    } catch (const NpyError& e) {
      EXPECT_EQ(std::string(e.what()), c.message);
    }
  }
}

TEST(Npy, MissingFileAndUnwritablePath) {
  try {
    readNpy("/nonexistent/dir/w.npy");
    ADD_FAILURE() << "no error";
  } catch (const NpyError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot open /nonexistent/dir/w.npy");
  }
  EXPECT_THROW(writeNpy("/nonexistent/dir/w.npy", Tensor()), NpyError);
}

TEST(Npy, FuzzedBytesOnlyEverThrowNpyError) {
  std::vector<std::string> seeds = {
      serializeNpy(sample(DType::F32, {2, 3})), serializeNpy(sample(DType::Bool, {})),
      serializeNpy(sample(DType::I64, {4})),
      npyBytes(2, dictText("<f8", "(1, 1)"), std::string(8, '\0')),
      npyBytes(3, "{'shape':(2,),'descr':'<i4','fortran_order':False}", std::string(8, '\0'))};
  const std::string alphabet = "{}()[],:' \"0123456789-TrueFalsdcp<>|fib\n\x93NUMPY\x01\x02\x03";
  std::mt19937_64 rng(20240611);
  int parsed = 0, rejected = 0;
  for (int iteration = 0; iteration < 20000; ++iteration) {
    std::string bytes = seeds[rng() % seeds.size()];
    int mutations = 1 + int(rng() % 4);
    for (int m = 0; m < mutations; ++m) {
      size_t window = std::min<size_t>(bytes.size() + 1, rng() % 4 ? 140 : bytes.size() + 1);
      size_t pos = rng() % window;
      char c = rng() % 2 ? alphabet[rng() % alphabet.size()] : char(rng());
      switch (rng() % 4) {
        case 0: if (pos < bytes.size()) bytes[pos] = c; break;
        case 1: bytes.insert(bytes.begin() + pos, c); break;
        case 2: if (pos < bytes.size()) bytes.erase(pos, 1 + rng() % 3); break;
        case 3: bytes.resize(pos); break;
      }
    }
    try {
      Tensor t = parseNpy(bytes, "fuzz.npy");
      EXPECT_LE(t.nbytes(), bytes.size());
      ++parsed;
    } catch (const NpyError&) {
      ++rejected;
    }  // anything else propagates and fails the test
  }
  EXPECT_GT(parsed, 100);
  EXPECT_GT(rejected, 1000);
}

}  // namespace
}  // namespace tempo
