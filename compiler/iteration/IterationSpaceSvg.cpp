#include "iteration/IterationSpaceSvg.h"

#include "iteration/IterationPlayback.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace tempo {

namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

class SvgWriter {
public:
  SvgWriter(const IterationSpace& s, const IterationSvgOptions& o) : s_(s), o_(o), playback_(s) {
    o_.scale = iterationSvgScale(s, o);
    if (o_.step < 0) playback_.finish();
    else
      for (int i = 0; i < o_.step && playback_.step(); ++i) {
      }
  }

  std::string write() {
    double k = o_.scale;
    top_ = iterationSvgTop(o_);
    double legendTop = top_ + s_.height * k;
    double width = std::max(s_.width * k, 420.0);
    for (const IterationTiling& t : s_.tilings) width = std::max(width, 30 + kCharWidth * static_cast<double>(t.legend.size()));
    width = std::max(width, 16 + 1.35 * kCharWidth * static_cast<double>(o_.title.size()));  // 14 px bold
    columns_ = std::max(1, static_cast<int>(width / kLegendColumn));
    double rows = std::ceil(static_cast<double>(s_.statements.size()) / columns_) + (s_.omitted.empty() ? 0 : 1) +
                  static_cast<double>(s_.tilings.size());
    double height = legendTop + 12 + rows * 17 + 8;
    out_ << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\"" << num(height)
         << "\" viewBox=\"0 0 " << num(width) << " " << num(height) << "\" font-family=\"DejaVu Sans, sans-serif\">\n"
         << "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\""
            " orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#444\"/></marker>"
            "<marker id=\"arrowRed\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\""
            " orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#d62728\"/></marker>"
            "<marker id=\"arrowLight\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\""
            " orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#888\"/></marker></defs>\n"
         << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    if (!o_.title.empty()) text(8, 19, o_.title, "start", 14, "bold");
    for (const IterationBox& b : s_.cells)
      out_ << "<rect x=\"" << num(X(b.x)) << "\" y=\"" << num(Y(b.y)) << "\" width=\"" << num(b.w * k) << "\" height=\""
           << num(b.h * k) << "\" rx=\"3\" fill=\"#ececec\"/>\n";
    tiles();
    for (const IterationTick& t : s_.ticks) text(X(t.x), Y(t.y) + 4, t.text, "middle", 12, "normal");
    if (o_.arrows) arrows();
    else violatedArrows();  // drawn even with the arrows off: they are what is wrong
    dots();
    legend(legendTop + 12);
    out_ << "</svg>\n";
    return out_.str();
  }

private:
  const IterationSpace& s_;
  IterationSvgOptions o_;
  IterationPlayback playback_;
  std::ostringstream out_;
  double top_ = 0;
  int columns_ = 1;
  static constexpr double kLegendColumn = 250;
  static constexpr double kCharWidth = 6.3;  ///< about, for 11 px legend text
  static constexpr const char* kTileColor = "#4e79a7";

  /// Every other tile darker, so neighbouring blocks read apart.
  static const char* tileOpacity(int64_t block) { return block % 2 ? "0.2" : "0.08"; }

  /// Translucent bands, one per static tile (class "tile"), labelled outside the grid.
  void tiles() {
    double k = o_.scale;
    for (const IterationTile& t : s_.tiles) {
      const IterationBox& b = t.box;
      const IterationTiling& tiling = s_.tilings[t.tiling];
      out_ << "<rect class=\"tile\" x=\"" << num(X(b.x)) << "\" y=\"" << num(Y(b.y)) << "\" width=\"" << num(b.w * k)
           << "\" height=\"" << num(b.h * k) << "\" rx=\"4\" fill=\"" << kTileColor << "\" fill-opacity=\""
           << tileOpacity(t.block) << "\" stroke=\"" << kTileColor << "\" stroke-opacity=\"0.7\" stroke-dasharray=\"5 3\">"
           << "<title>" << escape(b.label + ": " + tiling.dim + " " + std::to_string(t.block * tiling.blockSize) + " to " +
                                  std::to_string(t.block * tiling.blockSize + tiling.blockSize - 1))
           << "</title></rect>\n";
      if (t.alongX) text(X(b.x) + 3, Y(b.y) - 4, b.label, "start", 10, "normal");
      else text(X(b.x + b.w) + 4, Y(b.y + b.h / 2) + 4, b.label, "start", 10, "normal");
    }
  }

  double X(double x) const { return x * o_.scale; }
  double Y(double y) const { return top_ + y * o_.scale; }

  void text(double x, double y, const std::string& s, const char* anchor, int size, const char* weight) {
    out_ << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" text-anchor=\"" << anchor << "\" font-size=\"" << size
         << "\" font-weight=\"" << weight << "\" fill=\"#222\">" << escape(s) << "</text>\n";
  }

  void arrows() {
    auto carried = [&](const IterationArrow& a) {
      return s_.dots[a.from].cellX != s_.dots[a.to].cellX || s_.dots[a.from].cellY != s_.dots[a.to].cellY;
    };
    out_ << "<g stroke=\"#888\" stroke-opacity=\"0.6\" stroke-width=\"0.8\" marker-end=\"url(#arrowLight)\">\n";
    for (const IterationArrow& a : s_.arrows)
      if (!carried(a)) arrow(a);
    out_ << "</g>\n<g stroke=\"#333\" stroke-opacity=\"0.8\" stroke-width=\"1.3\" marker-end=\"url(#arrow)\">\n";
    for (const IterationArrow& a : s_.arrows)
      if (carried(a)) arrow(a);
    out_ << "</g>\n";
    violatedArrows();
    if (o_.selectedDot < 0) return;
    out_ << "<g stroke=\"#d62728\" stroke-width=\"2\" marker-end=\"url(#arrowRed)\">\n";
    for (const IterationArrow& a : s_.arrows)
      if (a.from == o_.selectedDot || a.to == o_.selectedDot) arrow(a);
    out_ << "</g>\n";
  }

  /// Dependences the schedule breaks (a reader that runs before the value it reads): red, dashed.
  void violatedArrows() {
    bool any = false;
    for (const IterationArrow& a : s_.arrows) {
      if (!s_.runsBeforeItsProducer(a)) continue;
      if (!any) out_ << "<g class=\"violated\" stroke=\"#d62728\" stroke-width=\"2.2\" stroke-dasharray=\"4 2\" "
                        "marker-end=\"url(#arrowRed)\">\n";
      any = true;
      arrow(a);
    }
    if (any) out_ << "</g>\n";
  }

  void arrow(const IterationArrow& a) {
    double r = s_.dotRadius * o_.scale;
    const IterationDot& p = s_.dots[a.from];
    const IterationDot& c = s_.dots[a.to];
    double x0 = X(p.x), y0 = Y(p.y), x1 = X(c.x), y1 = Y(c.y);
    double len = std::hypot(x1 - x0, y1 - y0);
    if (len <= 2 * r + 1) return;
    double ux = (x1 - x0) / len, uy = (y1 - y0) / len;
    out_ << "<line x1=\"" << num(x0 + ux * r) << "\" y1=\"" << num(y0 + uy * r) << "\" x2=\"" << num(x1 - ux * (r + 1))
         << "\" y2=\"" << num(y1 - uy * (r + 1)) << "\"/>\n";
  }

  void dots() {
    double r = s_.dotRadius * o_.scale;
    for (size_t i = 0; i < s_.dots.size(); ++i) {
      const IterationDot& d = s_.dots[i];
      const std::string& color = s_.statements[d.statement].color;
      bool done = playback_.executed(static_cast<int>(i));
      bool current = (playback_.currentDot() == static_cast<int>(i) && o_.step >= 0) ||
                     static_cast<int>(i) == o_.selectedDot || s_.statements[d.statement].node == o_.highlightNode;
      out_ << "<circle cx=\"" << num(X(d.x)) << "\" cy=\"" << num(Y(d.y)) << "\" r=\"" << num(r) << "\" fill=\""
           << (done ? color : "white") << "\" stroke=\"" << (current ? "#000" : color) << "\" stroke-width=\""
           << (current ? 3 : 1.5) << "\"><title>" << escape(s_.describeDot(static_cast<int>(i))) << "</title></circle>\n";
    }
  }

  void legend(double top) {
    size_t rows = (s_.statements.size() + columns_ - 1) / columns_;
    for (size_t i = 0; i < s_.statements.size(); ++i) {
      const IterationStatement& st = s_.statements[i];
      double x = 8 + static_cast<double>(i / rows) * kLegendColumn, y = top + static_cast<double>(i % rows) * 17;
      out_ << "<rect x=\"" << num(x) << "\" y=\"" << num(y - 10) << "\" width=\"12\" height=\"12\" rx=\"6\" fill=\""
           << st.color << "\"/>\n";
      std::string over;
      for (size_t d = 0; d < st.domain.size(); ++d) over += (d ? ", " : "") + st.domain[d];
      std::string line = st.loc.valid() ? "  line " + std::to_string(st.loc.begin.line) : "";
      text(x + 17, y, st.label + " (" + over + ") \u00D7" + std::to_string(st.dots) + line, "start", 12, "normal");
    }
    double y = top + static_cast<double>(rows) * 17;
    for (const IterationTiling& t : s_.tilings) {
      out_ << "<rect x=\"8\" y=\"" << num(y - 10) << "\" width=\"12\" height=\"12\" fill=\"" << kTileColor
           << "\" fill-opacity=\"" << tileOpacity(t.drawn ? 1 : 0) << "\" stroke=\"" << kTileColor
           << "\" stroke-dasharray=\"3 2\"/>\n";
      text(25, y, t.legend, "start", 11, "normal");
      y += 17;
    }
    if (!s_.omitted.empty())
      text(8, y, std::to_string(s_.omitted.size()) + " nodes over " + (s_.dimY.empty() ? "no " + s_.dimX : "neither " + s_.dimX + " nor " + s_.dimY) +
                     " (weights, constants) run outside this plane and are not drawn",
           "start", 11, "normal");
  }
};

}  // namespace

double iterationSvgTop(const IterationSvgOptions& options) { return options.title.empty() ? 0 : 28; }

double iterationSvgScale(const IterationSpace& space, const IterationSvgOptions& options) {
  return options.scale > 0 ? options.scale : std::max(56.0, 5.0 / space.dotRadius);
}

std::string renderIterationSpaceSvg(const IterationSpace& space, const IterationSvgOptions& options) {
  return SvgWriter(space, options).write();
}

}  // namespace tempo
