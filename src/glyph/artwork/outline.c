/*
** outline.c: a path's fill as a FreeType outline in 26.6 font units, cubics kept; the
** even-odd rule turned into nonzero by reorienting contours by how deeply they nest.
** Glyph stage (artwork reader).
*/
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "artwork-private.h"

/* Flattening tolerance for the nesting tests, in 26.6 units (about 1/20 of a unit), and
   the most pieces one cubic is cut into for them. */
#define FLAT_TOL    3.0
#define FLAT_MAX    16
/* Point-in-contour work allowed for the even-odd nesting (edges visited), so that a
   hostile drawing of a hundred thousand overlapping contours fails instead of hanging. */
#define NEST_BUDGET 200000000.0

void ct_art_outline_free(FT_Outline *o) {
  if (!o) return;
  free(o->points);
  free(o->tags);
  free(o->contours);
  memset(o, 0, sizeof *o);
}

/* ---- building the outline ----------------------------------------------------- */

typedef struct {
  FT_Vector *pts;
  char      *tags;
  short     *cont;
  size_t     n, nc, cap;
  int        bad;    /* a coordinate over the limit or not finite */
} build_t;

static void add_point(build_t *b, const double m[6], double x, double y, char tag) {
  double fx = m[0] * x + m[2] * y + m[4], fy = m[1] * x + m[3] * y + m[5];
  if (!(fabs(fx) <= CT_MAX_ARTWORK_COORD && fabs(fy) <= CT_MAX_ARTWORK_COORD)) {
    b->bad = 1;
    return;
  }
  b->pts[b->n].x = lround(fx * 64);
  b->pts[b->n].y = lround(fy * 64);
  b->tags[b->n] = tag;
  b->n++;
}

/* 1 when every point of pts[a..z) lies on one line (the contour has no area). */
static int collinear(const FT_Vector *pts, size_t a, size_t z) {
  size_t j = a + 1;
  while (j < z && pts[j].x == pts[a].x && pts[j].y == pts[a].y) j++;
  if (j >= z) return 1;
  double dx = (double)(pts[j].x - pts[a].x), dy = (double)(pts[j].y - pts[a].y);
  for (size_t k = j + 1; k < z; k++)
    if (dx * (double)(pts[k].y - pts[a].y) - dy * (double)(pts[k].x - pts[a].x) != 0) return 0;
  return 1;
}

/* The contour begun at `start` ended: its duplicate closing point dropped, kept if it has
   3 points and some area, else forgotten. */
static void end_contour(build_t *b, size_t start) {
  if (b->n - start > 1 && b->tags[b->n - 1] == FT_CURVE_TAG_ON &&
      b->pts[b->n - 1].x == b->pts[start].x && b->pts[b->n - 1].y == b->pts[start].y)
    b->n--;
  if (b->n - start < 3 || collinear(b->pts, start, b->n)) {
    b->n = start;
    return;
  }
  b->cont[b->nc++] = (short)(b->n - 1);
}

/* The path's subpaths as contours (open ones closed, as a fill closes them). */
static void build(build_t *b, const ct_art_path_t *p, const double m[6]) {
  size_t k = 0, start = 0;
  int in = 0;
  for (size_t i = 0; i < p->nops && !b->bad; i++) {
    const double *q = p->pts + 2 * k;
    switch (p->ops[i]) {
    case CT_ART_MOVE:
      if (in) end_contour(b, start);
      start = b->n;
      in = 1;
      add_point(b, m, q[0], q[1], FT_CURVE_TAG_ON);
      k++;
      break;
    case CT_ART_LINE:
      add_point(b, m, q[0], q[1], FT_CURVE_TAG_ON);
      k++;
      break;
    case CT_ART_CUBIC:
      add_point(b, m, q[0], q[1], FT_CURVE_TAG_CUBIC);
      add_point(b, m, q[2], q[3], FT_CURVE_TAG_CUBIC);
      add_point(b, m, q[4], q[5], FT_CURVE_TAG_ON);
      k += 3;
      break;
    default:   /* CLOSE: the contour ends; a segment after it begins with a MOVE */
      if (in) end_contour(b, start);
      in = 0;
      break;
    }
  }
  if (in && !b->bad) end_contour(b, start);
}

/* ---- even-odd by nesting ------------------------------------------------------ */

typedef struct {
  size_t first, count;         /* its polygon in the flattened array */
  double x0, y0, x1, y1;       /* box */
  double area;                 /* signed, > 0 counter-clockwise (y up) */
  double sx, sy;               /* a point just inside it */
} poly_t;

/* The contour [a, z] of o flattened into v (x, y pairs), appended at *nv. */
static void flatten(const FT_Outline *o, size_t a, size_t z, double *v, size_t *nv) {
  for (size_t j = a; j <= z; j++) {
    if (o->tags[j] != FT_CURVE_TAG_CUBIC) {
      v[2 * *nv] = (double)o->points[j].x;
      v[2 * *nv + 1] = (double)o->points[j].y;
      (*nv)++;
      continue;
    }
    /* a cubic: j, j+1 controls, then the end (the contour's first point when it wraps) */
    const FT_Vector *p0 = &o->points[j - 1], *c1 = &o->points[j], *c2 = &o->points[j + 1];
    const FT_Vector *p3 = j + 2 <= z ? &o->points[j + 2] : &o->points[a];
    double ddx = fmax(fabs((double)(p0->x - 2 * c1->x + c2->x)), fabs((double)(c1->x - 2 * c2->x + p3->x)));
    double ddy = fmax(fabs((double)(p0->y - 2 * c1->y + c2->y)), fabs((double)(c1->y - 2 * c2->y + p3->y)));
    int n = (int)ceil(sqrt(0.75 * hypot(ddx, ddy) / FLAT_TOL));
    if (n < 1) n = 1;
    if (n > FLAT_MAX) n = FLAT_MAX;
    for (int s = 1; s <= n; s++) {
      double t = (double)s / n, u = 1 - t;
      double w0 = u * u * u, w1 = 3 * u * u * t, w2 = 3 * u * t * t, w3 = t * t * t;
      v[2 * *nv] = w0 * (double)p0->x + w1 * (double)c1->x + w2 * (double)c2->x + w3 * (double)p3->x;
      v[2 * *nv + 1] = w0 * (double)p0->y + w1 * (double)c1->y + w2 * (double)c2->y + w3 * (double)p3->y;
      (*nv)++;
    }
    j += 2;   /* the end point, when inside the contour, was just written */
  }
}

/* Box, signed area and a point just inside the polygon (off the middle of its longest
   edge, on the side its orientation says is inside). */
static void describe(poly_t *g, const double *v) {
  double best = -1, area = 0;
  size_t n = g->count, e = 0;
  g->x0 = g->x1 = v[0];
  g->y0 = g->y1 = v[1];
  for (size_t i = 0; i < n; i++) {
    const double *a = v + 2 * i, *b = v + 2 * ((i + 1) % n);
    area += a[0] * b[1] - b[0] * a[1];
    g->x0 = fmin(g->x0, a[0]); g->x1 = fmax(g->x1, a[0]);
    g->y0 = fmin(g->y0, a[1]); g->y1 = fmax(g->y1, a[1]);
    double l = hypot(b[0] - a[0], b[1] - a[1]);
    if (l > best) { best = l; e = i; }
  }
  g->area = area / 2;
  const double *a = v + 2 * e, *b = v + 2 * ((e + 1) % n);
  double len = best > 0 ? best : 1, eps = fmin(len * 1e-3, 0.5), side = g->area >= 0 ? 1 : -1;
  g->sx = (a[0] + b[0]) / 2 - side * eps * (b[1] - a[1]) / len;
  g->sy = (a[1] + b[1]) / 2 + side * eps * (b[0] - a[0]) / len;
}

/* The winding number of polygon g around (x, y). */
static int winding(const poly_t *g, const double *v, double x, double y) {
  int w = 0;
  for (size_t i = 0; i < g->count; i++) {
    const double *a = v + 2 * i, *b = v + 2 * ((i + 1) % g->count);
    if (a[1] <= y) {
      if (b[1] > y && (b[0] - a[0]) * (y - a[1]) - (x - a[0]) * (b[1] - a[1]) > 0) w++;
    } else if (b[1] <= y && (b[0] - a[0]) * (y - a[1]) - (x - a[0]) * (b[1] - a[1]) < 0) {
      w--;
    }
  }
  return w;
}

static int by_x0(const void *a, const void *b) {
  const poly_t *const *p = a, *const *q = b;
  return (*p)->x0 < (*q)->x0 ? -1 : (*p)->x0 > (*q)->x0;
}

static void reverse(FT_Outline *o, size_t a, size_t z) {
  for (size_t i = a + 1, j = z; i < j; i++, j--) {
    FT_Vector t = o->points[i];
    o->points[i] = o->points[j];
    o->points[j] = t;
    char c = o->tags[i];
    o->tags[i] = o->tags[j];
    o->tags[j] = c;
  }
}

/* Contours reoriented: those inside an even number of others clockwise (y up, as
   TrueType's outer contours), the others counter-clockwise, so that nonzero fills what
   even-odd would.  0 when memory or the work budget ran out. */
static int evenodd(FT_Outline *o) {
  size_t nc = (size_t)o->n_contours, nv = 0, maxv = 0;
  for (size_t c = 0, a = 0; c < nc; a = (size_t)o->contours[c++] + 1)
    maxv += ((size_t)o->contours[c] + 1 - a) * FLAT_MAX;
  double *v = malloc(maxv * 2 * sizeof(double));
  poly_t *g = malloc(nc * sizeof *g);
  poly_t **order = malloc(nc * sizeof *order);
  int ok = v && g && order;
  double work = 0;
  for (size_t c = 0, a = 0; ok && c < nc; a = (size_t)o->contours[c++] + 1) {
    g[c].first = nv;
    flatten(o, a, (size_t)o->contours[c], v, &nv);
    g[c].count = nv - g[c].first;
    describe(&g[c], v + 2 * g[c].first);
    order[c] = &g[c];
  }
  if (ok) qsort(order, nc, sizeof *order, by_x0);
  for (size_t c = 0, a = 0; ok && c < nc; a = (size_t)o->contours[c++] + 1) {
    int depth = 0;
    for (size_t k = 0; k < nc && order[k]->x0 <= g[c].sx; k++) {
      const poly_t *h = order[k];
      work += 1;
      if (h == &g[c] || g[c].sx > h->x1 || g[c].sy < h->y0 || g[c].sy > h->y1) continue;
      work += (double)h->count;
      if (winding(h, v + 2 * h->first, g[c].sx, g[c].sy) != 0) depth++;
    }
    if (work > NEST_BUDGET) ok = 0;
    else if ((depth % 2 == 0 && g[c].area > 0) || (depth % 2 == 1 && g[c].area < 0))
      reverse(o, a, (size_t)o->contours[c]);
  }
  free(v);
  free(g);
  free(order);
  return ok;
}

/* ---- the fill ----------------------------------------------------------------- */

int ct_art_fill_outline(const ct_art_path_t *p, const double m[6], int eo, FT_Outline *out, int *failed) {
  static const double identity[6] = { 1, 0, 0, 1, 0, 0 };
  build_t b = { NULL, NULL, NULL, 0, 0, 0, 0 };
  memset(out, 0, sizeof *out);
  if (!m) m = identity;
  if (p->failed) goto fail;
  if (!p->npts) return 0;
  b.cap = p->npts;
  b.pts = malloc(b.cap * sizeof *b.pts);
  b.tags = malloc(b.cap);
  b.cont = malloc(b.cap * sizeof *b.cont);
  if (!b.pts || !b.tags || !b.cont) goto fail;
  /* FT_Outline counts points and contours in shorts: a fill over that is over a limit */
  build(&b, p, m);
  if (b.bad || b.n > SHRT_MAX || b.nc > SHRT_MAX) goto fail;
  if (!b.nc) {
    free(b.pts);
    free(b.tags);
    free(b.cont);
    return 0;
  }
  out->points = b.pts;
  out->tags = b.tags;
  out->contours = b.cont;
  out->n_points = (short)b.n;
  out->n_contours = (short)b.nc;
  out->flags = FT_OUTLINE_NONE;
  if (eo && !evenodd(out)) {
    ct_art_outline_free(out);
    *failed = 1;
    return 0;
  }
  return 1;
fail:
  free(b.pts);
  free(b.tags);
  free(b.cont);
  *failed = 1;
  return 0;
}
