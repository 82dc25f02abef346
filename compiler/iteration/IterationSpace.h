// IterationSpace: the teaching picture of a schedule at small concrete bounds.
//
// `buildIterationSpace` takes a graph, its LoopProgram and bound values and
// two chosen dimensions (x, y) and lays out, in abstract units (one grid cell
// per (x, y) point, y pointing down on screen with y = 0 at the bottom row):
//  - a dot for every statement instance (node, point) of every node whose
//    domain has at least one chosen dimension. Nodes with both share each
//    cell, one lane (sub-position) per node and per point of its other
//    dimensions; nodes with only the x dimension sit on a line below the grid
//    ("no y"), nodes with only the y dimension on a line right of it ("no x").
//    Nodes with neither (weights, constants, hoisted scalars) are not drawn:
//    they are listed in `omitted`.
//  - an arrow producer -> consumer for every pair of drawn instances an edge
//    connects: the edge is live at the consumer point (its condition holds
//    and, into a merge, no earlier branch's does) and the producer point is
//    read there (point atoms, every point of a slice), inside the producer's
//    domain (InstanceReads).
//  - the execution order: the whole schedule enumerated at these bounds
//    (ScheduleTimeline), each dot knowing its step in it, so views can replay
//    it with Alloc/Free events where they occur.
// An empty `dimY` draws one row: every node with the x dimension on it.
//  - static tiles: for each dimension static tiling cut into blocks
//    (BlockTilings: a block dimension ds, BS from its derived bound DS) one
//    IterationTiling, and when that dimension is the x (y) axis one tile per
//    block, a band over the columns (rows) BS*ds .. BS*ds+BS-1 across the
//    whole picture: the positions one block of a growing window holds.
// An arrow whose consumer runs first (an illegal schedule's) is a broken dependence
// (runsBeforeItsProducer); the renderer draws those red and dashed.
// The SVG renderer and the studio's view both draw this model.
#pragma once

#include "iteration/ScheduleTimeline.h"

#include <string>
#include <vector>

namespace tempo {

struct IterationStatement {
  enum class Placement { Plane, RowLine, ColumnLine };
  NodeId node = -1;
  std::string label;               ///< "%4 h" (name, or op for intermediates)
  std::vector<std::string> domain; ///< the node's dimensions
  Placement placement = Placement::Plane;
  SourceRange loc;
  std::string color;               ///< "#rrggbb", one per statement
  int dots = 0;
};

struct IterationDot {
  int statement = -1;          ///< index into IterationSpace::statements
  std::vector<int64_t> point;  ///< one value per domain dimension
  double x = 0, y = 0;         ///< centre, in layout units
  int64_t cellX = 0, cellY = 0;  ///< its grid cell (extentX: the "no x" line, -1: the "no y" line)
  int step = -1;               ///< index into the timeline where it runs (-1: never)
};

/// Producer instance -> consumer instance (indices into `dots`).
struct IterationArrow {
  int from = -1;
  int to = -1;
  EdgeId edge = -1;
};

/// A labelled rectangle in layout units: the grid's cells, the lines, tiles.
struct IterationBox {
  double x = 0, y = 0, w = 0, h = 0;
  std::string label;
};

/// A dimension cut into static tiles of `blockSize` positions.
struct IterationTiling {
  std::string dim;                     ///< the tiled dimension (`t`)
  int64_t blockSize = 0;               ///< BS
  std::vector<std::string> blockDims;  ///< its block dimensions (`ds`; several regions may share one cut)
  int64_t blocks = 0;                  ///< the number of blocks at these bounds (DS)
  bool drawn = false;                  ///< `dim` is an axis of the picture (its tiles are in `tiles`)
  std::string legend;                  ///< one line saying what the shading means
};

/// One shaded tile: block `block` of `tilings[tiling]`.
struct IterationTile {
  IterationBox box;  ///< label: `ds=0`
  int tiling = -1;
  int64_t block = 0;
  bool alongX = true;  ///< a band of columns (else of rows)
};

/// An axis label centred at (x, y).
struct IterationTick {
  double x = 0, y = 0;
  std::string text;
};

struct IterationSpace {
  std::string dimX, dimY;
  int64_t extentX = 0, extentY = 0;
  SymbolEnv bounds;
  std::vector<IterationStatement> statements;  ///< in order of first execution
  std::vector<IterationDot> dots;
  std::vector<IterationArrow> arrows;
  std::vector<ScheduleEvent> timeline;  ///< every event of the schedule, in order
  std::vector<int> timelineDot;         ///< per timeline entry: its dot, or -1
  std::vector<NodeId> omitted;          ///< nodes with neither chosen dimension
  std::vector<IterationBox> cells;      ///< one grey box per grid cell and line cell
  std::vector<IterationTiling> tilings;  ///< every statically tiled dimension
  std::vector<IterationTile> tiles;     ///< the tiles of the tilings drawn on an axis
  std::vector<IterationTick> ticks;     ///< axis values and axis names
  double width = 0, height = 0;         ///< extent of everything, from (0, 0)
  double dotRadius = 0.1;

  /// "statement %4 h at (t=3, b=1) — line 17".
  std::string describeDot(int dot) const;
  /// The dot of `node` at `point`, or -1.
  int findDot(NodeId node, const std::vector<int64_t>& point) const;
  /// True when the schedule runs the arrow's consumer before (or as) its producer: a broken
  /// dependence, which only an illegal schedule (a student's transform) has.
  bool runsBeforeItsProducer(const IterationArrow& a) const {
    const int from = dots[a.from].step, to = dots[a.to].step;
    return from >= 0 && to >= 0 && from >= to;
  }
  /// How many arrows runsBeforeItsProducer.
  int brokenArrows() const;
};

/// Builds the picture (`dimY` may be ""); throws std::invalid_argument for
/// unknown or equal dimensions or a missing bound value, std::runtime_error for a schedule
/// too large to enumerate.
IterationSpace buildIterationSpace(const Graph& g, const LoopProgram& program, const SymbolEnv& bounds,
                                   const std::string& dimX, const std::string& dimY);

}  // namespace tempo
