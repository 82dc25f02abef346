#include "safetensors/SafetensorsLoad.h"

#include "ops/TensorNamePattern.h"
#include "safetensors/Safetensors.h"

#include <cstring>
#include <filesystem>
#include <functional>

namespace tempo {

namespace {

/// The tensor names of `n` with the block each fills: calls `visit(name, block index)` in
/// row-major order of the named dimensions; `rest` is what each tensor must hold.
void forEachTensor(const Node& n, const std::vector<int64_t>& shape, std::vector<int64_t>& rest,
                   const std::function<void(const std::string&, int64_t)>& visit) {
  std::string error;
  std::optional<TensorNamePattern> pattern = parseTensorNamePattern(n.attrs.tensor, error);
  if (!pattern) throw SafetensorsError("tensor=\"" + n.attrs.tensor + "\": " + error);
  const size_t keys = pattern->dims.size();
  if (keys > shape.size()) throw SafetensorsError("tensor=\"" + n.attrs.tensor + "\" names more dimensions than the domain has");
  rest.assign(shape.begin() + static_cast<std::ptrdiff_t>(keys), shape.end());
  std::vector<int64_t> at(keys, 0);
  int64_t blocks = 1;
  for (size_t d = 0; d < keys; ++d) blocks *= shape[d];
  for (int64_t block = 0; block < blocks; ++block) {
    visit(pattern->at(at), block);
    for (size_t d = keys; d-- > 0;) {
      if (++at[d] < shape[d]) break;
      at[d] = 0;
    }
  }
}

/// `W over (l)` or `W`, for messages.
std::string declared(const Node& n) {
  std::string name = n.name.empty() ? "the array" : n.name;
  if (n.domain.empty()) return name;
  std::string dims;
  for (const std::string& d : n.domain) dims += (dims.empty() ? "" : ", ") + d;
  return name + " over (" + dims + ")";
}

std::string fileName(const Node& n) { return std::filesystem::path(n.attrs.path).filename().string(); }

/// Why tensor `name` cannot give `n` the values `rest` ("" when its shape is right).
std::string shapeProblem(const Node& n, const std::string& name, const SafetensorsEntry& e,
                         const std::vector<int64_t>& rest) {
  if (e.shape == rest) return "";
  return fileName(n) + ": tensor '" + name + "' has shape " + shapeString(e.shape) + " but " + declared(n) +
         " needs " + shapeString(rest) + " from it";
}

}  // namespace

Tensor loadSafetensors(const Node& n, const std::vector<int64_t>& shape) {
  const SafetensorsIndex index = readSafetensorsIndex(n.attrs.path);
  Tensor whole = Tensor::uninitialized(n.type.dtype, shape);
  std::vector<int64_t> rest;
  forEachTensor(n, shape, rest, [&](const std::string& name, int64_t block) {
    if (std::string problem = shapeProblem(n, name, index.at(name), rest); !problem.empty())
      throw SafetensorsError(problem);
    Tensor t = readSafetensor(index, name, n.type.dtype);
    std::memcpy(static_cast<char*>(whole.raw()) + block * static_cast<int64_t>(t.nbytes()), t.raw(), t.nbytes());
  });
  return whole;
}

std::vector<std::string> safetensorsLoadProblems(const Node& n, const std::vector<int64_t>& shape) {
  std::vector<std::string> problems;
  try {
    const SafetensorsIndex index = readSafetensorsIndex(n.attrs.path);
    std::vector<int64_t> rest;
    forEachTensor(n, shape, rest, [&](const std::string& name, int64_t) {
      if (problems.size() >= 5) return;  // the first few say enough
      try {
        const SafetensorsEntry& e = index.at(name);
        if (std::string problem = shapeProblem(n, name, e, rest); !problem.empty())
          problems.push_back(problem);
        else if (!safetensorsConverts(e.dtype, n.type.dtype))
          problems.push_back(fileName(n) + ": tensor '" + name + "' holds " + e.dtype + " values, which do not convert exactly to " +
                             std::string(dtypeName(n.type.dtype)));
      } catch (const SafetensorsError& ex) {
        problems.push_back(ex.what());
      }
    });
  } catch (const SafetensorsError& ex) {
    problems.push_back(ex.what());
  }
  return problems;
}

}  // namespace tempo
