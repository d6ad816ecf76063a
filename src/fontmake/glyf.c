/*
** glyf.c: FreeType outlines as TrueType simple glyphs, for the font writer.  Quadratic
** contours keep their points; cubic segments (CFF, CFF2, artwork) become quadratic
** splines within CT_GLYF_TOLERANCE font units of the cubic, their joints implied where
** that takes fewer points.  Fontmake stage: knows
** fonts and paint trees, never pages or outputs.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fontmake.h"
#include FT_OUTLINE_H

enum { ON_CURVE = 0x01, X_SHORT = 0x02, Y_SHORT = 0x04, REPEAT = 0x08, X_SAME = 0x10, Y_SAME = 0x20 };

typedef struct {
  int     *x, *y;
  unsigned char *on;
  unsigned n, cap;
  unsigned *ends;
  unsigned ncontours, ends_cap;
  int      failed;
} points_t;

static void add_point(points_t *p, double x, double y, int on) {
  if (p->failed) return;
  if (p->n == p->cap) {
    unsigned cap = p->cap ? p->cap * 2 : 64;
    int *nx = realloc(p->x, cap * sizeof *nx), *ny;
    unsigned char *non;
    if (nx) p->x = nx;
    ny = nx ? realloc(p->y, cap * sizeof *ny) : NULL;
    if (ny) p->y = ny;
    non = ny ? realloc(p->on, cap) : NULL;
    if (!non || cap > 65535u * 2) {
      p->failed = 1;
      return;
    }
    p->on = non;
    p->cap = cap;
  }
  if (fabs(x) > 32767 || fabs(y) > 32767) p->failed = 1;   /* off the FWORD range */
  p->x[p->n] = (int)lround(x);
  p->y[p->n] = (int)lround(y);
  p->on[p->n] = (unsigned char)on;
  p->n++;
}

static void end_contour(points_t *p) {
  if (p->failed) return;
  if (p->ncontours == p->ends_cap) {
    unsigned cap = p->ends_cap ? p->ends_cap * 2 : 16;
    unsigned *e = realloc(p->ends, cap * sizeof *e);
    if (!e) {
      p->failed = 1;
      return;
    }
    p->ends = e;
    p->ends_cap = cap;
  }
  p->ends[p->ncontours++] = p->n - 1;
}

typedef struct { double x, y; } pt_t;

static pt_t map(const double m[6], double scale, const FT_Vector *v) {
  double x = v->x * scale, y = v->y * scale;
  pt_t r = { m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5] };
  return r;
}

static pt_t lerp(pt_t a, pt_t b, double t) {
  pt_t r = { a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t };
  return r;
}

/* The cubic's piece from t0 to t1 as the cubic a b c d (de Casteljau twice). */
static void cubic_piece(const pt_t q[4], double t0, double t1, pt_t r[4]) {
  pt_t ab = lerp(q[0], q[1], t1), bc = lerp(q[1], q[2], t1), cd = lerp(q[2], q[3], t1);
  pt_t abc = lerp(ab, bc, t1), bcd = lerp(bc, cd, t1), end = lerp(abc, bcd, t1);   /* 0..t1 */
  double s = t1 > 0 ? t0 / t1 : 0;   /* then its part s..1 */
  pt_t e1 = lerp(q[0], ab, s), e2 = lerp(ab, abc, s), e3 = lerp(abc, end, s);
  pt_t f1 = lerp(e1, e2, s), f2 = lerp(e2, e3, s);
  r[0] = lerp(f1, f2, s);
  r[1] = f2;
  r[2] = e3;
  r[3] = end;
}

static pt_t cubic_at(const pt_t q[4], double t) {
  pt_t ab = lerp(q[0], q[1], t), bc = lerp(q[1], q[2], t), cd = lerp(q[2], q[3], t);
  return lerp(lerp(ab, bc, t), lerp(bc, cd, t), t);
}

/* The quadratic control of a cubic piece: off the piece by at most sqrt(3) / 36 times
   |d - 3 c + 3 b - a| (the piece from the cubic's 1/n-th is n^3 times closer). */
static pt_t quad_control(const pt_t r[4]) {
  pt_t q = { (3 * (r[1].x + r[2].x) - (r[0].x + r[3].x)) / 4, (3 * (r[1].y + r[2].y) - (r[0].y + r[3].y)) / 4 };
  return q;
}

#define SPLINE_SAMPLES 16

/* Whether the quadratic spline of the n controls qs (its on-curve points implied, the
   midpoints of neighbouring controls, as TrueType reads consecutive off-curve points)
   stays within the tolerance of the cubic: each quadratic against the cubic's piece at
   the same parameters, which bounds the distance between the curves from above. */
static int spline_fits(const pt_t cu[4], const pt_t *qs, unsigned n) {
  unsigned i, k;
  for (i = 0; i < n; i++) {
    pt_t a = i ? lerp(qs[i - 1], qs[i], 0.5) : cu[0], c = i + 1 < n ? lerp(qs[i], qs[i + 1], 0.5) : cu[3];
    for (k = i ? 0 : 1; k < SPLINE_SAMPLES; k++) {   /* k = 0: the implied joint */
      double u = (double)k / SPLINE_SAMPLES, w = 1 - u;
      pt_t on = cubic_at(cu, ((double)i + u) / n);
      double x = w * w * a.x + 2 * w * u * qs[i].x + u * u * c.x - on.x;
      double y = w * w * a.y + 2 * w * u * qs[i].y + u * u * c.y - on.y;
      if (x * x + y * y > CT_GLYF_TOLERANCE * CT_GLYF_TOLERANCE) return 0;
    }
  }
  return 1;
}

#define MAX_PIECES 64

/* The cubic p0 c1 c2 p3 (p0 already added) as quadratic pieces within the tolerance.
   The fewest pieces whose on-curve joints can be left implied (n + 1 points) when that
   beats the fewest pieces with the cubic's own points as joints (2 n points). */
static void add_cubic(points_t *p, pt_t p0, pt_t c1, pt_t c2, pt_t p3) {
  pt_t cu[4] = { p0, c1, c2, p3 }, r[4], qs[MAX_PIECES];
  double dx = p3.x - 3 * c2.x + 3 * c1.x - p0.x, dy = p3.y - 3 * c2.y + 3 * c1.y - p0.y;
  double e = sqrt(3.0) / 36.0 * sqrt(dx * dx + dy * dy);
  unsigned n = 1, m, i;
  while (n < MAX_PIECES && e / ((double)n * n * n) > CT_GLYF_TOLERANCE) n++;
  /* implied joints: worth it from 2 pieces on, and only with fewer points */
  for (m = n > 1 ? n : 2; n > 1 && m < 2 * n - 1 && m <= MAX_PIECES; m++) {
    for (i = 0; i < m; i++) {
      cubic_piece(cu, (double)i / m, (double)(i + 1) / m, r);
      qs[i] = quad_control(r);
    }
    if (spline_fits(cu, qs, m)) {
      for (i = 0; i < m; i++) add_point(p, qs[i].x, qs[i].y, 0);
      add_point(p, p3.x, p3.y, 1);
      return;
    }
  }
  for (i = 0; i < n; i++) {
    cubic_piece(cu, (double)i / n, (double)(i + 1) / n, r);
    qs[0] = quad_control(r);
    add_point(p, qs[0].x, qs[0].y, 0);
    if (i + 1 < n) add_point(p, r[3].x, r[3].y, 1);
  }
  add_point(p, p3.x, p3.y, 1);
}

static void add_outline(points_t *p, const FT_Outline *o, double scale, const double m[6]) {
  int c, first = 0;
  for (c = 0; c < o->n_contours && !p->failed; c++) {
    int last = o->contours[c], i;
    unsigned start = p->n;
    pt_t cur = { 0, 0 };   /* the last point added, unrounded */
    int cur_on = 0;
    if (last < first || last >= o->n_points) {
      p->failed = 1;
      return;
    }
    for (i = first; i <= last && !p->failed; i++) {
      int tag = FT_CURVE_TAG(o->tags[i]);
      pt_t v = map(m, scale, &o->points[i]);
      if (tag == FT_CURVE_TAG_CUBIC) {
        /* a cubic segment from the current point: i and i+1 are its controls, the next
           point (or the contour's first) its end */
        int j = i + 1, k = i + 2;
        pt_t c2, end;
        if (j > last || FT_CURVE_TAG(o->tags[j]) != FT_CURVE_TAG_CUBIC || !cur_on) {
          p->failed = 1;
          return;
        }
        if (k > last) k = first;
        c2 = map(m, scale, &o->points[j]);
        end = map(m, scale, &o->points[k]);
        add_cubic(p, cur, v, c2, end);
        if (k == first) {
          p->n--;   /* the end is the contour's first point, already there */
          break;
        }
        cur = end;
        cur_on = 1;
        i = k;
      } else {
        add_point(p, v.x, v.y, tag == FT_CURVE_TAG_ON);
        cur = v;
        cur_on = tag == FT_CURVE_TAG_ON;
      }
    }
    if (p->n > start) end_contour(p);
    first = last + 1;
  }
}

static void encode_points(ct_buf_t *out, const points_t *p, ct_glyf_stats_t *st) {
  unsigned i;
  int xmin = 0, ymin = 0, xmax = 0, ymax = 0, px = 0, py = 0;
  unsigned char *flags;
  ct_buf_t xs = { 0 }, ys = { 0 };
  for (i = 0; i < p->n; i++) {
    if (i == 0 || p->x[i] < xmin) xmin = p->x[i];
    if (i == 0 || p->x[i] > xmax) xmax = p->x[i];
    if (i == 0 || p->y[i] < ymin) ymin = p->y[i];
    if (i == 0 || p->y[i] > ymax) ymax = p->y[i];
  }
  ct_buf_u16(out, p->ncontours);
  ct_buf_u16(out, (unsigned)(xmin & 0xFFFF));
  ct_buf_u16(out, (unsigned)(ymin & 0xFFFF));
  ct_buf_u16(out, (unsigned)(xmax & 0xFFFF));
  ct_buf_u16(out, (unsigned)(ymax & 0xFFFF));
  for (i = 0; i < p->ncontours; i++) ct_buf_u16(out, p->ends[i]);
  ct_buf_u16(out, 0);   /* no instructions */
  if (!(flags = malloc(p->n ? p->n : 1))) {
    out->failed = 1;
    return;
  }
  for (i = 0; i < p->n; i++) {
    int dx = p->x[i] - px, dy = p->y[i] - py;
    unsigned char f = p->on[i] ? ON_CURVE : 0;
    if (dx == 0) f |= X_SAME;
    else if (dx >= -255 && dx <= 255) {
      f |= X_SHORT | (dx > 0 ? X_SAME : 0);
      ct_buf_u8(&xs, (unsigned)abs(dx));
    } else ct_buf_u16(&xs, (unsigned)(dx & 0xFFFF));
    if (dy == 0) f |= Y_SAME;
    else if (dy >= -255 && dy <= 255) {
      f |= Y_SHORT | (dy > 0 ? Y_SAME : 0);
      ct_buf_u8(&ys, (unsigned)abs(dy));
    } else ct_buf_u16(&ys, (unsigned)(dy & 0xFFFF));
    flags[i] = f;
    px = p->x[i];
    py = p->y[i];
  }
  for (i = 0; i < p->n;) {   /* runs of one flag: the flag, REPEAT and a count */
    unsigned run = 1;
    while (i + run < p->n && flags[i + run] == flags[i] && run < 256) run++;
    if (run > 2) {
      ct_buf_u8(out, flags[i] | REPEAT);
      ct_buf_u8(out, run - 1);
    } else {
      run = 1;
      ct_buf_u8(out, flags[i]);
    }
    i += run;
  }
  free(flags);
  ct_buf_bytes(out, xs.p, xs.len);
  ct_buf_bytes(out, ys.p, ys.len);
  if (xs.failed || ys.failed) out->failed = 1;
  ct_buf_free(&xs);
  ct_buf_free(&ys);
  ct_buf_pad4(out);   /* long loca offsets need no padding, but aligned records read faster */
  st->xmin = xmin;
  st->ymin = ymin;
  st->xmax = xmax;
  st->ymax = ymax;
  st->points = p->n;
  st->contours = p->ncontours;
  st->empty = 0;
}

static void points_free(points_t *p) {
  free(p->x);
  free(p->y);
  free(p->on);
  free(p->ends);
}

int ct_glyf_encode(ct_buf_t *out, const FT_Outline *outline, double scale, const double m[6],
                   ct_glyf_stats_t *stats) {
  static const double identity[6] = { 1, 0, 0, 1, 0, 0 };
  points_t p;
  memset(stats, 0, sizeof *stats);
  stats->empty = 1;
  if (!outline || outline->n_points == 0) return 1;
  memset(&p, 0, sizeof p);
  add_outline(&p, outline, scale, m ? m : identity);
  if (p.failed || p.ncontours > 32767 || p.n > 65535) {
    points_free(&p);
    return 0;
  }
  if (p.n) encode_points(out, &p, stats);
  points_free(&p);
  return 1;
}

void ct_glyf_encode_rect(ct_buf_t *out, double x0, double y0, double x1, double y1,
                         ct_glyf_stats_t *stats) {
  points_t p;
  memset(&p, 0, sizeof p);
  /* clockwise, as TrueType fills */
  add_point(&p, x0, y0, 1);
  add_point(&p, x0, y1, 1);
  add_point(&p, x1, y1, 1);
  add_point(&p, x1, y0, 1);
  end_contour(&p);
  memset(stats, 0, sizeof *stats);
  if (p.failed) out->failed = 1;
  else encode_points(out, &p, stats);
  points_free(&p);
}

void ct_glyf_read_stats(const unsigned char *p, size_t len, ct_glyf_stats_t *st) {
  int n;
  memset(st, 0, sizeof *st);
  if (len < 10) {
    st->empty = 1;
    return;
  }
  n = ct_rds16(p);
  st->xmin = ct_rds16(p + 2);
  st->ymin = ct_rds16(p + 4);
  st->xmax = ct_rds16(p + 6);
  st->ymax = ct_rds16(p + 8);
  if (n > 0) {
    st->contours = (unsigned)n;
    if (len >= 10 + 2 * (size_t)n) st->points = ct_rd16(p + 10 + 2 * (n - 1)) + 1;
  }
}
