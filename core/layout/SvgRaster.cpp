#include "layout/SvgRaster.h"

#include <cairo.h>
#include <librsvg/rsvg.h>

#include <cmath>
#include <memory>

namespace tempo {

namespace {

struct GObjectUnref {
  void operator()(RsvgHandle* h) const { g_object_unref(h); }
};
struct SurfaceDestroy {
  void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
struct ContextDestroy {
  void operator()(cairo_t* c) const { cairo_destroy(c); }
};

std::string takeMessage(GError* error, const char* fallback) {
  std::string message = error && error->message ? error->message : fallback;
  if (error) g_error_free(error);
  return message;
}

cairo_status_t appendBytes(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

std::string rasterizeSvgToPng(const std::string& svg, double scale) {
  if (!(scale > 0)) throw SvgRasterError("SVG raster scale must be positive");
  GError* error = nullptr;
  std::unique_ptr<RsvgHandle, GObjectUnref> handle(
      rsvg_handle_new_from_data(reinterpret_cast<const guint8*>(svg.data()), svg.size(), &error));
  if (!handle) throw SvgRasterError("cannot read the SVG: " + takeMessage(error, "parse error"));
  gdouble width = 0, height = 0;
  if (!rsvg_handle_get_intrinsic_size_in_pixels(handle.get(), &width, &height) || width <= 0 || height <= 0)
    throw SvgRasterError("the SVG has no width and height in pixels");
  const int pixelsWide = static_cast<int>(std::ceil(width * scale));
  const int pixelsHigh = static_cast<int>(std::ceil(height * scale));
  std::unique_ptr<cairo_surface_t, SurfaceDestroy> surface(
      cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pixelsWide, pixelsHigh));
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS)
    throw SvgRasterError("cannot allocate a " + std::to_string(pixelsWide) + "x" + std::to_string(pixelsHigh) +
                         " image");
  std::unique_ptr<cairo_t, ContextDestroy> cr(cairo_create(surface.get()));
  cairo_set_source_rgb(cr.get(), 1, 1, 1);
  cairo_paint(cr.get());
  const RsvgRectangle viewport{0, 0, pixelsWide * 1.0, pixelsHigh * 1.0};
  if (!rsvg_handle_render_document(handle.get(), cr.get(), &viewport, &error))
    throw SvgRasterError("cannot render the SVG: " + takeMessage(error, "render error"));
  std::string png;
  if (cairo_surface_write_to_png_stream(surface.get(), appendBytes, &png) != CAIRO_STATUS_SUCCESS)
    throw SvgRasterError("cannot encode the PNG");
  return png;
}

}  // namespace tempo
