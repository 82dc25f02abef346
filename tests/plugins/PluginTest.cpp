// The plugin host (runtime/plugins/Plugin) with the sample plugins of plugins/ and
// fixtures that fail on purpose (tests/plugins/fixtures): the JSONL logger writes one
// flushed line per call in call order, the npy loader gives a file's rows and refuses a
// row outside it, declarations read into Tempo's types, inputs are checked against their
// ports before the plugin sees them, and every failure — a missing library, another ABI,
// a failing open, a bad declaration, an error value — is a PluginError naming the plugin.
#include "npy/Npy.h"
#include "plugins/Plugin.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace tempo;

namespace {

const std::vector<std::string> kDirs = {TEMPO_TEST_PLUGIN_DIR, TEMPO_PLUGIN_DIR};

std::filesystem::path tempDir() {
  auto dir = std::filesystem::temp_directory_path() / ("tempo-plugin-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The message of the PluginError `f` throws ("" if none).
template <class F>
std::string errorOf(F f) {
  try {
    f();
  } catch (const PluginError& e) {
    return e.what();
  }
  return "";
}

Tensor f32(std::vector<int64_t> shape, std::vector<float> values) {
  Tensor t(DType::F32, std::move(shape));
  std::copy(values.begin(), values.end(), t.data<float>());
  return t;
}

Tensor i64(int64_t v) {
  Tensor t(DType::I64, {});
  *t.data<int64_t>() = v;
  return t;
}

}  // namespace

TEST(Plugins, JsonlWritesOneFlushedLinePerCall) {
  const auto path = tempDir() / "log.jsonl";
  PluginInstance log(PluginLibrary::load("jsonl", kDirs), {{"path", path.string()}, {"field", "loss"}}, 0);
  ASSERT_EQ(log.functions().size(), 1u);
  const PluginFunction& write = log.functions()[0];
  EXPECT_EQ(write.name, "write");
  EXPECT_TRUE(write.stateful);
  EXPECT_EQ(write.inputs.at(0).str(), "any[...]");
  const int fn = log.find("write");
  log.call(fn, {f32({}, {0.5f})});
  EXPECT_EQ(readFile(path), "{\"index\": 0, \"loss\": 0.5}\n");  // flushed at once
  log.call(fn, {f32({2, 2}, {1, 2, 3, 4.25f})});
  Tensor ids(DType::I64, {3});
  for (int i = 0; i < 3; ++i) ids.data<int64_t>()[i] = 10 * i;
  log.call(fn, {ids});
  EXPECT_EQ(readFile(path), "{\"index\": 0, \"loss\": 0.5}\n{\"index\": 1, \"loss\": [[1, 2], [3, 4.25]]}\n"
                            "{\"index\": 2, \"loss\": [0, 10, 20]}\n");
}

TEST(Plugins, NpyGivesRowsOfTheFile) {
  const auto path = tempDir() / "x.npy";
  Tensor x = f32({3, 2}, {1, 2, 3, 4, 5, 6});
  writeNpy(path.string(), x);
  PluginInstance data(PluginLibrary::load("npy", kDirs), {{"path", path.string()}}, 0);
  const int row = data.find("row"), count = data.find("count");
  ASSERT_GE(row, 0);
  EXPECT_EQ(data.functions()[static_cast<size_t>(row)].outputs.at(0).str(), "f32[2]");  // from the file's shape
  EXPECT_FALSE(data.functions()[static_cast<size_t>(row)].stateful);
  Tensor r = data.call(row, {i64(2)}).at(0);
  EXPECT_EQ(r.shape(), std::vector<int64_t>{2});
  EXPECT_EQ(r.at(0), 5.0);
  EXPECT_EQ(r.at(1), 6.0);
  EXPECT_EQ(data.call(count, {}).at(0).at(0), 3.0);
  EXPECT_EQ(errorOf([&] { data.call(row, {i64(3)}); }), "plugin 'npy', row: row 3 is outside [0, 3)");
  // The host checks inputs against the ports before the plugin sees them.
  EXPECT_EQ(errorOf([&] { data.call(row, {f32({}, {1})}); }), "plugin 'npy', row: input 'i' is i64[], not f32[]");
  EXPECT_EQ(errorOf([&] { data.call(row, {}); }), "plugin 'npy', row: takes 1 inputs, not 0");
  // Not an .npy file: the plugin's error value, with the file's name.
  const auto text = tempDir() / "x.txt";
  std::ofstream(text) << "hello";
  std::string e = errorOf([&] { PluginInstance bad(PluginLibrary::load("npy", kDirs), {{"path", text.string()}}, 0); });
  EXPECT_NE(e.find("plugin 'npy': "), std::string::npos) << e;
  EXPECT_NE(e.find("x.txt: is not an .npy"), std::string::npos) << e;
}

TEST(Plugins, FailuresNameThePlugin) {
  std::string missing = errorOf([] { PluginLibrary::load("nosuch", kDirs); });
  EXPECT_EQ(missing.rfind("plugin 'nosuch': no libtempo_plugin_nosuch.so in ", 0), 0u) << missing;
  EXPECT_NE(missing.find("TEMPO_PLUGIN_PATH"), std::string::npos);
  EXPECT_EQ(errorOf([] { PluginLibrary::load("../etc", kDirs); }),
            "plugin '../etc': a plugin name is lower-case letters, digits and '_'");
  EXPECT_EQ(errorOf([] { PluginLibrary::load("badabi", kDirs); }),
            "plugin 'badabi': it is built for plugin ABI 99, this Tempo reads 1");
  auto faulty = PluginLibrary::load("faulty", kDirs);
  EXPECT_EQ(errorOf([&] { PluginInstance p(faulty, {{"fail", "open"}}, 0); }), "plugin 'faulty': asked to fail at open");
  EXPECT_EQ(errorOf([&] { PluginInstance p(faulty, {{"bad", "output"}}, 0); }),
            "plugin 'faulty': output 'y' must declare its dtype and shape");
  EXPECT_EQ(errorOf([&] { PluginInstance p(PluginLibrary::load("jsonl", kDirs), {}, 0); }),
            "plugin 'jsonl': needs path=\"FILE.jsonl\"");
  PluginInstance env(faulty, {}, 0);
  Tensor y = env.call(env.find("step"), {f32({2}, {1, 2})}).at(0);
  EXPECT_EQ(y.at(1), 3.0);
  EXPECT_EQ(errorOf([&] { env.call(0, {f32({2}, {-1, 0})}); }), "plugin 'faulty', step: the pole fell over");
  EXPECT_EQ(errorOf([&] { env.call(0, {f32({3}, {1, 2, 3})}); }),
            "plugin 'faulty', step: input 'x' is f32[2], not f32[3]");
}
