/*
** test_colrwrite.c: COLRv1 paints stored once (colrwrite.c), through the public font
** builder: glyphs whose trees repeat layers, runs of layers, nested groups and whole trees
** give a COLR table of the size the sharing predicts, read back as the trees given
** (ct_paint_trace), pass ots-sanitize and fontTools when installed; trees that share
** nothing are written byte for byte as before.  Core unit test.
**   test_colrwrite           the tests
**   test_colrwrite --bench   COLR bytes of sets with repeats (Twemoji as COLRv1), not timed
**   test_colrwrite --dump    the COLR bytes of the no-sharing sets, as C (to refresh `plain`)
*/
#include <stdarg.h>
#include <unistd.h>

#include "ct-test.h"
#include "ct.h"
#include "fontmake/fontmake.h"
#include "fontmake/fontbuild.h"

#define LEAD FONT("ct-kern.ttf")   /* 119 TrueType glyphs, 1000 units per em */

static unsigned rd16(const unsigned char *p) { return (unsigned)(p[0] << 8 | p[1]); }
static uint32_t rd32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The table `tag` of an sfnt, or NULL. */
static const unsigned char *table_of(const unsigned char *font, size_t len, const char *tag, size_t *tlen) {
  unsigned n, i;
  if (len < 12) return NULL;
  n = rd16(font + 4);
  for (i = 0; i < n && 12 + 16 * (size_t)(i + 1) <= len; i++) {
    const unsigned char *r = font + 12 + 16 * i;
    uint32_t off = rd32(r + 8), l = rd32(r + 12);
    if (memcmp(r, tag, 4) == 0 && off <= len && l <= len - off) {
      *tlen = l;
      return font + off;
    }
  }
  return NULL;
}

/* ---- trees ------------------------------------------------------------------------ */

static ct_paint_t *solid(unsigned entry) { return ct_paint_solid_create(ct_color_palette(entry, 1)); }
static ct_paint_t *glyph(unsigned gid, ct_paint_t *child) { return ct_paint_glyph_create(NULL, gid, child); }
static ct_paint_t *fill(unsigned gid, unsigned entry) { return glyph(gid, solid(entry)); }

static ct_paint_t *translate(double dx, double dy, ct_paint_t *child) {
  const double m[6] = { 1, 0, 0, 1, dx, dy };
  return ct_paint_transform_create(m, child);
}

static ct_paint_t *matrix(double s, double dx, ct_paint_t *child) {
  const double m[6] = { s, 0.25, -0.5, s, dx, 3 };
  return ct_paint_transform_create(m, child);
}

static ct_paint_t *linear(double x0, unsigned e0, unsigned e1) {
  ct_color_stop_t stops[2] = { { 0, ct_color_palette(e0, 1) }, { 1, ct_color_palette(e1, 0.5) } };
  ct_color_line_t line = { CT_EXTEND_PAD, 2, stops };
  const double p[6] = { x0, 0, 500, 0, x0, 300 };
  return ct_paint_linear_create(&line, p);
}

static ct_paint_t *radial(double r) {
  ct_color_stop_t stops[3] = { { 0, ct_color_palette(0, 1) }, { 0.5, ct_color_palette(1, 1) },
                               { 1, ct_color_palette(2, 1) } };
  ct_color_line_t line = { CT_EXTEND_REFLECT, 3, stops };
  const double c[6] = { 100, 100, 0, 200, 200, r };
  return ct_paint_radial_create(&line, c);
}

/* A layers node of the NULL-ended children (taken). */
static ct_paint_t *layers(ct_paint_t *first, ...) {
  ct_paint_t *l = ct_paint_layers_create(4), *c;
  va_list ap;
  va_start(ap, first);
  for (c = first; c; c = va_arg(ap, ct_paint_t *)) ct_paint_layers_append(l, c);
  va_end(ap);
  return l;
}

typedef struct {
  unsigned    gid;
  ct_paint_t *tree;
} glyph_t;

typedef struct {
  glyph_t *g;
  unsigned n, cap;
} set_t;

static void add(set_t *s, unsigned gid, ct_paint_t *tree) {
  if (s->n == s->cap) {
    glyph_t *g = realloc(s->g, (s->cap ? s->cap * 2 : 64) * sizeof *g);
    if (!g) abort();
    s->g = g;
    s->cap = s->cap ? s->cap * 2 : 64;
  }
  s->g[s->n].gid = gid;
  s->g[s->n].tree = tree;
  s->n++;
}

static void set_free(set_t *s) {
  unsigned i;
  for (i = 0; i < s->n; i++) ct_paint_destroy(s->g[i].tree);
  free(s->g);
  memset(s, 0, sizeof *s);
}

/* ---- building and reading back ---------------------------------------------------- */

static char out_path[64];

/* The font of the set (COLRv1 over the lead, 4 palette entries), as bytes. */
static unsigned char *build(ct_font_t *lead, const set_t *s, unsigned formats, size_t *len) {
  static const ct_rgba_t colors[4] = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 }, { 1, 1, 0, 1 } };
  ct_error_t err;
  ct_font_write_options_t o;
  ct_font_builder_t *b = ct_font_builder_create(lead, &err);
  unsigned i;
  *len = 0;
  if (!b) return NULL;
  ct_font_write_options_init(&o);
  o.formats = formats;
  if (ct_font_get_palette_entry_count(lead) == 0) ct_font_builder_set_palettes(b, 4, 1, colors, &err);
  for (i = 0; i < s->n; i++) ct_font_builder_set_glyph(b, s->g[i].gid, s->g[i].tree, &err);
  if (ct_font_builder_write(b, out_path, &o, &err) != CT_OK) {
    fprintf(stderr, "build: %s\n", err.message);
    ct_font_builder_destroy(b);
    return NULL;
  }
  ct_font_builder_destroy(b);
  return ct_fs_read_all(out_path, (size_t)1 << 30, len, &err);
}

static size_t colr_size(const unsigned char *font, size_t len) {
  size_t n = 0;
  return table_of(font, len, "COLR", &n) ? n : 0;
}

/* Every glyph of the set read back from the font traces as `want` (NULL: its tree). */
static void check_traces(const char *name, const unsigned char *font, size_t len, const set_t *s,
                         ct_paint_t *const *want) {
  ct_error_t err;
  ct_font_t *f = ct_font_create_from_data(font, len, 0, name, &err);
  unsigned i, bad = 0;
  CHECK_MSG(f != NULL, "%s: the written font does not open", name);
  if (!f) return;
  for (i = 0; i < s->n; i++) {
    ct_paint_t *p = ct_font_get_glyph_paint(f, s->g[i].gid, CT_FORMAT_COLR1, &err);
    char *a = ct_paint_trace(want && want[i] ? want[i] : s->g[i].tree), *b = p ? ct_paint_trace(p) : NULL;
    if (!a || !b || strcmp(a, b) != 0) {
      if (!bad++) fprintf(stderr, "%s: glyph %u given:\n%s\nread back:\n%s\n", name, s->g[i].gid, a, b);
    }
    free(a);
    free(b);
    ct_paint_destroy(p);
    if ((a = ct_font_take_warning(f))) {
      fprintf(stderr, "%s: %s\n", name, a);
      free(a);
      bad++;
    }
  }
  CHECK_MSG(bad == 0, "%s: %u glyphs read back other than given", name, bad);
  ct_font_destroy(f);
}

static int have_ots = -1, have_fonttools = -1;

/* ots-sanitize and fontTools (a walk of every paint and layer) on the file just written. */
static void check_tools(const char *name) {
  char cmd[512];
  if (have_ots < 0) have_ots = system("command -v ots-sanitize >/dev/null 2>&1") == 0;
  if (have_fonttools < 0) have_fonttools = system("/usr/bin/python3 -c 'import fontTools' 2>/dev/null") == 0;
  if (have_ots) {
    snprintf(cmd, sizeof cmd, "ots-sanitize %s /dev/null >/dev/null 2>&1", out_path);
    CHECK_MSG(system(cmd) == 0, "%s: ots-sanitize rejects the font", name);
  }
  if (have_fonttools) {
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 -c '"
             "import sys\nfrom fontTools.ttLib import TTFont\n"
             "t = TTFont(sys.argv[1])[\"COLR\"].table\n"
             "def walk(p, d):\n  assert d < 64\n  [walk(c, d + 1) for c in p.getChildren(t)]\n"
             "[walk(r.Paint, 0) for r in t.BaseGlyphList.BaseGlyphPaintRecord]' %s", out_path);
    CHECK_MSG(system(cmd) == 0, "%s: fontTools cannot read the COLR table", name);
  }
}

/* Builds the set, checks the COLR size (0: not checked), the traces and the tools. */
static size_t run(const char *name, ct_font_t *lead, set_t *s, size_t want, ct_paint_t *const *traces) {
  size_t len, got = 0;
  unsigned char *font = build(lead, s, CT_FONT_COLR1, &len);
  CHECK_MSG(font != NULL, "%s: not written", name);
  if (font) {
    got = colr_size(font, len);
    if (want) CHECK_MSG(got == want, "%s: COLR of %zu bytes, %zu predicted", name, got, want);
    check_traces(name, font, len, s, traces);
    check_tools(name);
  }
  free(font);
  set_free(s);
  return got;
}

/* Sizes: header 34, BaseGlyphList 4 + 6 a glyph, LayerList 4 + 4 an entry, then paints:
   PaintGlyph 6, PaintSolid 5, PaintTranslate 8, PaintColrLayers 6. */
#define COLR(glyphs, entries, heap) (34 + 4 + 6 * (size_t)(glyphs) + 4 + 4 * (size_t)(entries) + (heap))
#define FILL 11        /* PaintGlyph of PaintSolid */
#define MOVED 19       /* PaintTranslate of a FILL */

/* ---- what sharing predicts ---------------------------------------------------------- */

/* N glyphs of the same three layers: the layers and their PaintColrLayers once. */
static void test_same_layers(ct_font_t *lead) {
  set_t s = { .n = 0 };
  unsigned i;
  for (i = 1; i <= 40; i++) add(&s, i, layers(fill(5, 0), translate(10, 0, fill(6, 1)), fill(7, 2), NULL));
  run("same layers", lead, &s, COLR(40, 3, FILL + MOVED + FILL + 6), NULL);
}

/* Lists that are stretches of an earlier one point into it; a repeated whole list is one
   paint for both glyphs. */
static void test_subruns(ct_font_t *lead) {
  set_t s = { .n = 0 };
  add(&s, 1, layers(fill(10, 0), fill(11, 1), fill(12, 2), translate(5, 5, fill(13, 3)), NULL));
  add(&s, 2, layers(fill(11, 1), fill(12, 2), NULL));
  add(&s, 3, layers(fill(12, 2), translate(5, 5, fill(13, 3)), NULL));
  add(&s, 4, layers(fill(10, 0), fill(11, 1), fill(12, 2), translate(5, 5, fill(13, 3)), NULL));
  add(&s, 5, layers(fill(11, 1), fill(12, 2), translate(5, 5, fill(13, 3)), NULL));
  /* four layers; PaintColrLayers 0+4 (twice), 1+2, 2+2, 1+3 */
  run("sub-runs", lead, &s, COLR(5, 4, 3 * FILL + MOVED + 4 * 6), NULL);
}

/* A face and eyes in every glyph, a hand of its own: the shared layers once, the lists each. */
static void test_shared_layers(ct_font_t *lead) {
  set_t s = { .n = 0 };
  unsigned i;
  for (i = 0; i < 30; i++)
    add(&s, 1 + i, layers(fill(20, 0), translate(0, 100, fill(21, 1)), translate(10 * i, 0, fill(22, 2)), NULL));
  run("shared layers", lead, &s, COLR(30, 90, FILL + MOVED + 30 * MOVED + 30 * 6), NULL);
}

/* A moved group (PaintTranslate of PaintColrLayers) in every glyph: its two layers, their
   list and the group once; five glyphs that are a group: one paint. */
static void test_nested(ct_font_t *lead) {
  set_t s = { .n = 0 };
  unsigned i;
  for (i = 0; i < 10; i++)
    add(&s, 1 + i, layers(translate(100, 0, layers(fill(20, 0), fill(21, 1), NULL)),
                          translate(10 * i + 1, 0, fill(22, 2)), NULL));
  for (i = 0; i < 5; i++) add(&s, 50 + i, translate(7, 7, layers(fill(20, 0), fill(21, 1), NULL)));
  /* A, B; the two groups (8 + 6); per glyph of the first ten a hand and its PaintColrLayers */
  run("nested groups", lead, &s, COLR(15, 2 + 20, 2 * FILL + 2 * 14 + 10 * (MOVED + 6)), NULL);
}

/* Gradients and composites: a block with its color lines and children, stored once. */
static void test_gradients(ct_font_t *lead) {
  set_t s = { .n = 0 };
  unsigned i;
  ct_composite_mode_t mul = CT_COMPOSITE_MULTIPLY;
  for (i = 0; i < 10; i++)
    add(&s, 1 + i, layers(glyph(40, linear(0, 0, 1)), ct_paint_composite_create(mul, fill(42, 1), glyph(43, radial(50))),
                          translate(i + 1, 0, fill(41, 3)), NULL));
  /* PaintGlyph + PaintLinearGradient 16 + ColorLine 3 + 2 stops; PaintComposite 8 + FILL +
     PaintGlyph + PaintRadialGradient 16 + ColorLine 3 + 3 stops */
  run("gradients", lead, &s, COLR(10, 30, (6 + 16 + 15) + (8 + FILL + 6 + 16 + 21) + 10 * (MOVED + 6)), NULL);
}

static ct_paint_t *many(unsigned from, unsigned to) {
  ct_paint_t *l = ct_paint_layers_create(to - from);
  unsigned i;
  for (i = from; i < to; i++) ct_paint_layers_append(l, translate(i, 0, fill(50 + i % 20, i % 4)));
  return l;
}

/* 300 layers nest (255 + 45): a glyph of the same 300 is the same paint, one of the first
   255 is the first nested PaintColrLayers. */
static void test_many_layers(ct_font_t *lead) {
  set_t s = { .n = 0 };
  ct_paint_t *nested = ct_paint_layers_create(2), *want[3] = { NULL, NULL, NULL };
  ct_paint_layers_append(nested, many(0, 255));
  ct_paint_layers_append(nested, many(255, 300));
  want[0] = want[1] = nested;
  add(&s, 1, many(0, 300));
  add(&s, 2, many(0, 300));
  add(&s, 3, many(0, 255));
  run("over 255 layers", lead, &s, COLR(3, 302, 300 * MOVED + 3 * 6), want);
  ct_paint_destroy(nested);
}

/* A layer used twice in one glyph, in two lists of it: drawn twice, no cycle. */
static void test_repeats_in_glyph(ct_font_t *lead) {
  set_t s = { .n = 0 };
  add(&s, 1, layers(fill(10, 0), fill(11, 1), fill(10, 0),
                    translate(3, 0, layers(fill(10, 0), fill(11, 1), NULL)), NULL));
  /* two layers; the group's list 10,11 (listed first: the glyph's own list comes after its
     layers), then the glyph's 10,11,10,T */
  run("repeats in a glyph", lead, &s, COLR(1, 2 + 4, 2 * FILL + 14 + 6), NULL);
}

/* ---- trees that share nothing --------------------------------------------------------- */

/* Six glyphs of their own layers: transforms, gradients, composites. */
static void plain_set(set_t *s) {
  unsigned i;
  for (i = 0; i < 6; i++)
    add(s, 60 + i, layers(fill(70 + i, i % 4), matrix(2 + i, i, glyph(80 + i, linear(i, i % 4, (i + 1) % 4))),
                          ct_paint_composite_create(CT_COMPOSITE_MULTIPLY, fill(90 + i, 1), glyph(100 + i, radial(10 + i))),
                          NULL));
  add(s, 66, fill(110, 2));
}

/* Groups inside transforms, none the same: their layers now come before the group. */
static void moved_groups_set(set_t *s) {
  unsigned i;
  for (i = 0; i < 3; i++)
    add(s, 1 + i, layers(translate(10 * i + 10, 0, layers(fill(20 + i, 0), fill(30 + i, 1), NULL)), fill(40 + i, 2), NULL));
}

/* The COLR table of plain_set as the writer wrote it before sharing (commit 5b7c3fa). */
static const unsigned char plain[] = {
  0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x22, 0x00, 0x00, 0x00, 0x50, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x07, 0x00, 0x3c, 0x00, 0x00, 0x01, 0x07, 0x00, 0x3d, 0x00, 0x00,
  0x01, 0x9a, 0x00, 0x3e, 0x00, 0x00, 0x02, 0x2d, 0x00, 0x3f, 0x00, 0x00, 0x02, 0xc0, 0x00, 0x40,
  0x00, 0x00, 0x03, 0x53, 0x00, 0x41, 0x00, 0x00, 0x03, 0xe6, 0x00, 0x42, 0x00, 0x00, 0x03, 0xec,
  0x00, 0x00, 0x00, 0x12, 0x00, 0x00, 0x00, 0x4c, 0x00, 0x00, 0x00, 0x57, 0x00, 0x00, 0x00, 0x9b,
  0x00, 0x00, 0x00, 0xdf, 0x00, 0x00, 0x00, 0xea, 0x00, 0x00, 0x01, 0x2e, 0x00, 0x00, 0x01, 0x72,
  0x00, 0x00, 0x01, 0x7d, 0x00, 0x00, 0x01, 0xc1, 0x00, 0x00, 0x02, 0x05, 0x00, 0x00, 0x02, 0x10,
  0x00, 0x00, 0x02, 0x54, 0x00, 0x00, 0x02, 0x98, 0x00, 0x00, 0x02, 0xa3, 0x00, 0x00, 0x02, 0xe7,
  0x00, 0x00, 0x03, 0x2b, 0x00, 0x00, 0x03, 0x36, 0x00, 0x00, 0x03, 0x7a, 0x0a, 0x00, 0x00, 0x06,
  0x00, 0x46, 0x02, 0x00, 0x00, 0x40, 0x00, 0x0c, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x07, 0x00, 0x02,
  0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0xff, 0xff, 0x80, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x06, 0x00, 0x50, 0x04, 0x00, 0x00, 0x10,
  0x00, 0x00, 0x00, 0x00, 0x01, 0xf4, 0x00, 0x00, 0x00, 0x00, 0x01, 0x2c, 0x00, 0x00, 0x02, 0x00,
  0x00, 0x00, 0x00, 0x40, 0x00, 0x40, 0x00, 0x00, 0x01, 0x20, 0x00, 0x20, 0x00, 0x00, 0x08, 0x17,
  0x00, 0x00, 0x13, 0x0a, 0x00, 0x00, 0x06, 0x00, 0x5a, 0x02, 0x00, 0x01, 0x40, 0x00, 0x0a, 0x00,
  0x00, 0x06, 0x00, 0x64, 0x06, 0x00, 0x00, 0x10, 0x00, 0x64, 0x00, 0x64, 0x00, 0x00, 0x00, 0xc8,
  0x00, 0xc8, 0x00, 0x0a, 0x02, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x20, 0x00, 0x00,
  0x01, 0x40, 0x00, 0x40, 0x00, 0x00, 0x02, 0x40, 0x00, 0x01, 0x03, 0x00, 0x00, 0x00, 0x00, 0x0a,
  0x00, 0x00, 0x06, 0x00, 0x47, 0x02, 0x00, 0x01, 0x40, 0x00, 0x0c, 0x00, 0x00, 0x1f, 0x00, 0x00,
  0x07, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0xff, 0xff, 0x80, 0x00, 0x00, 0x03, 0x00,
  0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x06, 0x00, 0x51, 0x04,
  0x00, 0x00, 0x10, 0x00, 0x01, 0x00, 0x00, 0x01, 0xf4, 0x00, 0x00, 0x00, 0x01, 0x01, 0x2c, 0x00,
  0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x40, 0x00, 0x40, 0x00, 0x00, 0x02, 0x20, 0x00, 0x20, 0x00,
  0x00, 0x08, 0x17, 0x00, 0x00, 0x13, 0x0a, 0x00, 0x00, 0x06, 0x00, 0x5b, 0x02, 0x00, 0x01, 0x40,
  0x00, 0x0a, 0x00, 0x00, 0x06, 0x00, 0x65, 0x06, 0x00, 0x00, 0x10, 0x00, 0x64, 0x00, 0x64, 0x00,
  0x00, 0x00, 0xc8, 0x00, 0xc8, 0x00, 0x0b, 0x02, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00,
  0x20, 0x00, 0x00, 0x01, 0x40, 0x00, 0x40, 0x00, 0x00, 0x02, 0x40, 0x00, 0x01, 0x03, 0x00, 0x00,
  0x00, 0x03, 0x0a, 0x00, 0x00, 0x06, 0x00, 0x48, 0x02, 0x00, 0x02, 0x40, 0x00, 0x0c, 0x00, 0x00,
  0x1f, 0x00, 0x00, 0x07, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0xff, 0xff, 0x80, 0x00,
  0x00, 0x04, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x06,
  0x00, 0x52, 0x04, 0x00, 0x00, 0x10, 0x00, 0x02, 0x00, 0x00, 0x01, 0xf4, 0x00, 0x00, 0x00, 0x02,
  0x01, 0x2c, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x40, 0x00, 0x40, 0x00, 0x00, 0x03, 0x20,
  0x00, 0x20, 0x00, 0x00, 0x08, 0x17, 0x00, 0x00, 0x13, 0x0a, 0x00, 0x00, 0x06, 0x00, 0x5c, 0x02,
  0x00, 0x01, 0x40, 0x00, 0x0a, 0x00, 0x00, 0x06, 0x00, 0x66, 0x06, 0x00, 0x00, 0x10, 0x00, 0x64,
  0x00, 0x64, 0x00, 0x00, 0x00, 0xc8, 0x00, 0xc8, 0x00, 0x0c, 0x02, 0x00, 0x03, 0x00, 0x00, 0x00,
  0x00, 0x40, 0x00, 0x20, 0x00, 0x00, 0x01, 0x40, 0x00, 0x40, 0x00, 0x00, 0x02, 0x40, 0x00, 0x01,
  0x03, 0x00, 0x00, 0x00, 0x06, 0x0a, 0x00, 0x00, 0x06, 0x00, 0x49, 0x02, 0x00, 0x03, 0x40, 0x00,
  0x0c, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x07, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0xff,
  0xff, 0x80, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x0a,
  0x00, 0x00, 0x06, 0x00, 0x53, 0x04, 0x00, 0x00, 0x10, 0x00, 0x03, 0x00, 0x00, 0x01, 0xf4, 0x00,
  0x00, 0x00, 0x03, 0x01, 0x2c, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x03, 0x40, 0x00, 0x40, 0x00,
  0x00, 0x00, 0x20, 0x00, 0x20, 0x00, 0x00, 0x08, 0x17, 0x00, 0x00, 0x13, 0x0a, 0x00, 0x00, 0x06,
  0x00, 0x5d, 0x02, 0x00, 0x01, 0x40, 0x00, 0x0a, 0x00, 0x00, 0x06, 0x00, 0x67, 0x06, 0x00, 0x00,
  0x10, 0x00, 0x64, 0x00, 0x64, 0x00, 0x00, 0x00, 0xc8, 0x00, 0xc8, 0x00, 0x0d, 0x02, 0x00, 0x03,
  0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x20, 0x00, 0x00, 0x01, 0x40, 0x00, 0x40, 0x00, 0x00, 0x02,
  0x40, 0x00, 0x01, 0x03, 0x00, 0x00, 0x00, 0x09, 0x0a, 0x00, 0x00, 0x06, 0x00, 0x4a, 0x02, 0x00,
  0x00, 0x40, 0x00, 0x0c, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x07, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00,
  0x40, 0x00, 0xff, 0xff, 0x80, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x03,
  0x00, 0x00, 0x0a, 0x00, 0x00, 0x06, 0x00, 0x54, 0x04, 0x00, 0x00, 0x10, 0x00, 0x04, 0x00, 0x00,
  0x01, 0xf4, 0x00, 0x00, 0x00, 0x04, 0x01, 0x2c, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x40,
  0x00, 0x40, 0x00, 0x00, 0x01, 0x20, 0x00, 0x20, 0x00, 0x00, 0x08, 0x17, 0x00, 0x00, 0x13, 0x0a,
  0x00, 0x00, 0x06, 0x00, 0x5e, 0x02, 0x00, 0x01, 0x40, 0x00, 0x0a, 0x00, 0x00, 0x06, 0x00, 0x68,
  0x06, 0x00, 0x00, 0x10, 0x00, 0x64, 0x00, 0x64, 0x00, 0x00, 0x00, 0xc8, 0x00, 0xc8, 0x00, 0x0e,
  0x02, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x20, 0x00, 0x00, 0x01, 0x40, 0x00, 0x40,
  0x00, 0x00, 0x02, 0x40, 0x00, 0x01, 0x03, 0x00, 0x00, 0x00, 0x0c, 0x0a, 0x00, 0x00, 0x06, 0x00,
  0x4b, 0x02, 0x00, 0x01, 0x40, 0x00, 0x0c, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x07, 0x00, 0x07, 0x00,
  0x00, 0x00, 0x00, 0x40, 0x00, 0xff, 0xff, 0x80, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x05, 0x00,
  0x00, 0x00, 0x03, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x06, 0x00, 0x55, 0x04, 0x00, 0x00, 0x10, 0x00,
  0x05, 0x00, 0x00, 0x01, 0xf4, 0x00, 0x00, 0x00, 0x05, 0x01, 0x2c, 0x00, 0x00, 0x02, 0x00, 0x00,
  0x00, 0x01, 0x40, 0x00, 0x40, 0x00, 0x00, 0x02, 0x20, 0x00, 0x20, 0x00, 0x00, 0x08, 0x17, 0x00,
  0x00, 0x13, 0x0a, 0x00, 0x00, 0x06, 0x00, 0x5f, 0x02, 0x00, 0x01, 0x40, 0x00, 0x0a, 0x00, 0x00,
  0x06, 0x00, 0x69, 0x06, 0x00, 0x00, 0x10, 0x00, 0x64, 0x00, 0x64, 0x00, 0x00, 0x00, 0xc8, 0x00,
  0xc8, 0x00, 0x0f, 0x02, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x20, 0x00, 0x00, 0x01,
  0x40, 0x00, 0x40, 0x00, 0x00, 0x02, 0x40, 0x00, 0x01, 0x03, 0x00, 0x00, 0x00, 0x0f, 0x0a, 0x00,
  0x00, 0x06, 0x00, 0x6e, 0x02, 0x00, 0x02, 0x40, 0x00,
};
/* moved_groups_set's COLR before sharing: its size (the bytes moved, none added). */
#define MOVED_GROUPS_SIZE_BEFORE 267

static void test_plain(ct_font_t *lead) {
  set_t s = { .n = 0 };
  size_t len, n = 0;
  unsigned char *font;
  const unsigned char *colr;
  plain_set(&s);
  font = build(lead, &s, CT_FONT_COLR1, &len);
  colr = font ? table_of(font, len, "COLR", &n) : NULL;
  CHECK_MSG(colr && n == sizeof plain && memcmp(colr, plain, n) == 0,
            "a set that shares nothing is not written as before (%zu bytes, %zu before)", n, sizeof plain);
  free(font);
  run("plain", lead, &s, sizeof plain, NULL);   /* run() frees the set */
  moved_groups_set(&s);
  run("moved groups", lead, &s, MOVED_GROUPS_SIZE_BEFORE, NULL);
}

static void dump(ct_font_t *lead) {
  set_t s = { .n = 0 };
  size_t len, n = 0, i;
  unsigned char *font;
  const unsigned char *colr;
  plain_set(&s);
  font = build(lead, &s, CT_FONT_COLR1, &len);
  colr = font ? table_of(font, len, "COLR", &n) : NULL;
  for (i = 0; colr && i < n; i++) printf("0x%02x,%s", colr[i], i % 16 == 15 || i + 1 == n ? "\n" : " ");
  free(font);
  set_free(&s);
  moved_groups_set(&s);
  font = build(lead, &s, CT_FONT_COLR1, &len);
  printf("/* moved groups: %zu */\n", font ? colr_size(font, len) : 0);
  free(font);
  set_free(&s);
}

/* Glyphs the tree adds (clip boxes as rectangle glyphs) are numbered parents first, as
   before: the group's layers, written before the enclosing clip now, are asked after it. */
static void test_added_order(ct_font_t *lead) {
  set_t s = { .n = 0 };
  size_t len;
  unsigned char *font;
  ct_font_t *f;
  ct_error_t err;
  ct_paint_t *p;
  add(&s, 1, ct_paint_clip_create(0, 0, 500, 500, layers(ct_paint_clip_create(0, 0, 100, 100, fill(5, 0)),
                                                         ct_paint_clip_create(0, 0, 200, 200, fill(6, 1)), NULL)));
  font = build(lead, &s, CT_FONT_COLR1, &len);
  f = font ? ct_font_create_from_data(font, len, 0, "added order", &err) : NULL;
  p = f ? ct_font_get_glyph_paint(f, 1, CT_FORMAT_COLR1, &err) : NULL;
  CHECK(p && p->kind == CT_PAINT_GLYPH && p->u.glyph.gid == 119);   /* ct-kern has 119 glyphs */
  CHECK(p && p->kind == CT_PAINT_GLYPH && p->u.glyph.child->kind == CT_PAINT_LAYERS && p->u.glyph.child->u.layers.count == 2 &&
        p->u.glyph.child->u.layers.children[0]->u.glyph.gid == 120 &&
        p->u.glyph.child->u.layers.children[1]->u.glyph.gid == 121);
  ct_paint_destroy(p);
  ct_font_destroy(f);
  free(font);
  set_free(&s);
}

/* ---- colors beyond the palettes ---------------------------------------------------------- */

/* Explicit colors, palette entries at an alpha (folded into CPAL entries by COLRv0), repeated,
   alpha -0 and 0. */
static void colors_set(set_t *s) {
  unsigned i;
  for (i = 0; i < 300; i++) {
    ct_rgba_t rgba = { (i % 150) / 150.0, (i % 7) / 7.0, 0.5, 1 };
    ct_color_t c = i % 3 == 2 ? ct_color_palette(i % 4, (i % 5 + 1) / 8.0) : ct_color_rgba(rgba);
    if (i % 11 == 0) c.alpha = 0.75;
    if (i == 30 || i == 31) c.alpha = i == 30 ? -0.0 : 0.0;
    add(s, 1 + i % 118, layers(glyph(1 + i % 50, ct_paint_solid_create(c)), fill(60 + i % 40, i % 4), NULL));
  }
}

static uint64_t fnv(const unsigned char *p, size_t n) {
  uint64_t h = 0xCBF29CE484222325ull;
  while (n--) h = (h ^ *p++) * 0x100000001B3ull;
  return h;
}

/* CPAL and COLR of colors_set (COLRv0 and v1): the length and FNV-1a hash of each. */
static void colors_tables(ct_font_t *lead, size_t len[2], uint64_t hash[2]) {
  set_t s = { .n = 0 };
  size_t n;
  unsigned char *font;
  const unsigned char *t;
  int i;
  colors_set(&s);
  font = build(lead, &s, CT_FONT_COLR0 | CT_FONT_COLR1, &n);
  for (i = 0; i < 2; i++) {
    len[i] = 0;
    t = font ? table_of(font, n, i ? "COLR" : "CPAL", &len[i]) : NULL;
    hash[i] = t ? fnv(t, len[i]) : 0;
  }
  free(font);
  set_free(&s);
}

/* The colors' entries are found by hash now: CPAL as it was before (commit 5b7c3fa); COLR
   smaller by the sharing (same glyphs of the same colors). */
#define COLORS_CPAL_BEFORE 466, 0xaf6f3fc1f2a60bbfull   /* COLR 6650 before sharing */

static void test_colors(ct_font_t *lead) {
  size_t len[2], want_len = 0;
  uint64_t hash[2], want_hash = 0;
  struct { size_t len; uint64_t hash; } before = { COLORS_CPAL_BEFORE };
  colors_tables(lead, len, hash);
  want_len = before.len;
  want_hash = before.hash;
  CHECK_MSG(len[0] == want_len && hash[0] == want_hash, "CPAL of %zu bytes, %016llx (before: %zu, %016llx)",
            len[0], (unsigned long long)hash[0], want_len, (unsigned long long)want_hash);
  CHECK(len[1] > 0);
}

static void dump_colors(ct_font_t *lead) {
  size_t len[2];
  uint64_t hash[2];
  colors_tables(lead, len, hash);
  printf("#define COLORS_CPAL_BEFORE %zu, 0x%016llxull   /* COLR %zu */\n", len[0], (unsigned long long)hash[0], len[1]);
}

/* ---- a glyph that fails leaves nothing behind ---------------------------------------- */

static long fake_glyph(void *data, ct_font_t *font, unsigned gid, const double *m) {
  (void)data, (void)font, (void)m;
  return gid;
}
static long fake_rect(void *data, double x0, double y0, double x1, double y1) {
  (void)data, (void)x0, (void)y0, (void)x1, (void)y1;
  return 999;
}
static long fake_color(void *data, const ct_color_t *c, int fold) {
  (void)data, (void)fold;
  return c->index;
}

/* The table of the glyphs (a NULL tree: the failing one, tried between them). */
static unsigned char *write_direct(ct_paint_t **trees, unsigned n, int with_bad, size_t *len) {
  ct_colr_sink_t sink = { .glyph = fake_glyph, .rect = fake_rect, .color = fake_color };
  ct_colr_writer_t *w = ct_colr_writer_create();
  ct_buf_t out = { NULL, 0, 0, 0 };
  unsigned i;
  for (i = 0; w && i < n; i++) {
    if (with_bad && i == 1) {
      ct_paint_t *bad = layers(fill(10, 0), fill(14, 1), translate(2, 0, layers(fill(11, 1), fill(15, 2), NULL)),
                               translate(1e6, 0, fill(16, 0)), NULL);
      CHECK(!ct_colr_writer_add_v1(w, 2, bad, NULL, &sink));
      CHECK(strstr(sink.why, "16-bit range") != NULL);
      ct_paint_destroy(bad);
    }
    CHECK(ct_colr_writer_add_v1(w, 10 + i, trees[i], NULL, &sink));
  }
  CHECK(w && ct_colr_writer_finish(w, &out));
  ct_colr_writer_destroy(w);
  *len = out.len;
  return out.p;
}

static void test_failed_glyph(void) {
  ct_paint_t *trees[3];
  unsigned char *a, *b;
  size_t alen, blen;
  unsigned i;
  trees[0] = layers(fill(10, 0), fill(11, 1), fill(12, 2), NULL);
  trees[1] = layers(fill(10, 0), fill(14, 1), NULL);   /* the failed glyph's layers, again */
  trees[2] = layers(fill(11, 1), fill(15, 2), NULL);
  a = write_direct(trees, 3, 1, &alen);
  b = write_direct(trees, 3, 0, &blen);
  CHECK_MSG(a && b && alen == blen && memcmp(a, b, alen) == 0,
            "a failed glyph changed the table (%zu bytes, %zu without it)", alen, blen);
  free(a);
  free(b);
  for (i = 0; i < 3; i++) ct_paint_destroy(trees[i]);
}

/* ---- Twemoji ------------------------------------------------------------------------------ */

/* Every color glyph of the Twemoji COLRv0 font as a COLRv1 font: read back as read. */
static size_t twemoji(int check, unsigned *count) {
  ct_error_t err;
  ct_font_t *lead = ct_font_create_from_file(FONT("twemoji-colr0.woff2"), 0, &err);
  ct_font_info_t info;
  set_t s = { .n = 0 };
  ct_paint_t **want;
  size_t len, size = 0;
  unsigned char *font;
  unsigned g, i;
  if (!lead) return 0;
  ct_font_get_info(lead, &info);
  for (g = 0; g < info.glyph_count; g++) {
    ct_paint_t *p = ct_font_get_glyph_paint(lead, g, CT_FORMAT_COLR0, &err);
    if (p && p->kind == CT_PAINT_LAYERS) add(&s, g, p);   /* else the outline in the text color */
    else ct_paint_destroy(p);
  }
  *count = s.n;
  want = calloc(s.n + 1, sizeof *want);
  for (i = 0; want && i < s.n; i++)   /* a single layer is written as that layer */
    if (s.g[i].tree->u.layers.count == 1) want[i] = s.g[i].tree->u.layers.children[0];
  font = want ? build(lead, &s, CT_FONT_COLR1, &len) : NULL;
  if (font) size = colr_size(font, len);
  if (check) {
    CHECK_MSG(font != NULL && s.n > 3000, "Twemoji: %u color glyphs", s.n);
    if (font) check_traces("Twemoji", font, len, &s, want);
    if (font) check_tools("Twemoji");
  }
  free(font);
  free(want);
  set_free(&s);
  ct_font_destroy(lead);
  return size;
}

static void bench(ct_font_t *lead) {
  set_t s = { .n = 0 };
  size_t len, got;
  unsigned char *font;
  unsigned i, n;
  for (i = 0; i < 100; i++)   /* a face, eyes, a mouth of 4, a hand in 5 tones */
    add(&s, 1 + i, layers(fill(20, 0), translate(0, 100, fill(21, 1)), translate(i % 4 * 10, 0, fill(22, 2)),
                          translate(200, 0, fill(23, i % 5 % 4)), NULL));
  font = build(lead, &s, CT_FONT_COLR1, &len);
  printf("faces: 100 glyphs of 4 layers from 1 + 1 + 4 + 4 kinds: COLR %zu bytes (%zu with nothing shared)\n",
         font ? colr_size(font, len) : 0, COLR(100, 400, 100 * (FILL + 3 * MOVED + 6)));
  free(font);
  set_free(&s);
  got = twemoji(0, &n);
  printf("Twemoji COLRv0 as COLRv1: %u color glyphs: COLR %zu bytes (543272 before sharing)\n", n, got);
}

/* issue 33, item 14: an empty buffer grown by nothing (NULL + 0 in ct_buf_grow) and a name
   table of no records (qsort given NULL): UBSan aborts on either (make check-asan). */
static void test_empty_buffers(void) {
  ct_buf_t b = { NULL, 0, 0, 0 };
  ct_names_t ns;
  ct_table_t none = { NULL, 0 };
  CHECK(ct_buf_grow(&b, 0) == NULL && b.len == 0 && !b.failed);
  ct_buf_bytes(&b, NULL, 0);
  CHECK(b.len == 0 && !b.failed);
  memset(&ns, 0, sizeof ns);
  CHECK(ct_names_read(&ns, &none, 0) && ns.n == 0);
  CHECK(ct_names_write(&ns, &b));
  CHECK_MSG(b.len == 6 && rd16(b.p + 2) == 0, "a name table of no records: %zu bytes", b.len);
  ct_names_free(&ns);
  free(b.p);
}

int main(int argc, char **argv) {
  ct_error_t err;
  ct_font_t *lead = ct_font_create_from_file(LEAD, 0, &err);
  snprintf(out_path, sizeof out_path, "/tmp/test_colrwrite.%ld.ttf", (long)getpid());
  if (!lead) {
    fprintf(stderr, "%s: %s\n", LEAD, err.message);
    return 1;
  }
  if (argc > 1 && strcmp(argv[1], "--dump") == 0) {
    dump(lead);
    dump_colors(lead);
  }
  else if (argc > 1 && strcmp(argv[1], "--bench") == 0) bench(lead);
  else {
    test_same_layers(lead);
    test_subruns(lead);
    test_shared_layers(lead);
    test_nested(lead);
    test_gradients(lead);
    test_many_layers(lead);
    test_repeats_in_glyph(lead);
    test_plain(lead);
    test_colors(lead);
    test_added_order(lead);
    test_failed_glyph();
    test_empty_buffers();
    {
      unsigned n;
      twemoji(1, &n);
    }
  }
  ct_font_destroy(lead);
  remove(out_path);
  return argc > 1 ? 0 : ct_test_report("colrwrite");
}
