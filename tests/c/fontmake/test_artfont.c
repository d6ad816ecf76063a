/*
** test_artfont.c: fonts made from artwork (artfont.c, artfont-tables.c) with drawings built
** by hand (no SVG reader): glyph order and count, outlines shared across files, cmap,
** names, the ligatures shaped by HarfBuzz (ZWJ sequences, keycaps with and without U+FE0F,
** flags, skin tones), one palette of the colors used, every color format, the errors.
** Core unit test.
*/
#include <unistd.h>

#include "ct-test.h"
#include "fontmake/artwork/artfont.h"

/* ---- drawings by hand ------------------------------------------------------------- */

/* A rectangle outline (26.6), clockwise. */
static void rect(FT_Outline *o, double x0, double y0, double x1, double y1) {
  double x[4] = { x0, x0, x1, x1 }, y[4] = { y0, y1, y1, y0 };
  int i;
  memset(o, 0, sizeof *o);
  o->n_points = 4;
  o->n_contours = 1;
  o->points = calloc(4, sizeof *o->points);
  o->tags = calloc(4, 1);
  o->contours = calloc(1, sizeof *o->contours);
  for (i = 0; i < 4; i++) {
    o->points[i].x = (FT_Pos)(x[i] * 64);
    o->points[i].y = (FT_Pos)(y[i] * 64);
    o->tags[i] = 1;
  }
  o->contours[0] = 3;
}

static ct_color_t rgba(double r, double g, double b, double a) {
  ct_rgba_t c = { r, g, b, a };
  return ct_color_rgba(c);
}

/* A drawing of `n` rectangles (kinds 0..2: three distinct shapes), each in its color. */
static void art(ct_artwork_t *a, const int *kinds, const ct_color_t *colors, unsigned n, double advance) {
  static const double box[3][4] = { { 0, 0, 500, 500 }, { 100, 100, 900, 700 }, { 0, -100, 1000, 800 } };
  unsigned i;
  memset(a, 0, sizeof *a);
  a->outlines = calloc(n, sizeof *a->outlines);
  a->count = n;
  a->advance = advance;
  a->tree = ct_paint_layers_create(n);
  for (i = 0; i < n; i++) {
    const double *bx = box[kinds[i]];
    rect(&a->outlines[i], bx[0], bx[1], bx[2], bx[3]);
    ct_paint_layers_append(a->tree, ct_paint_glyph_create(NULL, i, ct_paint_solid_create(colors[i])));
  }
}

static void art_free(ct_artwork_t *a) {
  unsigned i;
  for (i = 0; i < a->count; i++) {
    free(a->outlines[i].points);
    free(a->outlines[i].tags);
    free(a->outlines[i].contours);
  }
  free(a->outlines);
  ct_paint_destroy(a->tree);
}

/* ---- the font -------------------------------------------------------------------------- */

static const uint32_t cp_man[] = { 0x1F468 }, cp_woman[] = { 0x1F469 }, cp_couple[] = { 0x1F468, 0x200D, 0x1F469 },
  cp_keycap[] = { 0x23, 0xFE0F, 0x20E3 }, cp_flag[] = { 0x1F1FA, 0x1F1F8 }, cp_wave[] = { 0x1F44B },
  cp_tone[] = { 0x1F44B, 0x1F3FB }, cp_a[] = { 0x41 };

#define NSRC 8
static ct_artwork_source_t src[NSRC] = {
  { "man.svg", NULL, 0, cp_man, 1, NULL },
  { "woman.svg", NULL, 0, cp_woman, 1, NULL },
  { "couple.svg", NULL, 0, cp_couple, 3, NULL },
  { "keycap.svg", NULL, 0, cp_keycap, 3, NULL },
  { "flag.svg", NULL, 0, cp_flag, 2, NULL },
  { "wave.svg", NULL, 0, cp_wave, 1, NULL },
  { "wave-tone.svg", NULL, 0, cp_tone, 2, NULL },
  { "A.svg", NULL, 0, cp_a, 1, "A" },
};
static ct_artwork_t arts[NSRC + 1];

static void make_arts(void) {
  ct_color_t red = rgba(1, 0, 0, 1), blue = rgba(0, 0, 1, 1), half = rgba(0, 0.5, 0, 0.5);
  int k0[] = { 0 }, k01[] = { 0, 1 }, k2[] = { 2 };
  ct_color_t c1[] = { red }, c2[] = { blue, red }, c3[] = { half };
  unsigned i;
  art(&arts[0], k0, c1, 1, 1000);     /* shape 0 */
  art(&arts[1], k01, c2, 2, 1000);    /* shape 0 again (shared), shape 1 */
  for (i = 2; i < NSRC; i++) art(&arts[i], k2, i == 3 ? c3 : c1, 1, 1200);   /* shape 2 everywhere */
  art(&arts[NSRC], k0, c1, 1, 1000);
}

static void warn_count(void *data, const char *msg) {
  (void)msg;
  (*(int *)data)++;
}

/* The glyphs of `text` shaped with the font. */
static unsigned shape(ct_font_t *f, const char *text, unsigned *gids, unsigned max) {
  ct_shaped_t run;
  unsigned i, n;
  if (ct_shape(f, text, strlen(text), NULL, &run, NULL)) return 0;
  n = run.count;
  for (i = 0; i < n && i < max; i++) gids[i] = run.glyphs[i].gid;
  ct_shaped_fini(&run);
  return n;
}

static ct_font_t *write_open(ct_font_builder_t *b, unsigned formats, const char *path) {
  ct_font_write_options_t o;
  ct_error_t err;
  ct_font_t *f;
  ct_font_write_options_init(&o);
  o.formats = formats;
  if (ct_font_builder_write(b, path, &o, &err)) {
    fprintf(stderr, "write: %s\n", err.message);
    return NULL;
  }
  f = ct_font_create_from_file(path, 0, &err);
  if (!f) fprintf(stderr, "open: %s\n", err.message);
  return f;
}

static void test_font(const char *dir) {
  ct_error_t err;
  ct_font_builder_t *b;
  ct_font_t *f;
  ct_font_info_t info;
  char path[600], name[128];
  unsigned gids[16], n, g;
  int warnings = 0;

  b = ct_artfont_build(src, arts, NSRC, NULL, warn_count, &warnings, &err);
  CHECK_MSG(b != NULL, "%s", err.message);
  if (!b) return;
  snprintf(path, sizeof path, "%s/art.ttf", dir);
  f = write_open(b, 0, path);
  CHECK(f != NULL);
  if (!f) goto done;
  ct_font_get_info(f, &info);
  /* .notdef, 8 drawings, 8 placeholders (200D 23 20E3 1F1FA 1F1F8 1F3FB FE0E FE0F), 3 shapes */
  CHECK_MSG(info.glyph_count == 1 + 8 + 8 + 3, "%u glyphs", info.glyph_count);
  CHECK(info.units_per_em == 1024);
  CHECK(info.color_formats & CT_COLOR_COLR0);   /* flat: COLRv0 by default */
  CHECK(ct_font_get_palette_count(f) == 1);
  CHECK_MSG(ct_font_get_palette_entry_count(f) == 3, "%u entries", ct_font_get_palette_entry_count(f));
  CHECK(ct_font_get_nominal_glyph(f, 0x1F468, &g) && g == 1);
  CHECK(ct_font_get_nominal_glyph(f, 0x1F469, &g) && g == 2);
  CHECK(ct_font_get_nominal_glyph(f, 0x41, &g) && g == 8);
  CHECK(ct_font_get_nominal_glyph(f, 0x200D, &g) && g > 8 && g < 17);
  CHECK(ct_font_get_nominal_glyph(f, 0xFE0F, &g) && g > 8 && g < 17);
  CHECK(!ct_font_get_nominal_glyph(f, 0x42, &g));
  CHECK_NEAR(ct_font_get_glyph_advance(f, 1), 1000, 0.5);
  CHECK_NEAR(ct_font_get_glyph_advance(f, 3), 1200, 0.5);
  CHECK(ct_font_get_glyph_name(f, 1, name, sizeof name) && strcmp(name, "u1F468") == 0);
  CHECK(ct_font_get_glyph_name(f, 3, name, sizeof name) && strcmp(name, "u1F468_200D_1F469") == 0);
  CHECK(ct_font_get_glyph_name(f, 4, name, sizeof name) && strcmp(name, "u0023_FE0F_20E3") == 0);
  CHECK(ct_font_get_glyph_name(f, 8, name, sizeof name) && strcmp(name, "A") == 0);
  CHECK(ct_font_get_glyph_name(f, 0, name, sizeof name) && strcmp(name, ".notdef") == 0);
  /* the ligatures */
  n = shape(f, "\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9", gids, 16);   /* 1F468 200D 1F469 */
  CHECK_MSG(n == 1 && gids[0] == 3, "couple: %u glyphs, first %u", n, gids[0]);
  n = shape(f, "#\xEF\xB8\x8F\xE2\x83\xA3", gids, 16);   /* 23 FE0F 20E3 */
  CHECK_MSG(n >= 1 && gids[0] == 4, "keycap: %u glyphs, first %u", n, gids[0]);
  n = shape(f, "#\xE2\x83\xA3", gids, 16);               /* 23 20E3 */
  CHECK_MSG(n == 1 && gids[0] == 4, "keycap without FE0F: %u glyphs, first %u", n, gids[0]);
  n = shape(f, "\xF0\x9F\x87\xBA\xF0\x9F\x87\xB8", gids, 16);   /* 1F1FA 1F1F8 */
  CHECK_MSG(n == 1 && gids[0] == 5, "flag: %u glyphs, first %u", n, gids[0]);
  n = shape(f, "\xF0\x9F\x91\x8B\xF0\x9F\x8F\xBB", gids, 16);   /* 1F44B 1F3FB */
  CHECK_MSG(n == 1 && gids[0] == 7, "skin tone: %u glyphs, first %u", n, gids[0]);
  n = shape(f, "\xF0\x9F\x91\x8B", gids, 16);
  CHECK(n == 1 && gids[0] == 6);
  n = shape(f, "\xF0\x9F\x91\xA8\xF0\x9F\x91\xA9", gids, 16);   /* no ZWJ: two glyphs */
  CHECK(n == 2 && gids[0] == 1 && gids[1] == 2);
  ct_font_destroy(f);

  /* every format */
  f = write_open(b, CT_FONT_COLR1, path);
  CHECK(f && (ct_font_get_info(f, &info), info.color_formats & CT_COLOR_COLR1));
  CHECK(f && ct_font_get_palette_count(f) == 1);
  ct_font_destroy(f);
  f = write_open(b, CT_FONT_SVG, path);
  CHECK(f && (ct_font_get_info(f, &info), info.color_formats & CT_COLOR_SVG));
  ct_font_destroy(f);
  f = write_open(b, CT_FONT_COLR0 | CT_FONT_COLR1 | CT_FONT_SVG, path);
  CHECK(f && (ct_font_get_info(f, &info), (info.color_formats & 7) == 7));
  /* one palette still: the half-transparent green is an RGBA entry in every format */
  CHECK_MSG(f && ct_font_get_palette_count(f) == 1 && ct_font_get_palette_entry_count(f) == 3, "%u entries", f ? ct_font_get_palette_entry_count(f) : 0);
  ct_font_destroy(f);
done:
  if (getenv("CT_ARTFONT_KEEP")) rename(path, getenv("CT_ARTFONT_KEEP"));   /* to look at it */
  unlink(path);
  ct_font_builder_destroy(b);
}

static void test_errors(void) {
  ct_error_t err;
  ct_artwork_source_t s[3];
  ct_artwork_font_options_t o;
  static const uint32_t bad[] = { 0xD800 }, tone_fe0f[] = { 0x1F44B, 0xFE0F, 0x1F3FB };
  memcpy(s, src, sizeof s);
  CHECK(ct_artfont_build(s, arts, 0, NULL, NULL, NULL, &err) == NULL && strstr(err.message, "no artwork"));
  s[1].codepoints = cp_man;
  CHECK(ct_artfont_build(s, arts, 2, NULL, NULL, NULL, &err) == NULL);
  CHECK_STR(err.message, "man.svg and woman.svg both give U+1F468");
  memcpy(s, src, sizeof s);
  s[0].glyph_name = "x";
  s[2].glyph_name = "x";
  CHECK(ct_artfont_build(s, arts, 3, NULL, NULL, NULL, &err) == NULL);
  CHECK_STR(err.message, "man.svg and couple.svg both give the glyph name 'x'");
  memcpy(s, src, sizeof s);
  s[1].codepoints = bad;
  CHECK(ct_artfont_build(s, arts, 2, NULL, NULL, NULL, &err) == NULL && strstr(err.message, "woman.svg: U+D800"));
  /* a sequence that differs only by FE0F is the same character */
  memcpy(s, src + 5, 2 * sizeof *s);
  s[0] = src[6];
  s[1] = src[6];
  s[1].name = "other.svg";
  s[1].codepoints = tone_fe0f;
  s[1].ncodepoints = 3;
  CHECK(ct_artfont_build(s, arts, 2, NULL, NULL, NULL, &err) == NULL);
  CHECK_STR(err.message, "wave-tone.svg and other.svg both give U+1F44B U+1F3FB");
  memcpy(s, src, sizeof s);
  s[0].codepoints = NULL;
  s[0].ncodepoints = 0;
  CHECK(ct_artfont_build(s, arts, 1, NULL, NULL, NULL, &err) == NULL && strstr(err.message, "no character"));
  memcpy(s, src, sizeof s);
  s[0].glyph_name = "a b";
  CHECK(ct_artfont_build(s, arts, 1, NULL, NULL, NULL, &err) == NULL && strstr(err.message, "glyph name"));
  ct_artwork_font_options_init(&o);
  o.upem = 8;
  CHECK(ct_artfont_build(src, arts, 1, &o, NULL, NULL, &err) == NULL && strstr(err.message, "upem"));
  ct_artwork_font_options_init(&o);
  o.ascent = -300;
  CHECK(ct_artfont_build(src, arts, 1, &o, NULL, NULL, &err) == NULL && strstr(err.message, "ascent"));
  /* the public door: no sources */
  CHECK(ct_font_builder_create_from_artwork(src, 0, NULL, NULL, NULL, &err) == NULL);
  /* names: an unencoded glyph, a name given twice by generation and by hand */
  memcpy(s, src, sizeof s);
  s[1].codepoints = NULL;
  s[1].ncodepoints = 0;
  s[1].glyph_name = "u1F468";
  {
    ct_font_builder_t *b = ct_artfont_build(s, arts, 2, NULL, NULL, NULL, &err);
    CHECK_MSG(b != NULL, "%s", err.message);
    ct_font_builder_destroy(b);
  }
}

/* The public door, with SVG documents read by glyph/artwork/ in parallel. */
static void test_door(void) {
  static const char ok_svg[] = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 36 36'>"
    "<rect width='36' height='36' fill='#FFCC4D'/></svg>";
  static const char bad_svg[] = "<svg xmlns='http://www.w3.org/2000/svg'><rect";
  static const uint32_t c1[] = { 0x1F600 }, c2[] = { 0x1F601 }, c3[] = { 0x1F602 };
  ct_artwork_source_t s[3] = {
    { "ok.svg", (const unsigned char *)ok_svg, sizeof ok_svg - 1, c1, 1, NULL },
    { "bad.svg", (const unsigned char *)bad_svg, sizeof bad_svg - 1, c2, 1, NULL },
    { "ok2.svg", (const unsigned char *)ok_svg, sizeof ok_svg - 1, c3, 1, NULL },
  };
  ct_artwork_font_options_t o;
  ct_font_builder_t *b;
  ct_error_t err;
  int warnings = 0;
  ct_artwork_font_options_init(&o);
  o.threads = 2;
  b = ct_font_builder_create_from_artwork(s, 3, &o, warn_count, &warnings, &err);
  CHECK(b == NULL && strncmp(err.message, "bad.svg: ", 9) == 0);
  o.keep_going = 1;
  b = ct_font_builder_create_from_artwork(s, 3, &o, warn_count, &warnings, &err);
  CHECK_MSG(b != NULL, "%s", err.message);
  CHECK(warnings == 1);
  ct_font_builder_destroy(b);
  b = ct_font_builder_create_from_artwork(s + 1, 1, &o, NULL, NULL, &err);
  CHECK(b == NULL && strstr(err.message, "no drawing could be read"));
}

int main(void) {
  char dir[] = "/tmp/test_artfont.XXXXXX";
  unsigned i;
  if (!mkdtemp(dir)) return 1;
  make_arts();
  test_font(dir);
  test_errors();
  test_door();
  for (i = 0; i <= NSRC; i++) art_free(&arts[i]);
  rmdir(dir);
  return ct_test_report("artfont");
}
