/*
** test_artwork_path.c: the artwork reader's geometry (src/glyph/artwork/path.c,
** outline.c, stroke.c): path data, shapes, even-odd by nesting, strokes, limits.  Fills
** and strokes are checked by rendering them with FreeType's rasterizer.
*/
#include "ct-test.h"

#include <ft2build.h>
#include FT_OUTLINE_H
#include FT_BBOX_H

#include "glyph/artwork/artwork-private.h"

static FT_Library lib;
static const double ID[6] = { 1, 0, 0, 1, 0, 0 };

static ct_art_path_t *parse(const char *d, int *ok, char *why, size_t whylen) {
  ct_art_path_t *p = ct_art_path_new();
  int r = ct_art_path_data(p, d, why, whylen);
  if (ok) *ok = r;
  return p;
}

static double px(const ct_art_path_t *p, size_t i) { return p->pts[2 * i]; }
static double py(const ct_art_path_t *p, size_t i) { return p->pts[2 * i + 1]; }

static int ops_are(const ct_art_path_t *p, const char *want) {   /* "MLCZ" letters */
  if (strlen(want) != p->nops) return 0;
  for (size_t i = 0; i < p->nops; i++)
    if ("MLCZ"[p->ops[i]] != want[i]) return 0;
  return 1;
}

/* Coverage (0..1) of the unit pixel centred on (x, y), font units. */
static double cover(FT_Outline *o, double x, double y) {
  unsigned char buf[9] = { 0 };
  FT_Bitmap bm;
  memset(&bm, 0, sizeof bm);
  bm.rows = 3;
  bm.width = 3;
  bm.pitch = 3;
  bm.buffer = buf;
  bm.num_grays = 256;
  bm.pixel_mode = FT_PIXEL_MODE_GRAY;
  FT_Pos dx = 96 - lround(x * 64), dy = 96 - lround(y * 64);
  FT_Outline_Translate(o, dx, dy);
  FT_Outline_Get_Bitmap(lib, o, &bm);
  FT_Outline_Translate(o, -dx, -dy);
  return buf[4] / 255.0;
}
#define FILLED(o, x, y) (cover((o), (x), (y)) > 0.9)
#define EMPTY(o, x, y) (cover((o), (x), (y)) < 0.1)

/* The filled area in square font units, rendered 8 times finer (FreeType's rasterizer
   flattens curves to about a quarter pixel). */
static double area(FT_Outline *o) {
  FT_Outline f = *o;
  FT_BBox b;
  f.points = malloc((size_t)o->n_points * sizeof(FT_Vector));
  for (int i = 0; i < o->n_points; i++) {
    f.points[i].x = o->points[i].x * 8;
    f.points[i].y = o->points[i].y * 8;
  }
  FT_Outline_Get_CBox(&f, &b);
  long x0 = b.xMin / 64 - 2, y0 = b.yMin / 64 - 2, w = b.xMax / 64 - x0 + 3, h = b.yMax / 64 - y0 + 3;
  FT_Bitmap bm;
  memset(&bm, 0, sizeof bm);
  bm.rows = (unsigned)h;
  bm.width = (unsigned)w;
  bm.pitch = (int)w;
  bm.buffer = calloc((size_t)(w * h), 1);
  bm.num_grays = 256;
  bm.pixel_mode = FT_PIXEL_MODE_GRAY;
  FT_Outline_Translate(&f, -x0 * 64, -y0 * 64);
  FT_Outline_Get_Bitmap(lib, &f, &bm);
  double s = 0;
  for (long i = 0; i < w * h; i++) s += bm.buffer[i];
  free(bm.buffer);
  free(f.points);
  return s / 255 / 64;
}

static void bbox(FT_Outline *o, double b[4]) {
  FT_BBox x;
  FT_Outline_Get_BBox(o, &x);
  b[0] = x.xMin / 64.0; b[1] = x.yMin / 64.0; b[2] = x.xMax / 64.0; b[3] = x.yMax / 64.0;
}

static ct_art_stroke_t stroke_of(double w, int join, int cap) {
  ct_art_stroke_t s = { w, 4, join, cap, NULL, 0, 0 };
  return s;
}

/* the stroke of d; 1 if an outline came */
static int stroke(const char *d, const double m[6], const ct_art_stroke_t *s, FT_Outline *o, int *failed) {
  ct_art_path_t *p = parse(d, NULL, NULL, 0);
  *failed = 0;
  int r = ct_art_stroke_outline(p, m, s, &lib, o, failed);
  ct_art_path_free(p);
  return r;
}

static void test_numbers(void) {
  int ok;
  ct_art_path_t *p = parse("M1.5.5-.5-.5 1e-3,2 1E+1-2e0", &ok, NULL, 0);
  CHECK(ok && ops_are(p, "MLLL"));
  CHECK(px(p, 0) == 1.5 && py(p, 0) == 0.5 && px(p, 1) == -0.5 && py(p, 1) == -0.5);
  CHECK_NEAR(px(p, 2), 0.001, 1e-15);
  CHECK(py(p, 2) == 2 && px(p, 3) == 10 && py(p, 3) == -2);
  ct_art_path_free(p);
  /* "m" then pairs: relative linetos; a first "m" is absolute */
  p = parse("m1 1 2 2 3 3", &ok, NULL, 0);
  CHECK(ok && ops_are(p, "MLL") && px(p, 1) == 3 && py(p, 2) == 6);
  ct_art_path_free(p);
  p = parse("M0 0 L1 1 2 2", &ok, NULL, 0);
  CHECK(ok && ops_are(p, "MLL") && px(p, 2) == 2);
  ct_art_path_free(p);
  p = parse("  ", &ok, NULL, 0);
  CHECK(ok && ct_art_path_is_empty(p));
  ct_art_path_free(p);
}

static void test_commands(void) {
  const char *abs = "M10 20 L30 40 H50 V60 C1 2 3 4 5 6 S7 8 9 10 Q11 12 13 14 T17 15 A5 5 0 0 1 27 15 Z";
  const char *rel = "m10 20 l20 20 h20 v20 c-49-58-47-56-45-54 s2 2 4 4 q2 2 4 4 t4 1 a5 5 0 0 1 10 0 z";
  int ok1, ok2;
  ct_art_path_t *a = parse(abs, &ok1, NULL, 0), *r = parse(rel, &ok2, NULL, 0);
  CHECK(ok1 && ok2 && ops_are(a, "MLLLCCCCCCZ") && ops_are(r, "MLLLCCCCCCZ"));
  int same = a->npts == r->npts;
  for (size_t i = 0; same && i < a->npts; i++)
    same = fabs(px(a, i) - px(r, i)) < 1e-9 && fabs(py(a, i) - py(r, i)) < 1e-9;
  CHECK(same);
  /* points: M 0; L 1; H 2; V 3; C 4..6; S 7..9; Q 10..12; T 13..15; A 16..21 */
  CHECK(px(a, 2) == 50 && py(a, 2) == 40 && px(a, 3) == 50 && py(a, 3) == 60);
  CHECK(px(a, 7) == 7 && py(a, 7) == 8);               /* S: (3,4) reflected about (5,6) */
  CHECK_NEAR(px(a, 10), 9 + 2.0 / 3 * 2, 1e-12);      /* Q raised: 2/3 of the way to (11,12) */
  CHECK_NEAR(px(a, 11), 13 + 2.0 / 3 * (11 - 13), 1e-12);
  /* T: the control (11,12) reflected about (13,14) is (15,16) */
  CHECK_NEAR(px(a, 13), 13 + 2.0 / 3 * 2, 1e-12);
  CHECK_NEAR(py(a, 13), 14 + 2.0 / 3 * 2, 1e-12);
  /* A: a half circle from (17,15) to (27,15) clockwise on screen: its middle is (22,10) */
  CHECK_NEAR(px(a, 18), 22, 1e-9);
  CHECK_NEAR(py(a, 18), 10, 1e-9);
  CHECK(px(a, 21) == 27 && py(a, 21) == 15);
  /* a point of the first quarter at t = 1/2 lies on the circle (cubic error < 3e-4 r) */
  double x = 0.125 * 17 + 0.375 * px(a, 16) + 0.375 * px(a, 17) + 0.125 * px(a, 18);
  double y = 0.125 * 15 + 0.375 * py(a, 16) + 0.375 * py(a, 17) + 0.125 * py(a, 18);
  CHECK_NEAR(hypot(x - 22, y - 15), 5, 5 * 3e-4);
  ct_art_path_free(a);
  ct_art_path_free(r);
  /* after z, a segment starts at the subpath's start */
  a = parse("m10 10 h5 v5 z l1 1", &ok1, NULL, 0);
  CHECK(ok1 && ops_are(a, "MLLZML") && px(a, 3) == 10 && py(a, 3) == 10 && px(a, 4) == 11);
  ct_art_path_free(a);
  /* S after a non-cubic and T after a non-quadratic: the control is the current point */
  a = parse("M0 0 L10 0 S20 10 30 0 M0 0 L10 0 T30 0", &ok1, NULL, 0);
  CHECK(ok1 && px(a, 2) == 10 && py(a, 2) == 0);
  CHECK(px(a, 7) == 10 + 2.0 / 3 * 0 && py(a, 7) == 0);
  ct_art_path_free(a);
}

static void test_arcs(void) {
  int ok;
  double b[4];
  /* flags without separators */
  ct_art_path_t *p = parse("M0 0a1 1 0 011 1", &ok, NULL, 0);
  CHECK(ok && ops_are(p, "MC") && px(p, 3) == 1 && py(p, 3) == 1);
  CHECK_NEAR(px(p, 1), 0.5522847, 1e-6);   /* centre (0,1): leaves (0,0) along +x */
  CHECK(py(p, 1) == 0);
  ct_art_path_free(p);
  /* radii too small: scaled up to the half chord, a half circle below the chord */
  p = parse("M0 0 A1 1 0 0 1 10 0", &ok, NULL, 0);
  CHECK(ok && ops_are(p, "MCC"));
  CHECK_NEAR(px(p, 3), 5, 1e-9);
  CHECK_NEAR(py(p, 3), -5, 1e-9);
  ct_art_path_free(p);
  /* the large arc: centre (5, -8.66), its lowest point (5, -18.66) */
  p = parse("M0 0 A10 10 0 1 1 10 0", &ok, NULL, 0);
  CHECK(ok && ct_art_path_bounds(p, ID, b));
  CHECK_NEAR(b[1], -8.660254 - 10, 1e-3);
  CHECK_NEAR(b[0], 5 - 10, 1e-3);
  CHECK(p->nops == 5);   /* 300 degrees: 4 cubics of at most 90 */
  ct_art_path_free(p);
  /* the small arc of the same circle */
  p = parse("M0 0 A10 10 0 0 1 10 0", &ok, NULL, 0);
  CHECK(ok && ct_art_path_bounds(p, ID, b));
  CHECK_NEAR(b[1], 8.660254 - 10, 1e-3);
  ct_art_path_free(p);
  /* rotated: rx along y, a half ellipse from (0,0) to (0,20), its middle at (5,10) */
  p = parse("M0 0 A10 5 90 0 1 0 20", &ok, NULL, 0);
  CHECK(ok && ops_are(p, "MCC"));
  CHECK_NEAR(px(p, 3), 5, 1e-9);
  CHECK_NEAR(py(p, 3), 10, 1e-9);
  ct_art_path_free(p);
  /* zero radius: a line; same endpoints: nothing */
  p = parse("M0 0 A0 5 0 0 1 10 10 A3 3 0 0 1 10 10", &ok, NULL, 0);
  CHECK(ok && ops_are(p, "ML"));
  ct_art_path_free(p);
}

static void test_errors(void) {
  char why[200];
  int ok;
  ct_art_path_t *p = parse("M 0 0 L 10 10 C 1 2 3", &ok, why, sizeof why);
  CHECK(!ok && ops_are(p, "ML"));
  CHECK_STR(why, "bad path data at offset 21: a number expected after 'C'");
  ct_art_path_free(p);
  p = parse("L 1 1", &ok, why, sizeof why);
  CHECK(!ok && p->nops == 0 && strstr(why, "offset 0") && strstr(why, "'M'"));
  ct_art_path_free(p);
  p = parse("M0 0 A 1 1 0 2 1 3 3", &ok, why, sizeof why);
  CHECK(!ok && ops_are(p, "M") && strstr(why, "flag"));
  ct_art_path_free(p);
  p = parse("M0 0 L1 1 X 2 2", &ok, why, sizeof why);
  CHECK(!ok && ops_are(p, "ML"));
  CHECK_STR(why, "bad path data at offset 10: not a path command: 'X'");
  ct_art_path_free(p);
  p = parse("M0 0 L1e999999 0", &ok, why, sizeof why);
  CHECK(!ok && ops_are(p, "M") && strstr(why, "out of range"));
  ct_art_path_free(p);
  p = parse("M0 0 Z 1 1", &ok, why, sizeof why);
  CHECK(!ok && ops_are(p, "MZ"));
  ct_art_path_free(p);
  p = parse("M0 0 L1 1 L", &ok, why, sizeof why);
  CHECK(!ok && ops_are(p, "ML") && strstr(why, "offset 11"));
  ct_art_path_free(p);
}

static void test_shapes(void) {
  double b[4], s4[6] = { 4, 0, 0, 4, 0, 0 };
  int failed = 0;
  FT_Outline o;
  ct_art_path_t *p = ct_art_path_new();
  ct_art_path_rect(p, 0, 0, 10, 20, 0, 0);
  CHECK(ct_art_path_bounds(p, ID, b) && b[0] == 0 && b[1] == 0 && b[2] == 10 && b[3] == 20);
  CHECK(ct_art_fill_outline(p, s4, 0, &o, &failed) && !failed);
  CHECK_NEAR(area(&o), 200 * 16, 2);
  CHECK(o.n_contours == 1 && o.n_points == 4);   /* the closing duplicate dropped */
  ct_art_outline_free(&o);
  CHECK(o.points == NULL && o.n_points == 0);
  ct_art_path_free(p);
  /* rounded: 400 - (4 - pi) 25 */
  p = ct_art_path_new();
  ct_art_path_rect(p, 0, 0, 20, 20, 5, 5);
  CHECK(ct_art_fill_outline(p, s4, 0, &o, &failed));
  CHECK_NEAR(area(&o), (400 - (4 - M_PI) * 25) * 16, 0.002 * 6000);
  CHECK(FILLED(&o, 40, 40) && EMPTY(&o, 1, 1) && FILLED(&o, 40, 1));
  ct_art_outline_free(&o);
  ct_art_path_free(p);
  p = ct_art_path_new();
  ct_art_path_ellipse(p, 0, 0, 10, 5);
  CHECK(ct_art_path_bounds(p, ID, b));
  CHECK_NEAR(b[0], -10, 1e-9);
  CHECK_NEAR(b[3], 5, 1e-9);
  CHECK(ct_art_fill_outline(p, s4, 0, &o, &failed));
  CHECK_NEAR(area(&o), M_PI * 50 * 16, 0.002 * 2500);
  ct_art_outline_free(&o);
  ct_art_path_free(p);
  /* nothing drawn: a rect without size; a line (no area) fills nothing */
  p = ct_art_path_new();
  ct_art_path_rect(p, 0, 0, 0, 10, 0, 0);
  ct_art_path_ellipse(p, 0, 0, -1, 10);
  CHECK(ct_art_path_is_empty(p) && !ct_art_path_bounds(p, ID, b));
  ct_art_path_line(p, 0, 0, 10, 10);
  CHECK(ops_are(p, "ML"));
  CHECK(!ct_art_fill_outline(p, ID, 0, &o, &failed) && !failed && o.points == NULL);
  ct_art_path_free(p);
  /* points */
  char why[128];
  p = ct_art_path_new();
  CHECK(ct_art_path_points(p, "0,0 10,0 10 10", 1, why, sizeof why));
  CHECK(ops_are(p, "MLLZ"));
  CHECK(!ct_art_path_points(p, "0 0 10 0 5", 0, why, sizeof why));
  CHECK(ops_are(p, "MLLZML") && strstr(why, "odd"));
  CHECK(!ct_art_path_points(p, "0 0 x", 0, why, sizeof why) && strstr(why, "offset 4"));
  ct_art_path_free(p);
  /* append under a matrix */
  ct_art_path_t *q = ct_art_path_new();
  p = ct_art_path_new();
  ct_art_path_rect(q, 0, 0, 10, 10, 0, 0);
  double t[6] = { 2, 0, 0, 2, 100, 50 };
  ct_art_path_append(p, q, t);
  ct_art_path_append(p, q, NULL);
  CHECK(ct_art_path_bounds(p, ID, b) && b[0] == 0 && b[2] == 120 && b[3] == 70);
  CHECK(ops_are(p, "MLLLZMLLLZ"));
  ct_art_path_free(p);
  ct_art_path_free(q);
}

static void test_evenodd(void) {
  int failed = 0;
  FT_Outline o;
  double m[6] = { 1, 0, 0, -1, 0, 0 };   /* y flipped, as from SVG to a font */
  ct_art_path_t *p = ct_art_path_new();
  ct_art_path_ellipse(p, 50, 50, 40, 40);   /* both the same way round */
  ct_art_path_ellipse(p, 50, 50, 20, 20);
  CHECK(ct_art_fill_outline(p, m, 0, &o, &failed));
  CHECK(FILLED(&o, 50, -50) && FILLED(&o, 50 + 30, -50));   /* nonzero: the centre too */
  ct_art_outline_free(&o);
  CHECK(ct_art_fill_outline(p, m, 1, &o, &failed) && !failed);
  CHECK(EMPTY(&o, 50, -50) && FILLED(&o, 50 + 30, -50) && FILLED(&o, 50, -50 - 30) && EMPTY(&o, 50, -50 - 45));
  CHECK_NEAR(area(&o), M_PI * (1600 - 400), 0.002 * 3800);
  ct_art_outline_free(&o);
  /* three deep, and a disc beside them */
  ct_art_path_ellipse(p, 50, 50, 10, 10);
  ct_art_path_ellipse(p, 150, 50, 10, 10);
  CHECK(ct_art_fill_outline(p, m, 1, &o, &failed));
  CHECK(FILLED(&o, 50, -50) && EMPTY(&o, 65, -50) && FILLED(&o, 80, -50) && FILLED(&o, 150, -50));
  ct_art_outline_free(&o);
  ct_art_path_free(p);
  /* a hole drawn the other way already stays a hole; a shape sharing an edge with another */
  p = parse("M0 0 H100 V100 H0 Z M25 25 V75 H75 V25 Z M100 0 H200 V100 H100 Z", NULL, NULL, 0);
  CHECK(ct_art_fill_outline(p, ID, 1, &o, &failed));
  CHECK(EMPTY(&o, 50, 50) && FILLED(&o, 10, 50) && FILLED(&o, 150, 50));
  ct_art_outline_free(&o);
  ct_art_path_free(p);
}

static void test_strokes(void) {
  FT_Outline o;
  int failed;
  double b[4];
  ct_art_stroke_t s = stroke_of(10, CT_ART_JOIN_MITER, CT_ART_CAP_BUTT);
  CHECK(stroke("M0 0 L100 0", ID, &s, &o, &failed) && !failed);
  bbox(&o, b);
  CHECK_NEAR(b[0], 0, 0.02); CHECK_NEAR(b[2], 100, 0.02);
  CHECK_NEAR(b[1], -5, 0.02); CHECK_NEAR(b[3], 5, 0.02);
  CHECK_NEAR(area(&o), 1000, 1);
  ct_art_outline_free(&o);
  s.cap = CT_ART_CAP_SQUARE;
  CHECK(stroke("M0 0 L100 0", ID, &s, &o, &failed));
  bbox(&o, b);
  CHECK_NEAR(b[0], -5, 0.02); CHECK_NEAR(b[2], 105, 0.02);
  ct_art_outline_free(&o);
  s.cap = CT_ART_CAP_ROUND;
  CHECK(stroke("M0 0 L100 0", ID, &s, &o, &failed));
  CHECK_NEAR(area(&o), 1000 + M_PI * 25, 1.5);
  ct_art_outline_free(&o);
  /* joins on a right angle: 1975 and the corner (round: a quarter disc, miter: a square,
     bevel: a triangle) */
  s.cap = CT_ART_CAP_BUTT;
  int joins[3] = { CT_ART_JOIN_ROUND, CT_ART_JOIN_MITER, CT_ART_JOIN_BEVEL };
  double want[3] = { 1975 + M_PI * 25 / 4, 2000, 1987.5 };
  for (int i = 0; i < 3; i++) {
    s.join = joins[i];
    CHECK(stroke("M0 0 L100 0 L100 100", ID, &s, &o, &failed));
    CHECK_MSG(fabs(area(&o) - want[i]) < 1.5, "join %d: area %g, want %g", i, area(&o), want[i]);
    ct_art_outline_free(&o);
  }
  /* a sharp angle (miter ratio about 10): mitered under limit 20, bevelled under 4 (SVG's
     rule, FreeType's MITER_FIXED; MITER_VARIABLE would clip at 100 + 4 * 5 instead) */
  s.join = CT_ART_JOIN_MITER;
  s.miterlimit = 20;
  CHECK(stroke("M0 0 L100 10 L0 20", ID, &s, &o, &failed));
  bbox(&o, b);
  CHECK_MSG(b[2] > 145, "miter reaches %g", b[2]);
  ct_art_outline_free(&o);
  s.miterlimit = 4;
  CHECK(stroke("M0 0 L100 10 L0 20", ID, &s, &o, &failed));
  bbox(&o, b);
  CHECK_MSG(b[2] < 106, "bevel reaches %g", b[2]);
  ct_art_outline_free(&o);
  /* a closed path: joined all round, no caps, hollow */
  s.cap = CT_ART_CAP_ROUND;
  CHECK(stroke("M0 0 H100 V100 H0 Z", ID, &s, &o, &failed));
  bbox(&o, b);
  CHECK_NEAR(b[0], -5, 0.02); CHECK_NEAR(b[3], 105, 0.02);
  CHECK(EMPTY(&o, 50, 50) && FILLED(&o, 0, 50) && FILLED(&o, 103, 103));
  ct_art_outline_free(&o);
  /* an open one ending where it began has caps there, not a join */
  s.cap = CT_ART_CAP_BUTT;
  CHECK(stroke("M0 0 H100 V100 H0 V0", ID, &s, &o, &failed));
  CHECK(EMPTY(&o, -3, -3));
  ct_art_outline_free(&o);
  /* a circle under a non-uniform transform: its stroke is elliptical (4 wide, 1 high) */
  s = stroke_of(2, CT_ART_JOIN_MITER, CT_ART_CAP_BUTT);
  double m[6] = { 4, 0, 0, 1, 0, 0 };
  ct_art_path_t *p = ct_art_path_new();
  ct_art_path_ellipse(p, 0, 0, 10, 10);
  failed = 0;
  CHECK(ct_art_stroke_outline(p, m, &s, &lib, &o, &failed));
  bbox(&o, b);
  CHECK_NEAR(b[2], 44, 0.05); CHECK_NEAR(b[3], 11, 0.05);
  /* the ring is 36..44 wide, 9..11 high (stroked in font units it would be 39..41) */
  CHECK(FILLED(&o, 37, 0) && FILLED(&o, 43, 0) && EMPTY(&o, 34, 0) && EMPTY(&o, 0, 0) && EMPTY(&o, 0, 8));
  CHECK_MSG(cover(&o, 0, 10) > 0.9, "%g", cover(&o, 0, 10));
  ct_art_outline_free(&o);
  ct_art_path_free(p);
  /* a small drawing (36 units) scaled up 28 times keeps its precision */
  s = stroke_of(0.5, CT_ART_JOIN_ROUND, CT_ART_CAP_BUTT);
  double big[6] = { 28, 0, 0, -28, 0, 1000 };
  CHECK(stroke("M1 1 L35 1", big, &s, &o, &failed));
  bbox(&o, b);
  CHECK_NEAR(b[3] - b[1], 14, 0.05);
  ct_art_outline_free(&o);
}

/* Strokes wider than their segments are long: the union of each segment's stroke and each
   join, as cairo and browsers draw them (stroke.c's pieces), not FreeType's two borders. */
static void test_stroke_pieces(void) {
  FT_Outline o;
  int failed;
  double b[4];
  ct_art_stroke_t s = stroke_of(6, CT_ART_JOIN_MITER, CT_ART_CAP_BUTT);
  /* a triangle stroked wider than its inner circle (radius 2.34) is filled: FreeType's
     inside border came out turned round and cut a hole; the miters stay */
  CHECK(stroke("M8 17 L16 9 L16 17 Z", ID, &s, &o, &failed) && !failed);
  CHECK(FILLED(&o, 13.6, 14.6) && FILLED(&o, 15, 16) && FILLED(&o, 11, 16));
  bbox(&o, b);
  CHECK_NEAR(b[0], 0.757, 0.03); CHECK_NEAR(b[1], 1.757, 0.03);
  CHECK_NEAR(b[2], 19, 0.03); CHECK_NEAR(b[3], 20, 0.03);
  ct_art_outline_free(&o);
  s.join = CT_ART_JOIN_ROUND;
  CHECK(stroke("M8 17 L16 9 L16 17 Z", ID, &s, &o, &failed));
  CHECK(FILLED(&o, 13.6, 14.6) && EMPTY(&o, 1.5, 19.5));
  ct_art_outline_free(&o);
  s = stroke_of(8, CT_ART_JOIN_MITER, CT_ART_CAP_BUTT);   /* a 6-unit square, 8 wide: 14 x 14 */
  CHECK(stroke("M0 0 h6 v6 h-6 z", ID, &s, &o, &failed));
  CHECK(FILLED(&o, 3, 3));
  CHECK_NEAR(area(&o), 196, 1);
  ct_art_outline_free(&o);
  /* a right angle whose second side (5) is shorter than the stroke is wide (10): the union
     is 1000 + 50 - 25 and the corner */
  int joins[3] = { CT_ART_JOIN_ROUND, CT_ART_JOIN_MITER, CT_ART_JOIN_BEVEL };
  double want[3] = { 1025 + M_PI * 25 / 4, 1050, 1037.5 };
  s = stroke_of(10, CT_ART_JOIN_MITER, CT_ART_CAP_BUTT);
  for (int i = 0; i < 3; i++) {
    s.join = joins[i];
    CHECK(stroke("M0 0 L100 0 L100 5", ID, &s, &o, &failed));
    CHECK_MSG(fabs(area(&o) - want[i]) < 1.5, "join %d: area %g, want %g", i, area(&o), want[i]);
    ct_art_outline_free(&o);
  }
  /* a short last side after a sharp turn: the stroke of the side before it reaches past
     its butt end ((-1, 3) is 3.15 from the first side), which FreeType's border left out */
  s = stroke_of(8, CT_ART_JOIN_ROUND, CT_ART_CAP_BUTT);
  CHECK(stroke("M8.3 3.7 L0 0 L-0.5 2.8", ID, &s, &o, &failed));
  CHECK(FILLED(&o, -1, 3) && FILLED(&o, -1.55, -2.92) && EMPTY(&o, -0.6, 6) && EMPTY(&o, -2.3, -4.3));
  ct_art_outline_free(&o);
  s.join = CT_ART_JOIN_MITER;   /* the miter (ratio 1.6) reaches (-2.3, -4.3), a bevel not */
  CHECK(stroke("M8.3 3.7 L0 0 L-0.5 2.8", ID, &s, &o, &failed));
  CHECK(FILLED(&o, -1, 3) && FILLED(&o, -2.3, -4.3));
  ct_art_outline_free(&o);
  s.join = CT_ART_JOIN_BEVEL;
  CHECK(stroke("M8.3 3.7 L0 0 L-0.5 2.8", ID, &s, &o, &failed));
  CHECK(FILLED(&o, -1, 3) && EMPTY(&o, -1.55, -2.92));
  ct_art_outline_free(&o);
  /* caps of such a path: square and round, at both ends */
  s.join = CT_ART_JOIN_ROUND;
  s.cap = CT_ART_CAP_SQUARE;
  CHECK(stroke("M0 0 L3 0 L0 0", ID, &s, &o, &failed));   /* a U-turn: a half disc past 3 */
  CHECK(FILLED(&o, 6, 0) && FILLED(&o, -3.5, 3.5) && EMPTY(&o, 6.5, 3));
  ct_art_outline_free(&o);
  s.cap = CT_ART_CAP_ROUND;
  CHECK(stroke("M0 0 L3 0 L0 0", ID, &s, &o, &failed));
  CHECK(FILLED(&o, 6, 0) && FILLED(&o, -3.5, 0) && EMPTY(&o, -3.5, 3.5));
  CHECK_NEAR(area(&o), 3 * 8 + M_PI * 16, 1);
  ct_art_outline_free(&o);
}

static void test_dashes_and_dots(void) {
  FT_Outline o;
  int failed;
  ct_art_stroke_t s = stroke_of(4, CT_ART_JOIN_MITER, CT_ART_CAP_BUTT);
  double d1[2] = { 10, 10 }, d2[1] = { 10 }, d3[2] = { 0, 0 }, d4[2] = { 10, -1 }, d5[2] = { 0, 10 };
  s.dashes = d1; s.ndashes = 2;
  CHECK(stroke("M0 0 L100 0", ID, &s, &o, &failed) && o.n_contours == 5);
  CHECK(FILLED(&o, 5, 0) && EMPTY(&o, 15, 0) && FILLED(&o, 25, 0));
  CHECK_NEAR(area(&o), 5 * 10 * 4, 1);
  ct_art_outline_free(&o);
  s.dashes = d2; s.ndashes = 1;   /* odd: repeated, so 10 10 */
  CHECK(stroke("M0 0 L100 0", ID, &s, &o, &failed) && o.n_contours == 5);
  ct_art_outline_free(&o);
  s.dash_offset = 5;   /* 0-5, 15-25, ..., 95-100 */
  CHECK(stroke("M0 0 L100 0", ID, &s, &o, &failed) && o.n_contours == 6);
  CHECK(FILLED(&o, 2, 0) && EMPTY(&o, 10, 0) && FILLED(&o, 20, 0));
  ct_art_outline_free(&o);
  s.dash_offset = -5;   /* the same as 15 */
  CHECK(stroke("M0 0 L100 0", ID, &s, &o, &failed) && o.n_contours == 5);
  CHECK(EMPTY(&o, 2, 0) && FILLED(&o, 10, 0));
  ct_art_outline_free(&o);
  s.dash_offset = 0;
  /* around corners, a dash keeps its join */
  s.dashes = d1; s.ndashes = 2;
  CHECK(stroke("M0 0 L5 0 L5 5 L0 5", ID, &s, &o, &failed) && o.n_contours == 1);
  ct_art_outline_free(&o);
  /* closed: the closing side is dashed too (4 sides of 20: 4 dashes) */
  CHECK(stroke("M0 0 H20 V20 H0 Z", ID, &s, &o, &failed) && o.n_contours == 4);
  CHECK(FILLED(&o, 5, 0) && FILLED(&o, 0, 15) && EMPTY(&o, 0, 5));
  ct_art_outline_free(&o);
  /* a dash across a closed path's start is one dash, mitered at the corner (75..85 of the
     80 around), as browsers and cairo draw it; not two that butt there */
  s.dash_offset = 5;
  CHECK(stroke("M0 0 H20 V20 H0 Z", ID, &s, &o, &failed));
  CHECK_MSG(o.n_contours == 4, "%d dashes", o.n_contours);
  CHECK(FILLED(&o, -1.5, -1.5) && FILLED(&o, 4, 0) && FILLED(&o, 0, 4) && EMPTY(&o, 0, 7) && EMPTY(&o, 7, 0));
  ct_art_outline_free(&o);
  /* off where it closes (70 around: the gap 65..75 spans the start), the first dash alone */
  CHECK(stroke("M0 0 H20 V15 H0 Z", ID, &s, &o, &failed));
  CHECK_MSG(o.n_contours == 4, "%d dashes", o.n_contours);
  CHECK(EMPTY(&o, -1.5, -1.5) && FILLED(&o, 2, 0) && EMPTY(&o, 0, 2.5) && FILLED(&o, 0, 7));
  ct_art_outline_free(&o);
  /* a first dash longer than the path: the whole of it, open at the start */
  double dlong[2] = { 100, 10 };
  s.dashes = dlong; s.dash_offset = 0;
  CHECK(stroke("M0 0 H20 V20 H0 Z", ID, &s, &o, &failed) && o.n_contours == 1);
  CHECK(EMPTY(&o, -1.5, -1.5) && FILLED(&o, 10, 0) && FILLED(&o, 0, 10));
  ct_art_outline_free(&o);
  s.dashes = d1;
  /* all zero or a negative value: solid */
  s.dashes = d3;
  CHECK(stroke("M0 0 L100 0", ID, &s, &o, &failed) && o.n_contours == 1);
  ct_art_outline_free(&o);
  s.dashes = d4;
  CHECK(stroke("M0 0 L100 0", ID, &s, &o, &failed) && o.n_contours == 1);
  ct_art_outline_free(&o);
  /* zero-length dashes with round caps: dots, 0 to 100 */
  s.dashes = d5;
  s.cap = CT_ART_CAP_ROUND;
  CHECK(stroke("M0 0 L100 0", ID, &s, &o, &failed));
  CHECK_MSG(o.n_contours == 11, "%d dots", o.n_contours);
  CHECK(FILLED(&o, 10, 0) && EMPTY(&o, 5, 0));
  CHECK_NEAR(area(&o), 11 * M_PI * 4, 1);
  ct_art_outline_free(&o);
  s.dashes = NULL; s.ndashes = 0;
  /* zero-length subpaths: a dot, a square, nothing; a lone moveto draws nothing */
  CHECK(stroke("M10 10 L10 10", ID, &s, &o, &failed));
  CHECK_NEAR(area(&o), M_PI * 4, 0.2);
  ct_art_outline_free(&o);
  CHECK(stroke("M10 10 z", ID, &s, &o, &failed));
  ct_art_outline_free(&o);
  s.cap = CT_ART_CAP_SQUARE;
  CHECK(stroke("M10 10 L10 10", ID, &s, &o, &failed));
  CHECK_NEAR(area(&o), 16, 0.2);
  ct_art_outline_free(&o);
  s.cap = CT_ART_CAP_BUTT;
  CHECK(!stroke("M10 10 L10 10", ID, &s, &o, &failed) && !failed);
  s.cap = CT_ART_CAP_ROUND;
  CHECK(!stroke("M10 10", ID, &s, &o, &failed) && !failed);
  /* a dot next to a line: both filled, the same way round */
  CHECK(stroke("M0 0 L100 0 M50 1 L50 1", ID, &s, &o, &failed));
  CHECK(FILLED(&o, 50, 0) && FILLED(&o, 50, 2.5));
  ct_art_outline_free(&o);
  /* dashes so short that their cubics are below FreeType's notice (it crashed on them) */
  double shortd[3] = { 0, 0, 0.1 }, sm[6] = { -0.4, -1, 0, -1.9, 100, 100 };
  s.dashes = shortd; s.ndashes = 3; s.dash_offset = -2; s.cap = CT_ART_CAP_BUTT;
  CHECK(stroke("M2 24V 31.15V 46.5S -27.25 14.3 -20.4 -44.75v 0.894", sm, &s, &o, &failed) && !failed);
  ct_art_outline_free(&o);
  s.dash_offset = 0;
  /* too many dashes */
  double tiny[2] = { 1e-4, 1e-4 };
  s.dashes = tiny; s.ndashes = 2;
  CHECK(!stroke("M0 0 L100 0", ID, &s, &o, &failed) && failed && o.points == NULL);
}

static void test_limits(void) {
  FT_Outline o;
  int failed = 0;
  double huge[6] = { 1e5, 0, 0, 1e5, 0, 0 };
  ct_art_path_t *p = ct_art_path_new();
  ct_art_path_rect(p, 0, 0, 1, 1, 0, 0);
  CHECK(!ct_art_fill_outline(p, huge, 0, &o, &failed) && failed);
  ct_art_stroke_t s = stroke_of(1, CT_ART_JOIN_MITER, CT_ART_CAP_BUTT);
  failed = 0;
  CHECK(!ct_art_stroke_outline(p, huge, &s, &lib, &o, &failed) && failed);
  huge[0] = huge[3] = 1e4;   /* within 32000 units */
  failed = 0;
  CHECK(ct_art_fill_outline(p, huge, 0, &o, &failed) && !failed);
  ct_art_outline_free(&o);
  ct_art_path_free(p);
  /* over CT_MAX_ARTWORK_POINTS points: the path fails, and so do its fills */
  size_t n = CT_MAX_ARTWORK_POINTS + 10;
  char *d = malloc(n * 4 + 8);
  strcpy(d, "M0 0");
  for (size_t i = 0; i < n; i++) memcpy(d + 4 + 4 * i, " 1 1", 4);
  d[4 + 4 * n] = 0;
  p = parse(d, NULL, NULL, 0);
  CHECK(ct_art_path_failed(p) && p->npts <= CT_MAX_ARTWORK_POINTS);
  failed = 0;
  CHECK(!ct_art_fill_outline(p, ID, 0, &o, &failed) && failed);
  failed = 0;
  CHECK(!ct_art_stroke_outline(p, ID, &s, &lib, &o, &failed) && failed);
  ct_art_path_free(p);
  free(d);
  /* more points than an FT_Outline counts */
  p = ct_art_path_new();
  for (int i = 0; i < 9000; i++) ct_art_path_rect(p, i, 0, 0.5, 1, 0, 0);
  failed = 0;
  CHECK(!ct_art_fill_outline(p, ID, 0, &o, &failed) && failed);
  ct_art_path_free(p);
}

int main(void) {
  if (FT_Init_FreeType(&lib)) return 1;
  test_numbers();
  test_commands();
  test_arcs();
  test_errors();
  test_shapes();
  test_evenodd();
  test_strokes();
  test_stroke_pieces();
  test_dashes_and_dots();
  test_limits();
  FT_Done_FreeType(lib);
  return ct_test_report("test_artwork_path");
}
