/*
** test_artwork.c: SVG drawings read as color glyphs (src/glyph/artwork/): outlines in font
** units, paint trees, viewports, transforms, uses, clips, opacity, gradients, colors and
** refusals.  With /tmp/tw/package present (Twemoji's SVGs), every file of it is read too.
*/
#include <dirent.h>

#include "ct-test.h"
#include "ct.h"
#include "glyph/artwork/artwork-private.h"

static ct_artwork_options_t opts;
static ct_error_t err;

static ct_status_t rd(const char *svg, ct_artwork_t *a) {
  memset(&err, 0, sizeof err);
  return ct_artwork_read("t.svg", (const unsigned char *)svg, strlen(svg), &opts, a, &err);
}

/* The trace of a drawing's tree ("" when none or on failure); static buffer. */
static const char *trace_of(const char *svg, ct_artwork_t *a) {
  static char buf[8192];
  char *t;
  buf[0] = 0;
  if (rd(svg, a) != CT_OK) return buf;
  if ((t = ct_paint_trace(a->tree))) {
    snprintf(buf, sizeof buf, "%s", t);
    free(t);
  }
  return buf;
}

/* The box of outline i in font units. */
static void obox(const ct_artwork_t *a, unsigned i, double b[4]) {
  short k;
  const FT_Outline *o = &a->outlines[i];
  for (k = 0; k < o->n_points; k++) {
    double x = o->points[k].x / 64.0, y = o->points[k].y / 64.0;
    if (!k || x < b[0]) b[0] = x;
    if (!k || y < b[1]) b[1] = y;
    if (!k || x > b[2]) b[2] = x;
    if (!k || y > b[3]) b[3] = y;
  }
}

#define SVG(body) "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 36 36\">" body "</svg>"
#define HAS(s, sub) CHECK_MSG(strstr((s), (sub)) != NULL, "no '%s' in:\n%s", (sub), (s))

static void refused(const char *svg, ct_status_t st, const char *sub) {
  ct_artwork_t a;
  CHECK_MSG(rd(svg, &a) == st, "status %d for %s", (int)err.status, svg);
  CHECK_MSG(strstr(err.message, sub) != NULL, "'%s' not in '%s'", sub, err.message);
  CHECK_MSG(strncmp(err.message, "t.svg: ", 7) == 0 && !strchr(err.message, '\n'), "%s", err.message);
  CHECK(a.count == 0 && a.tree == NULL);
  ct_artwork_free(&a);
}

static void test_twemoji_like(void) {
  ct_artwork_t a;
  double b[4];
  const char *t = trace_of(SVG("<circle fill=\"#FFCC4D\" cx=\"18\" cy=\"18\" r=\"18\"/>"
                               "<ellipse fill=\"#664500\" cx=\"11.5\" cy=\"13.5\" rx=\"2.5\" ry=\"3.5\"/>"
                               "<path fill=\"#664500\" d=\"M4 20h28v2H4z\"/>"), &a);
  CHECK(a.count == 3);
  CHECK_NEAR(a.advance, 1024, 1e-9);
  HAS(t, "layers 3\n  glyph gid 0\n    solid rgba 1 0.8 0.302 1 alpha 1\n  glyph gid 1\n    solid rgba 0.4 0.271 0");
  obox(&a, 0, b);
  CHECK_NEAR(b[0], 0, 0.5);
  CHECK_NEAR(b[2], 1024, 0.5);
  CHECK_NEAR(b[1], -205, 0.5);   /* descent + (819 + 205 - 1024) / 2 */
  CHECK_NEAR(b[3], 819, 0.5);
  obox(&a, 2, b);   /* y = 20..22 of 36, flipped */
  CHECK_NEAR(b[1], 819 - 22 * 1024 / 36.0, 0.5);
  CHECK_NEAR(b[3], 819 - 20 * 1024 / 36.0, 0.5);
  ct_artwork_free(&a);
  CHECK(a.count == 0 && a.tree == NULL && a.outlines == NULL);
  ct_artwork_free(NULL);
  /* a single shape: the layer itself; a fixed advance centres it */
  opts.advance = 2048;
  t = trace_of(SVG("<rect width=\"36\" height=\"36\" fill=\"red\"/>"), &a);
  CHECK_STR(t, "glyph gid 0\n  solid rgba 1 0 0 1 alpha 1\n");
  obox(&a, 0, b);
  CHECK_NEAR(b[0], 512, 0.5);
  CHECK_NEAR(a.advance, 2048, 1e-9);
  ct_artwork_free(&a);
  opts.advance = 0;
}

static void rect_box(const char *svg, double x0, double y0, double x1, double y1) {
  ct_artwork_t a;
  double b[4] = { 0, 0, 0, 0 };
  CHECK_MSG(rd(svg, &a) == CT_OK && a.count >= 1, "%s: %s", svg, err.message);
  if (a.count) obox(&a, 0, b);
  CHECK_MSG(fabs(b[0] - x0) < 0.6 && fabs(b[1] - y0) < 0.6 && fabs(b[2] - x1) < 0.6 && fabs(b[3] - y1) < 0.6,
            "%s: %g %g %g %g", svg, b[0], b[1], b[2], b[3]);
  ct_artwork_free(&a);
}

#define ROOT(attrs, body) "<svg xmlns=\"http://www.w3.org/2000/svg\" " attrs ">" body "</svg>"

static void test_viewports(void) {
  ct_artwork_t a;
  /* viewBox 36x18 in a 36x36 viewport: meet centres it vertically */
  rect_box(ROOT("viewBox=\"0 0 36 18\" width=\"36\" height=\"36\"", "<rect width=\"36\" height=\"18\"/>"),
           0, -205 + 256, 1024, 819 - 256);
  rect_box(ROOT("viewBox=\"0 0 36 18\" width=\"36\" height=\"36\" preserveAspectRatio=\"xMidYMin\"",
                "<rect width=\"36\" height=\"18\"/>"), 0, 307, 1024, 819);
  rect_box(ROOT("viewBox=\"0 0 36 18\" width=\"36\" height=\"36\" preserveAspectRatio=\"none\"",
                "<rect width=\"36\" height=\"18\"/>"), 0, -205, 1024, 819);
  /* slice: the viewBox 18x36 scaled 2, its middle shown; xMaxYMax slice */
  rect_box(ROOT("viewBox=\"0 0 18 36\" width=\"36\" height=\"36\" preserveAspectRatio=\"xMidYMid slice\"",
                "<rect width=\"18\" height=\"18\"/>"), 0, 307, 1024, 1331);
  rect_box(ROOT("viewBox=\"0 0 36 18\" width=\"36\" height=\"36\" preserveAspectRatio=\"xMaxYMax meet\"",
                "<rect width=\"36\" height=\"18\"/>"), 0, -205, 1024, 307);
  /* width/height alone; with units; % of the viewBox */
  rect_box(ROOT("width=\"72\" height=\"36\"", "<rect width=\"72\" height=\"36\"/>"), 0, -205, 2048, 819);
  rect_box(ROOT("width=\"1in\" height=\"1in\"", "<rect width=\"48\" height=\"96\"/>"), 0, -205, 512, 819);
  rect_box(ROOT("viewBox=\"0 0 36 36\" width=\"100%\" height=\"100%\"", "<rect width=\"36\" height=\"36\"/>"),
           0, -205, 1024, 819);
  CHECK(rd(ROOT("viewBox=\"0 0 36 36\" width=\"100%\"", ""), &a) == CT_OK && a.tree == NULL);
  ct_artwork_free(&a);
  /* nested <svg>: its viewport, and a clip when its content reaches outside */
  rect_box(SVG("<svg x=\"18\" width=\"18\" height=\"18\" viewBox=\"0 0 1 1\"><rect width=\"1\" height=\"1\"/></svg>"),
           512, 307, 1024, 819);
  HAS(trace_of(SVG("<svg width=\"18\" height=\"18\"><circle r=\"18\"/></svg>"), &a), "glyph gid 1\n  glyph gid 0");
  ct_artwork_free(&a);
  refused(ROOT("", "<rect width=\"1\" height=\"1\"/>"), CT_ERR_INVALID_IMAGE, "neither a viewBox nor a width");
  refused(ROOT("viewBox=\"0 0 0 36\"", ""), CT_ERR_INVALID_IMAGE, "zero or negative size");
}

static void test_transforms(void) {
  ct_artwork_t a;
  double m[6];
  rect_box(SVG("<g transform=\"translate(18 0)\"><rect width=\"18\" height=\"36\"/></g>"), 512, -205, 1024, 819);
  rect_box(SVG("<g transform=\"scale(.5)\"><rect width=\"36\" height=\"36\" transform=\"translate(36,36)\"/></g>"),
           512, -205, 1024, 307);
  rect_box(SVG("<rect width=\"36\" height=\"18\" transform=\"rotate(90 18 18)\"/>"), 512, -205, 1024, 819);
  rect_box(SVG("<rect width=\"18\" height=\"18\" transform=\"matrix(1 0 0 1 18 18)\"/>"), 512, -205, 1024, 307);
  CHECK(ct_art_transform_parse("skewX(45)", m) && fabs(m[2] - 1) < 1e-12 && m[1] == 0);
  CHECK(ct_art_transform_parse("skewY(45)", m) && fabs(m[1] - 1) < 1e-12 && m[2] == 0);
  CHECK(ct_art_transform_parse(" translate(10) , scale(2 3)", m) && m[0] == 2 && m[3] == 3 && m[4] == 10 && m[5] == 0);
  CHECK(!ct_art_transform_parse("translate(10", m) && m[0] == 1 && m[4] == 0);
  CHECK(!ct_art_transform_parse("rotate(1 2)", m));
  CHECK(!ct_art_transform_parse("frob(1)", m));
  /* a malformed transform is left out with a warning */
  CHECK(rd(SVG("<rect width=\"1\" height=\"1\" transform=\"scale(\"/>"), &a) == CT_OK && a.count == 1);
  HAS(a.warning, "malformed");
  ct_artwork_free(&a);
}

static void test_use(void) {
  ct_artwork_t a;
  const char *t;
  rect_box(SVG("<defs><rect id=\"r\" width=\"18\" height=\"18\"/></defs><use href=\"#r\" x=\"18\"/>"),
           512, 307, 1024, 819);
  rect_box(SVG("<defs><rect id=\"r\" width=\"18\" height=\"18\"/></defs>"
               "<use xmlns:xlink=\"http://www.w3.org/1999/xlink\" xlink:href=\"#r\" transform=\"translate(0 18)\"/>"),
           0, -205, 512, 307);
  rect_box(SVG("<symbol id=\"s\" viewBox=\"0 0 1 1\"><rect width=\"1\" height=\"1\"/></symbol>"
               "<use href=\"#s\" x=\"18\" y=\"18\" width=\"18\" height=\"18\"/>"), 512, -205, 1024, 307);
  /* style inherited from the use; defs, symbol not drawn */
  t = trace_of(SVG("<defs><circle id=\"c\" r=\"2\"/></defs><use href=\"#c\" fill=\"blue\"/><use href=\"#c\"/>"), &a);
  CHECK(a.count == 1);   /* the same outline twice: kept once */
  HAS(t, "layers 2\n  glyph gid 0\n    solid rgba 0 0 1 1");
  HAS(t, "glyph gid 0\n    solid rgba 0 0 0 1");
  ct_artwork_free(&a);
  /* switch: the first child; a: a group */
  t = trace_of(SVG("<switch><rect width=\"1\" height=\"1\" fill=\"red\"/><rect width=\"2\" height=\"2\"/></switch>"
                   "<a href=\"x\"><rect width=\"1\" height=\"1\" fill=\"lime\"/></a>"), &a);
  CHECK(a.count == 1);   /* one outline, two layers */
  HAS(t, "solid rgba 1 0 0 1");
  HAS(t, "solid rgba 0 1 0 1");
  ct_artwork_free(&a);
  refused(SVG("<g id=\"g\"><use href=\"#g\"/></g>"), CT_ERR_INVALID_IMAGE, "<use> (line 1): its reference is a cycle");
  refused(SVG("<use id=\"a\" href=\"#b\"/><use id=\"b\" href=\"#a\"/>"), CT_ERR_INVALID_IMAGE, "cycle");
  CHECK(rd(SVG("<use href=\"#nowhere\"/>"), &a) == CT_OK && a.tree == NULL);
  HAS(a.warning, "not found");
  ct_artwork_free(&a);
}

static void test_clip(void) {
  ct_artwork_t a;
  double b[4];
  const char *t = trace_of(SVG("<clipPath id=\"c\"><rect width=\"18\" height=\"36\"/></clipPath>"
                               "<circle cx=\"18\" cy=\"18\" r=\"18\" clip-path=\"url(#c)\" fill=\"red\"/>"), &a);
  CHECK(a.count == 2);
  CHECK_STR(t, "glyph gid 1\n  glyph gid 0\n    solid rgba 1 0 0 1 alpha 1\n");
  obox(&a, 1, b);
  CHECK_NEAR(b[2], 512, 0.5);
  ct_artwork_free(&a);
  /* objectBoundingBox: the right half of the group's box; two shapes unioned into one */
  t = trace_of(SVG("<clipPath id=\"c\" clipPathUnits=\"objectBoundingBox\"><rect x=\".5\" width=\".5\" height=\"1\"/>"
                   "<rect width=\".1\" height=\".1\"/></clipPath>"
                   "<g clip-path=\"url(#c)\"><rect width=\"18\" height=\"18\"/><rect x=\"18\" y=\"18\" width=\"18\" height=\"18\"/></g>"), &a);
  CHECK(a.count == 3);
  HAS(t, "glyph gid 2\n  layers 2");
  obox(&a, 2, b);
  CHECK_NEAR(b[0], 0, 0.5);
  CHECK_NEAR(b[2], 1024, 0.5);
  ct_artwork_free(&a);
  /* a clipPath with its own clip-path: nested */
  t = trace_of(SVG("<clipPath id=\"d\"><rect width=\"9\" height=\"9\"/></clipPath>"
                   "<clipPath id=\"c\" clip-path=\"url(#d)\"><rect width=\"18\" height=\"18\"/></clipPath>"
                   "<rect width=\"36\" height=\"36\" clip-path=\"url(#c)\"/>"), &a);
  HAS(t, "glyph gid 2\n  glyph gid 1\n    glyph gid 0");
  ct_artwork_free(&a);
  refused(SVG("<clipPath id=\"c\" clip-path=\"url(#c)\"><rect width=\"18\" height=\"18\"/></clipPath>"
              "<rect width=\"36\" height=\"36\" clip-path=\"url(#c)\"/>"), CT_ERR_INVALID_IMAGE, "clip paths nested deeper");
}

static void test_opacity(void) {
  ct_artwork_t a;
  const char *t = trace_of(SVG("<g opacity=\".5\"><rect width=\"1\" height=\"1\" fill=\"red\" fill-opacity=\"0.5\"/></g>"), &a);
  CHECK_STR(t, "glyph gid 0\n  solid rgba 1 0 0 1 alpha 0.25\n");
  ct_artwork_free(&a);
  t = trace_of(SVG("<g opacity=\"50%\"><rect width=\"1\" height=\"1\"/><rect width=\"2\" height=\"2\"/></g>"), &a);
  CHECK_STR(t, "composite dest_in\n  source\n    solid rgba 0 0 0 1 alpha 0.5\n  backdrop\n    layers 2\n"
               "      glyph gid 0\n        solid rgba 0 0 0 1 alpha 1\n      glyph gid 1\n        solid rgba 0 0 0 1 alpha 1\n");
  ct_artwork_free(&a);
  /* a fill and a stroke are two layers: composited too */
  t = trace_of(SVG("<rect width=\"1\" height=\"1\" stroke=\"red\" opacity=\"0.5\"/>"), &a);
  HAS(t, "composite");
  CHECK(a.count == 2);
  ct_artwork_free(&a);
  /* hidden, display none, fill none, opacity 0: nothing */
  CHECK(rd(SVG("<rect width=\"1\" height=\"1\" visibility=\"hidden\"/><g style=\"display:none\"><rect width=\"1\" height=\"1\"/></g>"
               "<rect width=\"1\" height=\"1\" fill=\"none\"/><rect width=\"1\" height=\"1\" opacity=\"0\"/>"), &a) == CT_OK);
  CHECK(a.tree == NULL);
  ct_artwork_free(&a);
  /* hidden group, visible child */
  CHECK(rd(SVG("<g visibility=\"hidden\"><rect width=\"1\" height=\"1\" visibility=\"visible\"/></g>"), &a) == CT_OK && a.count == 1);
  ct_artwork_free(&a);
}

#define GRAD(defs, fill) SVG("<defs>" defs "</defs><rect width=\"36\" height=\"18\" fill=\"" fill "\"/>")

static void test_gradients(void) {
  ct_artwork_t a;
  const char *t;
  /* objectBoundingBox (default), left to right; p2 = p0 + the direction turned 90 degrees */
  t = trace_of(GRAD("<linearGradient id=\"g\"><stop offset=\"0\" stop-color=\"red\"/><stop offset=\"1\" stop-color=\"blue\" stop-opacity=\".5\"/></linearGradient>",
                    "url(#g)"), &a);
  HAS(t, "linear p0 0 819 p1 1.02e+03 819 p2 0 307\n    extend pad\n    stop 0 rgba 1 0 0 1 alpha 1\n    stop 1 rgba 0 0 1 1 alpha 0.5");
  CHECK(a.gradients == 1);
  ct_artwork_free(&a);
  /* userSpaceOnUse with gradientTransform, spread reflect, stops clamped and monotonic */
  t = trace_of(GRAD("<linearGradient id=\"g\" gradientUnits=\"userSpaceOnUse\" x1=\"0\" x2=\"18\" gradientTransform=\"translate(18)\" spreadMethod=\"reflect\">"
                    "<stop offset=\"50%\" stop-color=\"red\"/><stop offset=\"0.2\" stop-color=\"lime\"/><stop offset=\"2\"/></linearGradient>", "url(#g)"), &a);
  HAS(t, "linear p0 512 819 p1 1.02e+03 819");
  HAS(t, "extend reflect\n    stop 0.5 rgba 1 0 0 1 alpha 1\n    stop 0.5 rgba 0 1 0 1 alpha 1\n    stop 1 rgba 0 0 0 1");
  ct_artwork_free(&a);
  /* href chain: stops and attributes from the referenced one, xlink:href, repeat */
  t = trace_of(GRAD("<linearGradient id=\"base\" spreadMethod=\"repeat\"><stop stop-color=\"#00f\"/><stop offset=\"1\" stop-color=\"#0f0\"/></linearGradient>"
                    "<linearGradient id=\"mid\" href=\"#base\" x2=\"0.5\"/><linearGradient id=\"g\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" xlink:href=\"#mid\"/>", "url(#g)"), &a);
  HAS(t, "linear p0 0 819 p1 512 819");
  HAS(t, "extend repeat\n    stop 0 rgba 0 0 1 1");
  ct_artwork_free(&a);
  refused(GRAD("<linearGradient id=\"a\" href=\"#b\"/><linearGradient id=\"b\" href=\"#a\"/>", "url(#a)"), CT_ERR_INVALID_IMAGE,
          "<linearGradient id=\"a\"> (line 1): its href chain is a cycle");
  /* radial: a square box keeps circles; a non-square box puts it under a transform */
  t = trace_of(SVG("<radialGradient id=\"r\"><stop stop-color=\"red\"/><stop offset=\"1\" stop-color=\"blue\"/></radialGradient>"
                   "<rect width=\"36\" height=\"36\" fill=\"url(#r)\"/>"), &a);
  HAS(t, "radial c0 512 307 r0 0 c1 512 307 r1 512");
  ct_artwork_free(&a);
  t = trace_of(GRAD("<radialGradient id=\"r\" fx=\"0.25\"><stop stop-color=\"red\"/><stop offset=\"1\" stop-color=\"blue\"/></radialGradient>", "url(#r)"), &a);
  HAS(t, "transform");
  HAS(t, "radial c0 0.25 0.5 r0 0 c1 0.5 0.5 r1 0.5");
  ct_artwork_free(&a);
  /* one stop: a solid; no stops: nothing */
  t = trace_of(GRAD("<linearGradient id=\"g\"><stop stop-color=\"red\" stop-opacity=\"0.5\"/></linearGradient>", "url(#g)"), &a);
  CHECK_STR(t, "glyph gid 0\n  solid rgba 1 0 0 1 alpha 0.5\n");
  CHECK(a.gradients == 0);
  ct_artwork_free(&a);
  CHECK(rd(GRAD("<linearGradient id=\"g\"/>", "url(#g)"), &a) == CT_OK && a.tree == NULL && a.count == 0);
  ct_artwork_free(&a);
  /* flatten: the mean; refuse: refused naming the gradient */
  opts.flatten_gradients = 1;
  t = trace_of(GRAD("<linearGradient id=\"g\"><stop stop-color=\"red\"/><stop offset=\"1\" stop-color=\"blue\"/></linearGradient>", "url(#g)"), &a);
  CHECK_STR(t, "glyph gid 0\n  solid rgba 0.5 0 0.5 1 alpha 1\n");
  ct_artwork_free(&a);
  opts.flatten_gradients = 0;
  opts.flat_only = 1;
  refused(GRAD("<linearGradient id=\"g\"><stop stop-color=\"red\"/></linearGradient>", "url(#g)"), CT_ERR_INVALID_IMAGE,
          "<linearGradient id=\"g\"> (line 1): gradients cannot be expressed in COLRv0");
  /* COLRv0 alone also refuses clips and group opacity over several shapes, not one shape's */
  refused(SVG("<clipPath id=\"c\"><rect width=\"9\" height=\"9\"/></clipPath>\n<g clip-path=\"url(#c)\"><rect width=\"36\" height=\"36\"/></g>"),
          CT_ERR_INVALID_IMAGE, "<g> (line 2): clip-path cannot be expressed in COLRv0");
  refused(SVG("<g opacity=\".5\"><rect width=\"9\" height=\"9\"/><rect x=\"5\" width=\"9\" height=\"9\" fill=\"red\"/></g>"),
          CT_ERR_INVALID_IMAGE, "<g> (line 1): opacity over several shapes cannot be expressed in COLRv0");
  refused(SVG("<svg width=\"9\" height=\"9\"><rect width=\"36\" height=\"36\"/></svg>"), CT_ERR_INVALID_IMAGE,
          "<svg> (line 1): its drawing reaches outside its viewport");
  t = trace_of(SVG("<g opacity=\".5\"><rect width=\"9\" height=\"9\"/></g>"), &a);
  CHECK_STR(t, "glyph gid 0\n  solid rgba 0 0 0 1 alpha 0.5\n");
  ct_artwork_free(&a);
  opts.flat_only = 0;
  /* a missing paint server: the fallback */
  t = trace_of(GRAD("", "url(#none) lime"), &a);
  CHECK_STR(t, "glyph gid 0\n  solid rgba 0 1 0 1 alpha 1\n");
  HAS(a.warning, "not found");
  ct_artwork_free(&a);
}

static void test_colors(void) {
  static const struct { const char *s; double r, g, b, a; } ok[] = {
    { "#f00", 1, 0, 0, 1 }, { "#F008", 1, 0, 0, 0x88 / 255.0 }, { "#00ff00", 0, 1, 0, 1 },
    { "#0000ff80", 0, 0, 1, 0x80 / 255.0 }, { "rgb(255, 0, 0)", 1, 0, 0, 1 }, { "rgb(100%,50%,0%)", 1, 0.5, 0, 1 },
    { "rgba(0,0,255,0.5)", 0, 0, 1, 0.5 }, { "rgb(0 255 0 / 25%)", 0, 1, 0, 0.25 }, { "hsl(120, 100%, 50%)", 0, 1, 0, 1 },
    { "hsla(240deg,100%,50%,.5)", 0, 0, 1, 0.5 }, { "hsl(0,0%,100%)", 1, 1, 1, 1 }, { "RebeccaPurple", -1, 0, 0, 0 },
    { "cornflowerblue", 100 / 255.0, 149 / 255.0, 237 / 255.0, 1 }, { "YellowGreen", 154 / 255.0, 205 / 255.0, 50 / 255.0, 1 },
    { "transparent", 0, 0, 0, 0 }, { " white ", 1, 1, 1, 1 }, { "lightgoldenrodyellow", 250 / 255.0, 250 / 255.0, 210 / 255.0, 1 }
  };
  static const char *const bad[] = { "#ff", "#fffff", "rgb(1,2)", "hsl(1 2 3 4 5)", "nosuchcolor", "#ggg", "rgb(1,2,3", "" };
  ct_artwork_t a;
  ct_rgba_t c;
  size_t i;
  for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    int r = ct_art_color_parse(ok[i].s, &c);
    if (ok[i].r < 0) { CHECK_MSG(!r, "%s", ok[i].s); continue; }   /* CSS4's rebeccapurple is not of the 147 */
    CHECK_MSG(r && fabs(c.r - ok[i].r) < 1e-9 && fabs(c.g - ok[i].g) < 1e-9 && fabs(c.b - ok[i].b) < 1e-9 &&
              fabs(c.a - ok[i].a) < 1e-9, "%s: %g %g %g %g", ok[i].s, c.r, c.g, c.b, c.a);
  }
  for (i = 0; i < sizeof bad / sizeof bad[0]; i++) CHECK_MSG(!ct_art_color_parse(bad[i], &c), "%s", bad[i]);
  /* currentColor: the text color, or the color property */
  CHECK_STR(trace_of(SVG("<rect width=\"1\" height=\"1\" fill=\"currentColor\" fill-opacity=\".5\"/>"), &a),
            "glyph gid 0\n  solid foreground alpha 0.5\n");
  ct_artwork_free(&a);
  CHECK_STR(trace_of(SVG("<g color=\"red\"><rect width=\"1\" height=\"1\" style=\"fill: currentColor\"/></g>"), &a),
            "glyph gid 0\n  solid rgba 1 0 0 1 alpha 1\n");
  ct_artwork_free(&a);
  /* style wins over attributes; inherit; !important and comments in style */
  CHECK_STR(trace_of(SVG("<g fill=\"blue\"><rect width=\"1\" height=\"1\" fill=\"red\" style=\"/* c */ fill: inherit !important; opacity: 1\"/></g>"), &a),
            "glyph gid 0\n  solid rgba 0 0 1 1 alpha 1\n");
  ct_artwork_free(&a);
}

static void test_refusals(void) {
  char *big;
  size_t i, n;
  ct_artwork_t a;
  refused(SVG("<defs><filter id=\"f\"/></defs>"), CT_ERR_INVALID_IMAGE, "<filter> (line 1): filters cannot be expressed");
  refused(SVG("\n<rect width=\"1\" height=\"1\"\n filter=\"url(#f)\"/>"), CT_ERR_INVALID_IMAGE, "<rect> (line 3): filter=");
  refused(SVG("<mask id=\"m\"/>"), CT_ERR_INVALID_IMAGE, "<mask>");
  refused(SVG("<rect width=\"1\" height=\"1\" style=\"mask: url(#m)\"/>"), CT_ERR_INVALID_IMAGE, "masks cannot");
  refused(SVG("<pattern id=\"p\"/><rect width=\"1\" height=\"1\" fill=\"url(#p)\"/>"), CT_ERR_INVALID_IMAGE, "<pattern>");
  refused(SVG("<text>hi</text>"), CT_ERR_INVALID_IMAGE, "<text> (line 1): text cannot");
  refused(SVG("<image href=\"x.png\"/>"), CT_ERR_INVALID_IMAGE, "<image>");
  refused(SVG("<foreignObject/>"), CT_ERR_INVALID_IMAGE, "<foreignObject>");
  refused(SVG("<g style=\"mix-blend-mode: multiply\"/>"), CT_ERR_INVALID_IMAGE, "mix-blend-mode");
  refused(SVG("<style>rect { fill: red }</style>"), CT_ERR_INVALID_IMAGE, "style sheets");
  refused(SVG("<frobnicate/>"), CT_ERR_INVALID_IMAGE, "<frobnicate> (line 1)");
  refused("<!DOCTYPE svg [<!ENTITY x \"boom\">]>" SVG("<title>&x;</title>"), CT_ERR_INVALID_IMAGE, "DOCTYPE declaring entities");
  refused("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\">\n\n<rect>\n</svg>", CT_ERR_INVALID_IMAGE,
          "not well-formed XML (line 4");
  refused("<html/>", CT_ERR_INVALID_IMAGE, "root element is not <svg>");
  refused(ROOT("viewBox=\"0 0 1e-9 1e-9\"", "<rect width=\"1\" height=\"1\"/>"), CT_ERR_INVALID_IMAGE,
          "the drawing reaches");
  refused(SVG("<path d=\"M0 0H1\" stroke=\"red\" stroke-width=\"1e12\"/>"), CT_ERR_INVALID_IMAGE, "(an absurd viewBox or stroke width?)");
  /* tolerated: scripts (warned), animations, other namespaces */
  CHECK(rd(SVG("<script>alert(1)</script><rect width=\"1\" height=\"1\"><animate attributeName=\"x\"/></rect>"
               "<sodipodi:namedview xmlns:sodipodi=\"http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd\"/>"), &a) == CT_OK);
  CHECK(a.count == 1);
  HAS(a.warning, "<script> (line 1): scripts are not run");
  ct_artwork_free(&a);
  /* too many shapes */
  {
    size_t head = strlen(SVG("")) - 6, k = CT_MAX_ARTWORK_SHAPES + 1;
    char *s = malloc(head + k * 40 + 10);
    memcpy(s, SVG(""), head);
    for (i = 0, n = head; i < k; i++) n += (size_t)sprintf(s + n, "<circle r=\"1\" cx=\"%u.%03u\"/>", (unsigned)(i / 1000), (unsigned)(i % 1000));
    strcpy(s + n, "</svg>");
    refused(s, CT_ERR_LIMIT, "over 4096 shapes");
    free(s);
  }
  /* deep nesting, many elements */
  n = 300;
  big = malloc(n * 8 + 200);
  strcpy(big, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\">");
  for (i = 0; i < n; i++) strcat(big, "<g>");
  for (i = 0; i < n; i++) strcat(big, "</g>");
  strcat(big, "</svg>");
  refused(big, CT_ERR_INVALID_IMAGE, "not well-formed");   /* libxml2's own limit, 256 */
  free(big);
  {
    size_t head = strlen("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\">");
    size_t k = 210, m = (size_t)CT_MAX_SVG_ELEMENTS + 1;
    char *s = malloc(head + k * 7 + 10);
    memcpy(s, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\">", head);
    for (i = 0; i < k; i++) memcpy(s + head + i * 3, "<g>", 3);
    for (i = 0; i < k; i++) memcpy(s + head + k * 3 + i * 4, "</g>", 4);
    strcpy(s + head + k * 7, "</svg>");
    refused(s, CT_ERR_LIMIT, "nested deeper than 200");
    free(s);
    s = malloc(head + m * 4 + 10);
    memcpy(s, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\">", head);
    for (i = 0; i < m; i++) memcpy(s + head + i * 4, "<g/>", 4);
    strcpy(s + head + m * 4, "</svg>");
    refused(s, CT_ERR_LIMIT, "over 1000000 elements");
    free(s);
  }
}

/* Every Twemoji file, when the folder is there (CT_TWEMOJI, else the committed subset):
   how many fail, and why. */
static void test_twemoji_folder(void) {
  const char *env = getenv("CT_TWEMOJI"), *dir = env && *env ? env : "tests/artwork/twemoji";
  DIR *d = opendir(dir);
  struct dirent *e;
  unsigned ok = 0, bad = 0;
  if (!d) {   /* the committed subset must be there; a folder asked for may not */
    CHECK_MSG(env && *env, "%s missing", dir);
    printf("test_artwork: %s absent, Twemoji files not read\n", dir);
    return;
  }
  while ((e = readdir(d))) {
    char path[4096];
    size_t len;
    unsigned char *buf;
    ct_artwork_t a;
    if (!strstr(e->d_name, ".svg")) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (!(buf = ct_fs_read_all(path, CT_MAX_ARTWORK_FILE_SIZE, &len, &err))) continue;
    if (ct_artwork_read(e->d_name, buf, len, &opts, &a, &err) == CT_OK && a.tree) ok++;
    else { bad++; fprintf(stderr, "%s\n", err.message); }
    ct_artwork_free(&a);
    free(buf);
  }
  closedir(d);
  printf("test_artwork: Twemoji (%s): %u read, %u failed\n", dir, ok, bad);
  CHECK(bad == 0 && ok >= 59);
}

int main(int argc, char **argv) {
  ct_artwork_options_init(&opts);
  CHECK(opts.upem == 1024 && opts.ascent == 819 && opts.descent == -205);
  test_twemoji_like();
  test_viewports();
  test_transforms();
  test_use();
  test_clip();
  test_opacity();
  test_gradients();
  test_colors();
  test_refusals();
  if (!(argc > 1 && !strcmp(argv[1], "--quick"))) test_twemoji_folder();
  return ct_test_report("test_artwork");
}
