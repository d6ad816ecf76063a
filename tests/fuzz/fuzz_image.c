/*
** fuzz_image.c: picture input (src/page/image.c): the input is written to a file and drawn
** with ct_canvas_draw_image, as a picture file of any kind (PNG through cairo; JPEG, GIF,
** BMP, TIFF, WebP through gdk-pixbuf; SVG through the sanitizer and librsvg, gzip too),
** into a box whose fit the input's length chooses, then rasterized and written as a PDF and
** as an SVG (rasters stay images there, JPEGs as they are).  This target is built with
** CT_MAX_IMAGE_FILE_PIXELS at 512 K pixels (Makefile) so that the one-second budget of an
** input measures the decoders' work per byte and not the size a picture may have.
** libFuzzer target (make fuzz), replayed by tests/fuzz/driver.c (make check).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ct.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

static void forget_dir(void) {
  if (dir[0]) rmdir(dir);
}

static void make_dir(void) {
  snprintf(dir, sizeof dir, "/tmp/ct-fuzz-image-XXXXXX");
  if (!mkdtemp(dir)) abort();
  atexit(forget_dir);
}

static int write_input(const char *path, const uint8_t *data, size_t size) {
  FILE *f = fopen(path, "wb");
  int ok;
  if (!f) abort();
  ok = fwrite(data, 1, size, f) == size;
  if (fclose(f) != 0) ok = 0;
  return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const ct_fit_t fits[] = { CT_FIT_CONTAIN, CT_FIT_COVER, CT_FIT_FILL };
  char in[128], out[128];
  ct_canvas_t *canvas;
  ct_error_t err;
  if (size > (1u << 20)) return 0;
  if (!dir[0]) make_dir();
  snprintf(in, sizeof in, "%s/picture", dir);
  if (!write_input(in, data, size)) abort();
  canvas = ct_canvas_create(64, 48, &err);
  if (!canvas) abort();
  if (ct_canvas_draw_image(canvas, in, 4, 4, 40, 30, fits[size % 3], &err) != CT_OK) {
    if (getenv("FUZZ_DEBUG")) fprintf(stderr, "fuzz-image: %s\n", err.message);
  } else {
    ct_canvas_draw_image(canvas, in, 30, 20, 0, 20, CT_FIT_CONTAIN, &err);   /* the same, once more */
    ct_canvas_rasterize(canvas, 0, 72, NULL, NULL, NULL, &err);
    snprintf(out, sizeof out, "%s/out.pdf", dir);
    if (ct_canvas_write(canvas, out, NULL, &err) == CT_OK) unlink(out);
    snprintf(out, sizeof out, "%s/out.svg", dir);
    if (ct_canvas_write(canvas, out, NULL, &err) == CT_OK) unlink(out);
  }
  ct_canvas_destroy(canvas);
  unlink(in);
  return 0;
}
