// IterationSpaceOutput: `tempo schedule FILE --iteration-space X[,Y] --format svg|png`.
//
// The headless twin of the studio's iteration-space view: the program is
// compiled exactly as the studio compiles it (default pass pipeline and the
// parametric isl schedule, compileProgram), the schedule is enumerated at
// small concrete bounds (the program's `set` values overridden by --set, e.g.
// `--set T=8,B=2` style repeated flags; static tiling's block size by
// --block-size), and the picture — one dot per statement instance,
// dependence arrows, static tiles shaded, statement legend — is written as
// SVG (compiler/iteration/IterationSpaceSvg) or rasterised to PNG
// (core/layout/SvgRaster). Usage errors (unknown dimension, bad --set, png
// without --output) exit 2; program errors 1; a schedule too large to draw 3.
// With --transform the transformed schedule is drawn; an illegal one too (its
// broken dependences red and dashed, each named on stderr), and the exit is 1.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace tempo::cli {

struct IterationSpaceRequest {
  std::string file;
  std::string dims;                ///< "t" or "t,b" (x first)
  std::vector<std::string> sets;   ///< NAME=INT overrides
  std::string format = "svg";      ///< svg or png
  std::string output;              ///< "" = stdout (svg only)
  int64_t blockSize = 0;           ///< static tiling's block size (0: the cost model's)
  std::string transform;           ///< schedule transforms (ScheduleTransform text), "" for none
};

/// Draws the picture; returns the exit code (see Cli.h).
int writeIterationSpace(const IterationSpaceRequest& request, std::ostream& out, std::ostream& err);

}  // namespace tempo::cli
