/* png.c: PNG output through libpng, tuned for speed.
 *
 * cairo's own PNG writer lets libpng try every row filter at zlib's default level: on a
 * sheet of 1,000 emoji that is three quarters of the whole run.  Rendered type and color
 * glyphs are long runs of flat color, which deflate finds without any row filter: chromatype
 * writes rows unfiltered at zlib level 3, which measured (bench/sheet.lua, the festival
 * poster) two to three times faster than cairo's writer and 6 to 15 % smaller.  RGB without
 * an alpha channel when every pixel is opaque (a page with a background).  Deterministic.
 */
#include "ct-private.h"

#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  cairo_write_func_t write;
  void              *closure;
  int                failed;
} png_out_t;

static void on_write(png_structp png, png_bytep data, size_t len) {
  png_out_t *o = png_get_io_ptr(png);
  while (len > 0 && !o->failed) {
    unsigned n = len > 0x40000000u ? 0x40000000u : (unsigned)len;
    if (o->write(o->closure, data, n) != CAIRO_STATUS_SUCCESS) o->failed = 1;
    data += n;
    len -= n;
  }
}

static void on_flush(png_structp png) { (void)png; }

static void on_error(png_structp png, png_const_charp msg) {
  (void)msg;
  png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg) { (void)png; (void)msg; }

/* One row of cairo's premultiplied native-endian ARGB32 as straight RGB(A) bytes. */
void ct_unpremultiply_row(const uint32_t *in, unsigned char *out, int w, int alpha) {
  int x;
  for (x = 0; x < w; x++) {
    uint32_t p = in[x];
    unsigned a = p >> 24, r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;
    if (a != 0 && a != 255) {
      r = (r * 255 + a / 2) / a;
      g = (g * 255 + a / 2) / a;
      b = (b * 255 + a / 2) / a;
    }
    *out++ = (unsigned char)r;
    *out++ = (unsigned char)g;
    *out++ = (unsigned char)b;
    if (alpha) *out++ = (unsigned char)a;
  }
}

cairo_status_t ct_png_write(cairo_surface_t *img, cairo_write_func_t write, void *closure) {
  png_structp png;
  png_infop info = NULL;
  png_out_t out = { write, closure, 0 };
  int w, h, stride, y;
  volatile int alpha = 0;
  const unsigned char *data;
  unsigned char *volatile row = NULL;

  cairo_surface_flush(img);
  if (cairo_image_surface_get_format(img) != CAIRO_FORMAT_ARGB32) return CAIRO_STATUS_INVALID_FORMAT;
  w = cairo_image_surface_get_width(img);
  h = cairo_image_surface_get_height(img);
  stride = cairo_image_surface_get_stride(img);
  data = cairo_image_surface_get_data(img);
  if (!data || w <= 0 || h <= 0) return CAIRO_STATUS_INVALID_SIZE;
  for (y = 0; y < h && !alpha; y++) {
    const uint32_t *p = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
    int x;
    for (x = 0; x < w; x++) if ((p[x] >> 24) != 255) { alpha = 1; break; }
  }
  if (!(row = malloc((size_t)w * 4))) return CAIRO_STATUS_NO_MEMORY;
  png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, on_error, on_warning);
  if (!png || !(info = png_create_info_struct(png))) {
    png_destroy_write_struct(&png, NULL);
    free(row);
    return CAIRO_STATUS_NO_MEMORY;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    free(row);
    return CAIRO_STATUS_WRITE_ERROR;
  }
  png_set_write_fn(png, &out, on_write, on_flush);
  png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, alpha ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
  png_set_compression_level(png, 3);
  png_write_info(png, info);
  for (y = 0; y < h && !out.failed; y++) {
    ct_unpremultiply_row((const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride), row, w, alpha);
    png_write_row(png, row);
  }
  if (!out.failed) png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  free(row);
  return out.failed ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}
