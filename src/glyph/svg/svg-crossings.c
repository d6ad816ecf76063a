/*
** svg-crossings.c: how often the segments of a path cross one another.  That is the cost
** of the tessellator cairo runs for a path's extents (librsvg asks for them for every path
** it draws): a Bentley–Ottmann sweep, whose work grows with the crossings, up to the square
** of the path's length (10,000 random lines, some 11 million crossings, took 39 s where
** 50,000 points of a coastline take milliseconds).  The sanitizer (svg-sanitize.c) weighs
** every path with it.
**
** Path data and point lists are read for their end points only: each segment counts as
** its chord (curves and arcs included), each subpath closed as a fill closes it.  A path
** of few segment pairs is counted exactly; a longer one from a fixed pseudo-random sample
** of CROSSING_TESTS pairs a segment, so the work is linear in the path and the estimate
** the same on every run.
*/
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "svg-internal.h"

#define CROSSING_TESTS 64   /* pair tests a segment, at most */

typedef struct { double x0, y0, x1, y1; } chord_t;

/* ---- chords ------------------------------------------------------------------------ */

typedef struct {
  chord_t *c;
  size_t   n, cap;
  double   cx, cy, sx, sy;   /* the current point, the subpath's start */
  int      failed;
} chords_t;

static void chord(chords_t *k, double x, double y) {
  if (k->failed || (x == k->cx && y == k->cy)) goto move;
  if (k->n == k->cap) {
    size_t cap = k->cap ? k->cap * 2 : 64;
    chord_t *c = realloc(k->c, cap * sizeof *c);
    if (!c) { k->failed = 1; return; }
    k->c = c;
    k->cap = cap;
  }
  k->c[k->n++] = (chord_t){ k->cx, k->cy, x, y };
move:
  k->cx = x;
  k->cy = y;
}

static void move(chords_t *k, double x, double y) {   /* a fill closes the subpath left */
  chord(k, k->sx, k->sy);
  k->cx = k->sx = x;
  k->cy = k->sy = y;
}

static const char *skip(const char *s) {   /* white space and at most one comma */
  while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f') s++;
  if (*s == ',') s++;
  while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f') s++;
  return s;
}

/* An SVG number ("-1.5e3", ".5" of "1.5.5"); 0 if none at *s or it is not finite. */
static int number(const char **s, double *v) {
  const char *p = *s;
  int digits = 0;
  if (*p == '+' || *p == '-') p++;
  while (*p >= '0' && *p <= '9') p++, digits++;
  if (*p == '.') for (p++; *p >= '0' && *p <= '9'; p++) digits++;
  if (!digits) return 0;
  if ((*p == 'e' || *p == 'E') && (p[1] == '-' || p[1] == '+' || (p[1] >= '0' && p[1] <= '9'))) {
    const char *e = p + 1 + (p[1] == '-' || p[1] == '+');
    if (*e >= '0' && *e <= '9') for (p = e; *p >= '0' && *p <= '9'; p++) {}
  }
  *v = strtod(*s, NULL);
  *s = skip(p);
  return isfinite(*v);   /* 1e999: the data stops there, as a parse error */
}

/* Path data, up to its first error (as SVG draws it): the end point of every command. */
static void path_chords(chords_t *k, const char *d) {
  static const char cmds[] = "MmLlHhVvCcSsQqTtAaZz";
  static const unsigned char args[] = { 2, 2, 2, 2, 1, 1, 1, 1, 6, 6, 4, 4, 4, 4, 2, 2, 7, 7, 0, 0 };
  const char *s = skip(d);
  char cmd = 0;
  while (*s && !k->failed) {
    const char *at = *s ? strchr(cmds, *s) : NULL;
    double a[7];
    unsigned i, n;
    int rel;
    if (at) {
      if (!cmd && (*s | 0x20) != 'm') return;   /* path data begins with a moveto */
      cmd = *s;
      s = skip(s + 1);
    }
    if (!cmd) return;
    n = args[strchr(cmds, cmd) - cmds];
    rel = cmd >= 'a';
    if (n == 0) {   /* closepath */
      chord(k, k->sx, k->sy);
      if (!at) return;
      continue;
    }
    for (i = 0; i < n; i++) {
      if ((cmd | 0x20) == 'a' && (i == 3 || i == 4)) {   /* a flag: one digit */
        if (*s != '0' && *s != '1') return;
        a[i] = *s++ - '0';
        s = skip(s);
      } else if (!number(&s, &a[i])) {
        return;
      }
    }
    switch (cmd | 0x20) {
    case 'm':
      move(k, a[0] + (rel ? k->cx : 0), a[1] + (rel ? k->cy : 0));
      cmd = rel ? 'l' : 'L';   /* pairs after a moveto are linetos */
      break;
    case 'h': chord(k, a[0] + (rel ? k->cx : 0), k->cy); break;
    case 'v': chord(k, k->cx, a[0] + (rel ? k->cy : 0)); break;
    default: chord(k, a[n - 2] + (rel ? k->cx : 0), a[n - 1] + (rel ? k->cy : 0)); break;
    }
  }
}

/* A point list: polyline or polygon alike (a fill closes both). */
static void point_chords(chords_t *k, const char *p) {
  const char *s = skip(p);
  double x, y;
  int first = 1;
  while (number(&s, &x) && number(&s, &y) && !k->failed) {
    if (first) move(k, x, y);
    else chord(k, x, y);
    first = 0;
  }
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

double ct_svg_crossings(const char *data, int points) {
  chords_t k;
  double n;
  memset(&k, 0, sizeof k);
  if (points) point_chords(&k, data);
  else path_chords(&k, data);
  chord(&k, k.sx, k.sy);
  n = k.failed ? -1 : count(k.c, k.n);
  free(k.c);
  return n;
}
