/*
** colr1.c: COLRv1 paint graphs into paint trees, read from the COLR table by our own
** bounds-checked parser (FreeType 2.12 reads COLRv1 but ignores its variations), with
** variations resolved from the ItemVariationStore and DeltaSetIndexMap.  Cycles are
** caught on the current path; depth and drawing cost are bounded.  Glyph stage: knows
** fonts and paint trees, never pages or outputs.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glyph.h"

#define NO_VAR 0xFFFFFFFFu

/* ---- the table -------------------------------------------------------- */

typedef struct {
  const uint8_t *d;
  size_t         len;
  uint32_t       base_list, layer_list, clip_list, var_map, var_store;
  uint32_t       num_base, num_layers;
  /* variations: normalized coordinates (-1..1), NULL when at the default */
  double        *coords;
  unsigned       ncoords;
} colr_t;

static int fits(const colr_t *t, size_t off, size_t n) { return off <= t->len && t->len - off >= n; }
static unsigned u8(const colr_t *t, size_t o) { return t->d[o]; }
static unsigned u16(const colr_t *t, size_t o) { return (unsigned)(t->d[o] << 8 | t->d[o + 1]); }
static int s16(const colr_t *t, size_t o) { return (int16_t)u16(t, o); }
static uint32_t u24(const colr_t *t, size_t o) {
  return (uint32_t)t->d[o] << 16 | (uint32_t)t->d[o + 1] << 8 | t->d[o + 2];
}
static uint32_t u32(const colr_t *t, size_t o) {
  return (uint32_t)t->d[o] << 24 | (uint32_t)t->d[o + 1] << 16 | (uint32_t)t->d[o + 2] << 8 | t->d[o + 3];
}
static double f2dot14(const colr_t *t, size_t o) { return s16(t, o) / 16384.0; }
static double fixed(const colr_t *t, size_t o) { return (int32_t)u32(t, o) / 65536.0; }

/* ---- variations ------------------------------------------------------- */

/* Maps a variation index through the DeltaSetIndexMap (or splits it 16:16). */
static int map_var_index(const colr_t *t, uint32_t idx, unsigned *outer, unsigned *inner) {
  uint32_t m = t->var_map, count, entry = 0;
  unsigned format, entry_format, inner_bits, size, hdr, i;
  if (!m) {
    *outer = idx >> 16;
    *inner = idx & 0xFFFF;
    return 1;
  }
  if (!fits(t, m, 2)) return 0;
  format = u8(t, m);
  entry_format = u8(t, m + 1);
  if (format == 0) {
    if (!fits(t, m, 4)) return 0;
    count = u16(t, m + 2);
    hdr = 4;
  } else if (format == 1) {
    if (!fits(t, m, 6)) return 0;
    count = u32(t, m + 2);
    hdr = 6;
  } else {
    return 0;
  }
  if (count == 0) return 0;
  if (idx >= count) idx = count - 1;   /* past the end: the last entry */
  inner_bits = (entry_format & 0x0F) + 1;
  size = ((entry_format & 0x30) >> 4) + 1;
  if (!fits(t, m + hdr + (size_t)idx * size, size)) return 0;
  for (i = 0; i < size; i++) entry = entry << 8 | u8(t, m + hdr + (size_t)idx * size + i);
  *outer = entry >> inner_bits;
  *inner = entry & ((1u << inner_bits) - 1);
  return 1;
}

/* The scalar of one region at the current coordinates. */
static double region_scalar(const colr_t *t, size_t region, unsigned axis_count) {
  double scalar = 1.0;
  unsigned a;
  for (a = 0; a < axis_count; a++) {
    size_t o = region + (size_t)a * 6;
    double start = f2dot14(t, o), peak = f2dot14(t, o + 2), end = f2dot14(t, o + 4);
    double v = a < t->ncoords ? t->coords[a] : 0.0;
    if (peak == 0 || start > peak || peak > end || (start < 0 && end > 0)) continue;
    if (v < start || v > end) return 0.0;
    if (v == peak) continue;
    scalar *= v < peak ? (v - start) / (peak - start) : (end - v) / (end - peak);
  }
  return scalar;
}

/* The delta of one variation index, in the units of the value it varies. */
static double var_delta(const colr_t *t, uint32_t idx) {
  uint32_t vs = t->var_store, regions, data;
  unsigned outer, inner, nregions_list, axis_count, item_count, word_count, region_count, i;
  int long_words;
  size_t row, row_size, rec;
  double delta = 0;

  if (!t->coords || !vs || idx == NO_VAR || !map_var_index(t, idx, &outer, &inner)) return 0;
  if (!fits(t, vs, 8) || u16(t, vs) != 1) return 0;
  regions = vs + u32(t, vs + 2);
  if (outer >= u16(t, vs + 6) || !fits(t, vs + 8 + (size_t)outer * 4, 4)) return 0;
  data = vs + u32(t, vs + 8 + (size_t)outer * 4);
  if (!fits(t, regions, 4) || !fits(t, data, 6)) return 0;
  axis_count = u16(t, regions);
  nregions_list = u16(t, regions + 2);
  if ((t->len - regions - 4) / 6 / (axis_count ? axis_count : 1) < nregions_list) return 0;
  item_count = u16(t, data);
  word_count = u16(t, data + 2) & 0x7FFF;
  long_words = (u16(t, data + 2) & 0x8000) != 0;
  region_count = u16(t, data + 4);
  if (inner >= item_count || word_count > region_count) return 0;
  row_size = (size_t)word_count * (long_words ? 4 : 2) + (size_t)(region_count - word_count) * (long_words ? 2 : 1);
  row = data + 6 + (size_t)region_count * 2 + (size_t)inner * row_size;
  if (!fits(t, data + 6, (size_t)region_count * 2) || !fits(t, row, row_size)) return 0;
  for (i = 0, rec = row; i < region_count; i++) {
    unsigned r = u16(t, data + 6 + (size_t)i * 2);
    double d, s;
    if (i < word_count) {
      d = long_words ? (double)(int32_t)u32(t, rec) : (double)s16(t, rec);
      rec += long_words ? 4 : 2;
    } else {
      d = long_words ? (double)s16(t, rec) : (double)(int8_t)u8(t, rec);
      rec += long_words ? 2 : 1;
    }
    if (r >= nregions_list || d == 0) continue;
    s = region_scalar(t, regions + 4 + (size_t)r * axis_count * 6, axis_count);
    delta += s * d;
  }
  return delta;
}

/* Value i of a variable record: its default plus its delta, scaled to its units. */
static double var_at(const colr_t *t, uint32_t base, unsigned i, double value, double unit) {
  if (base == NO_VAR) return value;
  return value + var_delta(t, base + i) / unit;
}

/* ---- the walk ---------------------------------------------------------- */

#define MEMO_SIZE 8192   /* power of two, above CT_MAX_PAINT_WORK / 2 */

typedef struct {
  colr_t      *t;
  ct_font_t   *font;
  ct_error_t  *err;
  int          failed;          /* a limit was hit: the caller falls back to the outline */
  int          skipped;         /* a bad subgraph was left out */
  char         why[256];
  uint32_t     path[CT_MAX_PAINT_DEPTH + 1];   /* paint offsets on the current path */
  unsigned     depth;
  unsigned     built;           /* distinct nodes built */
  struct { uint32_t off; ct_paint_t *node; } memo[MEMO_SIZE];   /* open addressing */
  unsigned     nmemo;
} walk_t;

static void note(walk_t *w, int fatal, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note(walk_t *w, int fatal, const char *fmt, ...) {
  va_list ap;
  if (w->why[0] == '\0') {
    va_start(ap, fmt);
    vsnprintf(w->why, sizeof w->why, fmt, ap);
    va_end(ap);
  }
  if (fatal) w->failed = 1;
  else w->skipped = 1;
}

/* "Nothing": an empty layers node, standing for a left-out subgraph. */
static ct_paint_t *nothing(void) { return ct_paint_layers_create(0); }

static ct_paint_t *paint_at(walk_t *w, uint32_t off);

static unsigned memo_slot(walk_t *w, uint32_t off) {
  unsigned h = (off * 2654435761u) & (MEMO_SIZE - 1);
  while (w->memo[h].node && w->memo[h].off != off) h = (h + 1) & (MEMO_SIZE - 1);
  return h;
}

static ct_paint_t *memo_get(walk_t *w, uint32_t off) {
  return ct_paint_reference(w->memo[memo_slot(w, off)].node);
}

static void memo_put(walk_t *w, uint32_t off, ct_paint_t *node) {
  unsigned h;
  if (w->nmemo >= MEMO_SIZE * 3 / 4) return;   /* full: build again rather than probe long */
  h = memo_slot(w, off);
  if (w->memo[h].node) return;
  w->memo[h].off = off;
  w->memo[h].node = ct_paint_reference(node);
  w->nmemo++;
}

/* Color lines: stops with their palette entries, sorted by offset. */
static int stop_cmp(const void *a, const void *b) {
  const ct_color_stop_t *x = a, *y = b;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static ct_color_t palette_color(unsigned index, double alpha) {
  return ct_color_palette(index, alpha);   /* 0xFFFF becomes the text color */
}

static int read_color_line(walk_t *w, uint32_t off, int var, ct_color_line_t *line) {
  colr_t *t = w->t;
  unsigned n, i, rec = var ? 10 : 6;
  if (!fits(t, off, 3)) return 0;
  line->extend = (ct_extend_t)u8(t, off);
  if (u8(t, off) > CT_EXTEND_REFLECT) line->extend = CT_EXTEND_PAD;   /* unknown: pad */
  n = u16(t, off + 1);
  if ((t->len - off - 3) / rec < n) return 0;
  line->count = n;
  line->stops = n ? malloc(n * sizeof *line->stops) : NULL;
  if (n && !line->stops) return 0;
  for (i = 0; i < n; i++) {
    size_t s = off + 3 + (size_t)i * rec;
    uint32_t base = var ? u32(t, s + 6) : NO_VAR;
    line->stops[i].offset = var_at(t, base, 0, f2dot14(t, s), 16384.0);
    line->stops[i].color = palette_color(u16(t, s + 2), var_at(t, base, 1, f2dot14(t, s + 4), 16384.0));
  }
  /* stable enough: equal offsets keep their order for hard color changes */
  for (i = 1; i < n; i++)
    if (line->stops[i].offset < line->stops[i - 1].offset) {
      qsort(line->stops, n, sizeof *line->stops, stop_cmp);
      break;
    }
  return 1;
}

static ct_paint_t *transform(const double m[6], ct_paint_t *child) {
  return ct_paint_transform_create(m, child);
}

/* translate(cx, cy) . m . translate(-cx, -cy) */
static ct_paint_t *around(double cx, double cy, const double m[6], ct_paint_t *child) {
  double t[6] = { m[0], m[1], m[2], m[3],
                  cx - (m[0] * cx + m[2] * cy), cy - (m[1] * cx + m[3] * cy) };
  return transform(t, child);
}

static ct_paint_t *child_at(walk_t *w, uint32_t off, uint32_t rel) {
  if (rel == 0) return nothing();   /* a null offset: nothing to paint */
  return paint_at(w, off + rel);
}

/* The clip box of a glyph from the ClipList, if any: 1 and the box. */
static int clip_box(colr_t *t, unsigned gid, double box[4]) {
  uint32_t cl = t->clip_list, n, lo, hi;
  if (!cl || !fits(t, cl, 5) || u8(t, cl) != 1) return 0;
  n = u32(t, cl + 1);
  if ((t->len - cl - 5) / 7 < n) return 0;
  lo = 0;
  hi = n;
  while (lo < hi) {   /* clips are sorted by start glyph */
    uint32_t mid = lo + (hi - lo) / 2;
    size_t rec = cl + 5 + (size_t)mid * 7;
    unsigned start = u16(t, rec), end = u16(t, rec + 2);
    if (gid < start) hi = mid;
    else if (gid > end) lo = mid + 1;
    else {
      uint32_t b = cl + u24(t, rec + 4);
      unsigned fmt;
      uint32_t base;
      if (!fits(t, b, 9)) return 0;
      fmt = u8(t, b);
      if (fmt != 1 && fmt != 2) return 0;
      base = fmt == 2 && fits(t, b, 13) ? u32(t, b + 9) : NO_VAR;
      box[0] = var_at(t, base, 0, s16(t, b + 1), 1);
      box[1] = var_at(t, base, 1, s16(t, b + 3), 1);
      box[2] = var_at(t, base, 2, s16(t, b + 5), 1);
      box[3] = var_at(t, base, 3, s16(t, b + 7), 1);
      return 1;
    }
  }
  return 0;
}

/* The paint of a base glyph in the BaseGlyphList: its absolute offset or 0. */
static uint32_t base_paint(colr_t *t, unsigned gid) {
  uint32_t bl = t->base_list, lo = 0, hi = t->num_base;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    size_t rec = bl + 4 + (size_t)mid * 6;
    unsigned g = u16(t, rec);
    if (gid < g) hi = mid;
    else if (gid > g) lo = mid + 1;
    else return u32(t, rec + 2) ? bl + u32(t, rec + 2) : 0;
  }
  return 0;
}

static ct_paint_t *with_clip(colr_t *t, unsigned gid, ct_paint_t *p) {
  double box[4];
  if (p && clip_box(t, gid, box)) return ct_paint_clip_create(box[0], box[1], box[2], box[3], p);
  return p;
}

/* A paint that runs past the end of the table: left out. */
static ct_paint_t *truncated(walk_t *w, unsigned fmt, uint32_t off) {
  note(w, 0, "paint format %u at offset %u runs past the end of the COLR table", fmt, off);
  return nothing();
}

/* PaintColrLayers: a slice of the LayerList. */
static ct_paint_t *build_layers(walk_t *w, uint32_t off, unsigned fmt) {
  colr_t *t = w->t;
  unsigned n, i;
  uint32_t first;
  ct_paint_t *p;
  if (!fits(t, off, 6)) return truncated(w, fmt, off);
  n = u8(t, off + 1);
  first = u32(t, off + 2);
  if (!t->layer_list || first > t->num_layers || t->num_layers - first < n) {
    note(w, 0, "layers %u..%u past the LayerList (%u layers)", first, first + n, t->num_layers);
    return nothing();
  }
  if (!(p = ct_paint_layers_create(n))) return NULL;
  for (i = 0; i < n && !w->failed; i++) {
    uint32_t rel = u32(t, t->layer_list + 4 + (size_t)(first + i) * 4);
    if (ct_paint_layers_append(p, child_at(w, t->layer_list, rel)) != CT_OK) {
      ct_paint_destroy(p);
      return NULL;
    }
  }
  return p;
}

/* Formats 4 to 7: linear and radial gradients. */
static ct_paint_t *build_gradient(walk_t *w, uint32_t off, unsigned fmt) {
  colr_t *t = w->t;
  unsigned i;
  int var;
  uint32_t base = NO_VAR;
  ct_paint_t *p;
  ct_color_line_t line = { CT_EXTEND_PAD, 0, NULL };
  double v[6];
  var = fmt == 5 || fmt == 7;
  if (!fits(t, off, var ? 20 : 16)) return truncated(w, fmt, off);
  if (var) base = u32(t, off + 16);
  if (!read_color_line(w, off + u24(t, off + 1), var, &line)) {
    free(line.stops);
    return truncated(w, fmt, off);
  }
  for (i = 0; i < 6; i++) {
    /* radial radii are unsigned */
    double raw = (fmt >= 6 && (i == 2 || i == 5)) ? (double)u16(t, off + 4 + i * 2) : (double)s16(t, off + 4 + i * 2);
    v[i] = var_at(t, base, i, raw, 1);
  }
  p = fmt <= 5 ? ct_paint_linear_create(&line, v) : ct_paint_radial_create(&line, v);
  free(line.stops);
  return p;
}

/* Formats 8 and 9, PaintSweepGradient: angles 180 degrees per 1.0, with a bias of 180. */
static ct_paint_t *build_sweep(walk_t *w, uint32_t off, unsigned fmt) {
  colr_t *t = w->t;
  int var;
  uint32_t base = NO_VAR;
  ct_paint_t *p;
  ct_color_line_t line = { CT_EXTEND_PAD, 0, NULL };
  double cx, cy, a0, a1;
  var = fmt == 9;
  if (!fits(t, off, var ? 16 : 12)) return truncated(w, fmt, off);
  if (var) base = u32(t, off + 12);
  if (!read_color_line(w, off + u24(t, off + 1), var, &line)) {
    free(line.stops);
    return truncated(w, fmt, off);
  }
  cx = var_at(t, base, 0, s16(t, off + 4), 1);
  cy = var_at(t, base, 1, s16(t, off + 6), 1);
  a0 = (var_at(t, base, 2, f2dot14(t, off + 8), 16384.0) + 1.0) * 180.0;
  a1 = (var_at(t, base, 3, f2dot14(t, off + 10), 16384.0) + 1.0) * 180.0;
  p = ct_paint_sweep_create(&line, cx, cy, a0, a1);
  free(line.stops);
  return p;
}

/* Formats 16 to 23: scales, uniform or not, around the origin or a center. */
static ct_paint_t *build_scale(walk_t *w, uint32_t off, unsigned fmt) {
  colr_t *t = w->t;
  int var;
  uint32_t base = NO_VAR;
  int uniform = fmt >= 20, centered = fmt == 18 || fmt == 19 || fmt == 22 || fmt == 23;
  unsigned nvals = (uniform ? 1 : 2) + (centered ? 2 : 0), k = 0;
  double sx, sy, cx = 0, cy = 0;
  var = fmt & 1;
  if (!fits(t, off, 4 + nvals * 2 + (var ? 4 : 0))) return truncated(w, fmt, off);
  if (var) base = u32(t, off + 4 + nvals * 2);
  sx = var_at(t, base, k, f2dot14(t, off + 4), 16384.0);
  k++;
  sy = uniform ? sx : var_at(t, base, k++, f2dot14(t, off + 6), 16384.0);
  if (centered) {
    size_t c = off + 4 + (uniform ? 2 : 4);
    cx = var_at(t, base, k, s16(t, c), 1);
    cy = var_at(t, base, k + 1, s16(t, c + 2), 1);
  }
  {
    double m[6] = { sx, 0, 0, sy, 0, 0 };
    return around(cx, cy, m, child_at(w, off, u24(t, off + 1)));
  }
}

/* Formats 24 to 27: rotations, counter-clockwise, 180 degrees per 1.0. */
static ct_paint_t *build_rotate(walk_t *w, uint32_t off, unsigned fmt) {
  colr_t *t = w->t;
  int var;
  uint32_t base = NO_VAR;
  int centered = fmt >= 26;
  double a, cx = 0, cy = 0;
  var = fmt & 1;
  if (!fits(t, off, 6 + (centered ? 4 : 0) + (var ? 4 : 0))) return truncated(w, fmt, off);
  if (var) base = u32(t, off + 6 + (centered ? 4 : 0));
  a = var_at(t, base, 0, f2dot14(t, off + 4), 16384.0) * M_PI;
  if (centered) {
    cx = var_at(t, base, 1, s16(t, off + 6), 1);
    cy = var_at(t, base, 2, s16(t, off + 8), 1);
  }
  {
    double m[6] = { cos(a), sin(a), -sin(a), cos(a), 0, 0 };
    return around(cx, cy, m, child_at(w, off, u24(t, off + 1)));
  }
}

/* Formats 28 to 31: skews. */
static ct_paint_t *build_skew(walk_t *w, uint32_t off, unsigned fmt) {
  colr_t *t = w->t;
  int var;
  uint32_t base = NO_VAR;
  int centered = fmt >= 30;
  double ax, ay, cx = 0, cy = 0;
  var = fmt & 1;
  if (!fits(t, off, 8 + (centered ? 4 : 0) + (var ? 4 : 0))) return truncated(w, fmt, off);
  if (var) base = u32(t, off + 8 + (centered ? 4 : 0));
  ax = var_at(t, base, 0, f2dot14(t, off + 4), 16384.0) * M_PI;
  ay = var_at(t, base, 1, f2dot14(t, off + 6), 16384.0) * M_PI;
  if (centered) {
    cx = var_at(t, base, 2, s16(t, off + 8), 1);
    cy = var_at(t, base, 3, s16(t, off + 10), 1);
  }
  {
    /* a positive x skew angle leans the y axis clockwise (towards -x) */
    double m[6] = { 1, tan(ay), -tan(ax), 1, 0, 0 };
    return around(cx, cy, m, child_at(w, off, u24(t, off + 1)));
  }
}

/* One paint table at `off`, by format; the larger format groups have their own builders. */
static ct_paint_t *build(walk_t *w, uint32_t off) {
  colr_t *t = w->t;
  unsigned fmt = u8(t, off), i;
  int var = 0;
  uint32_t base = NO_VAR;

  switch (fmt) {
  case 1:   /* PaintColrLayers */
    return build_layers(w, off, fmt);
  case 2: case 3:   /* PaintSolid, PaintVarSolid */
    if (!fits(t, off, fmt == 3 ? 9 : 5)) return truncated(w, fmt, off);
    if (fmt == 3) base = u32(t, off + 5);
    return ct_paint_solid_create(palette_color(u16(t, off + 1),
                                               var_at(t, base, 0, f2dot14(t, off + 3), 16384.0)));
  case 4: case 5: case 6: case 7:   /* linear and radial gradients */
    return build_gradient(w, off, fmt);
  case 8: case 9:   /* PaintSweepGradient */
    return build_sweep(w, off, fmt);
  case 10: {   /* PaintGlyph: the outline only, never the glyph's own color */
    unsigned gid;
    if (!fits(t, off, 6)) return truncated(w, fmt, off);
    gid = u16(t, off + 4);
    if (gid >= w->font->glyph_count) {
      note(w, 0, "PaintGlyph of glyph %u past the font's %u glyphs", gid, w->font->glyph_count);
      return nothing();
    }
    return ct_paint_glyph_create(NULL, gid, child_at(w, off, u24(t, off + 1)));
  }
  case 11: {   /* PaintColrGlyph: another base glyph's graph, with its clip box */
    unsigned gid;
    uint32_t target;
    if (!fits(t, off, 3)) return truncated(w, fmt, off);
    gid = u16(t, off + 1);
    target = base_paint(t, gid);
    if (!target) {
      note(w, 0, "PaintColrGlyph of glyph %u, which has no COLRv1 paint", gid);
      return nothing();
    }
    return with_clip(t, gid, paint_at(w, target));
  }
  case 12: case 13: {   /* PaintTransform: Affine2x3 in 16.16 */
    uint32_t a;
    double m[6];
    var = fmt == 13;
    if (!fits(t, off, 7)) return truncated(w, fmt, off);
    a = off + u24(t, off + 4);
    if (!fits(t, a, var ? 28 : 24)) return truncated(w, fmt, off);
    if (var) base = u32(t, a + 24);
    for (i = 0; i < 6; i++) m[i] = var_at(t, base, i, fixed(t, a + i * 4), 65536.0);
    return transform(m, child_at(w, off, u24(t, off + 1)));
  }
  case 14: case 15: {   /* PaintTranslate */
    double m[6] = { 1, 0, 0, 1, 0, 0 };
    var = fmt == 15;
    if (!fits(t, off, var ? 12 : 8)) return truncated(w, fmt, off);
    if (var) base = u32(t, off + 8);
    m[4] = var_at(t, base, 0, s16(t, off + 4), 1);
    m[5] = var_at(t, base, 1, s16(t, off + 6), 1);
    return transform(m, child_at(w, off, u24(t, off + 1)));
  }
  case 16: case 17: case 18: case 19: case 20: case 21: case 22: case 23:   /* scales */
    return build_scale(w, off, fmt);
  case 24: case 25: case 26: case 27:   /* rotations */
    return build_rotate(w, off, fmt);
  case 28: case 29: case 30: case 31:   /* skews */
    return build_skew(w, off, fmt);
  case 32: {   /* PaintComposite; an unknown mode is kept and composites as clear */
    ct_paint_t *src, *dst;
    if (!fits(t, off, 8)) return truncated(w, fmt, off);
    src = child_at(w, off, u24(t, off + 1));
    dst = child_at(w, off, u24(t, off + 5));
    if (u8(t, off + 4) >= CT_COMPOSITE_MODE_COUNT)
      note(w, 0, "unknown composite mode %u drawn as clear", u8(t, off + 4));
    return ct_paint_composite_create((ct_composite_mode_t)u8(t, off + 4), src, dst);
  }
  default:
    note(w, 0, "unknown paint format %u at offset %u left out", fmt, off);
    return nothing();
  }
}

/* A paint by absolute offset: memoized (reuse of a subgraph is legal and shared),
   cycles on the current path and depth refused. */
static ct_paint_t *paint_at(walk_t *w, uint32_t off) {
  ct_paint_t *p;
  unsigned i;
  if (w->failed) return nothing();
  if (!fits(w->t, off, 1)) {
    note(w, 0, "paint offset %u past the end of the COLR table", off);
    return nothing();
  }
  if ((p = memo_get(w, off))) return p;
  for (i = 0; i < w->depth; i++)
    if (w->path[i] == off) {
      note(w, 0, "cycle in the paint graph at offset %u left out", off);
      return nothing();
    }
  if (w->depth >= CT_MAX_PAINT_DEPTH) {
    note(w, 1, "paint graph deeper than %u", CT_MAX_PAINT_DEPTH);
    return nothing();
  }
  if (++w->built > CT_MAX_PAINT_WORK) {
    note(w, 1, "paint graph of more than %u nodes", CT_MAX_PAINT_WORK);
    return nothing();
  }
  w->path[w->depth++] = off;
  p = build(w, off);
  w->depth--;
  if (!p) {
    note(w, 1, "out of memory");
    return nothing();
  }
  if (p->weight > CT_MAX_PAINT_WORK) note(w, 1, "paint graph that draws more than %u nodes", CT_MAX_PAINT_WORK);
  memo_put(w, off, p);
  return p;
}

/* ---- the table header and the entry point ------------------------------ */

/* The COLR table, referenced once per font (for WOFF fonts, reading it copies it). */
static int load_table(ct_font_t *font, colr_t *t) {
  unsigned len = 0;
  memset(t, 0, sizeof *t);
  if (!font->colr_blob) font->colr_blob = hb_face_reference_table(font->hb_face, HB_TAG('C', 'O', 'L', 'R'));
  t->d = (const uint8_t *)hb_blob_get_data(font->colr_blob, &len);
  t->len = len;
  if (len < 34 || u16(t, 0) < 1) return 0;
  t->base_list = u32(t, 14);
  t->layer_list = u32(t, 18);
  t->clip_list = u32(t, 22);
  t->var_map = u32(t, 26);
  t->var_store = u32(t, 30);
  if (!t->base_list || !fits(t, t->base_list, 4)) return 0;
  t->num_base = u32(t, t->base_list);
  if ((len - t->base_list - 4) / 6 < t->num_base) t->num_base = (uint32_t)((len - t->base_list - 4) / 6);
  if (t->layer_list && fits(t, t->layer_list, 4)) {
    t->num_layers = u32(t, t->layer_list);
    if ((len - t->layer_list - 4) / 4 < t->num_layers) t->num_layers = (uint32_t)((len - t->layer_list - 4) / 4);
  } else {
    t->layer_list = 0;
  }
  if (t->clip_list && !fits(t, t->clip_list, 5)) t->clip_list = 0;
  if (t->var_map && !fits(t, t->var_map, 4)) t->var_map = 0;
  if (t->var_store && !fits(t, t->var_store, 8)) t->var_store = 0;
  return 1;
}

/* Normalized variation coordinates (HarfBuzz's, avar applied), or none at the default. */
static void load_coords(ct_font_t *font, colr_t *t) {
  unsigned n = 0, i, any = 0;
  const int *c = hb_font_get_var_coords_normalized(font->hb_font, &n);
  if (!c || n == 0 || !t->var_store) return;
  for (i = 0; i < n; i++) any |= c[i] != 0;
  if (!any) return;
  t->coords = malloc(n * sizeof *t->coords);
  if (!t->coords) return;
  for (i = 0; i < n; i++) t->coords[i] = c[i] / 16384.0;   /* F2DOT14 */
  t->ncoords = n;
}

ct_paint_t *ct_colr1_glyph_paint(ct_font_t *font, unsigned gid, ct_error_t *err, int *warned) {
  colr_t t;
  walk_t *w = NULL;
  ct_paint_t *p = NULL;
  uint32_t root;
  unsigned i;

  *warned = 0;
  if (!(font->color_formats & CT_COLOR_COLR1)) return NULL;
  if (!load_table(font, &t) || !(root = base_paint(&t, gid))) goto done;
  if (!(w = calloc(1, sizeof *w))) goto done;
  load_coords(font, &t);
  w->t = &t;
  w->font = font;
  w->err = err;
  p = with_clip(&t, gid, paint_at(w, root));
  if (w->failed) {   /* over a limit: the caller draws the plain outline */
    ct_paint_destroy(p);
    p = NULL;
  }
  if (w->failed || w->skipped) {
    ct_set_error(err, w->failed ? CT_ERR_LIMIT : CT_ERR_INVALID_FONT, "%s: glyph %u: COLRv1 %s%s",
                 font->name, gid, w->why, w->failed ? "; drawing the plain outline" : "");
    *warned = 1;
  }
  for (i = 0; i < MEMO_SIZE; i++) ct_paint_destroy(w->memo[i].node);
done:
  free(t.coords);
  free(w);
  return p;
}
