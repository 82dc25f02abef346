#include "passes/StaticTiling.h"

#include "tiling/BlockSizeModel.h"
#include "tiling/IndexBounds.h"
#include "tiling/TileRegion.h"
#include "tiling/WindowRegion.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace tempo {

namespace {

std::string windowText(const Graph& g, const WindowRead& w) {
  const Edge& e = g.edge(w.edge);
  const Node& c = g.node(w.consumer);
  return "%" + std::to_string(c.id) + "'s window " + e.str();
}

/// The block size asked for with --block-size (nullopt when absent).
std::optional<int64_t> requestedBlockSize(const PassContext& context) {
  auto it = context.options.find("block-size");
  if (it == context.options.end()) return std::nullopt;
  try {
    size_t used = 0;
    long long v = std::stoll(it->second, &used);
    if (used == it->second.size() && v >= 1) return v;
  } catch (const std::exception&) {
  }
  throw std::invalid_argument("--block-size must be a positive integer, not '" + it->second + "'");
}

/// The window sizes the steps see at the default bounds (empty if a bound has no value).
std::vector<int64_t> hintedSizes(const Graph& g, const WindowRead& w, const SymbolEnv& bounds) {
  std::vector<std::string> dims;
  for (const Symbol& s : w.size().symbols())
    if (s.kind == SymbolKind::Dim) dims.push_back(s.name);
  SymbolEnv env = bounds;
  std::vector<int64_t> extent;
  int64_t points = 1;
  for (const std::string& d : dims) {
    auto b = bounds.find(g.boundOf(d));
    if (b == bounds.end()) return {};
    extent.push_back(b->second);
    points *= std::max<int64_t>(b->second, 1);
    if (points > (1 << 16)) return {};
  }
  std::vector<int64_t> sizes;
  std::vector<int64_t> at(dims.size(), 0);
  for (int64_t k = 0; k < points; ++k) {
    int64_t rest = k;
    for (size_t i = 0; i < dims.size(); ++i) env[dims[i]] = rest % extent[i], rest /= extent[i];
    sizes.push_back(w.size().evaluate(env));
  }
  return sizes;
}

/// Bytes per window position of everything the region tiles, at the default bounds.
int64_t bytesPerPosition(const Graph& g, const WindowRegion& r, const SymbolEnv& bounds) {
  int64_t bytes = 0;
  auto add = [&](const TensorType& t, int skipAxis) {
    int64_t n = 1;
    for (int i = 0; i < t.rank(); ++i)
      if (i != skipAxis) n *= t.shape[i].evaluate(bounds);
    bytes += n * static_cast<int64_t>(dtypeSize(t.dtype));
  };
  try {
    for (const WindowRead& w : r.windows) add(g.node(w.producer).type, -1);
    for (NodeId c : r.carriers) add(g.node(c).type, r.axisOf.at(c));
  } catch (const std::exception&) {
    return 4 * static_cast<int64_t>(r.carriers.size() + r.windows.size());
  }
  return std::max<int64_t>(bytes, 1);
}

}  // namespace

std::string StaticTiling::description() const {
  return "A window read such as k[b, 0:t+1] hands its readers a value whose size grows with t, so the kernels "
         "up to the reduction or matmul that consumes that size see a new shape at every step. This pass cuts "
         "each such window into blocks of one static size BS: block ds holds positions BS*ds to BS*ds+BS-1 of "
         "the producer (only the blocks that meet a step's window are run) and is read in place, with zeros "
         "where the window ends inside it; every node up to the reduction works on one block, the reduction becomes a running sum (or max) over the blocks "
         "with the positions outside the window masked to 0 (or -inf), and the result is read at the step's "
         "last block. BS comes from --block-size or from a cost model (per-block overhead against the wasted "
         "tail of the last block); the number of blocks stays a formula of the bounds.";
}

void StaticTiling::run(Graph& graph, PassContext& context) {
  const std::optional<int64_t> requested = requestedBlockSize(context);
  const SymbolEnv bounds = context.hintedBounds(graph);
  std::set<EdgeId> skipped;
  for (bool progress = true; progress;) {
    progress = false;
    for (const auto& [id, edge] : graph.edges()) {
      if (skipped.count(id)) continue;
      std::string why;
      auto w = windowReadOf(graph, edge, why);
      if (!w) {
        if (!why.empty()) context.change.notes.push_back("left a window untiled: " + why), skipped.insert(id);
        continue;
      }
      auto region = findWindowRegion(graph, *w, why);
      auto maxSize = upperBoundOverDims(w->size(), graph);
      auto minSize = lowerBoundOverDims(w->size(), graph);
      auto maxEnd = upperBoundOverDims(w->hi, graph);
      if (region && (!maxSize || maxSize->dependsOnKind(SymbolKind::Dim))) why = "its size has no upper bound of bounds only";
      if (region && (!maxEnd || maxEnd->dependsOnKind(SymbolKind::Dim))) why = "its end has no upper bound of bounds only";
      if (region && (!minSize || !minSize->isConstant() || *minSize->constantValue() < 1))
        why = "it may be empty";
      if (region)
        for (NodeId e : region->eliminations) {
          if (graph.node(e).op == OpKind::ReduceMax && !isFloat(graph.node(e).type.dtype))
            why = "a max over integers has no -inf to mask with";
          else if (graph.node(e).op == OpKind::ReduceArgMax)
            why = "an argmax's index is not combined block by block";
        }
      if (!region || !why.empty()) {
        context.change.notes.push_back("left " + windowText(graph, *w) + " untiled: " + why);
        skipped.insert(id);
        if (region)
          for (const WindowRead& r : region->windows) skipped.insert(r.edge);
        continue;
      }
      int64_t bs = 1;
      std::string how;
      std::vector<int64_t> sizes = hintedSizes(graph, *w, bounds);
      if (requested) {
        bs = *requested;
        how = "--block-size";
      } else {
        BlockSizeInputs in;
        in.windowSizes = sizes;
        in.bytesPerPosition = bytesPerPosition(graph, *region, bounds);
        in.statementsPerBlock = static_cast<int>(region->carriers.size() + 2 * region->windows.size() +
                                                 4 * region->eliminations.size() + 4);
        bs = sizes.empty() ? 32 : chooseBlockSize(in);
        how = sizes.empty() ? "no default bounds for the cost model" : "cost model";
      }
      if (maxSize->isConstant()) bs = std::min(bs, *maxSize->constantValue());  // one block holds the window
      std::string text = windowText(graph, *w);
      TiledRegionInfo info = tileRegion(graph, *region, bs, *maxSize, context.change);
      context.change.notes.push_back("tiled " + text + " (" + std::to_string(region->carriers.size()) +
                                     " nodes, " + std::to_string(region->eliminations.size()) +
                                     " reductions) into blocks of " + std::to_string(bs) + " (" + how + ")" +
                                     (info.blockDim.empty() ? std::string(", one block per step")
                                                            : " along " + info.blockDim + " < " + info.blockCount));
      progress = true;
      break;
    }
  }
}

}  // namespace tempo
