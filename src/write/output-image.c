/*
** output-image.c: one page as one image file, PNG (drawn in bands, bands.c) or SVG (cairo's
** SVG surface, ids renumbered), and pages rasterized in memory.  Write stage; knows no PDF.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-svg.h>

#include "output-internal.h"

/* ---- PNG and rasterized pages -------------------------------------------- */

/* The size in pixels of a page at `scale` pixels per point, within the limits. */
static ct_status_t image_size(const ct_page_t *pg, double scale, const char *what, int *wp, int *hp,
                              ct_error_t *err) {
  double w = ceil(pg->width * scale - 1e-6), h = ceil(pg->height * scale - 1e-6);
  if (w < 1) w = 1;
  if (h < 1) h = 1;
  if (w > CT_MAX_IMAGE_SIDE || h > CT_MAX_IMAGE_SIDE || w * h > CT_MAX_IMAGE_PIXELS)
    return ct_set_error(err, CT_ERR_LIMIT, "%s: image of %.0fx%.0f pixels exceeds the limit "
                        "(%d per side, %.0f in all)", what, w, h, CT_MAX_IMAGE_SIDE,
                        (double)CT_MAX_IMAGE_PIXELS);
  *wp = (int)w;
  *hp = (int)h;
  return CT_OK;
}

/* The bands of a page (bands.c: the same pixels for any thread count). */
static ct_status_t page_bands(const ct_page_t *pg, int w, int h, double scale, const ct_inkset_t *inks,
                              unsigned threads, const char *what, ct_bands_t **out, ct_error_t *err) {
  ct_error_t e;
  if (!(*out = ct_bands_create(pg, w, h, scale, inks ? inks->v : NULL, inks ? inks->n : 0, threads, &e)))
    return ct_set_error(err, e.status, "%s: %s", what, e.message);
  return CT_OK;
}

/* Draws the bands into a new image surface. */
static ct_status_t draw_image(ct_bands_t *b, int w, int h, const char *what, unsigned threads, cairo_surface_t **out,
                              ct_error_t *err) {
  cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
  cairo_status_t s;
  ct_status_t st;
  ct_error_t e;
  if ((s = cairo_surface_status(img)) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(img);
    return ct_cairo_failed(s, what, err);
  }
  if ((st = ct_bands_draw_image(b, img, threads, &e)) != CT_OK) {
    cairo_surface_destroy(img);
    return ct_set_error(err, st, "%s: %s", what, e.message);
  }
  *out = img;
  return CT_OK;
}

/* Renders a page into a new image surface at `scale` pixels per point, in bands on
   `threads` threads. */
static ct_status_t render_image(ct_canvas_t *c, unsigned page, double scale, const char *what,
                                const ct_inkset_t *inks, unsigned threads, cairo_surface_t **out, ct_error_t *err) {
  const ct_page_t *pg = &c->pages[page];
  ct_bands_t *b;
  ct_status_t st;
  int w, h;
  if ((st = image_size(pg, scale, what, &w, &h, err)) != CT_OK) return st;
  if ((st = page_bands(pg, w, h, scale, inks, threads, what, &b, err)) != CT_OK) return st;
  st = draw_image(b, w, h, what, threads, out, err);
  ct_bands_destroy(b);
  return st;
}

ct_status_t ct_canvas_render_image(ct_canvas_t *c, unsigned page, double scale, cairo_surface_t **out,
                                   ct_error_t *err) {
  if (page >= c->npages)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "page %u out of range (the canvas has %u)", page + 1, c->npages);
  if (page < c->cleared)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "page %u was written as a stream and its drawing freed", page + 1);
  if (!(scale > 0 && scale * 72 <= CT_MAX_DPI)) return ct_set_error(err, CT_ERR_INVALID_ARG, "dpi out of range");
  /* one thread: animations draw their frames in several processes already */
  return render_image(c, page, scale, "frame", NULL, 1, out, err);
}

ct_status_t ct_write_png(ct_canvas_t *c, unsigned page, const char *path,
                         const ct_write_options_t *o, const ct_inkset_t *inks, ct_sink_t *sink, ct_error_t *err) {
  const ct_page_t *pg = &c->pages[page];
  double scale = o->width_px > 0 ? o->width_px / pg->width : o->dpi / 72.0;
  unsigned threads = o->threads ? o->threads : ct_get_threads();
  cairo_surface_t *img;
  cairo_status_t s;
  ct_bands_t *b;
  ct_status_t st;
  int w, h;
  if ((st = image_size(pg, scale, path, &w, &h, err)) != CT_OK) return st;
  if ((st = page_bands(pg, w, h, scale, inks, threads, path, &b, err)) != CT_OK) return st;
  /* a page with a background: compressed band by band as it is drawn; else drawn whole */
  if (!ct_png_write_bands(b, w, h, threads, ct_sink_write, sink, &s)) {
    st = draw_image(b, w, h, path, threads, &img, err);
    if (st == CT_OK) {
      s = ct_png_write(img, threads, ct_sink_write, sink);
      cairo_surface_destroy(img);
    }
  } else if (s == CAIRO_STATUS_SUCCESS && ct_bands_status(b) != CAIRO_STATUS_SUCCESS) {
    s = (cairo_status_t)ct_bands_status(b);
  }
  ct_bands_destroy(b);
  if (st != CT_OK) return st;
  if (s != CAIRO_STATUS_SUCCESS && !sink->failed) return ct_cairo_failed(s, path, err);
  return CT_OK;
}

ct_status_t ct_canvas_rasterize(ct_canvas_t *c, unsigned page, double dpi, int *width, int *height,
                                uint64_t *hash, ct_error_t *err) {
  cairo_surface_t *img;
  ct_status_t st;
  const unsigned char *data;
  int w, h, stride, y, x;
  uint64_t hv = 1469598103934665603u;
  if (page >= c->npages)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "page %u out of range (the canvas has %u)", page + 1, c->npages);
  if (page < c->cleared)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "page %u was written as a stream and its drawing freed", page + 1);
  if (!(dpi > 0 && dpi <= CT_MAX_DPI)) return ct_set_error(err, CT_ERR_INVALID_ARG, "dpi out of range");
  if ((st = render_image(c, page, dpi / 72.0, "rasterize", NULL, ct_get_threads(), &img, err)) != CT_OK) return st;
  cairo_surface_flush(img);
  w = cairo_image_surface_get_width(img);
  h = cairo_image_surface_get_height(img);
  stride = cairo_image_surface_get_stride(img);
  data = cairo_image_surface_get_data(img);
  for (y = 0; y < h; y++)
    for (x = 0; x < w * 4; x++) hv = (hv ^ data[(size_t)y * (size_t)stride + (size_t)x]) * 1099511628211u;
  cairo_surface_destroy(img);
  if (width) *width = w;
  if (height) *height = h;
  if (hash) *hash = hv;
  return CT_OK;
}

/* ---- SVG ----------------------------------------------------------------- */

/* cairo names SVG elements after process-wide surface ids ("surface42", "image7"), so
   the same page written twice would differ: renumber them by first appearance. */
static int renumber_ids(const char *in, size_t len, ct_sink_t *out) {
  static const char *const words[] = { "surface", "image" };
  unsigned long seen[2][256];
  unsigned nseen[2] = { 0, 0 };
  size_t i = 0, start = 0;
  while (i < len) {
    unsigned w;
    int matched = 0;
    for (w = 0; w < 2 && !matched; w++) {
      size_t n = strlen(words[w]), j;
      unsigned long id = 0;
      unsigned k;
      char num[32];
      if (len - i <= n || memcmp(in + i, words[w], n) != 0) continue;
      if (i > 0 && (in[i - 1] == '_' || (in[i - 1] >= 'a' && in[i - 1] <= 'z'))) continue;
      for (j = i + n; j < len && in[j] >= '0' && in[j] <= '9' && j - i - n < 12; j++)
        id = id * 10 + (unsigned long)(in[j] - '0');
      if (j == i + n) continue;
      for (k = 0; k < nseen[w] && seen[w][k] != id; k++) {}
      if (k == nseen[w]) {
        if (nseen[w] == 256) return -1;   /* too many to renumber: leave as is */
        seen[w][nseen[w]++] = id;
      }
      snprintf(num, sizeof num, "%s%u", words[w], k + 1);
      ct_sink_write(out, (const unsigned char *)in + start, (unsigned)(i - start));
      ct_sink_write(out, (const unsigned char *)num, (unsigned)strlen(num));
      i = start = j;
      matched = 1;
    }
    if (!matched) i++;
  }
  ct_sink_write(out, (const unsigned char *)in + start, (unsigned)(len - start));
  return 0;
}

ct_status_t ct_write_svg(ct_canvas_t *c, unsigned page, const char *path, const ct_inkset_t *inks,
                         ct_sink_t *out, ct_error_t *err) {
  ct_sink_t mem, *sink = &mem;
  cairo_surface_t *svg;
  memset(&mem, 0, sizeof mem);
  svg = cairo_svg_surface_create_for_stream(ct_sink_write, sink, c->pages[page].width, c->pages[page].height);
  cairo_t *cr;
  cairo_status_t s;
  cairo_svg_surface_restrict_to_version(svg, CAIRO_SVG_VERSION_1_1);
  cairo_svg_surface_set_document_unit(svg, CAIRO_SVG_UNIT_PT);
  cr = cairo_create(svg);
  /* no shared recordings: cairo 1.16's SVG surface never frees a recording used as a source */
  ct_paint_page(cr, &c->pages[page], NULL, inks, 0);
  s = cairo_status(cr);
  cairo_destroy(cr);
  cairo_surface_finish(svg);
  if (s == CAIRO_STATUS_SUCCESS) s = cairo_surface_status(svg);
  cairo_surface_destroy(svg);
  if (s == CAIRO_STATUS_SUCCESS && mem.failed) s = CAIRO_STATUS_NO_MEMORY;
  if (s != CAIRO_STATUS_SUCCESS) {
    free(mem.mem);
    return ct_cairo_failed(s, path, err);
  }
  {
    ct_sink_t fixed;
    memset(&fixed, 0, sizeof fixed);
    if (renumber_ids(mem.mem, mem.len, &fixed) == 0 && !fixed.failed)
      ct_sink_write(out, (const unsigned char *)fixed.mem, (unsigned)fixed.len);
    else
      ct_sink_write(out, (const unsigned char *)mem.mem, (unsigned)mem.len);
    free(fixed.mem);
  }
  free(mem.mem);
  return CT_OK;
}
