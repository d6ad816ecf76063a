/*
** test_image.c: ct_canvas_draw_image in the core: status codes and messages for each kind of
** bad file, the box arithmetic, a picture read once however often it is drawn, and the
** pixels of a PNG drawn into a box.  Core unit test (the Lua tests cover formats and output).
*/
#include <sys/stat.h>
#include <unistd.h>

#include <cairo.h>

#include "ct-test.h"
#include "ct.h"

static char dir[] = "/tmp/ct-test-image-XXXXXX";

static void put(const char *path, const void *bytes, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return;
  fwrite(bytes, 1, n, f);
  fclose(f);
}

/* A w x h PNG of one color, written by cairo. */
static void make_png(const char *path, int w, int h, double r, double g, double b) {
  cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create(s);
  cairo_set_source_rgb(cr, r, g, b);
  cairo_paint(cr);
  cairo_destroy(cr);
  cairo_surface_write_to_png(s, path);
  cairo_surface_destroy(s);
}

/* The pixel (x, y) of a PNG as 0xAARRGGBB (premultiplied), or 0 if unreadable. */
static uint32_t pixel(const char *path, int x, int y) {
  cairo_surface_t *s = cairo_image_surface_create_from_png(path);
  uint32_t v = 0;
  if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS && x < cairo_image_surface_get_width(s) &&
      y < cairo_image_surface_get_height(s)) {
    const unsigned char *row = cairo_image_surface_get_data(s) + (size_t)y * (size_t)cairo_image_surface_get_stride(s);
    memcpy(&v, row + 4 * x, 4);
  }
  cairo_surface_destroy(s);
  return v;
}

static void test_errors(void) {
  char path[400], missing[256];
  ct_error_t err;
  ct_canvas_t *c = ct_canvas_create(100, 100, &err);
  static const unsigned char huge[] = {   /* a PNG header claiming 40000 x 10 */
    0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
    0, 0, 0x9C, 0x40, 0, 0, 0, 10, 8, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
  };

  snprintf(missing, sizeof missing, "%s/missing.png", dir);
  CHECK(ct_canvas_draw_image(c, missing, 0, 0, 0, 0, CT_FIT_CONTAIN, &err) == CT_ERR_IO);
  snprintf(path, sizeof path, "%s: cannot open: No such file or directory", missing);
  CHECK_STR(err.message, path);
  CHECK(ct_canvas_draw_image(c, dir, 0, 0, 0, 0, CT_FIT_CONTAIN, &err) == CT_ERR_IO);
  CHECK(strstr(err.message, "Is a directory") != NULL);
  CHECK(ct_canvas_draw_image(c, missing, 0, 0, 0, 0, CT_FIT_CONTAIN, NULL) == CT_ERR_IO);   /* err may be NULL */

  snprintf(path, sizeof path, "%s/text.png", dir);
  put(path, "just text\n", 10);
  CHECK(ct_canvas_draw_image(c, path, 0, 0, 0, 0, CT_FIT_CONTAIN, &err) == CT_ERR_INVALID_IMAGE);
  CHECK(strstr(err.message, ": not an image (") != NULL);

  snprintf(path, sizeof path, "%s/huge.png", dir);
  put(path, huge, sizeof huge);
  CHECK(ct_canvas_draw_image(c, path, 0, 0, 0, 0, CT_FIT_CONTAIN, &err) == CT_ERR_LIMIT);
  CHECK(strstr(err.message, "image of 40000x10 pixels exceeds the limit") != NULL);

  snprintf(path, sizeof path, "%s/doctype.svg", dir);
  {
    static const char doc[] = "<!DOCTYPE svg><svg xmlns='http://www.w3.org/2000/svg' width='9' height='9'/>";
    put(path, doc, strlen(doc));
  }
  CHECK(ct_canvas_draw_image(c, path, 0, 0, 0, 0, CT_FIT_CONTAIN, &err) == CT_ERR_INVALID_IMAGE);
  CHECK(strstr(err.message, "SVG: document has a DOCTYPE") != NULL);

  /* the box is checked before the file is read */
  CHECK(ct_canvas_draw_image(c, missing, 0, 0, -1, 0, CT_FIT_CONTAIN, &err) == CT_ERR_INVALID_ARG);
  CHECK(ct_canvas_draw_image(c, missing, NAN, 0, 0, 0, CT_FIT_CONTAIN, &err) == CT_ERR_INVALID_ARG);
  CHECK(ct_canvas_draw_image(c, missing, 0, 0, 1e9, 0, CT_FIT_CONTAIN, &err) == CT_ERR_INVALID_ARG);
  CHECK(ct_canvas_draw_image(c, missing, 0, 0, 0, 0, (ct_fit_t)7, &err) == CT_ERR_INVALID_ARG);
  ct_canvas_destroy(c);
}

static void test_draw(void) {
  char png[256], out[256];
  ct_error_t err;
  ct_rgba_t white = { 1, 1, 1, 1 };
  ct_canvas_t *c = ct_canvas_create(100, 100, &err);
  snprintf(png, sizeof png, "%s/red.png", dir);
  snprintf(out, sizeof out, "%s/out.png", dir);
  make_png(png, 20, 10, 1, 0, 0);
  ct_canvas_fill_background(c, white, &err);
  /* contain: 20 x 10 in 40 x 40 is 40 x 20 at y 10..30 */
  CHECK(ct_canvas_draw_image(c, png, 0, 0, 40, 40, CT_FIT_CONTAIN, &err) == CT_OK);
  /* only h: 10 x 5 */
  CHECK(ct_canvas_draw_image(c, png, 50, 0, 0, 5, CT_FIT_CONTAIN, &err) == CT_OK);
  /* cover: 20 x 10 in 10 x 10 is 20 x 10 centered, cut to x 55..65 */
  CHECK(ct_canvas_draw_image(c, png, 55, 50, 10, 10, CT_FIT_COVER, &err) == CT_OK);
  CHECK(ct_canvas_write(c, out, NULL, &err) == CT_OK);
  CHECK(pixel(out, 20, 5) == 0xFFFFFFFFu);
  CHECK(pixel(out, 20, 20) == 0xFFFF0000u);
  CHECK(pixel(out, 20, 35) == 0xFFFFFFFFu);
  CHECK(pixel(out, 58, 3) == 0xFFFF0000u);
  CHECK(pixel(out, 58, 7) == 0xFFFFFFFFu);
  CHECK(pixel(out, 53, 55) == 0xFFFFFFFFu);
  CHECK(pixel(out, 60, 55) == 0xFFFF0000u);
  CHECK(pixel(out, 67, 55) == 0xFFFFFFFFu);
  /* read once: the file may go, the canvas keeps its picture */
  unlink(png);
  CHECK(ct_canvas_draw_image(c, png, 0, 50, 0, 0, CT_FIT_FILL, &err) == CT_ERR_IO);   /* by real path: gone */
  CHECK(ct_canvas_write(c, out, NULL, &err) == CT_OK);
  CHECK(pixel(out, 20, 20) == 0xFFFF0000u);
  ct_canvas_destroy(c);
  unlink(out);
}

int main(void) {
  char path[300];
  if (!mkdtemp(dir)) return 1;
  test_errors();
  test_draw();
  snprintf(path, sizeof path, "%s/text.png", dir); unlink(path);
  snprintf(path, sizeof path, "%s/huge.png", dir); unlink(path);
  snprintf(path, sizeof path, "%s/doctype.svg", dir); unlink(path);
  rmdir(dir);
  return ct_test_report("test_image");
}
