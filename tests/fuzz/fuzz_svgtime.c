/*
** fuzz_svgtime.c: OT-SVG glyphs drawn at times other than 0 (animated glyphs: the SMIL
** sampler of src/glyph/svg/ behind the canvas's time, the recordings and sprites of
** src/page/picture.c kept per time).  The input is one SVG document (plain or gzip), put as
** the SVG table of a small committed font (tests/fonts/ct-svg.ttf) for every glyph but
** .notdef; the glyphs it names (id="glyphN", the first three) are drawn at five times, from a quarter second to the
** end of CT_MAX_SVG_ANIM_TIME and past it, rasterized, and written as a PDF (whose color
** glyphs are recordings made once per time).  libFuzzer target (make fuzz), replayed by
** tests/fuzz/driver.c (make check).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct.h"
#include "fontmake/fontmake.h"

#ifndef CT_FUZZ_ROOT
#define CT_FUZZ_ROOT "."
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_TABLES 40u

static unsigned char *base;      /* the committed font's bytes */
static size_t         base_len;
static unsigned       base_glyphs;
static char           dir[64];

static void forget(void) {
  free(base);
  if (dir[0]) rmdir(dir);
}

static void load_base(void) {
  FILE *f = fopen(CT_FUZZ_ROOT "/tests/fonts/ct-svg.ttf", "rb");
  long n;
  if (!f) abort();
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  base = malloc((size_t)n);
  if (!base || fread(base, 1, (size_t)n, f) != (size_t)n) abort();
  fclose(f);
  base_len = (size_t)n;
  snprintf(dir, sizeof dir, "/tmp/ct-fuzz-svgtime-XXXXXX");
  if (!mkdtemp(dir)) abort();
  atexit(forget);
}

/* The committed font with `doc` as its SVG table (glyphs 1..last), assembled anew. */
static int splice(const uint8_t *doc, size_t len, ct_buf_t *out) {
  ct_sfnt_table_t t[MAX_TABLES];
  unsigned n = ct_rd16(base + 4), count = 0, i, ok;
  ct_buf_t *svg;
  ct_error_t err;
  if (n > MAX_TABLES - 1) abort();
  memset(t, 0, sizeof t);
  for (i = 0; i < n; i++) {
    const unsigned char *r = base + 12 + 16 * i;
    uint32_t tag = ct_rd32(r), off = ct_rd32(r + 8), l = ct_rd32(r + 12);
    if (tag == CT_TAG('S', 'V', 'G', ' ')) continue;
    if (tag == CT_TAG('m', 'a', 'x', 'p')) base_glyphs = ct_rd16(base + off + 4);
    t[count].tag = tag;
    ct_buf_bytes(&t[count].data, base + off, l);
    count++;
  }
  t[count].tag = CT_TAG('S', 'V', 'G', ' ');
  svg = &t[count++].data;
  ct_buf_u16(svg, 0);      /* version */
  ct_buf_u32(svg, 10);     /* the document list */
  ct_buf_u32(svg, 0);
  ct_buf_u16(svg, 1);      /* one entry: glyphs 1..last, one document */
  ct_buf_u16(svg, 1);
  ct_buf_u16(svg, base_glyphs > 1 ? base_glyphs - 1 : 1);
  ct_buf_u32(svg, 14);
  ct_buf_u32(svg, (uint32_t)len);
  ct_buf_bytes(svg, doc, len);
  ok = ct_sfnt_assemble(t, count, 0, out, &err) == CT_OK;
  for (i = 0; i < count; i++) ct_buf_free(&t[i].data);
  return ok;
}

/* The glyphs the document draws: the first three ids "glyphN" of the font's glyphs (or 1). */
static unsigned named_glyphs(const uint8_t *d, size_t n, unsigned gids[3]) {
  unsigned count = 0;
  size_t i;
  for (i = 0; i + 5 < n && count < 3; i++) {
    unsigned g = 0, digits = 0, k;
    if (memcmp(d + i, "glyph", 5) != 0) continue;
    for (i += 5; i < n && d[i] >= '0' && d[i] <= '9' && digits < 6; i++, digits++) g = g * 10 + (d[i] - '0');
    if (digits == 0 || g == 0 || g >= base_glyphs) continue;
    for (k = 0; k < count && gids[k] != g; k++) {}
    if (k == count) gids[count++] = g;
  }
  if (count == 0) gids[count++] = 1;
  return count;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const double times[] = { 0.25, 1, 2.5, 61.75, 3601 };
  ct_buf_t file = { 0 };
  ct_font_t *font;
  ct_canvas_t *canvas;
  ct_error_t err;
  unsigned i, j, gids[3], ngids;
  char *w, path[128];
  if (size > (1u << 20)) return 0;
  if (!base) load_base();
  if (!splice(data, size, &file)) {
    ct_buf_free(&file);
    return 0;
  }
  font = ct_font_create_from_data(file.p, file.len, 0, "fuzz-svgtime", &err);
  ct_buf_free(&file);
  if (!font) abort();   /* the committed font, whatever its SVG table holds, opens */
  canvas = ct_canvas_create(64, 64, &err);
  if (!canvas) abort();
  ngids = named_glyphs(data, size, gids);
  for (i = 0; i < sizeof times / sizeof times[0]; i++) {
    ct_canvas_set_time(canvas, times[i]);
    for (j = 0; j < ngids; j++) {
      ct_text_style_t style;
      ct_paint_t *paint = ct_font_get_glyph_paint(font, gids[j], CT_FORMAT_SVG, &err);
      if (!paint) continue;
      ct_text_style_init(&style);
      style.size = 20;
      style.format = CT_FORMAT_SVG;
      ct_canvas_draw_paint(canvas, font, paint, &style, 4 + (double)(i % 3) * 20, 24 + (double)j * 16,
                           &err);
      ct_paint_destroy(paint);
    }
  }
  ct_canvas_rasterize(canvas, 0, 72, NULL, NULL, NULL, &err);
  snprintf(path, sizeof path, "%s/out.pdf", dir);
  if (ct_canvas_write(canvas, path, NULL, &err) == CT_OK) unlink(path);
  while ((w = ct_font_take_warning(font))) free(w);
  ct_canvas_destroy(canvas);
  ct_font_destroy(font);
  return 0;
}
