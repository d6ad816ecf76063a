/*
** test_svgwrite.c: paint trees written as OT-SVG glyph documents (svgwrite.c), drawn
** back through the project's own OT-SVG path (an SVG table added to the font in memory:
** glyph/svg/'s parser, sanitizer, palette substitution and librsvg) and compared pixel by
** pixel with the renderer's drawing of the tree; the refusals and their reasons; the
** var() fallbacks.  Core unit test.
*/
#include <cairo.h>

#include "ct-test.h"
#include "fontmake/fontmake.h"
#include "glyph/glyph.h"

/* ---- fonts with an SVG table, built in memory ----------------------------------- */

static unsigned char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  unsigned char *d = NULL;
  long n;
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
      (d = malloc((size_t)n)) && fread(d, 1, (size_t)n, f) != (size_t)n) {
    free(d);
    d = NULL;
  }
  fclose(f);
  *len = d ? (size_t)n : 0;
  return d;
}

static unsigned rd16(const unsigned char *p) { return (unsigned)(p[0] << 8 | p[1]); }
static uint32_t rd32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static void wr16(unsigned char *p, unsigned v) { p[0] = (unsigned char)(v >> 8); p[1] = (unsigned char)v; }
static void wr32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)(v >> 24); p[1] = (unsigned char)(v >> 16); p[2] = (unsigned char)(v >> 8); p[3] = (unsigned char)v;
}

typedef struct { unsigned gid; char *doc; size_t len; } doc_t;

/* An SVG table of one document per glyph (sorted by glyph id). */
static unsigned char *svg_table(const doc_t *docs, unsigned n, size_t *len) {
  size_t size = 10 + 2 + 12 * (size_t)n, off, i;
  unsigned char *t;
  for (i = 0; i < n; i++) size += docs[i].len;
  if (!(t = calloc(1, size))) return NULL;
  wr32(t + 2, 10);
  wr16(t + 10, n);
  off = 2 + 12 * (size_t)n;   /* from the document list */
  for (i = 0; i < n; i++) {
    unsigned char *e = t + 12 + 12 * i;
    wr16(e, docs[i].gid);
    wr16(e + 2, docs[i].gid);
    wr32(e + 4, (uint32_t)off);
    wr32(e + 8, (uint32_t)docs[i].len);
    memcpy(t + 10 + off, docs[i].doc, docs[i].len);
    off += docs[i].len;
  }
  *len = size;
  return t;
}

typedef struct { char tag[4]; const unsigned char *data; size_t len; } table_t;

static int tag_cmp(const void *a, const void *b) {
  return memcmp(((const table_t *)a)->tag, ((const table_t *)b)->tag, 4);
}

/* The font's sfnt with `svg` added as its SVG table; `hide_cpal` renames CPAL so that the
   font has no palettes (the documents' var() fallbacks are drawn).  Checksums are left 0:
   FreeType and HarfBuzz do not check them. */
static unsigned char *with_svg(const unsigned char *font, size_t flen, const unsigned char *svg,
                               size_t slen, int hide_cpal, size_t *out_len) {
  unsigned n = rd16(font + 4), i;
  table_t *tabs = calloc(n + 1, sizeof *tabs);
  size_t size, off;
  unsigned char *out;
  if (!tabs) return NULL;
  for (i = 0; i < n; i++) {
    const unsigned char *r = font + 12 + 16 * i;
    uint32_t o = rd32(r + 8), l = rd32(r + 12);
    memcpy(tabs[i].tag, r, 4);
    if (o > flen || flen - o < l) { free(tabs); return NULL; }
    tabs[i].data = font + o;
    tabs[i].len = l;
    if (hide_cpal && memcmp(tabs[i].tag, "CPAL", 4) == 0) memcpy(tabs[i].tag, "CPAX", 4);
  }
  memcpy(tabs[n].tag, "SVG ", 4);
  tabs[n].data = svg;
  tabs[n].len = slen;
  n++;
  qsort(tabs, n, sizeof *tabs, tag_cmp);
  size = 12 + 16 * (size_t)n;
  for (i = 0; i < n; i++) size += (tabs[i].len + 3) & ~(size_t)3;
  if (!(out = calloc(1, size))) { free(tabs); return NULL; }
  memcpy(out, font, 4);
  wr16(out + 4, n);
  off = 12 + 16 * (size_t)n;
  for (i = 0; i < n; i++) {
    unsigned char *r = out + 12 + 16 * i;
    memcpy(r, tabs[i].tag, 4);
    wr32(r + 8, (uint32_t)off);
    wr32(r + 12, (uint32_t)tabs[i].len);
    memcpy(out + off, tabs[i].data, tabs[i].len);
    off += (tabs[i].len + 3) & ~(size_t)3;
  }
  free(tabs);
  *out_len = size;
  return out;
}

/* ---- drawing and comparing ----------------------------------------------------------- */

#define SIDE 128   /* pixels; font units -100..1100 x -200..1000 */

static cairo_surface_t *draw(ct_font_t *font, const ct_paint_t *tree, const ct_text_style_t *st) {
  cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, SIDE, SIDE);
  cairo_t *cr = cairo_create(img);
  cairo_matrix_t m;
  ct_resolved_palette_t pal;
  ct_draw_ctx_t ctx;
  ct_error_t err;
  double s = SIDE / 1200.0;
  cairo_matrix_init(&m, s, 0, 0, -s, 100 * s, 1000 * s);
  cairo_set_matrix(cr, &m);
  if (ct_palette_resolve(font, st, &pal, &err) == CT_OK) {
    memset(&ctx, 0, sizeof ctx);
    ctx.font = font;
    ctx.palette = &pal;
    ctx.images = &ct_glyph_images;   /* the OT-SVG side is drawn by librsvg */
    ct_render_paint(cr, &ctx, tree);
    ct_palette_fini(&pal);
  } else {
    fprintf(stderr, "%s\n", err.message);
  }
  cairo_destroy(cr);
  cairo_surface_flush(img);
  return img;
}

/* Mean absolute difference per channel (premultiplied ARGB bytes), and the largest. */
static double diff(cairo_surface_t *a, cairo_surface_t *b, int *maxd) {
  const unsigned char *pa = cairo_image_surface_get_data(a), *pb = cairo_image_surface_get_data(b);
  int stride = cairo_image_surface_get_stride(a), x, y, c;
  double sum = 0;
  *maxd = 0;
  for (y = 0; y < SIDE; y++)
    for (x = 0; x < SIDE; x++)
      for (c = 0; c < 4; c++) {
        int d = abs(pa[y * stride + 4 * x + c] - pb[y * stride + 4 * x + c]);
        sum += d;
        if (d > *maxd) *maxd = d;
      }
  return sum / (SIDE * SIDE * 4.0);
}

static int painted(cairo_surface_t *a) {   /* some pixel is not transparent */
  const unsigned char *p = cairo_image_surface_get_data(a);
  int stride = cairo_image_surface_get_stride(a), x, y;
  for (y = 0; y < SIDE; y++)
    for (x = 0; x < SIDE; x++)
      if (p[y * stride + 4 * x + 3]) return 1;
  return 0;
}

/* ---- one font: write every color glyph, draw both ways, compare -------------------------- */

#define MAX_DOCS 256
#define TOLERANCE 1.0   /* mean abs difference per channel, of 255 */

typedef struct {
  const char *file;
  ct_format_t format;
  unsigned    first, last;     /* glyph ids tried */
  unsigned    palettes;        /* compared with palettes 0..palettes-1 */
} case_t;

static doc_t docs[MAX_DOCS];
static unsigned ndocs;

static void check_font(const case_t *cs, unsigned expect_refused, const char *const *refusal_words) {
  ct_error_t err;
  size_t flen = 0, slen = 0, len2 = 0;
  unsigned char *bytes = read_file(cs->file, &flen), *svg = NULL, *fontdata = NULL;
  ct_font_t *f = bytes ? ct_font_create_from_data(bytes, flen, 0, cs->file, &err) : NULL;
  ct_rgba_t pal0[256];
  ct_svgwrite_t opts;
  unsigned gid, i, refused = 0, compared = 0, hide;
  double worst = 0;
  unsigned worst_gid = 0;

  CHECK_MSG(f != NULL, "%s", cs->file);
  if (!f) { free(bytes); return; }
  memset(&opts, 0, sizeof opts);
  opts.palette = pal0;
  opts.palette_count = ct_font_get_palette_colors(f, 0, pal0, 256);
  if (opts.palette_count > 256) opts.palette_count = 256;
  ndocs = 0;
  for (gid = cs->first; gid <= cs->last && gid < ct_font_get_glyph_count(f) && ndocs < MAX_DOCS; gid++) {
    ct_paint_t *tree = ct_font_get_glyph_paint(f, gid, cs->format, &err);
    char why[256] = "x";
    size_t len = 0;
    char *doc;
    if (!tree) continue;
    opts.gid = gid;
    doc = ct_svg_write_glyph(f, tree, &opts, &len, why, sizeof why);
    if (!doc) {
      int known = 0;
      refused++;
      CHECK_MSG(why[0] != '\0' && strcmp(why, "x") != 0, "glyph %u refused without a reason", gid);
      for (i = 0; refusal_words && refusal_words[i]; i++)
        if (strstr(why, refusal_words[i])) known = 1;
      CHECK_MSG(known, "%s glyph %u: unexpected refusal: %s", cs->file, gid, why);
    } else {
      CHECK_MSG(strlen(doc) == len, "glyph %u: length", gid);
      CHECK_MSG(strstr(doc, "<text") == NULL && strstr(doc, "<script") == NULL &&
                strstr(doc, "href") == NULL && strstr(strstr(doc, "http:") + 1, "http:") == NULL,
                "glyph %u: outside the safe subset", gid);
      docs[ndocs].gid = gid;
      docs[ndocs].doc = doc;
      docs[ndocs].len = len;
      ndocs++;
    }
    ct_paint_destroy(tree);
  }
  CHECK_MSG(refused == expect_refused, "%s: %u refused, %u expected", cs->file, refused, expect_refused);
  svg = svg_table(docs, ndocs, &slen);

  /* with the font's palettes (var() substituted), then without any (the fallbacks) */
  for (hide = 0; hide < 2 && svg; hide++) {
    ct_font_t *fs;
    unsigned pal, npal = hide ? 1 : cs->palettes;
    char *warning;
    fontdata = with_svg(bytes, flen, svg, slen, (int)hide, &len2);
    fs = fontdata ? ct_font_create_from_data(fontdata, len2, 0, "with-svg.ttf", &err) : NULL;
    CHECK_MSG(fs != NULL, "font with an SVG table: %s", fs ? "" : err.message);
    if (!fs) { free(fontdata); break; }
    CHECK(hide || ct_font_get_palette_count(fs) == ct_font_get_palette_count(f));
    CHECK(!hide || ct_font_get_palette_count(fs) == 0);
    for (pal = 0; pal < npal; pal++) {
      ct_text_style_t st;
      ct_text_style_init(&st);
      st.palette = pal;
      ct_rgba_parse("#3366cc", &st.foreground);   /* the text color: currentColor */
      for (i = 0; i < ndocs; i++) {
        ct_paint_t *tree = ct_font_get_glyph_paint(f, docs[i].gid, cs->format, &err);
        ct_paint_t *back = ct_font_get_glyph_paint(fs, docs[i].gid, CT_FORMAT_SVG, &err);
        cairo_surface_t *a, *b;
        double d;
        int maxd;
        ct_text_style_t st0 = st;
        CHECK_MSG(back && back->kind == CT_PAINT_SVG, "glyph %u: not read back as an SVG glyph", docs[i].gid);
        if (!tree || !back || back->kind != CT_PAINT_SVG) {
          ct_paint_destroy(tree);
          ct_paint_destroy(back);
          continue;
        }
        st0.palette = hide ? 0 : pal;
        a = draw(f, tree, &st0);
        b = draw(fs, back, &st);
        d = diff(a, b, &maxd);
        compared++;
        if (d > worst) { worst = d; worst_gid = docs[i].gid; }
        CHECK_MSG(d <= TOLERANCE, "%s glyph %u palette %u%s: mean difference %.3f (max %d)", cs->file,
                  docs[i].gid, pal, hide ? " (fallbacks)" : "", d, maxd);
        CHECK_MSG(painted(a) == painted(b), "glyph %u: drawn by one side only", docs[i].gid);
        if (d > TOLERANCE && getenv("CT_SVGWRITE_DUMP")) {
          char path[256];
          snprintf(path, sizeof path, "/tmp/svgw-%u-a.png", docs[i].gid);
          cairo_surface_write_to_png(a, path);
          snprintf(path, sizeof path, "/tmp/svgw-%u-b.png", docs[i].gid);
          cairo_surface_write_to_png(b, path);
        }
        cairo_surface_destroy(a);
        cairo_surface_destroy(b);
        ct_paint_destroy(tree);
        ct_paint_destroy(back);
      }
    }
    /* nothing was removed by the sanitizer, no document refused */
    while ((warning = ct_font_take_warning(fs))) {
      CHECK_MSG(0, "warning reading the documents back: %s", warning);
      free(warning);
    }
    ct_font_destroy(fs);
    free(fontdata);
  }
  printf("%s: %u written, %u refused, %u drawings compared, worst mean difference %.3f (glyph %u)\n",
         cs->file, ndocs, refused, compared, worst, worst_gid);
  for (i = 0; i < ndocs; i++) free(docs[i].doc);
  free(svg);
  ct_font_destroy(f);
  free(bytes);
}

/* ---- the text of the documents: colors, fallbacks ------------------------------------ */

static char *write_one(ct_font_t *f, unsigned gid, ct_format_t format, char *why, size_t whylen) {
  ct_error_t err;
  ct_rgba_t pal0[64];
  ct_svgwrite_t opts;
  ct_paint_t *tree = ct_font_get_glyph_paint(f, gid, format, &err);
  char *doc;
  size_t len;
  opts.gid = gid;
  opts.palette = pal0;
  opts.palette_count = ct_font_get_palette_colors(f, 0, pal0, 64);
  if (opts.palette_count > 64) opts.palette_count = 64;
  doc = tree ? ct_svg_write_glyph(f, tree, &opts, &len, why, whylen) : NULL;
  ct_paint_destroy(tree);
  return doc;
}

static void test_text(void) {
  ct_error_t err;
  ct_font_t *f = ct_font_create_from_file(FONT("ct-colr1.ttf"), 0, &err);
  ct_rgba_t e1, e8;
  char why[256], *doc, want[128];
  if (!f) { CHECK(0); return; }
  ct_font_get_palette_colors(f, 0, &e1, 1);   /* just the count; entries below */
  {
    ct_rgba_t pal[16];
    ct_font_get_palette_colors(f, 0, pal, 16);
    e1 = pal[1];
    e8 = pal[8];
  }
  /* solid_palette: a blue disc, entry 1, as var() with palette 0's color as the fallback */
  doc = write_one(f, 2, CT_FORMAT_COLR1, why, sizeof why);
  CHECK(doc != NULL);
  snprintf(want, sizeof want, "fill=\"var(--color1, #%02X%02X%02X)\"", (int)lround(e1.r * 255),
           (int)lround(e1.g * 255), (int)lround(e1.b * 255));
  CHECK_MSG(doc && strstr(doc, want), "%s not in %s", want, doc ? doc : "");
  CHECK(doc && strstr(doc, "<g id=\"glyph2\" transform=\"matrix(1 0 0 -1 0 0)\">"));
  CHECK(doc && strncmp(doc, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39) == 0);
  free(doc);
  /* solid_cpal_alpha: entry 8 has alpha 0x80: the fallback carries it (#RRGGBBAA), the
     paint's own alpha 0.5 is fill-opacity */
  doc = write_one(f, 4, CT_FORMAT_COLR1, why, sizeof why);
  snprintf(want, sizeof want, "fill=\"var(--color8, #%02X%02X%02X%02X)\" fill-opacity=\"0.5\"",
           (int)lround(e8.r * 255), (int)lround(e8.g * 255), (int)lround(e8.b * 255), (int)lround(e8.a * 255));
  CHECK_MSG(doc && strstr(doc, want), "%s not in %s", want, doc ? doc : "");
  free(doc);
  /* solid_foreground: currentColor */
  doc = write_one(f, 5, CT_FORMAT_COLR1, why, sizeof why);
  CHECK(doc && strstr(doc, "fill=\"currentColor\" style=\"fill:context-fill\""));
  free(doc);
  /* linear_pad: a gradient in user space with var() stop colors */
  doc = write_one(f, 7, CT_FORMAT_COLR1, why, sizeof why);
  CHECK(doc && strstr(doc, "<linearGradient id=\"g7-1\" gradientUnits=\"userSpaceOnUse\""));
  CHECK(doc && strstr(doc, "stop-color=\"var(--color0, #"));
  CHECK(doc && strstr(doc, "fill=\"url(#g7-1)\""));
  free(doc);
  /* the refusals say why */
  doc = write_one(f, 21, CT_FORMAT_COLR1, why, sizeof why);
  CHECK(doc == NULL);
  CHECK_MSG(strstr(why, "sweep gradients have no SVG equivalent") != NULL, "%s", why);
  doc = write_one(f, 52, CT_FORMAT_COLR1, why, sizeof why);
  CHECK(doc == NULL);
  CHECK_MSG(strstr(why, "src_atop") != NULL, "%s", why);
  doc = write_one(f, 66, CT_FORMAT_COLR1, why, sizeof why);   /* composite_multiply */
  CHECK(doc == NULL);
  CHECK_MSG(strstr(why, "multiply") && strstr(why, "Firefox"), "%s", why);
  /* solid_foreground_alpha: the alpha of a text-color fill is the element's opacity */
  doc = write_one(f, 6, CT_FORMAT_COLR1, why, sizeof why);
  CHECK(doc && strstr(doc, "fill=\"currentColor\" style=\"fill:context-fill\" opacity=\"0.5\""));
  free(doc);
  ct_font_destroy(f);

  f = ct_font_create_from_file(FONT("ct-svg.ttf"), 0, &err);
  if (f) {
    unsigned gid;
    ct_font_get_nominal_glyph(f, 0xE100, &gid);
    doc = write_one(f, gid, CT_FORMAT_SVG, why, sizeof why);
    CHECK(doc == NULL);
    CHECK_MSG(strstr(why, "SVG glyph cannot be re-encoded") != NULL, "%s", why);
    ct_font_destroy(f);
  }
  f = ct_font_create_from_file(FONT("ct-cbdt.ttf"), 0, &err);
  if (f) {
    unsigned gid, found = 0;
    for (gid = 1; gid < ct_font_get_glyph_count(f) && !found; gid++) {
      ct_paint_t *t = ct_font_get_glyph_paint(f, gid, CT_FORMAT_BITMAP, &err);
      if (t && t->kind == CT_PAINT_BITMAP) {
        found = 1;
        doc = write_one(f, gid, CT_FORMAT_BITMAP, why, sizeof why);
        CHECK(doc == NULL);
        CHECK_MSG(strstr(why, "bitmap glyph cannot be re-encoded") != NULL, "%s", why);
      }
      ct_paint_destroy(t);
    }
    CHECK(found);
    ct_font_destroy(f);
  }
}

/* A tree over the node budget is refused before anything is written. */
static void test_budget(void) {
  ct_error_t err;
  ct_font_t *f = ct_font_create_from_file(FONT("ct-colr0.ttf"), 0, &err);
  ct_paint_t *layers = ct_paint_layers_create(0), *leaf;
  ct_svgwrite_t opts = { 1, NULL, 0 };
  char why[256] = "", *doc;
  size_t len = 7;
  unsigned i;
  ct_rgba_t red = { 1, 0, 0, 1 };
  if (!f || !layers) { CHECK(0); ct_font_destroy(f); ct_paint_destroy(layers); return; }
  leaf = ct_paint_glyph_create(NULL, 1, ct_paint_solid_create(ct_color_rgba(red)));
  for (i = 0; i < CT_MAX_PAINT_WORK; i++) ct_paint_layers_append(layers, ct_paint_reference(leaf));
  doc = ct_svg_write_glyph(f, layers, &opts, &len, why, sizeof why);
  CHECK(doc == NULL);
  CHECK(len == 0);
  CHECK_MSG(strstr(why, "over the limits") != NULL, "%s", why);
  ct_paint_destroy(leaf);
  ct_paint_destroy(layers);
  ct_font_destroy(f);
}

int main(void) {
  /* ct-colr1: the 7 glyphs with sweeps (sweep_*, clipbox_cut, colr_glyph_clipped) and the 7 with
     src_atop, dest_atop, xor or plus, the 16 with blend modes (Firefox draws mix-blend-mode
     wrong in glyphs) are refused */
  static const char *const colr1_refusals[] = { "sweep gradients", "src_atop", "dest_atop", "xor",
                                                "plus", "mix-blend-mode", NULL };
  static const case_t colr1 = { FONT("ct-colr1.ttf"), CT_FORMAT_COLR1, 2, 81, 2 };
  static const case_t colr0 = { FONT("ct-colr0.ttf"), CT_FORMAT_COLR0, 1, 40, 3 };
  check_font(&colr1, 30, colr1_refusals);
  check_font(&colr0, 0, NULL);
  test_text();
  test_budget();
  return ct_test_report("test_svgwrite");
}
