// Safetensors: round trips through the writer, the exact widenings (F16 and BF16
// including subnormals, infinities and NaN), and a clear error for every malformed
// file: truncated, a bad header, overlapping or mis-sized ranges, an unknown dtype, a
// missing tensor (with the nearest names), a narrowing conversion.
#include "safetensors/Safetensors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

namespace tempo {
namespace {

class SafetensorsTest : public ::testing::Test {
protected:
  std::filesystem::path dir_ = std::filesystem::temp_directory_path() /
                               ("tempo-safetensors-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
  void SetUp() override { std::filesystem::create_directories(dir_); }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& bytes) {
    std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  /// A file whose header is `json` (as given) followed by `data`.
  std::string raw(const std::string& name, const std::string& json, const std::string& data) {
    uint64_t n = json.size();
    char length[8];
    std::memcpy(length, &n, 8);
    return write(name, std::string(length, 8) + json + data);
  }
  static std::string errorOf(const std::function<void()>& f) {
    try {
      f();
    } catch (const SafetensorsError& e) {
      return e.what();
    }
    return "(no error)";
  }
};

Tensor ramp(DType dtype, std::vector<int64_t> shape) {
  Tensor t(dtype, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.set(i, double(i) - 2.5);
  return t;
}

TEST_F(SafetensorsTest, WrittenTensorsReadBackWithTheirShapesAndMetadata) {
  std::map<std::string, Tensor> tensors = {{"model.embed_tokens.weight", ramp(DType::F32, {4, 3})},
                                           {"b.ids", ramp(DType::I64, {5})},
                                           {"scalar", ramp(DType::F64, {})},
                                           {"empty", Tensor(DType::F32, {0, 7})}};
  std::string path = write("m.safetensors", serializeSafetensors(tensors, {{"format", "pt"}}));
  SafetensorsIndex index = readSafetensorsIndex(path);
  EXPECT_EQ(index.metadata.at("format"), "pt");
  ASSERT_EQ(index.tensors.size(), 4u);
  for (const auto& [name, t] : tensors) {
    Tensor back = readSafetensor(index, name, t.dtype());
    EXPECT_EQ(back.shape(), t.shape()) << name;
    for (int64_t i = 0; i < t.numel(); ++i) EXPECT_EQ(back.at(i), t.at(i)) << name << " " << i;
  }
  // Exact widenings of what was written.
  Tensor wide = readSafetensor(index, "model.embed_tokens.weight", DType::F64);
  EXPECT_EQ(wide.dtype(), DType::F64);
  EXPECT_EQ(wide.at(11), 8.5);
}

TEST_F(SafetensorsTest, HalfAndBfloatWidenExactly) {
  // F16: 1, -2, 65504 (max), 2^-24 (smallest subnormal), 3 * 2^-24, +inf, NaN, -0.
  const uint16_t half[] = {0x3c00, 0xc000, 0x7bff, 0x0001, 0x0003, 0x7c00, 0x7e00, 0x8000};
  // BF16: 1, -3.5, 2^-133 (subnormal), -inf.
  const uint16_t bf[] = {0x3f80, 0xc060, 0x0001, 0xff80};
  std::string data(reinterpret_cast<const char*>(half), sizeof half);
  data.append(reinterpret_cast<const char*>(bf), sizeof bf);
  std::string path = raw("h.safetensors",
                         R"({"h":{"dtype":"F16","shape":[8],"data_offsets":[0,16]},)"
                         R"("b":{"dtype":"BF16","shape":[2,2],"data_offsets":[16,24]}})",
                         data);
  SafetensorsIndex index = readSafetensorsIndex(path);
  Tensor h = readSafetensor(index, "h", DType::F32);
  EXPECT_EQ(h.at(0), 1.0);
  EXPECT_EQ(h.at(1), -2.0);
  EXPECT_EQ(h.at(2), 65504.0);
  EXPECT_EQ(h.at(3), std::ldexp(1.0, -24));
  EXPECT_EQ(h.at(4), 3 * std::ldexp(1.0, -24));
  EXPECT_TRUE(std::isinf(h.at(5)) && h.at(5) > 0);
  EXPECT_TRUE(std::isnan(h.at(6)));
  EXPECT_TRUE(h.at(7) == 0 && std::signbit(h.at(7)));
  Tensor b = readSafetensor(index, "b", DType::F64);
  EXPECT_EQ(b.shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(b.at(0), 1.0);
  EXPECT_EQ(b.at(1), -3.5);
  EXPECT_EQ(b.at(2), std::ldexp(1.0, -133));
  EXPECT_TRUE(std::isinf(b.at(3)) && b.at(3) < 0);
}

TEST_F(SafetensorsTest, MalformedFilesGiveErrorsNamingTheFileAndTheProblem) {
  const std::string ok = R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
  auto index = [](const std::string& p) { return [p] { readSafetensorsIndex(p); }; };
  EXPECT_EQ(errorOf(index((dir_ / "none.safetensors").string())), "none.safetensors: cannot open the file");
  EXPECT_EQ(errorOf(index(write("short.safetensors", "abc"))),
            "short.safetensors: the file is truncated: 3 bytes, no header length");
  EXPECT_NE(errorOf(index(raw("cut.safetensors", ok, std::string(5, 'x')))).find(
                "cut.safetensors: the file is truncated: tensor 'w' needs bytes 0..8 of the data, which holds 5"),
            std::string::npos);
  EXPECT_NE(errorOf(index(write("npy.safetensors", std::string("\x93NUMPY\x01\x00v\x00{'descr': '<f4'}", 24)))).find("not a .safetensors file"),
            std::string::npos);
  EXPECT_EQ(errorOf(index(raw("json.safetensors", "{\"w\": [1, 2", ""))), "json.safetensors: the header is not a JSON object");
  EXPECT_EQ(errorOf(index(raw("size.safetensors", R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})",
                                std::string(8, 'x')))),
            "size.safetensors: tensor 'w' (F32 [3]) needs 12 bytes but its data_offsets give 8");
  EXPECT_EQ(errorOf(index(raw("dtype.safetensors", R"({"w":{"dtype":"F128","shape":[1],"data_offsets":[0,16]}})",
                                std::string(16, 'x')))),
            "dtype.safetensors: tensor 'w' has the unknown dtype 'F128'");
  EXPECT_EQ(errorOf(index(raw("overlap.safetensors",
                                R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                                R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                                std::string(12, 'x')))),
            "overlap.safetensors: the bytes of tensors 'a' and 'b' overlap");
  EXPECT_EQ(errorOf(index(raw("neg.safetensors", R"({"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,0]}})", ""))),
            "neg.safetensors: tensor 'w' has a shape that is not a list of sizes");

  std::string path = write("m.safetensors", serializeSafetensors({{"model.layers.0.mlp.up_proj.weight", ramp(DType::F32, {2})},
                                                                  {"model.layers.1.mlp.up_proj.weight", ramp(DType::F32, {2})},
                                                                  {"lm_head.weight", ramp(DType::F64, {2})}}));
  SafetensorsIndex m = readSafetensorsIndex(path);
  EXPECT_EQ(errorOf([&] { readSafetensor(m, "model.layers.2.mlp.up_proj.weight", DType::F32); }),
            "m.safetensors: has no tensor 'model.layers.2.mlp.up_proj.weight' (3 tensors; nearest: "
            "'model.layers.0.mlp.up_proj.weight', 'model.layers.1.mlp.up_proj.weight')");
  EXPECT_NE(errorOf([&] { readSafetensor(m, "lm_head.weight", DType::F32); })
                .find("m.safetensors: tensor 'lm_head.weight' holds F64 values, which do not convert exactly to f32"),
            std::string::npos);
}

}  // namespace
}  // namespace tempo
