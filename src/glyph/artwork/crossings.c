/*
** crossings.c: how often the segments of a path cross one another.  That is the cost of
** the tessellator cairo runs for a path's extents (librsvg asks for them for every path
** it draws): a Bentley–Ottmann sweep, whose work grows with the crossings, up to the
** square of the path's length (10,000 random lines, some 12 million crossings, took 39 s
** where 50,000 points of a map's coastline take milliseconds).  The SVG sanitizer
** (glyph/svg/svg-sanitize.c) weighs every path with it.
**
** Curves count as their chords.  A path of few segment pairs is counted exactly; a longer
** one from a fixed pseudo-random sample of CROSSING_TESTS pairs a segment, so the work is
** linear in the path and the estimate the same on every run.
*/
#include <stdint.h>
#include <stdlib.h>

#include "artwork-private.h"

#define CROSSING_TESTS 64   /* pair tests a segment, at most */

typedef struct { double x0, y0, x1, y1; } chord_t;

/* The path's segments as chords, each subpath closed as a fill closes it.  Returns the
   count, or (size_t)-1 when out of memory. */
static size_t chords_of(const ct_art_path_t *p, chord_t **out) {
  size_t i, k = 0, n = 0, cap = p->nops + 1;
  double cx = 0, cy = 0, sx = 0, sy = 0;
  chord_t *c = malloc(cap * sizeof *c);
  if (!c) return (size_t)-1;
  for (i = 0; i < p->nops; i++) {
    const double *q = p->pts + 2 * k;
    double x = cx, y = cy;
    switch (p->ops[i]) {
    case CT_ART_MOVE:
      if (cx != sx || cy != sy) c[n++] = (chord_t){ cx, cy, sx, sy };
      cx = sx = q[0];
      cy = sy = q[1];
      k++;
      continue;
    case CT_ART_LINE: x = q[0]; y = q[1]; k++; break;
    case CT_ART_CUBIC: x = q[4]; y = q[5]; k += 3; break;
    default: x = sx; y = sy; break;   /* CLOSE */
    }
    if (x != cx || y != cy) c[n++] = (chord_t){ cx, cy, x, y };
    cx = x;
    cy = y;
  }
  if (cx != sx || cy != sy) c[n++] = (chord_t){ cx, cy, sx, sy };
  *out = c;
  return n;
}

static double orient(double ax, double ay, double bx, double by, double cx, double cy) {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

static double lo(double a, double b) { return a < b ? a : b; }
static double hi(double a, double b) { return a > b ? a : b; }

/* 1 when a and b cross at a point inside both (segments that meet at an end, touch or
   overlap along a line are not crossings: the sweep meets no new event there). */
static int cross(const chord_t *a, const chord_t *b) {
  double d1, d2, d3, d4;
  if (hi(a->x0, a->x1) < lo(b->x0, b->x1) || hi(b->x0, b->x1) < lo(a->x0, a->x1) ||
      hi(a->y0, a->y1) < lo(b->y0, b->y1) || hi(b->y0, b->y1) < lo(a->y0, a->y1))
    return 0;
  d1 = orient(a->x0, a->y0, a->x1, a->y1, b->x0, b->y0);
  d2 = orient(a->x0, a->y0, a->x1, a->y1, b->x1, b->y1);
  if (!(d1 < 0 && d2 > 0) && !(d1 > 0 && d2 < 0)) return 0;
  d3 = orient(b->x0, b->y0, b->x1, b->y1, a->x0, a->y0);
  d4 = orient(b->x0, b->y0, b->x1, b->y1, a->x1, a->y1);
  return (d3 < 0 && d4 > 0) || (d3 > 0 && d4 < 0);
}

static uint64_t next(uint64_t *s) {   /* xorshift64* */
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

static double count(const chord_t *c, size_t n) {
  double pairs = (double)n * (double)(n - 1) / 2, hits = 0, tests;
  uint64_t seed = 0x9E3779B97F4A7C15ull ^ n;
  size_t i, j;
  if (n < 2) return 0;
  if (pairs <= (double)CROSSING_TESTS * (double)n) {
    for (i = 0; i < n; i++)
      for (j = i + 1; j < n; j++) hits += cross(&c[i], &c[j]);
    return hits;
  }
  tests = (double)CROSSING_TESTS * (double)n;
  for (i = 0; i < (size_t)tests; i++) {
    size_t a = (size_t)(next(&seed) % n), b = (size_t)(next(&seed) % (n - 1));
    if (b >= a) b++;   /* a pair of two different segments, every pair alike likely */
    hits += cross(&c[a], &c[b]);
  }
  return hits * pairs / tests;
}

double ct_artwork_crossings(const char *data, int kind) {
  ct_art_path_t *p = ct_art_path_new();
  chord_t *c = NULL;
  char why[120];
  size_t n;
  double k;
  if (!p) return -1;
  if (kind == 'd') (void)ct_art_path_data(p, data, why, sizeof why);   /* drawn up to an error */
  else (void)ct_art_path_points(p, data, kind == 'P', why, sizeof why);
  n = ct_art_path_failed(p) ? (size_t)-1 : chords_of(p, &c);
  ct_art_path_free(p);
  if (n == (size_t)-1) return -1;
  k = count(c, n);
  free(c);
  return k;
}
