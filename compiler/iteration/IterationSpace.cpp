#include "iteration/IterationSpace.h"

#include "iteration/BlockTilings.h"
#include "iteration/InstanceReads.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace tempo {

namespace {

using P = IterationStatement::Placement;

constexpr double kMarginLeft = 1.3, kMarginTop = 0.3, kGap = 0.4, kInset = 0.04;

/// Distinct colours that read well on white and on dark grey (Tableau 10, then more).
const char* const kColors[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
                               "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#d62728", "#2ca02c", "#9467bd"};

std::string nodeLabel(const Node& n) {
  return "%" + std::to_string(n.id) + " " + (n.name.empty() ? std::string(opName(n.op)) : n.name);
}

int indexOf(const std::vector<std::string>& v, const std::string& s) {
  auto it = std::find(v.begin(), v.end(), s);
  return it == v.end() ? -1 : static_cast<int>(it - v.begin());
}

/// Lanes of one region (plane, row line, column line): each (statement, point
/// of its other dimensions) gets a slot on a small square grid inside a cell.
struct Lanes {
  std::map<std::pair<int, std::vector<int64_t>>, int> slot;
  int cols = 1, rows = 1;
  int add(int statement, const std::vector<int64_t>& rest) {
    auto [it, fresh] = slot.emplace(std::make_pair(statement, rest), static_cast<int>(slot.size()));
    return it->second;
  }
  void finish() {
    int n = std::max<int>(1, static_cast<int>(slot.size()));
    cols = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
    rows = (n + cols - 1) / cols;
  }
};

class Builder {
public:
  Builder(const Graph& g, const LoopProgram& program, const SymbolEnv& bounds, std::string dimX, std::string dimY)
      : g_(g), program_(program) {
    s_.bounds = bounds;
    s_.dimX = std::move(dimX);
    s_.dimY = std::move(dimY);
  }

  IterationSpace build() {
    checkDims();
    s_.timeline = enumerateSchedule(program_, s_.bounds);
    collectStatements();
    collectDots();
    layout();
    collectTiles();
    linkTimeline();
    collectArrows();
    return std::move(s_);
  }

private:
  const Graph& g_;
  const LoopProgram& program_;
  IterationSpace s_;
  std::map<P, Lanes> lanes_;
  std::vector<std::pair<P, int>> dotSlot_;  ///< per dot: its region and lane slot
  std::map<std::pair<NodeId, std::vector<int64_t>>, int> dotOf_;
  std::map<NodeId, int> statementOf_;

  int64_t extent(const std::string& dim) const {
    auto it = s_.bounds.find(g_.boundOf(dim));
    if (it == s_.bounds.end()) throw std::invalid_argument("no value for bound " + g_.boundOf(dim));
    return it->second;
  }

  void checkDims() {
    for (const std::string* d : {&s_.dimX, &s_.dimY})
      if ((d == &s_.dimX || !d->empty()) && g_.dimIndex(*d) < 0)
        throw std::invalid_argument("the program has no dimension '" + *d + "'");
    if (s_.dimX == s_.dimY) throw std::invalid_argument("choose two different dimensions");
    s_.extentX = extent(s_.dimX);
    s_.extentY = s_.dimY.empty() ? 1 : extent(s_.dimY);
  }

  void collectStatements() {
    std::map<NodeId, size_t> firstRun;
    for (size_t i = 0; i < s_.timeline.size(); ++i)
      if (s_.timeline[i].kind == ScheduleEvent::Kind::Exec) firstRun.emplace(s_.timeline[i].node, i);
    std::vector<const Node*> order;
    for (const auto& [id, n] : g_.nodes()) order.push_back(&n);
    auto key = [&](const Node* n) {
      auto it = firstRun.find(n->id);
      return std::make_pair(it == firstRun.end() ? s_.timeline.size() : it->second, n->id);
    };
    std::stable_sort(order.begin(), order.end(), [&](const Node* a, const Node* b) { return key(a) < key(b); });
    for (const Node* n : order) {
      bool hasX = indexOf(n->domain, s_.dimX) >= 0, hasY = indexOf(n->domain, s_.dimY) >= 0;
      if (!hasX && !hasY) {
        s_.omitted.push_back(n->id);
        continue;
      }
      IterationStatement st;
      st.node = n->id;
      st.label = nodeLabel(*n);
      st.domain = n->domain;
      st.placement = hasX && (hasY || s_.dimY.empty()) ? P::Plane : hasX ? P::RowLine : P::ColumnLine;
      st.loc = n->loc;
      st.color = kColors[s_.statements.size() % std::size(kColors)];
      statementOf_[n->id] = static_cast<int>(s_.statements.size());
      s_.statements.push_back(std::move(st));
    }
  }

  void collectDots() {
    for (size_t si = 0; si < s_.statements.size(); ++si) {
      IterationStatement& st = s_.statements[si];
      const Node& n = g_.node(st.node);
      int ix = indexOf(n.domain, s_.dimX), iy = indexOf(n.domain, s_.dimY);
      forEachDomainPoint(g_, n, s_.bounds, [&](const std::vector<int64_t>& p) {
        std::vector<int64_t> rest;
        for (size_t d = 0; d < p.size(); ++d)
          if (static_cast<int>(d) != ix && static_cast<int>(d) != iy) rest.push_back(p[d]);
        int slot = lanes_[st.placement].add(static_cast<int>(si), rest);
        dotOf_[{st.node, p}] = static_cast<int>(s_.dots.size());
        dotSlot_.push_back({st.placement, slot});
        s_.dots.push_back({static_cast<int>(si), p, 0, 0, 0, 0, -1});
        ++st.dots;
      });
    }
    for (auto& [placement, lanes] : lanes_) lanes.finish();
  }

  /// Top-left corner of the cell at column cx (extentX: the "no x" line) and
  /// row cy (-1: the "no y" line).
  std::pair<double, double> cellCorner(int64_t cx, int64_t cy) const {
    double x = kMarginLeft + static_cast<double>(cx) + (cx == s_.extentX ? kGap : 0.0);
    double y = kMarginTop + (cy < 0 ? static_cast<double>(s_.extentY) + kGap : static_cast<double>(s_.extentY - 1 - cy));
    return {x, y};
  }

  void addCell(int64_t cx, int64_t cy) {
    auto [x, y] = cellCorner(cx, cy);
    s_.cells.push_back({x + kInset, y + kInset, 1 - 2 * kInset, 1 - 2 * kInset, ""});
  }

  void layout() {
    bool rowLine = lanes_.count(P::RowLine), columnLine = lanes_.count(P::ColumnLine);
    for (int64_t cx = 0; cx < s_.extentX; ++cx)
      for (int64_t cy = 0; cy < s_.extentY; ++cy) addCell(cx, cy);
    if (rowLine)
      for (int64_t cx = 0; cx < s_.extentX; ++cx) addCell(cx, -1);
    if (columnLine)
      for (int64_t cy = 0; cy < s_.extentY; ++cy) addCell(s_.extentX, cy);

    double radius = 0.4;
    for (const auto& [placement, lanes] : lanes_) radius = std::min(radius, 0.3 / std::max(lanes.cols, lanes.rows));
    s_.dotRadius = radius;
    for (size_t i = 0; i < s_.dots.size(); ++i) {
      IterationDot& dot = s_.dots[i];
      const IterationStatement& st = s_.statements[dot.statement];
      int ix = indexOf(st.domain, s_.dimX), iy = indexOf(st.domain, s_.dimY);
      int64_t cy = iy >= 0 ? dot.point[iy] : s_.dimY.empty() ? 0 : -1;
      dot.cellX = ix >= 0 ? dot.point[ix] : s_.extentX;
      dot.cellY = cy;
      auto [x, y] = cellCorner(dot.cellX, cy);
      const Lanes& lanes = lanes_.at(dotSlot_[i].first);
      int slot = dotSlot_[i].second;
      dot.x = x + 0.1 + 0.8 * (slot % lanes.cols + 0.5) / lanes.cols;
      dot.y = y + 0.1 + 0.8 * (slot / lanes.cols + 0.5) / lanes.rows;
    }

    double bottom = kMarginTop + static_cast<double>(s_.extentY) + (rowLine ? 1 + kGap : 0);
    double right = kMarginLeft + static_cast<double>(s_.extentX) + (columnLine ? 1 + kGap : 0);
    for (int64_t cx = 0; cx < s_.extentX; ++cx)
      s_.ticks.push_back({cellCorner(cx, 0).first + 0.5, bottom + 0.3, std::to_string(cx)});
    if (columnLine) s_.ticks.push_back({cellCorner(s_.extentX, 0).first + 0.5, bottom + 0.3, "no " + s_.dimX});
    for (int64_t cy = 0; cy < s_.extentY && !s_.dimY.empty(); ++cy)
      s_.ticks.push_back({kMarginLeft - 0.3, cellCorner(0, cy).second + 0.5, std::to_string(cy)});
    if (rowLine) s_.ticks.push_back({kMarginLeft - 0.45, cellCorner(0, -1).second + 0.5, "no " + s_.dimY});
    s_.ticks.push_back({kMarginLeft + static_cast<double>(s_.extentX) / 2, bottom + 0.75, s_.dimX + " \u2192"});
    if (!s_.dimY.empty()) s_.ticks.push_back({0.3, kMarginTop + static_cast<double>(s_.extentY) / 2, s_.dimY + " \u2191"});
    s_.width = right + 0.2;
    s_.height = bottom + 1.0;
  }

  /// One IterationTiling per tiled dimension and block size, and the tiles of those on an axis.
  void collectTiles() {
    for (const BlockTiling& bt : blockTilings(g_)) {
      auto same = std::find_if(s_.tilings.begin(), s_.tilings.end(), [&](const IterationTiling& t) {
        return t.dim == bt.dim && t.blockSize == bt.blockSize;
      });
      if (same != s_.tilings.end()) {
        same->blockDims.push_back(bt.blockDim);
        continue;
      }
      IterationTiling t;
      t.dim = bt.dim;
      t.blockSize = bt.blockSize;
      t.blockDims = {bt.blockDim};
      t.blocks = s_.bounds.count(bt.blockCount) ? s_.bounds.at(bt.blockCount) : 0;
      t.drawn = bt.dim == s_.dimX || bt.dim == s_.dimY;
      const std::string bs = std::to_string(bt.blockSize);
      t.legend = "static tiles: " + bt.dim + " in blocks of BS = " + bs + " (" + bt.blockDim + " < " + bt.blockCount +
                 " = " + bt.count.str() + " = " + std::to_string(t.blocks) + ")";
      if (!t.drawn) t.legend += ", not drawn: " + bt.dim + " is not an axis of this picture";
      else if (!bt.guard.isAlways()) t.legend += "; a step runs the blocks where " + bt.guard.str();
      s_.tilings.push_back(std::move(t));
      if (s_.tilings.back().drawn) addTiles(static_cast<int>(s_.tilings.size()) - 1);
    }
  }

  /// Bands of BS columns (x) or rows (y) across the whole picture, labelled outside the grid.
  void addTiles(int index) {
    const IterationTiling& t = s_.tilings[index];
    const bool alongX = t.dim == s_.dimX;
    const int64_t extent = alongX ? s_.extentX : s_.extentY;
    const bool rowLine = lanes_.count(P::RowLine), columnLine = lanes_.count(P::ColumnLine);
    for (int64_t k = 0; k * t.blockSize < extent; ++k) {
      const int64_t first = k * t.blockSize, last = std::min(first + t.blockSize, extent) - 1;
      IterationTile tile;
      tile.tiling = index;
      tile.block = k;
      tile.alongX = alongX;
      tile.box.label = t.blockDims.front() + "=" + std::to_string(k);
      if (alongX) {
        tile.box.x = cellCorner(first, 0).first;
        tile.box.w = cellCorner(last, 0).first + 1 - tile.box.x;
        tile.box.y = kMarginTop;
        tile.box.h = static_cast<double>(s_.extentY) + (rowLine ? kGap + 1 : 0);
      } else {
        tile.box.x = kMarginLeft;
        tile.box.w = static_cast<double>(s_.extentX) + (columnLine ? kGap + 1 : 0);
        tile.box.y = cellCorner(0, last).second;
        tile.box.h = cellCorner(0, first).second + 1 - tile.box.y;
      }
      s_.tiles.push_back(std::move(tile));
    }
    if (!alongX) s_.width += 0.7;  // the row bands' labels sit right of the picture
  }

  void linkTimeline() {
    s_.timelineDot.assign(s_.timeline.size(), -1);
    for (size_t i = 0; i < s_.timeline.size(); ++i) {
      const ScheduleEvent& e = s_.timeline[i];
      if (e.kind != ScheduleEvent::Kind::Exec) continue;
      auto it = dotOf_.find({e.node, e.point});
      if (it == dotOf_.end()) continue;
      s_.timelineDot[i] = it->second;
      if (s_.dots[it->second].step < 0) s_.dots[it->second].step = static_cast<int>(i);
    }
  }

  void collectArrows() {
    for (const auto& [eid, e] : g_.edges()) {
      if (!statementOf_.count(e.consumer) || !statementOf_.count(e.producer)) continue;
      const Node& c = g_.node(e.consumer);
      forEachDomainPoint(g_, c, s_.bounds, [&](const std::vector<int64_t>& cp) {
        SymbolEnv env = instanceEnv(c, cp, s_.bounds);
        if (!edgeLiveAt(g_, e, env)) return;
        int to = dotOf_.at({c.id, cp});
        forEachReadPoint(g_, e, env, s_.bounds, [&](const std::vector<int64_t>& pp) {
          s_.arrows.push_back({dotOf_.at({e.producer, pp}), to, eid});
        });
      });
    }
  }
};

}  // namespace

std::string IterationSpace::describeDot(int dot) const {
  const IterationDot& d = dots.at(dot);
  const IterationStatement& st = statements.at(d.statement);
  std::string at;
  for (size_t i = 0; i < d.point.size(); ++i)
    at += (i ? ", " : "") + (i < st.domain.size() ? st.domain[i] : "?") + "=" + std::to_string(d.point[i]);
  std::string text = "statement " + st.label + " at (" + at + ")";
  if (st.loc.valid()) text += " \u2014 line " + std::to_string(st.loc.begin.line);
  return text;
}

int IterationSpace::brokenArrows() const {
  return static_cast<int>(std::count_if(arrows.begin(), arrows.end(), [&](const IterationArrow& a) {
    return runsBeforeItsProducer(a);
  }));
}

int IterationSpace::findDot(NodeId node, const std::vector<int64_t>& point) const {
  for (size_t i = 0; i < dots.size(); ++i)
    if (statements[dots[i].statement].node == node && dots[i].point == point) return static_cast<int>(i);
  return -1;
}

IterationSpace buildIterationSpace(const Graph& g, const LoopProgram& program, const SymbolEnv& bounds,
                                   const std::string& dimX, const std::string& dimY) {
  // Passes may add bounds derived from the user's (static tiling's block counts).
  return Builder(g, program, g.withDerivedBounds(bounds), dimX, dimY).build();
}

}  // namespace tempo
