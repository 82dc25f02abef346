#include "npy/LoadCheck.h"

#include "npy/Npy.h"
#include "safetensors/SafetensorsLoad.h"

#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace tempo {

namespace {

/// `(4, 16, 5)`, `(4,)` or `()` the way NumPy prints a shape.
std::string tupleString(const std::vector<std::string>& parts) {
  std::string s = "(";
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
  if (parts.size() == 1) s += ",";
  return s + ")";
}

std::string tupleString(const std::vector<int64_t>& sizes) {
  std::vector<std::string> parts;
  for (int64_t v : sizes) parts.push_back(std::to_string(v));
  return tupleString(parts);
}

/// The expected array shape of a Load node, symbolic and concrete.
struct ExpectedShape {
  std::vector<std::string> symbolic;  ///< `B`, `T`, `5`
  std::vector<int64_t> sizes;         ///< 4, 16, 5
};

/// Nullopt with `why` set when a size cannot be evaluated under `bounds`.
std::optional<ExpectedShape> expectedShape(const Graph& g, const Node& n, const SymbolEnv& bounds,
                                           std::string& why) {
  ExpectedShape e;
  for (const std::string& dim : n.domain) {
    std::string bound = g.boundOf(dim);
    auto it = bounds.find(bound);
    if (it == bounds.end()) {
      why = "the bound of dimension '" + dim + "' has no value";
      return std::nullopt;
    }
    e.symbolic.push_back(bound);
    e.sizes.push_back(it->second);
  }
  for (const IndexExpr& size : n.type.shape) e.symbolic.push_back(size.str());
  try {
    std::vector<int64_t> spatial = n.type.evaluateShape(bounds);
    e.sizes.insert(e.sizes.end(), spatial.begin(), spatial.end());
  } catch (const std::exception& ex) {
    why = std::string("its element shape cannot be evaluated: ") + ex.what();
    return std::nullopt;
  }
  return e;
}

std::string domainString(const Node& n) {
  std::string s = "(";
  for (size_t i = 0; i < n.domain.size(); ++i) s += (i ? ", " : "") + n.domain[i];
  return s + ")";
}

/// `x over (b, t)`, or just `x` for a node without a domain.
std::string declaredName(const Node& n) {
  std::string name = n.name.empty() ? "the array" : n.name;
  return n.domain.empty() ? name : name + " over " + domainString(n);
}

/// A load of a .safetensors file's tensors (SafetensorsLoad): every tensor there, of the right shape and dtype.
void checkSafetensorsLoad(const Graph& g, const Node& n, const SymbolEnv& bounds, DiagnosticBag& diags) {
  std::string why;
  std::optional<ExpectedShape> expected = expectedShape(g, n, bounds, why);
  if (!expected) {
    diags.error(g.file, n.loc, "cannot check the tensors of '" + n.attrs.displayPath + "': " + why);
    return;
  }
  for (const std::string& problem : safetensorsLoadProblems(n, expected->sizes)) diags.error(g.file, n.loc, problem);
}

void checkOneLoad(const Graph& g, const Node& n, const SymbolEnv& bounds, DiagnosticBag& diags) {
  if (!n.attrs.tensor.empty()) return checkSafetensorsLoad(g, n, bounds, diags);
  const std::string shown = "'" + (n.attrs.displayPath.empty() ? n.attrs.path : n.attrs.displayPath) + "'";
  Tensor array;
  try {
    array = readNpy(n.attrs.path);
  } catch (const std::exception& ex) {
    diags.error(g.file, n.loc, "cannot load " + shown + ": " + ex.what());
    return;
  }
  if (array.dtype() != n.type.dtype)
    diags.error(g.file, n.loc,
                shown + " holds " + std::string(dtypeName(array.dtype())) + " values but " +
                    (n.name.empty() ? "the array" : n.name) + " is declared " + std::string(dtypeName(n.type.dtype)));
  std::string why;
  std::optional<ExpectedShape> expected = expectedShape(g, n, bounds, why);
  if (!expected) {
    diags.error(g.file, n.loc, "cannot check the shape of " + shown + ": " + why);
    return;
  }
  if (array.shape() == expected->sizes) return;
  std::string needed = tupleString(expected->symbolic), concrete = tupleString(expected->sizes);
  if (needed != concrete) needed += " = " + concrete;
  diags.error(g.file, n.loc,
              shown + " has shape " + tupleString(array.shape()) + " but " + declaredName(n) + " needs " + needed);
}

}  // namespace

void checkLoadedArrays(const Graph& g, const SymbolEnv& bounds, DiagnosticBag& diags) {
  for (const auto& [id, node] : g.nodes())
    if (node.op == OpKind::Load) checkOneLoad(g, node, bounds, diags);
}

}  // namespace tempo
