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

/* The rows of an image, straight RGBA or cairo's premultiplied ARGB32. */
typedef struct {
  const unsigned char *data;
  size_t               stride;
  int                  premultiplied;
} png_src_t;

static int src_has_alpha(const png_src_t *s, int w, int h) {
  int x, y;
  for (y = 0; y < h; y++) {
    const unsigned char *r = s->data + (size_t)y * s->stride;
    for (x = 0; x < w; x++)
      if ((s->premultiplied ? ((const uint32_t *)(const void *)r)[x] >> 24 : r[4 * x + 3]) != 255) return 1;
  }
  return 0;
}

static void src_row(const png_src_t *s, int y, int w, int alpha, unsigned char *row) {
  const unsigned char *r = s->data + (size_t)y * s->stride;
  int x;
  if (s->premultiplied) {
    ct_unpremultiply_row((const uint32_t *)(const void *)r, row, w, alpha);
  } else if (alpha) {
    memcpy(row, r, (size_t)w * 4);
  } else {
    for (x = 0; x < w; x++) memcpy(row + 3 * x, r + 4 * x, 3);
  }
}

static cairo_status_t write_png(const png_src_t *src, int w, int h, cairo_write_func_t write, void *closure) {
  png_structp png;
  png_infop info = NULL;
  png_out_t out = { write, closure, 0 };
  int y;
  const volatile int alpha = src_has_alpha(src, w, h);   /* kept across libpng's longjmp */
  unsigned char *volatile row = NULL;

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
    src_row(src, y, w, alpha, row);
    png_write_row(png, row);
  }
  if (!out.failed) png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  free(row);
  return out.failed ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

cairo_status_t ct_png_write(cairo_surface_t *img, cairo_write_func_t write, void *closure) {
  png_src_t src;
  int w, h;
  cairo_surface_flush(img);
  if (cairo_image_surface_get_format(img) != CAIRO_FORMAT_ARGB32) return CAIRO_STATUS_INVALID_FORMAT;
  w = cairo_image_surface_get_width(img);
  h = cairo_image_surface_get_height(img);
  src.data = cairo_image_surface_get_data(img);
  src.stride = (size_t)cairo_image_surface_get_stride(img);
  src.premultiplied = 1;
  if (!src.data || w <= 0 || h <= 0) return CAIRO_STATUS_INVALID_SIZE;
  return write_png(&src, w, h, write, closure);
}

cairo_status_t ct_png_write_rgba(const unsigned char *rgba, int w, int h, cairo_write_func_t write, void *closure) {
  png_src_t src = { rgba, (size_t)w * 4, 0 };
  if (!rgba || w <= 0 || h <= 0) return CAIRO_STATUS_INVALID_SIZE;
  return write_png(&src, w, h, write, closure);
}
