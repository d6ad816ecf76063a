/*
** fuzz_fontbuild.c: font building (src/fontmake/): a font in, built, written, read back.
** The first byte chooses what is built, the rest is the lead font's bytes (any format
** chromatype opens) or, with bit 7, one SVG drawing made into a font from artwork
** (src/fontmake/artwork/).  Bits 0..2 are the formats written (ct_font_format_bits_t; 0
** lets the builder choose), bit 3 asks for WOFF2, bit 4 for a subset to the text "Ag",
** bit 5 for new palettes, palette names, an entry label and a family name, bit 6 for two
** variants of glyph 1 (a randomized font).  The color glyphs are the lead's own trees of its
** first 16 glyphs.  A font the builder wrote must open again; its glyphs are then drawn and
** rasterized.  libFuzzer target (make fuzz), replayed by tests/fuzz/driver.c (make check).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_TREES 16u

/* The folder the fonts are written to, made once per process. */
static char dir[64];

static void forget_dir(void) {
  if (dir[0]) rmdir(dir);
}

static const char *out_dir(void) {
  if (!dir[0]) {
    snprintf(dir, sizeof dir, "/tmp/ct-fuzz-fontbuild-XXXXXX");
    if (!mkdtemp(dir)) abort();
    atexit(forget_dir);
  }
  return dir;
}

/* The written font's glyphs drawn in every format, and a text shaped. */
static void draw_back(ct_font_t *font) {
  static const ct_format_t formats[] = { CT_FORMAT_AUTO, CT_FORMAT_COLR1, CT_FORMAT_COLR0, CT_FORMAT_SVG };
  ct_error_t err;
  ct_canvas_t *canvas = ct_canvas_create(64, 64, &err);
  unsigned n = ct_font_get_glyph_count(font), gid, f;
  char *w;
  if (!canvas) return;
  if (n > MAX_TREES + 4) n = MAX_TREES + 4;
  for (f = 0; f < sizeof formats / sizeof formats[0]; f++) {
    for (gid = 0; gid < n; gid++) {
      ct_text_style_t style;
      ct_paint_t *paint = ct_font_get_glyph_paint(font, gid, formats[f], &err);
      if (!paint) continue;
      ct_text_style_init(&style);
      style.size = 16;
      style.format = formats[f];
      ct_canvas_draw_paint(canvas, font, paint, &style, 4 + (double)(gid % 3) * 20, 30, &err);
      ct_paint_destroy(paint);
    }
  }
  {
    ct_text_style_t style;
    ct_text_style_init(&style);
    style.size = 14;
    ct_canvas_draw_text(canvas, font, "AgA", 3, &style, 2, 56, NULL, &err);
  }
  ct_canvas_rasterize(canvas, 0, 36, NULL, NULL, NULL, &err);
  while ((w = ct_font_take_warning(font))) free(w);
  ct_canvas_destroy(canvas);
}

/* The lead's own color glyphs as the builder's trees, and what bits 5 and 6 ask for. */
static int set_glyphs(ct_font_builder_t *b, ct_font_t *lead, unsigned opts) {
  ct_error_t err;
  ct_paint_t *trees[MAX_TREES];
  unsigned n = ct_font_get_glyph_count(lead), ntrees = 0, gid, i;
  if (n > MAX_TREES) n = MAX_TREES;
  for (gid = 0; gid < n; gid++) {
    ct_paint_t *t = ct_font_get_glyph_paint(lead, gid, CT_FORMAT_AUTO, &err);
    if (!t) continue;
    ct_font_builder_set_glyph(b, gid, t, &err);
    trees[ntrees++] = t;
  }
  if (opts & 0x20) {
    static const ct_rgba_t colors[6] = { { 1, 0, 0, 1 }, { 0, 0.5, 0, 1 }, { 0, 0, 1, 0.5 },
                                         { 0, 0, 0, 1 }, { 1, 1, 0, 1 }, { 0.2, 0.2, 0.2, 0 } };
    ct_font_builder_set_palettes(b, 3, 2, colors, &err);
    ct_font_builder_set_palette_info(b, 1, 2, "Dark", &err);
    ct_font_builder_set_entry_label(b, 0, "Ink", &err);
    ct_font_builder_set_family(b, "Fuzz Build", &err);
  }
  if ((opts & 0x40) && ntrees >= 2 && n > 1) {
    unsigned first;
    ct_font_builder_add_variants(b, 1, trees, 2, &first, &err);
  }
  for (i = 0; i < ntrees; i++) ct_paint_destroy(trees[i]);
  return 1;
}

/* One SVG drawing as a font of one glyph for "A". */
static ct_font_builder_t *from_artwork(const uint8_t *data, size_t size) {
  static const uint32_t cp[1] = { 0x41 };
  ct_artwork_source_t src;
  ct_artwork_font_options_t o;
  ct_error_t err;
  memset(&src, 0, sizeof src);
  src.name = "fuzz.svg";
  src.data = data;
  src.len = size;
  src.codepoints = cp;
  src.ncodepoints = 1;
  ct_artwork_font_options_init(&o);
  o.threads = 1;
  return ct_font_builder_create_from_artwork(&src, 1, &o, NULL, NULL, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ct_error_t err;
  ct_font_t *lead = NULL;
  ct_font_builder_t *b;
  ct_font_write_options_t wo;
  char path[128];
  unsigned opts;
  if (size < 1 || size > (1u << 20)) return 0;
  opts = data[0];
  if (opts & 0x80) {
    b = from_artwork(data + 1, size - 1);
  } else {
    lead = ct_font_create_from_data(data + 1, size - 1, 0, "fuzz", &err);
    if (!lead) return 0;
    b = ct_font_builder_create(lead, &err);
    if (b) set_glyphs(b, lead, opts);
  }
  if (b) {
    ct_font_write_options_init(&wo);
    wo.formats = opts & 7u;
    wo.woff2 = (opts & 8u) != 0;
    if (opts & 0x10) wo.text = "Ag";
    snprintf(path, sizeof path, "%s/out.%s", out_dir(), wo.woff2 ? "woff2" : "ttf");
    if (ct_font_builder_write(b, path, &wo, &err) != CT_OK) {
      if (getenv("FUZZ_DEBUG")) fprintf(stderr, "fuzz-fontbuild: %s\n", err.message);
    } else {
      ct_font_t *back = ct_font_create_from_file(path, 0, &err);
      if (!back) {   /* what the builder writes, chromatype reads */
        fprintf(stderr, "fuzz-fontbuild: the written font does not open: %s\n", err.message);
        abort();
      }
      draw_back(back);
      ct_font_destroy(back);
      unlink(path);
    }
    ct_font_builder_destroy(b);
  }
  if (lead) {
    char *w;
    while ((w = ct_font_take_warning(lead))) free(w);
    ct_font_destroy(lead);
  }
  return 0;
}
