// SvgRaster: an SVG document rasterised to PNG bytes, without a display.
//
// The headless CLI draws its pictures as SVG (Graphviz for the dependence
// graph, our own writer for the iteration space); `--format png` needs the
// same picture as pixels. librsvg parses and renders the SVG onto a cairo
// image surface (white background, `scale` times the document's intrinsic
// size, so 2 gives a picture crisp on high-DPI screens) and cairo encodes it
// as PNG. Qt-free, so it works where no QGuiApplication can start.
#pragma once

#include <stdexcept>
#include <string>

namespace tempo {

struct SvgRasterError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// PNG file contents for `svg`; throws SvgRasterError when the SVG cannot be
/// parsed or has no size.
std::string rasterizeSvgToPng(const std::string& svg, double scale = 1.0);

}  // namespace tempo
