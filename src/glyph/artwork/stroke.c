/*
** stroke.c: a path's stroke as a FreeType outline (FT_Stroker), as SVG strokes it: in user
** space, then transformed; dashes cut first (on a closed path, the dash across its start
** is one); zero-length subpaths capped as browsers cap them; a subpath FreeType's two
** borders would get wrong (a stroke wider than its segments are long) as the union of
** each segment's stroke, join and cap, as cairo does.  Glyph stage (artwork reader).
*/
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <ft2build.h>
#include FT_STROKER_H

#include "artwork-private.h"

/* Pieces of a cubic measured for dashing (its arc length read from a table). */
#define DASH_STEPS 24

typedef struct {
  FT_Stroker             st, butt;     /* with the stroke's caps; with butt caps (pieces) */
  FT_Stroker             pen;          /* the one subpaths go to */
  FT_Library             lib;
  FT_Fixed               radius, limit;
  FT_Stroker_LineJoin    join;
  const ct_art_stroke_t *s;
  double                 k;            /* user units to the stroker's (before 26.6) */
  ct_art_path_t         *dots;         /* caps of zero-length subpaths, user units */
  ct_art_path_t         *square;       /* the square -1..1, a square cap's dot mapped */
  int                    failed;       /* memory, FreeType, or a limit */
  unsigned               dashes;
  /* the subpath being stroked */
  FT_Vector              start, cur;   /* 26.6, stroker units */
  double                 ux, uy, dx, dy;   /* its start in user units, the direction there */
  int                    open, begun;
} ctx_t;

/* ---- the pen: subpaths handed to FT_Stroker ----------------------------------- */

static int to26(ctx_t *c, double x, double y, FT_Vector *v) {
  double X = x * c->k * 64, Y = y * c->k * 64, lim = 16 * CT_MAX_ARTWORK_COORD * 64;
  if (!(fabs(X) <= lim && fabs(Y) <= lim)) {
    c->failed = 1;
    return 0;
  }
  v->x = lround(X);
  v->y = lround(Y);
  return 1;
}

static void pen_start(ctx_t *c, double x, double y, double dx, double dy, int open) {
  c->begun = 0;
  c->open = open;
  c->ux = x;
  c->uy = y;
  c->dx = dx;
  c->dy = dy;
  if (to26(c, x, y, &c->start)) c->cur = c->start;
}

/* FT_Stroker_BeginSubPath is held back until the subpath has a segment of some length:
   FreeType would cap a zero-length one wrongly (it has no direction). */
static int pen_begin(ctx_t *c) {
  if (c->begun) return 1;
  if (FT_Stroker_BeginSubPath(c->pen, &c->start, (FT_Bool)c->open)) c->failed = 1;
  c->begun = !c->failed;
  return c->begun;
}

static void pen_line26(ctx_t *c, const FT_Vector *v) {
  if (v->x == c->cur.x && v->y == c->cur.y) return;
  if (!pen_begin(c)) return;
  if (FT_Stroker_LineTo(c->pen, (FT_Vector *)v)) c->failed = 1;
  c->cur = *v;
}

static void pen_line(ctx_t *c, double x, double y) {
  FT_Vector v;
  if (!c->failed && to26(c, x, y, &v)) pen_line26(c, &v);
}

/* FreeType drops a cubic each of whose points lies within 1/64 of a unit of the one
   before (FT_IS_SMALL, in ft_stroker_cubicto); it would then end a subpath that has no
   segment, which crashes it (2.12): such a cubic is handed over as a line. */
static int small(const FT_Vector *a, const FT_Vector *b) {
  return a->x - b->x > -2 && a->x - b->x < 2 && a->y - b->y > -2 && a->y - b->y < 2;
}

static void pen_cubic(ctx_t *c, const double *q) {
  FT_Vector v[3];
  if (c->failed || !to26(c, q[0], q[1], &v[0]) || !to26(c, q[2], q[3], &v[1]) || !to26(c, q[4], q[5], &v[2])) return;
  if (small(&v[0], &c->cur) && small(&v[1], &v[0]) && small(&v[2], &v[1])) {
    pen_line26(c, &v[2]);
    return;
  }
  if (!pen_begin(c)) return;
  if (FT_Stroker_CubicTo(c->pen, &v[0], &v[1], &v[2])) c->failed = 1;
  c->cur = v[2];
}

/* The subpath ends.  One that never moved is a dot for round caps, a square for square
   caps (turned along the path's direction there), nothing for butt caps. */
static void pen_end(ctx_t *c) {
  if (c->failed) return;
  if (c->begun) {
    if (FT_Stroker_EndSubPath(c->pen)) c->failed = 1;
    return;
  }
  if (c->pen != c->st) return;   /* a piece too short for FreeType: the others cover it */
  double h = c->s->width / 2;
  if (c->s->cap == CT_ART_CAP_ROUND) {
    ct_art_path_ellipse(c->dots, c->ux, c->uy, h, h);
  } else if (c->s->cap == CT_ART_CAP_SQUARE) {
    double l = hypot(c->dx, c->dy), ax = l > 0 ? c->dx / l : 1, ay = l > 0 ? c->dy / l : 0;
    double to[6] = { h * ax, h * ay, -h * ay, h * ax, c->ux, c->uy };   /* turned, scaled, moved */
    if (!c->square && (c->square = ct_art_path_new()) != NULL) ct_art_path_rect(c->square, -1, -1, 2, 2, 0, 0);
    if (!c->square) c->failed = 1;
    else ct_art_path_append(c->dots, c->square, to);
  }
  if (ct_art_path_failed(c->dots)) c->failed = 1;
}

/* ---- segments ----------------------------------------------------------------- */

/* One segment of a subpath: a line (p0, p3) or a cubic (p0, c1, c2, p3), x y pairs. */
typedef struct {
  int    cubic;
  double p[8];
  double len;
  double cum[DASH_STEPS + 1];   /* cubics: arc length at t = i / DASH_STEPS */
} seg_t;

static void bez(const double *p, double t, double *x, double *y) {
  double u = 1 - t, a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t;
  *x = a * p[0] + b * p[2] + c * p[4] + d * p[6];
  *y = a * p[1] + b * p[3] + c * p[5] + d * p[7];
}

static void measure(seg_t *g) {
  if (!g->cubic) {
    g->len = hypot(g->p[6] - g->p[0], g->p[7] - g->p[1]);
    return;
  }
  double px = g->p[0], py = g->p[1];
  g->cum[0] = 0;
  for (int i = 1; i <= DASH_STEPS; i++) {
    double x, y;
    bez(g->p, (double)i / DASH_STEPS, &x, &y);
    g->cum[i] = g->cum[i - 1] + hypot(x - px, y - py);
    px = x;
    py = y;
  }
  g->len = g->cum[DASH_STEPS];
}

/* The parameter at arc length s along the segment. */
static double param(const seg_t *g, double s) {
  if (g->len <= 0) return 0;
  if (!g->cubic) return s / g->len;
  int i = 0;
  while (i < DASH_STEPS - 1 && g->cum[i + 1] < s) i++;
  double w = g->cum[i + 1] - g->cum[i], f = w > 0 ? (s - g->cum[i]) / w : 0;
  return (i + fmin(fmax(f, 0), 1)) / DASH_STEPS;
}

/* Point and direction at parameter t. */
static void at(const seg_t *g, double t, double *x, double *y, double *dx, double *dy) {
  if (!g->cubic) {
    *x = g->p[0] + t * (g->p[6] - g->p[0]);
    *y = g->p[1] + t * (g->p[7] - g->p[1]);
    *dx = g->p[6] - g->p[0];
    *dy = g->p[7] - g->p[1];
    return;
  }
  const double *p = g->p;
  double u = 1 - t;
  bez(p, t, x, y);
  *dx = u * u * (p[2] - p[0]) + 2 * u * t * (p[4] - p[2]) + t * t * (p[6] - p[4]);
  *dy = u * u * (p[3] - p[1]) + 2 * u * t * (p[5] - p[3]) + t * t * (p[7] - p[5]);
  if (*dx == 0 && *dy == 0) {
    *dx = p[6] - p[0];
    *dy = p[7] - p[1];
  }
}

/* The part of the segment between parameters t0 < t1, as a segment of its own (measured). */
static void split(const seg_t *g, double t0, double t1, seg_t *out) {
  out->cubic = g->cubic;
  if (!g->cubic) {
    double x, y, dx, dy;
    at(g, t0, &out->p[0], &out->p[1], &dx, &dy);
    at(g, t1, &x, &y, &dx, &dy);
    out->p[6] = x;
    out->p[7] = y;
    measure(out);
    return;
  }
  /* de Casteljau: the end part from t0, then its start part up to t1 */
  double q[8], r[8];
  memcpy(q, g->p, sizeof q);
  if (t0 > 0) {
    double a[2], b[2], d[2], e[2], f[2];
    for (int i = 0; i < 2; i++) {
      a[i] = q[i] + t0 * (q[2 + i] - q[i]);
      b[i] = q[2 + i] + t0 * (q[4 + i] - q[2 + i]);
      d[i] = q[4 + i] + t0 * (q[6 + i] - q[4 + i]);
      e[i] = a[i] + t0 * (b[i] - a[i]);
      f[i] = b[i] + t0 * (d[i] - b[i]);
      r[i] = e[i] + t0 * (f[i] - e[i]);
      r[2 + i] = f[i];
      r[4 + i] = d[i];
      r[6 + i] = q[6 + i];
    }
    memcpy(q, r, sizeof q);
  }
  double t = t0 < 1 ? (t1 - t0) / (1 - t0) : 1;
  for (int i = 0; i < 2; i++) {
    double a = q[i] + t * (q[2 + i] - q[i]), b = q[2 + i] + t * (q[4 + i] - q[2 + i]);
    double d = q[4 + i] + t * (q[6 + i] - q[4 + i]), e = a + t * (b - a), f = b + t * (d - b);
    out->p[i] = q[i];
    out->p[2 + i] = a;
    out->p[4 + i] = e;
    out->p[6 + i] = e + t * (f - e);
  }
  measure(out);
}

/* The part of the segment between parameters t0 < t1 handed to the pen. */
static void piece(ctx_t *c, const seg_t *g, double t0, double t1) {
  seg_t h;
  if (t1 <= t0) return;
  if (t0 <= 0 && t1 >= 1) h = *g;
  else split(g, t0, t1, &h);
  if (h.cubic) pen_cubic(c, h.p + 2);
  else pen_line(c, h.p[6], h.p[7]);
}

/* ---- dashes ------------------------------------------------------------------- */

typedef struct {
  double  *v;        /* the pattern, an even count */
  unsigned n;
  double   total;
  unsigned idx;      /* where the walk is in it */
  double   rem;      /* what is left of v[idx] */
} dash_t;

static void dash_reset(dash_t *d, double offset) {
  double o = fmod(offset, d->total);
  if (o < 0) o += d->total;
  d->idx = 0;
  for (unsigned i = 0; i < 2 * d->n && o > 0 && o >= d->v[d->idx]; i++) {
    o -= d->v[d->idx];
    d->idx = (d->idx + 1) % d->n;
  }
  d->rem = fmax(d->v[d->idx] - o, 0);
}

/* The segment walked through the pattern: the "on" parts go to the pen, each dash its
   own open subpath. */
static void dash_segment(ctx_t *c, dash_t *d, const seg_t *g) {
  double s = 0;
  while (!c->failed) {
    int on = d->idx % 2 == 0;
    if (d->rem > g->len - s) {
      if (on) piece(c, g, param(g, s), 1);
      d->rem -= g->len - s;
      return;
    }
    double e = s + d->rem;
    if (on) {
      piece(c, g, param(g, s), param(g, e));
      pen_end(c);
    }
    s = e;
    d->idx = (d->idx + 1) % d->n;
    d->rem = d->v[d->idx];
    if (d->idx % 2 == 0) {
      double x, y, dx, dy;
      if (++c->dashes > CT_MAX_ARTWORK_DASHES) {
        c->failed = 1;
        return;
      }
      at(g, param(g, s), &x, &y, &dx, &dy);
      pen_start(c, x, y, dx, dy, 1);
    }
  }
}

/* ---- subpaths ----------------------------------------------------------------- */

/* A subpath's segments in order, and with `close` the line back to its start last (unless
   it ends there). */
typedef struct {
  const unsigned char *ops;
  const double        *pts;
  size_t               nops, i, k;
  int                  close;
  double               x, y;
} walk_t;

static void walk_init(walk_t *w, const unsigned char *ops, size_t nops, const double *pts, int close) {
  w->ops = ops;
  w->pts = pts;
  w->nops = nops;
  w->close = close;
  w->i = 1;
  w->k = 2;
  w->x = pts[0];
  w->y = pts[1];
}

static int walk_next(walk_t *w, seg_t *g) {
  if (w->i > w->nops) return 0;
  size_t i = w->i++;
  g->p[0] = w->x;
  g->p[1] = w->y;
  if (i == w->nops || w->ops[i] == CT_ART_CLOSE) {
    w->i = w->nops + 1;
    if (!w->close || (w->x == w->pts[0] && w->y == w->pts[1])) return 0;
    g->cubic = 0;
    g->p[6] = w->pts[0];
    g->p[7] = w->pts[1];
  } else if ((g->cubic = w->ops[i] == CT_ART_CUBIC)) {
    memcpy(g->p + 2, w->pts + w->k, 6 * sizeof(double));
    w->k += 6;
  } else {
    g->p[6] = w->pts[w->k];
    g->p[7] = w->pts[w->k + 1];
    w->k += 2;
  }
  w->x = g->p[6];
  w->y = g->p[7];
  measure(g);
  return 1;
}

/* A closed subpath dashed from arc length `from` on (it is past the first dash), then that
   first dash drawn last: as browsers and cairo dash closed paths, the dash that ends at the
   start is joined to the one that begins there. */
static void dash_closed(ctx_t *c, dash_t *d, const unsigned char *ops, size_t nops, const double *pts,
                        double from) {
  walk_t w;
  seg_t g, h;
  double a = 0;
  walk_init(&w, ops, nops, pts, 1);
  d->idx = (d->idx + 1) % d->n;   /* the gap after the first dash */
  d->rem = d->v[d->idx];
  while (!c->failed && walk_next(&w, &g)) {
    if (a + g.len > from) {
      if (a < from) {
        split(&g, param(&g, from - a), 1, &h);
        dash_segment(c, d, &h);
      } else {
        dash_segment(c, d, &g);
      }
    }
    a += g.len;
  }
  if (c->failed) return;
  if (d->idx % 2) {   /* the pattern is off at the start: the first dash stands alone */
    if (++c->dashes > CT_MAX_ARTWORK_DASHES) { c->failed = 1; return; }
    pen_start(c, pts[0], pts[1], 1, 0, 1);
  }
  walk_init(&w, ops, nops, pts, 1);
  for (a = 0; !c->failed && a < from && walk_next(&w, &g); a += g.len)
    piece(c, &g, 0, a + g.len > from ? param(&g, from - a) : 1);
  pen_end(c);
}

/* ---- closed subpaths in pieces ------------------------------------------------ */

/* FreeType strokes a closed subpath as two borders, the inside one filled as a hole.  At a
   corner of two lines it meets their inside offsets where they cross, h tan(turn / 2)
   back along each (ft_stroker_inside: when both lines are that long and the turn is no
   U-turn).  When the two corners of a side turn the same way and their cuts overlap on it
   (a stroke wider than the shape), that border comes out turned inside out and still
   counts as a hole: a triangle stroked wider than its inner circle gets a hole that
   browsers and cairo do not draw.  Such subpaths are stroked in pieces instead. */
static double cut(const seg_t *a, const seg_t *b, double h) {
  if (a->cubic || b->cubic) return 0;   /* a curve's inside border goes by the corner */
  double ax = a->p[6] - a->p[0], ay = a->p[7] - a->p[1], bx = b->p[6] - b->p[0], by = b->p[7] - b->p[1];
  double turn = fabs(atan2(ax * by - ay * bx, ax * bx + ay * by));
  if (turn > 179.5 * M_PI / 180) return 0;
  double t = h * tan(turn / 2);
  return a->len >= t && b->len >= t ? t : 0;
}

static double cross_at(const seg_t *a, const seg_t *b) {   /* the turn's sign, a's end to b's start */
  double ax = a->p[6] - a->p[4], ay = a->p[7] - a->p[5], bx = b->p[2] - b->p[0], by = b->p[3] - b->p[1];
  if (!a->cubic || (ax == 0 && ay == 0)) { ax = a->p[6] - a->p[0]; ay = a->p[7] - a->p[1]; }
  if (!b->cubic || (bx == 0 && by == 0)) { bx = b->p[6] - b->p[0]; by = b->p[7] - b->p[1]; }
  return ax * by - ay * bx;
}

static int side_inverts(const seg_t *a, const seg_t *b, const seg_t *n, double h) {   /* side b */
  if (b->cubic || cross_at(a, b) * cross_at(b, n) <= 0) return 0;
  return cut(a, b, h) + cut(b, n, h) > b->len;
}

/* Whether a subpath of two segments or more is stroked in pieces: a side FreeType turns
   inside out (closed ones), or a line shorter than the stroke is wide (the strokes of the
   segments around it then reach past the outside border FreeType draws, which leaves
   notches: FreeType draws a stroke's two borders, cairo and browsers the union of each
   segment's stroke and each join). */
static int needs_pieces(const unsigned char *ops, size_t nops, const double *pts, int closed, double h) {
  walk_t w;
  seg_t g, first, second, a, b;
  size_t n = 0;
  int bad = 0;
  walk_init(&w, ops, nops, pts, closed);
  while (walk_next(&w, &g)) {
    if (!(g.len > 0)) continue;
    bad |= !g.cubic && g.len < 2 * h;
    if (n == 0) first = g;
    else if (n == 1) second = g;
    else if (closed) bad |= side_inverts(&a, &b, &g, h);
    a = b;
    b = g;
    n++;
  }
  if (n < 2 || (closed && n < 3)) return 0;
  return bad || (closed && (side_inverts(&a, &b, &first, h) || side_inverts(&b, &first, &second, h)));
}

/* The unit directions a segment leaves its start (s) and reaches its end (e) in. */
static void dirs(const seg_t *g, double *sx, double *sy, double *ex, double *ey) {
  *sx = g->p[2] - g->p[0];
  *sy = g->p[3] - g->p[1];
  *ex = g->p[6] - g->p[4];
  *ey = g->p[7] - g->p[5];
  if (!g->cubic || (*sx == 0 && *sy == 0)) { *sx = g->p[6] - g->p[0]; *sy = g->p[7] - g->p[1]; }
  if (!g->cubic || (*ex == 0 && *ey == 0)) { *ex = g->p[6] - g->p[0]; *ey = g->p[7] - g->p[1]; }
  double l = hypot(*sx, *sy), m = hypot(*ex, *ey);
  if (l > 0) { *sx /= l; *sy /= l; }
  if (m > 0) { *ex /= m; *ey /= m; }
}

/* A polygon of the points given (x y pairs) added to the dots. */
static void poly(ctx_t *c, size_t n, const double *xy) { ct_art_path_polygon(c->dots, xy, n); }

/* The corner at the end of a, where b begins, on its outer side as SVG joins it, added
   to the dots: a bevel's triangle, with a miter's tip (none past the limit) or a round
   join's sector; reaching a little way back along both segments, so that no seam shows
   between it and their strokes. */
static void wedge(ctx_t *c, const seg_t *a, const seg_t *b) {
  double h = c->s->width / 2, vx = a->p[6], vy = a->p[7], ax, ay, bx, by, x, y;
  dirs(a, &x, &y, &ax, &ay);
  dirs(b, &bx, &by, &x, &y);
  double cr = ax * by - ay * bx, dt = ax * bx + ay * by;
  if (fabs(cr) < 1e-9 && dt > 0) return;   /* straight on: no corner */
  double sg = cr > 0 ? -h : h;   /* the outer normals, h long (either side of a U-turn) */
  double n1x = -ay * sg, n1y = ax * sg, n2x = -by * sg, n2y = bx * sg;
  double e = fmin(fmin(a->len, b->len), h) / 4, f = 1 / (1 + dt);
  int miter = c->s->join == CT_ART_JOIN_MITER && dt > -1 && 1 / sqrt((1 + dt) / 2) <= c->s->miterlimit;
  double q[16] = { vx - e * ax, vy - e * ay, vx - e * ax + n1x, vy - e * ay + n1y, vx + n1x, vy + n1y,
                   vx + (n1x + n2x) * f, vy + (n1y + n2y) * f,   /* the miter's tip */
                   vx + n2x, vy + n2y, vx + e * bx + n2x, vy + e * by + n2y, vx + e * bx, vy + e * by, vx, vy };
  if (!miter) memmove(q + 6, q + 8, 8 * sizeof(double));
  poly(c, miter ? 8 : 7, q);
  if (c->s->join == CT_ART_JOIN_ROUND) {
    double a0 = atan2(n1y, n1x), sw = atan2(n1x * n2y - n1y * n2x, n1x * n2x + n1y * n2y);
    if (fabs(cr) < 1e-9) sw = -M_PI;   /* a U-turn: the half circle ahead, from n1 */
    ct_art_path_pie(c->dots, vx, vy, h, a0, sw);
  }
}

/* An open subpath's cap at (x, y), the path leaving it in the unit direction (tx, ty);
   reaching e back along the path. */
static void cap(ctx_t *c, double x, double y, double tx, double ty, double e) {
  double h = c->s->width / 2, nx = -ty * h, ny = tx * h, f = c->s->cap == CT_ART_CAP_SQUARE ? h : 0;
  double q[8] = { x - e * tx + nx, y - e * ty + ny, x + f * tx + nx, y + f * ty + ny,
                  x + f * tx - nx, y + f * ty - ny, x - e * tx - nx, y - e * ty - ny };
  if (c->s->cap == CT_ART_CAP_BUTT) return;
  poly(c, 4, q);
  if (c->s->cap == CT_ART_CAP_ROUND) ct_art_path_pie(c->dots, x, y, h, atan2(ny, nx), -M_PI);
}

/* The subpath as pieces that nonzero fills as their union, as cairo strokes: each
   segment alone with butt ends, each corner and cap a shape of its own. */
static void pieces(ctx_t *c, const unsigned char *ops, size_t nops, const double *pts, int closed) {
  walk_t w;
  seg_t g, first, prev;
  size_t n = 0;
  if (!c->butt) {
    if (FT_Stroker_New(c->lib, &c->butt)) { c->failed = 1; return; }
    FT_Stroker_Set(c->butt, c->radius, FT_STROKER_LINECAP_BUTT, c->join, c->limit);
  }
  c->pen = c->butt;
  walk_init(&w, ops, nops, pts, closed);
  while (!c->failed && walk_next(&w, &g)) {
    if (!(g.len > 0)) continue;
    pen_start(c, g.p[0], g.p[1], 1, 0, 1);
    piece(c, &g, 0, 1);
    pen_end(c);
    if (n++ == 0) first = g;
    else wedge(c, &prev, &g);
    prev = g;
  }
  c->pen = c->st;
  if (c->failed || n == 0) return;
  if (closed) {
    wedge(c, &prev, &first);
  } else {
    double sx, sy, ex, ey, x, y;
    dirs(&first, &sx, &sy, &x, &y);
    dirs(&prev, &x, &y, &ex, &ey);
    cap(c, first.p[0], first.p[1], -sx, -sy, fmin(first.len, c->s->width / 2) / 4);
    cap(c, prev.p[6], prev.p[7], ex, ey, fmin(prev.len, c->s->width / 2) / 4);
  }
  if (ct_art_path_failed(c->dots)) c->failed = 1;
}

/* One subpath (ops[0] its MOVE; `closed` if it ends with a CLOSE) stroked, dashed when d. */
static void subpath(ctx_t *c, const unsigned char *ops, size_t nops, const double *pts, int closed, dash_t *d) {
  walk_t w;
  seg_t g;
  int segs = 0;
  for (size_t i = 1; i < nops; i++) segs |= ops[i] == CT_ART_LINE || ops[i] == CT_ART_CUBIC;
  if (!segs && !closed) return;   /* a lone moveto draws nothing */
  if (!d && needs_pieces(ops, nops, pts, closed, c->s->width / 2)) {
    pieces(c, ops, nops, pts, closed);
    return;
  }
  if (!d) {   /* FreeType closes a closed one */
    pen_start(c, pts[0], pts[1], 1, 0, !closed);
    walk_init(&w, ops, nops, pts, 0);
    while (!c->failed && walk_next(&w, &g)) {
      if (g.cubic) pen_cubic(c, g.p + 2);
      else pen_line(c, g.p[6], g.p[7]);
    }
    pen_end(c);
    return;
  }
  dash_reset(d, c->s->dash_offset);
  if (closed && d->idx % 2 == 0 && d->rem > 0) {
    double total = 0;
    walk_init(&w, ops, nops, pts, 1);
    while (walk_next(&w, &g)) total += g.len;
    if (d->rem < total) {
      dash_closed(c, d, ops, nops, pts, d->rem);
      return;
    }
  }
  if (d->idx % 2 == 0) {
    if (++c->dashes > CT_MAX_ARTWORK_DASHES) { c->failed = 1; return; }
    double dx = 1, dy = 0;   /* the first segment's direction, for a square dot */
    if (nops > 1 && ops[1] != CT_ART_CLOSE) {
      dx = pts[ops[1] == CT_ART_CUBIC ? 6 : 2] - pts[0];
      dy = pts[ops[1] == CT_ART_CUBIC ? 7 : 3] - pts[1];
      if (ops[1] == CT_ART_CUBIC && (pts[2] != pts[0] || pts[3] != pts[1])) {
        dx = pts[2] - pts[0];
        dy = pts[3] - pts[1];
      }
    }
    pen_start(c, pts[0], pts[1], dx, dy, 1);
  }
  walk_init(&w, ops, nops, pts, closed);   /* a dashed close: the line back is dashed too */
  while (!c->failed && walk_next(&w, &g)) dash_segment(c, d, &g);
  if (d->idx % 2 == 0) pen_end(c);
}

/* The pattern as SVG reads it: odd counts repeated; a negative value, or none above
   zero, is a solid line (0 returned, nothing allocated). */
static int dash_init(dash_t *d, const ct_art_stroke_t *s, int *failed) {
  memset(d, 0, sizeof *d);
  if (!s->dashes || !s->ndashes) return 0;
  if (s->ndashes > CT_MAX_ARTWORK_DASHES) {
    *failed = 1;
    return 0;
  }
  for (unsigned i = 0; i < s->ndashes; i++) {
    if (!(s->dashes[i] >= 0) || !isfinite(s->dashes[i])) return 0;
    d->total += s->dashes[i];
  }
  if (!(d->total > 0) || !isfinite(d->total) || !isfinite(s->dash_offset)) return 0;
  d->n = s->ndashes % 2 ? 2 * s->ndashes : s->ndashes;
  d->v = malloc(d->n * sizeof(double));
  if (!d->v) {
    *failed = 1;
    return 0;
  }
  for (unsigned i = 0; i < d->n; i++) d->v[i] = s->dashes[i % s->ndashes];
  if (s->ndashes % 2) d->total *= 2;
  return 1;
}

/* ---- the outline -------------------------------------------------------------- */

static double contour_area(const FT_Outline *o, int a, int z) {
  double area = 0;
  for (int i = a; i <= z; i++) {
    const FT_Vector *p = &o->points[i], *q = &o->points[i == z ? a : i + 1];
    area += (double)p->x * (double)q->y - (double)q->x * (double)p->y;
  }
  return area;
}

/* The stroker's outline exported into out (arrays sized for `extra` more points and
   contours), its points mapped from stroker units to font units by m / k. */
static int export(ctx_t *c, const double m[6], FT_Outline *out, unsigned extra, unsigned extrac) {
  FT_UInt np = 0, nc = 0, bp = 0, bc = 0;
  if (FT_Stroker_GetCounts(c->st, &np, &nc) || (c->butt && FT_Stroker_GetCounts(c->butt, &bp, &bc))) return 0;
  np += bp;
  nc += bc;
  if (np + extra > SHRT_MAX || nc + extrac > SHRT_MAX) return 0;
  out->points = malloc((np + extra + 1) * sizeof(FT_Vector));
  out->tags = malloc(np + extra + 1);
  out->contours = malloc((nc + extrac + 1) * sizeof(short));
  if (!out->points || !out->tags || !out->contours) return 0;
  out->n_points = 0;
  out->n_contours = 0;
  FT_Stroker_Export(c->st, out);
  if (c->butt) FT_Stroker_Export(c->butt, out);   /* appended */
  for (int i = 0; i < out->n_points; i++) {
    double x = (double)out->points[i].x / (64 * c->k), y = (double)out->points[i].y / (64 * c->k);
    double fx = m[0] * x + m[2] * y + m[4], fy = m[1] * x + m[3] * y + m[5];
    if (!(fabs(fx) <= CT_MAX_ARTWORK_COORD && fabs(fy) <= CT_MAX_ARTWORK_COORD)) return 0;
    out->points[i].x = lround(fx * 64);
    out->points[i].y = lround(fy * 64);
  }
  return 1;
}

/* The dots' fill appended to out, each contour turned the way the stroker's are, so
   that nonzero fills their union. */
static void add_dots(FT_Outline *out, const FT_Outline *d) {
  double sign = 0;
  for (int c = 0, a = 0; c < out->n_contours; a = out->contours[c++] + 1) sign += contour_area(out, a, out->contours[c]);
  for (int c = 0, a = 0; c < d->n_contours; a = d->contours[c++] + 1) {
    int base = out->n_points, n = d->contours[c] - a + 1;
    memcpy(out->points + base, d->points + a, (size_t)n * sizeof(FT_Vector));
    memcpy(out->tags + base, d->tags + a, (size_t)n);
    out->n_points = (short)(base + n);
    out->contours[out->n_contours++] = (short)(base + n - 1);
    double area = contour_area(out, base, base + n - 1);
    if (sign == 0) sign = area;
    if ((area > 0) != (sign > 0)) ct_art_contour_reverse(out, base, base + n - 1);
  }
}

int ct_art_stroke_outline(const ct_art_path_t *p, const double m[6], const ct_art_stroke_t *s,
                          FT_Library *lib, FT_Outline *out, int *failed) {
  static const double identity[6] = { 1, 0, 0, 1, 0, 0 };
  ctx_t c;
  dash_t d;
  FT_Outline dots = { 0, 0, NULL, NULL, NULL, 0 };
  int ok = 0, dashed = 0;
  memset(out, 0, sizeof *out);
  memset(&c, 0, sizeof c);
  if (!m) m = identity;
  c.s = s;
  c.k = sqrt(fabs(m[0] * m[3] - m[1] * m[2]));
  if (!(s->width > 0) || !isfinite(s->width) || !(c.k > 0) || !isfinite(c.k) || ct_art_path_is_empty(p))
    return 0;
  /* a stroke has more points than its path: one over FT_Outline's counts cannot fit */
  if (p->failed || p->npts > SHRT_MAX || s->width * c.k > 16 * CT_MAX_ARTWORK_COORD) goto fail;
  dashed = dash_init(&d, s, &c.failed);
  if (c.failed) goto fail;
  if (!*lib && FT_Init_FreeType(lib)) goto fail;
  c.dots = ct_art_path_new();
  if (!c.dots || FT_Stroker_New(*lib, &c.st)) goto fail;
  c.lib = *lib;
  c.pen = c.st;
  c.radius = lround(s->width * c.k * 32);
  c.join = s->join == CT_ART_JOIN_ROUND ? FT_STROKER_LINEJOIN_ROUND
           : s->join == CT_ART_JOIN_BEVEL ? FT_STROKER_LINEJOIN_BEVEL : FT_STROKER_LINEJOIN_MITER_FIXED;
  c.limit = lround(fmin(fmax(s->miterlimit, 1), 1e4) * 65536);
  FT_Stroker_Set(c.st, c.radius,
                 s->cap == CT_ART_CAP_ROUND ? FT_STROKER_LINECAP_ROUND
                 : s->cap == CT_ART_CAP_SQUARE ? FT_STROKER_LINECAP_SQUARE : FT_STROKER_LINECAP_BUTT,
                 c.join, c.limit);
  for (size_t i = 0, k = 0; i < p->nops && !c.failed;) {
    size_t j = i + 1, kk = k + 1;   /* the subpath is ops [i, j), its points from k */
    for (; j < p->nops && p->ops[j] != CT_ART_MOVE; j++) {
      if (p->ops[j] == CT_ART_CUBIC) kk += 3;
      else if (p->ops[j] == CT_ART_LINE) kk++;
    }
    subpath(&c, p->ops + i, j - i, p->pts + 2 * k, p->ops[j - 1] == CT_ART_CLOSE, dashed ? &d : NULL);
    i = j;
    k = kk;
  }
  if (c.failed) goto fail;
  if (!ct_art_path_is_empty(c.dots) && !ct_art_fill_outline(c.dots, m, 0, &dots, &c.failed) && c.failed) goto fail;
  if (!export(&c, m, out, (unsigned)dots.n_points, (unsigned)dots.n_contours)) goto fail;
  add_dots(out, &dots);
  out->flags = FT_OUTLINE_NONE;
  ok = out->n_contours > 0;
  if (!ok) ct_art_outline_free(out);
  goto done;
fail:
  ct_art_outline_free(out);
  *failed = 1;
done:
  ct_art_outline_free(&dots);
  if (c.st) FT_Stroker_Done(c.st);
  if (c.butt) FT_Stroker_Done(c.butt);
  ct_art_path_free(c.dots);
  ct_art_path_free(c.square);
  if (dashed) free(d.v);
  return ok;
}
