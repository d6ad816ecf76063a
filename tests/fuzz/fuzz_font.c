/*
** fuzz_font.c: a font from bytes, every color glyph drawn in every format.
** Opens the input as a font (TrueType, CFF, collections, WOFF, WOFF2), builds the paint
** tree of the first 32 glyphs in each format (COLRv1, COLRv0, SVG, bitmaps) with each of
** its first two palettes, draws them all on a small page and rasterizes it, and shapes and
** draws a short text (the automatic choice of format).  Warnings are taken and freed.  An
** input's work is bounded so that every seed takes well under the one second a fuzz input
** may take (a 48-glyph emoji font in five formats took 4 s under ASan).  libFuzzer target (make fuzz), and
** replayed on the committed inputs by tests/fuzz/driver.c (make check).
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ct.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const ct_format_t formats[] = { CT_FORMAT_COLR1, CT_FORMAT_COLR0, CT_FORMAT_SVG,
                                         CT_FORMAT_BITMAP };
  ct_error_t err;
  ct_font_t *font = ct_font_create_from_data(data, size, 0, "fuzz", &err);
  ct_canvas_t *canvas;
  unsigned n, gid, f, pal, npal;
  char *w;
  if (!font) return 0;
  canvas = ct_canvas_create(96, 96, &err);
  if (!canvas) {
    ct_font_destroy(font);
    return 0;
  }
  n = ct_font_get_glyph_count(font);
  if (n > 32) n = 32;
  npal = ct_font_get_palette_count(font);
  if (npal > 2) npal = 2;
  if (npal == 0) npal = 1;
  for (pal = 0; pal < npal; pal++) {
    for (f = 0; f < sizeof formats / sizeof formats[0]; f++) {
      for (gid = 0; gid < n; gid++) {
        ct_text_style_t style;
        ct_paint_t *paint = ct_font_get_glyph_paint(font, gid, formats[f], &err);
        if (!paint) continue;
        ct_text_style_init(&style);
        style.size = 24;
        style.palette = pal;
        style.format = formats[f];
        ct_canvas_draw_paint(canvas, font, paint, &style, 8 + (double)(gid % 4) * 20, 40, &err);
        ct_paint_destroy(paint);
      }
    }
  }
  {
    ct_text_style_t style;
    ct_text_style_init(&style);
    style.size = 20;
    ct_canvas_draw_text(canvas, font, "Ag\xF0\x9F\x98\x80\xE2\x98\xBA", 9, &style, 4, 80, NULL, &err);
  }
  ct_canvas_rasterize(canvas, 0, 72, NULL, NULL, NULL, &err);
  while ((w = ct_font_take_warning(font))) free(w);
  ct_canvas_destroy(canvas);
  ct_font_destroy(font);
  return 0;
}
