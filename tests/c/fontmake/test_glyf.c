/*
** test_glyf.c: cubic outlines as TrueType glyphs (glyf.c).  Seeded random cubics encoded,
** the glyph decoded again (flags, deltas, implied on-curve midpoints) and its quadratic
** spline measured against the cubic both ways: within the tolerance plus the rounding of
** the points to whole units, and never more points than one quadratic per piece with the
** cubic's own joints would take.  Core unit test.
*/
#include <math.h>

#include "ct-test.h"
#include "fontmake/fontmake.h"

typedef struct { double x, y; } pt_t;

static unsigned long long seed = 0x9E3779B97F4A7C15ull;
static double rnd(double lo, double hi) {
  seed = seed * 6364136223846793005ull + 1442695040888963407ull;
  return lo + (hi - lo) * (double)(seed >> 11) / 9007199254740992.0;
}

/* One contour: p0 on, c1 c2 cubic controls, p3 on, then a line back to p0. */
static void cubic_outline(FT_Outline *o, FT_Vector v[4], char tags[4], short *end, const pt_t q[4]) {
  int i;
  for (i = 0; i < 4; i++) {
    v[i].x = (FT_Pos)lround(q[i].x * 64);
    v[i].y = (FT_Pos)lround(q[i].y * 64);
  }
  tags[0] = tags[3] = FT_CURVE_TAG_ON;
  tags[1] = tags[2] = FT_CURVE_TAG_CUBIC;
  *end = 3;
  memset(o, 0, sizeof *o);
  o->n_points = 4;
  o->n_contours = 1;
  o->points = v;
  o->tags = tags;
  o->contours = end;
}

/* The points of a simple glyph record (one contour): returns the count, 0 if malformed. */
static unsigned decode(const unsigned char *p, size_t len, pt_t *pts, int *on, unsigned cap) {
  unsigned n, i, k, ninstr;
  size_t o;
  unsigned char flags[512];
  int x = 0, y = 0;
  if (len < 14 || ct_rds16(p) != 1) return 0;
  n = ct_rd16(p + 10) + 1u;
  ninstr = ct_rd16(p + 12);
  o = 14 + ninstr;
  if (n > cap || n > sizeof flags) return 0;
  for (i = 0; i < n && o < len;) {
    unsigned char f = p[o++], r = 0;
    if (f & 8) r = o < len ? p[o++] : 0;
    for (k = 0; k <= r && i < n; k++) flags[i++] = f;
  }
  if (i < n) return 0;
  for (i = 0; i < n; i++) {
    unsigned char f = flags[i];
    if (f & 2) { if (o >= len) return 0; x += (f & 16) ? p[o] : -(int)p[o]; o++; }
    else if (!(f & 16)) { if (o + 2 > len) return 0; x += ct_rds16(p + o); o += 2; }
    pts[i].x = x;
    on[i] = f & 1;
  }
  for (i = 0; i < n; i++) {
    unsigned char f = flags[i];
    if (f & 4) { if (o >= len) return 0; y += (f & 32) ? p[o] : -(int)p[o]; o++; }
    else if (!(f & 32)) { if (o + 2 > len) return 0; y += ct_rds16(p + o); o += 2; }
    pts[i].y = y;
  }
  return n;
}

static pt_t at3(const pt_t q[4], double t) {
  double u = 1 - t;
  pt_t r = { u * u * u * q[0].x + 3 * u * u * t * q[1].x + 3 * u * t * t * q[2].x + t * t * t * q[3].x,
             u * u * u * q[0].y + 3 * u * u * t * q[1].y + 3 * u * t * t * q[2].y + t * t * t * q[3].y };
  return r;
}

#define DENSE 64

/* The spline from the first point to the one at index `last_on` (the cubic's end) as a
   dense polyline: TrueType's reading, a midpoint implied between two off-curve points. */
static unsigned polyline(const pt_t *p, const int *on, unsigned last_on, pt_t *out, unsigned cap) {
  unsigned i, k, m = 0;
  pt_t start = p[0];
  out[m++] = start;
  for (i = 1; i <= last_on; i++) {
    if (on[i]) {
      if (on[i - 1] && m < cap) out[m++] = p[i];
      start = p[i];
      continue;
    }
    {
      pt_t end = on[i + 1] ? p[i + 1] : (pt_t){ (p[i].x + p[i + 1].x) / 2, (p[i].y + p[i + 1].y) / 2 };
      for (k = 1; k <= DENSE && m < cap; k++) {
        double t = (double)k / DENSE, u = 1 - t;
        out[m].x = u * u * start.x + 2 * u * t * p[i].x + t * t * end.x;
        out[m].y = u * u * start.y + 2 * u * t * p[i].y + t * t * end.y;
        m++;
      }
      start = end;
      if (on[i + 1]) i++;
    }
  }
  return m;
}

static double seg_dist(pt_t p, pt_t a, pt_t b) {
  double dx = b.x - a.x, dy = b.y - a.y, l = dx * dx + dy * dy, t = 0;
  if (l > 0) t = fmax(0, fmin(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / l));
  return hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
}

static double to_poly(pt_t p, const pt_t *poly, unsigned n) {
  double d = INFINITY;
  unsigned i;
  for (i = 0; i + 1 < n; i++) d = fmin(d, seg_dist(p, poly[i], poly[i + 1]));
  return d;
}

/* Pieces one quadratic each with the cubic's own joints need (glyf.c's bound). */
static unsigned explicit_pieces(const pt_t q[4]) {
  double dx = q[3].x - 3 * q[2].x + 3 * q[1].x - q[0].x, dy = q[3].y - 3 * q[2].y + 3 * q[1].y - q[0].y;
  double e = sqrt(3.0) / 36.0 * hypot(dx, dy);
  unsigned n = 1;
  while (n < 64 && e / ((double)n * n * n) > CT_GLYF_TOLERANCE) n++;
  return n;
}

/* Encodes q, checks the spline both ways; returns the points the cubic took, 0 on failure. */
static unsigned check_cubic(const pt_t q[4], double *worst) {
  FT_Outline o;
  FT_Vector v[4];
  char tags[4];
  short end;
  ct_buf_t b = { 0 };
  ct_glyf_stats_t st;
  const double id[6] = { 1, 0, 0, 1, 0, 0 };
  static pt_t pts[512], poly[512 * DENSE], cu[DENSE * 8 + 1];
  int on[512];
  unsigned n, m, i, last;
  double d = 0;
  cubic_outline(&o, v, tags, &end, q);
  if (!ct_glyf_encode(&b, &o, 1.0 / 64, id, &st) || !(n = decode(b.p, b.len, pts, on, 512))) {
    free(b.p);
    return 0;
  }
  free(b.p);
  for (last = n - 1; last > 0 && !on[last]; last--) {}
  m = polyline(pts, on, last, poly, sizeof poly / sizeof poly[0]);
  for (i = 0; i <= DENSE * 8; i++) cu[i] = at3(q, (double)i / (DENSE * 8));
  for (i = 0; i <= DENSE * 8; i++) d = fmax(d, to_poly(cu[i], poly, m));
  for (i = 0; i < m; i++) d = fmax(d, to_poly(poly[i], cu, DENSE * 8 + 1));
  if (d > *worst) *worst = d;
  return last;   /* the points from p0 (excluded) to p3 (included) */
}

int main(void) {
  unsigned i, implied = 0, multi = 0;
  double worst = 0;
  /* the tolerance, and each point rounded to the unit grid (half a diagonal) */
  const double allowed = CT_GLYF_TOLERANCE + 0.75;
  for (i = 0; i < 2000; i++) {
    double span = i < 1000 ? 200 : 3000;
    pt_t q[4];
    unsigned k, got, want;
    for (k = 0; k < 4; k++) {
      q[k].x = rnd(-span, span);
      q[k].y = rnd(-span, span);
    }
    want = 2 * explicit_pieces(q);
    got = check_cubic(q, &worst);
    CHECK_MSG(got > 0 && got <= want, "cubic %u: %u points, one quadratic a piece takes %u", i, got, want);
    if (want > 2) {
      multi++;
      implied += got < want;
    }
  }
  CHECK_MSG(worst <= allowed, "the spline strays %.3f units from the cubic (allowed %.3f)", worst, allowed);
  /* implied joints are the rule, not the exception, for cubics of several pieces */
  CHECK_MSG(implied * 10 >= multi * 9, "implied joints for %u of %u cubics", implied, multi);
  {
    /* a quarter circle of radius 1000: one quadratic is 9 units off, so it splits */
    const double k = 0.5522847498 * 1000;
    pt_t q[4] = { { 1000, 0 }, { 1000, k }, { k, 1000 }, { 0, 1000 } };
    double w = 0;
    unsigned got = check_cubic(q, &w);
    CHECK_MSG(got >= 3 && got <= 2 * explicit_pieces(q) - 1, "quarter circle: %u points", got);
    CHECK(w <= allowed);
    /* a straight cubic: one quadratic */
    q[0] = (pt_t){ 1500, 300 };
    q[1] = (pt_t){ 1000, 200 };
    q[2] = (pt_t){ 500, 100 };
    q[3] = (pt_t){ 0, 0 };
    CHECK(check_cubic(q, &w) == 2);
  }
  printf("glyf: worst distance %.3f units over 2000 cubics; implied joints for %u of %u\n", worst, implied, multi);
  return ct_test_report("glyf");
}
