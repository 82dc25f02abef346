// IterationSpaceSvg: an IterationSpace drawn as a standalone SVG document.
//
// Written by hand (no graphics library) so the headless CLI can draw the
// same picture the studio shows: grey cells, static tiles as translucent
// bands (one <rect class="tile"> per tile, every other one darker, labelled
// `ds=0`, ...), one circle per statement
// instance (exactly one <circle> per dot, nothing else is a circle) coloured
// by statement, dependence arrows producer -> consumer, axis values and
// names, and a legend of statements (with their instance counts and source
// lines, in columns), of the tilings (BS, the block count, the guard) and of
// the nodes left out. Arrows between instances in
// different cells (loop-carried dependences) are dark, arrows inside one
// cell light. With `step` >= 0 it draws that replay
// frame: instances executed so far filled, the current one ringed, the rest
// hollow. `selectedDot` and `highlightNode` let a view point at instances.
#pragma once

#include "iteration/IterationSpace.h"

#include <string>

namespace tempo {

struct IterationSvgOptions {
  double scale = 0;        ///< pixels per grid cell (0: enough for dots of radius 5)
  bool arrows = true;
  int step = -1;           ///< replay frame (number of steps taken); -1: everything executed
  int selectedDot = -1;    ///< ringed, with its dependences drawn in red
  NodeId highlightNode = -1;  ///< every instance of this node ringed
  std::string title;       ///< drawn above the picture when not empty
};

/// Where the layout's (x, y) lands in the SVG: (x * scale, svgTop + y * scale).
double iterationSvgTop(const IterationSvgOptions& options);
/// The pixels per cell used for `space` (options.scale, or the automatic one).
double iterationSvgScale(const IterationSpace& space, const IterationSvgOptions& options);

std::string renderIterationSpaceSvg(const IterationSpace& space, const IterationSvgOptions& options = {});

}  // namespace tempo
