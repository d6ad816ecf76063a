/*
** colrvar.c: what a variable COLR table needs beside its paints: the regions of the design
** space where masters sit, the rows of deltas the variable paints point at (each set of
** rows stored once), the ItemVariationStore they become, and the check that a master's
** paint tree has the default's shape (only its numbers may differ).  Fontmake stage;
** colrwrite.c writes the PaintVar* records.
**
** Masters are points of the design space; master r's region is a tent on the axes where it
** is off the default, peaking at it and falling to zero at the next masters on either side
** of it (the default, or the axis's end), so that between masters the values are linear
** and at each master the font draws exactly that master's tree.  Deltas are master minus
** default, in the units of the field (font units, F2DOT14 or 16.16 steps).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fontmake.h"

struct ct_colr_var {
  unsigned  axes, regions;
  double   *tents;      /* regions x axes x (start, peak, end), normalized */
  int32_t  *rows;       /* nrows x regions */
  unsigned  nrows, cap;
  unsigned *hash;       /* sets of rows by hash: 1 + their first row, open addressing */
  unsigned *hlen;       /* per hash slot: the set's length */
  unsigned  hcap, nsets;   /* slots, sets in them */
  int       failed;
};

/* The tent of master r on axis a, from the masters' normalized locations (m: n x axes). */
static void tent(const double *m, unsigned n, unsigned axes, unsigned r, unsigned a, double t[3]) {
  double c = m[r * axes + a], lo = 0, hi = c;   /* no master beyond: the tent ends at its peak */
  unsigned i;
  t[0] = t[1] = t[2] = 0;
  if (c == 0) return;
  for (i = 0; i < n; i++) {   /* the nearest masters on this axis toward 0 and away from it */
    double d = m[i * axes + a];
    unsigned j, alone = 1;
    for (j = 0; j < axes; j++)
      if (j != a && m[i * axes + j] != 0) alone = 0;
    if (!alone || i == r) continue;
    if (c > 0 && d > lo && d < c) lo = d;
    if (c < 0 && d < lo && d > c) lo = d;
    if (c > 0 && d > c && (hi == c || d < hi)) hi = d;
    if (c < 0 && d < c && (hi == c || d > hi)) hi = d;
  }
  if (c > 0) { t[0] = lo; t[1] = c; t[2] = hi; }
  else { t[0] = hi; t[1] = c; t[2] = lo; }
}

ct_colr_var_t *ct_colr_var_create(unsigned axes, unsigned n, const double *locations) {
  ct_colr_var_t *v;
  unsigned r, a;
  if (axes == 0 || axes > 64 || n == 0 || n > 256) return NULL;
  if (!(v = calloc(1, sizeof *v)) || !(v->tents = calloc((size_t)n * axes * 3, sizeof *v->tents))) {
    free(v);
    return NULL;
  }
  v->axes = axes;
  v->regions = n;
  for (r = 0; r < n; r++)
    for (a = 0; a < axes; a++) tent(locations, n, axes, r, a, v->tents + ((size_t)r * axes + a) * 3);
  return v;
}

void ct_colr_var_destroy(ct_colr_var_t *v) {
  if (!v) return;
  free(v->tents);
  free(v->rows);
  free(v->hash);
  free(v->hlen);
  free(v);
}

unsigned ct_colr_var_regions(const ct_colr_var_t *v) { return v->regions; }
unsigned ct_colr_var_rows_used(const ct_colr_var_t *v) { return v->nrows; }

static uint64_t rows_hash(const int32_t *d, size_t n) {
  uint64_t h = 0xCBF29CE484222325ull;
  size_t i;
  for (i = 0; i < n; i++) h = (h ^ (uint32_t)d[i]) * 0x100000001B3ull;
  return h ^ (h >> 29);
}

static int rehash(ct_colr_var_t *v, unsigned cap);

static void hash_put(ct_colr_var_t *v, unsigned first, unsigned n) {
  size_t w = v->regions;
  unsigned j = (unsigned)rows_hash(v->rows + (size_t)first * w, (size_t)n * w) & (v->hcap - 1);
  while (v->hash[j]) j = (j + 1) & (v->hcap - 1);
  v->hash[j] = first + 1;
  v->hlen[j] = n;
  v->nsets++;
}

static int rehash(ct_colr_var_t *v, unsigned cap) {
  unsigned *h = calloc(cap, sizeof *h), *l = calloc(cap, sizeof *l), old = v->hcap, *oh = v->hash, *ol = v->hlen, i;
  if (!h || !l) {
    free(h);
    free(l);
    return 0;
  }
  v->hash = h;
  v->hlen = l;
  v->hcap = cap;
  v->nsets = 0;
  for (i = 0; i < old; i++)
    if (oh[i]) hash_put(v, oh[i] - 1, ol[i]);
  free(oh);
  free(ol);
  return 1;
}

long ct_colr_var_rows(ct_colr_var_t *v, const int32_t *deltas, unsigned n) {
  size_t w = v->regions, len = (size_t)n * w;
  unsigned j, first;
  if (n == 0) return -1;
  if ((v->nsets + 1) * 2 > v->hcap && !rehash(v, v->hcap ? v->hcap * 2 : 256)) return -1;
  for (j = (unsigned)rows_hash(deltas, len) & (v->hcap - 1); v->hash[j]; j = (j + 1) & (v->hcap - 1))
    if (v->hlen[j] == n && !memcmp(v->rows + (size_t)(v->hash[j] - 1) * w, deltas, len * sizeof *deltas))
      return v->hash[j] - 1;
  if (v->nrows + n > 0xFFFF) return -1;   /* one ItemVariationData of 16-bit row indices */
  if (v->nrows + n > v->cap) {
    unsigned cap = v->cap ? v->cap * 2 : 256;
    int32_t *r;
    while (cap < v->nrows + n) cap *= 2;
    if (!(r = realloc(v->rows, (size_t)cap * w * sizeof *r))) return -1;
    v->rows = r;
    v->cap = cap;
  }
  first = v->nrows;
  memcpy(v->rows + (size_t)first * w, deltas, len * sizeof *deltas);
  v->nrows += n;
  hash_put(v, first, n);
  return first;
}

void ct_colr_var_truncate(ct_colr_var_t *v, unsigned nrows) {
  unsigned j;
  if (nrows >= v->nrows) return;
  v->nrows = nrows;
  for (j = 0; j < v->hcap; j++)
    if (v->hash[j] && v->hash[j] - 1 + v->hlen[j] > nrows) v->hash[j] = 0;
  rehash(v, v->hcap);   /* the chains closed up again; on failure the old table stays */
}

int ct_colr_table_varies(const unsigned char *colr, size_t len) {
  return colr && len >= 34 && ct_rd16(colr) == 1 && ct_rd32(colr + 30) != 0;   /* itemVariationStoreOffset */
}

static unsigned f2dot14_bits(double x) {
  return (unsigned)(lround(fmin(1.0, fmax(-1.0, x)) * 16384.0) & 0xFFFF);
}

int ct_colr_var_encode(const ct_colr_var_t *v, ct_buf_t *out) {
  size_t base = out->len, regions_at, data_at;
  unsigned r, a, i, k;
  int longs = 0;
  for (i = 0; i < v->nrows * v->regions; i++)
    if (v->rows[i] < -32768 || v->rows[i] > 32767) longs = 1;
  /* ItemVariationStore: format 1, the region list, one ItemVariationData */
  ct_buf_u16(out, 1);
  ct_buf_u32(out, 0);   /* regions: patched */
  ct_buf_u16(out, 1);
  ct_buf_u32(out, 0);   /* the data: patched */
  regions_at = out->len;
  ct_buf_u16(out, v->axes);
  ct_buf_u16(out, v->regions);
  for (r = 0; r < v->regions; r++)
    for (a = 0; a < v->axes; a++)
      for (k = 0; k < 3; k++) ct_buf_u16(out, f2dot14_bits(v->tents[((size_t)r * v->axes + a) * 3 + k]));
  data_at = out->len;
  ct_buf_u16(out, v->nrows);
  ct_buf_u16(out, (longs ? 0x8000u : 0) | v->regions);   /* every delta a word (or long) */
  ct_buf_u16(out, v->regions);
  for (r = 0; r < v->regions; r++) ct_buf_u16(out, r);
  for (i = 0; i < v->nrows * v->regions; i++) {
    if (longs) ct_buf_u32(out, (uint32_t)v->rows[i]);
    else ct_buf_u16(out, (unsigned)v->rows[i] & 0xFFFF);
  }
  if (out->failed) return 0;
  ct_buf_put_u32(out, base + 2, (uint32_t)(regions_at - base));
  ct_buf_put_u32(out, base + 8, (uint32_t)(data_at - base));
  return !v->failed;
}

/* ---- the masters' shape ------------------------------------------------------- */

static int same_color(const ct_color_t *a, const ct_color_t *b) {
  if (a->kind != b->kind) return 0;
  if (a->kind == CT_COLOR_PALETTE) return a->index == b->index;
  if (a->kind == CT_COLOR_RGBA)
    return ct_cpal_byte(a->rgba.r) == ct_cpal_byte(b->rgba.r) && ct_cpal_byte(a->rgba.g) == ct_cpal_byte(b->rgba.g) &&
           ct_cpal_byte(a->rgba.b) == ct_cpal_byte(b->rgba.b) &&
           ct_cpal_byte(a->rgba.a) == ct_cpal_byte(b->rgba.a);
  return 1;
}

static int same_line(const ct_color_line_t *a, const ct_color_line_t *b, const char **why) {
  unsigned i;
  if (a->extend != b->extend || a->count != b->count) {
    *why = "a gradient's stops or extend mode change (COLR varies only their offsets and alphas)";
    return 0;
  }
  for (i = 0; i < a->count; i++)
    if (!same_color(&a->stops[i].color, &b->stops[i].color)) {
      *why = "a gradient stop changes color (COLR varies only alphas)";
      return 0;
    }
  return 1;
}

static int shape(const ct_paint_t *a, const ct_paint_t *b, unsigned depth, const char **why) {
  unsigned i;
  if (depth > CT_MAX_PAINT_DEPTH) { *why = "the paint tree is nested too deep"; return 0; }
  if (a == b) return 1;
  if (a->kind != b->kind) { *why = "the paint tree's shape changes (a node of another kind)"; return 0; }
  switch (a->kind) {
  case CT_PAINT_LAYERS:
    if (a->u.layers.count != b->u.layers.count) { *why = "the number of layers changes"; return 0; }
    for (i = 0; i < a->u.layers.count; i++)
      if (!shape(a->u.layers.children[i], b->u.layers.children[i], depth + 1, why)) return 0;
    return 1;
  case CT_PAINT_GLYPH:
    if (a->u.glyph.font != b->u.glyph.font || a->u.glyph.gid != b->u.glyph.gid) {
      *why = "a layer's outline changes (outline variations, gvar, are not written)";
      return 0;
    }
    return shape(a->u.glyph.child, b->u.glyph.child, depth + 1, why);
  case CT_PAINT_SOLID:
    if (!same_color(&a->u.solid.color, &b->u.solid.color)) {
      *why = "a color changes (COLR varies only alphas: give the effect a color that stays)";
      return 0;
    }
    return 1;
  case CT_PAINT_LINEAR: return same_line(&a->u.linear.line, &b->u.linear.line, why);
  case CT_PAINT_RADIAL: return same_line(&a->u.radial.line, &b->u.radial.line, why);
  case CT_PAINT_SWEEP: return same_line(&a->u.sweep.line, &b->u.sweep.line, why);
  case CT_PAINT_TRANSFORM: return shape(a->u.transform.child, b->u.transform.child, depth + 1, why);
  case CT_PAINT_COMPOSITE:
    if (a->u.composite.mode != b->u.composite.mode) { *why = "a composite mode changes"; return 0; }
    return shape(a->u.composite.source, b->u.composite.source, depth + 1, why) &&
           shape(a->u.composite.backdrop, b->u.composite.backdrop, depth + 1, why);
  case CT_PAINT_CLIP:
    if (a->u.clip.x0 != b->u.clip.x0 || a->u.clip.y0 != b->u.clip.y0 || a->u.clip.x1 != b->u.clip.x1 ||
        a->u.clip.y1 != b->u.clip.y1) {
      *why = "a clip box changes (it is written as an outline, which cannot vary)";
      return 0;
    }
    return shape(a->u.clip.child, b->u.clip.child, depth + 1, why);
  default:
    *why = "it has SVG or bitmap glyphs, which COLR cannot vary";
    return 0;
  }
}

int ct_colr_same_shape(const ct_paint_t *a, const ct_paint_t *b, const char **why) {
  *why = NULL;
  return shape(a, b, 0, why);
}
