/*
** colrwrite.c: paint trees as a COLR table (version 0 layer records and version 1 paint
** graphs) and palettes as a CPAL table, for the font writer.  Fontmake stage: knows fonts
** and paint trees, never pages or outputs.
**
** Version 1 paints are written depth first into one heap placed after the lists: a
** parent comes before its children, whose Offset24 are counted from the parent.
** PaintColrLayers takes at most 255 layers; longer lists nest.  Clip boxes become
** PaintGlyph of a rectangle glyph; trees are walked under the paint limits of
** ct-limits.h.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fontmake.h"

typedef struct { unsigned gid, first, count; } v0_base_t;
typedef struct { unsigned gid; size_t heap; } v1_base_t;

struct ct_colr_writer {
  v0_base_t *v0;
  unsigned   nv0, v0cap;
  ct_buf_t   v0layers;    /* LayerRecords: gid, palette index */
  unsigned   nv0layers;
  v1_base_t *v1;
  unsigned   nv1, v1cap;
  size_t    *layers;      /* LayerList: heap positions */
  unsigned   nlayers, layers_cap;
  ct_buf_t   heap;
  int        failed;
};

ct_colr_writer_t *ct_colr_writer_create(void) {
  return calloc(1, sizeof(ct_colr_writer_t));
}

void ct_colr_writer_destroy(ct_colr_writer_t *w) {
  if (!w) return;
  free(w->v0);
  free(w->v1);
  free(w->layers);
  ct_buf_free(&w->v0layers);
  ct_buf_free(&w->heap);
  free(w);
}

typedef struct {
  ct_colr_writer_t *w;
  ct_colr_sink_t   *sink;
  ct_font_t        *lead;
  unsigned          work;
  const char       *why;
} walk_t;

static int refuse(walk_t *k, const char *why) {
  if (!k->why) k->why = why;
  return 0;
}

static int budget(walk_t *k, unsigned depth) {
  if (depth > CT_MAX_PAINT_DEPTH) return refuse(k, "the paint tree is nested too deep");
  if (++k->work > CT_MAX_PAINT_WORK) return refuse(k, "the paint tree has too many nodes");
  return 1;
}

static void mat_mul(const double a[6], const double b[6], double r[6]) {
  /* r = a after b: r(x) = a(b(x)) */
  double t[6];
  t[0] = a[0] * b[0] + a[2] * b[1];
  t[1] = a[1] * b[0] + a[3] * b[1];
  t[2] = a[0] * b[2] + a[2] * b[3];
  t[3] = a[1] * b[2] + a[3] * b[3];
  t[4] = a[0] * b[4] + a[2] * b[5] + a[4];
  t[5] = a[1] * b[4] + a[3] * b[5] + a[5];
  memcpy(r, t, sizeof t);
}

static int is_identity(const double m[6]) {
  return m[0] == 1 && m[1] == 0 && m[2] == 0 && m[3] == 1 && m[4] == 0 && m[5] == 0;
}

/* ---- version 0 ------------------------------------------------------------- */

/* The solid color a glyph's child fills with (through transforms), or NULL. */
static const ct_paint_t *solid_of(const ct_paint_t *p) {
  while (p && p->kind == CT_PAINT_TRANSFORM) p = p->u.transform.child;
  return p && p->kind == CT_PAINT_SOLID ? p : NULL;
}

static int flatten_v0(walk_t *k, const ct_paint_t *p, const double m[6], unsigned depth) {
  unsigned i;
  if (!budget(k, depth)) return 0;
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    for (i = 0; i < p->u.layers.count; i++)
      if (!flatten_v0(k, p->u.layers.children[i], m, depth + 1)) return 0;
    return 1;
  case CT_PAINT_TRANSFORM: {
    double t[6] = { p->u.transform.xx, p->u.transform.yx, p->u.transform.xy, p->u.transform.yy,
                    p->u.transform.dx, p->u.transform.dy }, r[6];
    mat_mul(m, t, r);
    return flatten_v0(k, p->u.transform.child, r, depth + 1);
  }
  case CT_PAINT_COMPOSITE:
    if (p->u.composite.mode != CT_COMPOSITE_SRC_OVER)
      return refuse(k, "it composites layers with a mode other than source-over");
    return flatten_v0(k, p->u.composite.backdrop, m, depth + 1) &&
           flatten_v0(k, p->u.composite.source, m, depth + 1);
  case CT_PAINT_GLYPH: {
    const ct_paint_t *s = solid_of(p->u.glyph.child);
    ct_font_t *font = p->u.glyph.font ? p->u.glyph.font : k->lead;
    long gid, color;
    if (!s) return refuse(k, "it fills a glyph with a gradient or nested paint");
    if (s->u.solid.color.kind == CT_COLOR_FOREGROUND && s->u.solid.color.alpha < 1)
      return refuse(k, "it draws the text color with an alpha");
    gid = k->sink->glyph(k->sink->data, font, p->u.glyph.gid, is_identity(m) ? NULL : m);
    if (gid < 0) return refuse(k, k->sink->why);
    color = k->sink->color(k->sink->data, &s->u.solid.color, 1);
    if (color < 0) return refuse(k, k->sink->why);
    if (k->w->nv0layers >= 65535) return refuse(k, "the font has more than 65535 COLRv0 layers");
    ct_buf_u16(&k->w->v0layers, (unsigned)gid);
    ct_buf_u16(&k->w->v0layers, (unsigned)color);
    k->w->nv0layers++;
    return 1;
  }
  case CT_PAINT_SOLID:
    return refuse(k, "it fills the whole plane (a paint outside any glyph)");
  case CT_PAINT_LINEAR: case CT_PAINT_RADIAL: case CT_PAINT_SWEEP:
    return refuse(k, "it has a gradient");
  case CT_PAINT_CLIP:
    return refuse(k, "it has a clip box");
  case CT_PAINT_SVG:
    return refuse(k, "it is an SVG glyph");
  case CT_PAINT_BITMAP:
    return refuse(k, "it is a bitmap glyph");
  default:
    return refuse(k, "it has an unknown paint");
  }
}

/* Whether a tree is what COLRv0 holds: layers of glyph outlines (transformed or not)
   filled with solid colors, composited source-over.  No glyph is added to find out. */
int ct_colr_fits_v0(const ct_paint_t *p, unsigned depth) {
  unsigned i;
  const ct_paint_t *s;
  if (depth > CT_MAX_PAINT_DEPTH) return 0;
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    for (i = 0; i < p->u.layers.count; i++)
      if (!ct_colr_fits_v0(p->u.layers.children[i], depth + 1)) return 0;
    return 1;
  case CT_PAINT_TRANSFORM:
    return ct_colr_fits_v0(p->u.transform.child, depth + 1);
  case CT_PAINT_COMPOSITE:
    return p->u.composite.mode == CT_COMPOSITE_SRC_OVER && ct_colr_fits_v0(p->u.composite.backdrop, depth + 1) &&
           ct_colr_fits_v0(p->u.composite.source, depth + 1);
  case CT_PAINT_GLYPH:
    s = solid_of(p->u.glyph.child);
    return s && !(s->u.solid.color.kind == CT_COLOR_FOREGROUND && s->u.solid.color.alpha < 1);
  default:
    return 0;
  }
}

int ct_colr_writer_add_v0(ct_colr_writer_t *w, unsigned gid, const ct_paint_t *tree, ct_font_t *lead,
                          ct_colr_sink_t *sink) {
  static const double identity[6] = { 1, 0, 0, 1, 0, 0 };
  walk_t k = { w, sink, lead, 0, NULL };
  size_t mark = w->v0layers.len;
  unsigned first = w->nv0layers;
  if (!flatten_v0(&k, tree, identity, 0)) {
    w->v0layers.len = mark;   /* the glyph's layers so far go */
    w->nv0layers = first;
    snprintf(sink->why, sizeof sink->why, "%s", k.why);
    return 0;
  }
  if (w->nv0layers == first) return 1;   /* nothing drawn: no record */
  if (w->nv0 == w->v0cap) {
    unsigned cap = w->v0cap ? w->v0cap * 2 : 64;
    v0_base_t *v = realloc(w->v0, cap * sizeof *v);
    if (!v) {
      snprintf(sink->why, sizeof sink->why, "out of memory");
      return 0;
    }
    w->v0 = v;
    w->v0cap = cap;
  }
  w->v0[w->nv0].gid = gid;
  w->v0[w->nv0].first = first;
  w->v0[w->nv0].count = w->nv0layers - first;
  w->nv0++;
  return 1;
}

/* ---- version 1 ------------------------------------------------------------- */

static int f2dot14(walk_t *k, double v, unsigned *out) {
  if (!(v >= -2.0 && v <= 1.99994)) return refuse(k, "a value off the F2DOT14 range (-2 to 2)");
  *out = (unsigned)(lround(v * 16384.0) & 0xFFFF);
  return 1;
}

static int fword(walk_t *k, double v, unsigned *out) {
  if (!(v >= -32768 && v <= 32767)) return refuse(k, "a coordinate off the 16-bit range of font units");
  *out = (unsigned)(lround(v) & 0xFFFF);
  return 1;
}

static int color_line(walk_t *k, const ct_color_line_t *line, size_t parent, size_t slot) {
  ct_buf_t *h = &k->w->heap;
  size_t at = h->len;
  unsigned i;
  if (line->count > 65535) return refuse(k, "a color line with too many stops");
  ct_buf_u8(h, line->extend == CT_EXTEND_REPEAT ? 1 : line->extend == CT_EXTEND_REFLECT ? 2 : 0);
  ct_buf_u16(h, line->count);
  for (i = 0; i < line->count; i++) {
    unsigned off, alpha;
    long index = k->sink->color(k->sink->data, &line->stops[i].color, 0);
    if (index < 0) return refuse(k, k->sink->why);
    if (!f2dot14(k, line->stops[i].offset, &off) ||
        !f2dot14(k, fmin(1.0, fmax(0.0, line->stops[i].color.alpha)), &alpha)) return 0;
    ct_buf_u16(h, off);
    ct_buf_u16(h, (unsigned)index);
    ct_buf_u16(h, alpha);
  }
  ct_buf_put_u24(h, slot, (uint32_t)(at - parent));
  return 1;
}

static int encode(walk_t *k, const ct_paint_t *p, unsigned depth, size_t *pos);

/* Writes child `c` after its parent (at `parent`) and points the Offset24 at `slot` to it. */
static int child(walk_t *k, const ct_paint_t *c, size_t parent, size_t slot, unsigned depth) {
  size_t at;
  if (!encode(k, c, depth + 1, &at)) return 0;
  if (at - parent > 0xFFFFFF) return refuse(k, "a paint graph over 16 MB");
  ct_buf_put_u24(&k->w->heap, slot, (uint32_t)(at - parent));
  return 1;
}

static int add_layer(walk_t *k, size_t pos) {
  ct_colr_writer_t *w = k->w;
  if (w->nlayers == w->layers_cap) {
    unsigned cap = w->layers_cap ? w->layers_cap * 2 : 256;
    size_t *l = realloc(w->layers, cap * sizeof *l);
    if (!l) return refuse(k, "out of memory");
    w->layers = l;
    w->layers_cap = cap;
  }
  w->layers[w->nlayers++] = pos;
  return 1;
}

/* PaintColrLayers over the layer list entries first..first+count-1 (nested by 255). */
static int colr_layers(walk_t *k, unsigned first, unsigned count, size_t *pos) {
  ct_buf_t *h = &k->w->heap;
  while (count > 255) {
    /* fold runs of 255 into one nested layer each, appended to the list */
    unsigned groups = (count + 254) / 255, g, base = k->w->nlayers;
    for (g = 0; g < groups; g++) {
      unsigned n = g + 1 < groups ? 255 : count - 255 * g;
      size_t at = h->len;
      ct_buf_u8(h, 1);
      ct_buf_u8(h, n);
      ct_buf_u32(h, first + 255 * g);
      if (!add_layer(k, at)) return 0;
    }
    first = base;
    count = groups;
  }
  *pos = h->len;
  ct_buf_u8(h, 1);
  ct_buf_u8(h, count);
  ct_buf_u32(h, first);
  return 1;
}

static int encode(walk_t *k, const ct_paint_t *p, unsigned depth, size_t *pos) {
  ct_buf_t *h = &k->w->heap;
  size_t at;
  unsigned v[6], i;
  if (!budget(k, depth)) return 0;
  switch (p->kind) {
  case CT_PAINT_LAYERS: {
    size_t *kids;
    unsigned first;
    if (p->u.layers.count == 1) return encode(k, p->u.layers.children[0], depth + 1, pos);
    if (!(kids = malloc((p->u.layers.count + 1) * sizeof *kids))) return refuse(k, "out of memory");
    for (i = 0; i < p->u.layers.count; i++)
      if (!encode(k, p->u.layers.children[i], depth + 1, &kids[i])) {
        free(kids);
        return 0;
      }
    first = k->w->nlayers;
    for (i = 0; i < p->u.layers.count; i++)
      if (!add_layer(k, kids[i])) {
        free(kids);
        return 0;
      }
    free(kids);
    return colr_layers(k, first, p->u.layers.count, pos);
  }
  case CT_PAINT_SOLID: {
    long index = k->sink->color(k->sink->data, &p->u.solid.color, 0);
    unsigned alpha;
    if (index < 0) return refuse(k, k->sink->why);
    if (!f2dot14(k, fmin(1.0, fmax(0.0, p->u.solid.color.alpha)), &alpha)) return 0;
    *pos = h->len;
    ct_buf_u8(h, 2);
    ct_buf_u16(h, (unsigned)index);
    ct_buf_u16(h, alpha);
    return 1;
  }
  case CT_PAINT_LINEAR:
    if (!fword(k, p->u.linear.x0, &v[0]) || !fword(k, p->u.linear.y0, &v[1]) ||
        !fword(k, p->u.linear.x1, &v[2]) || !fword(k, p->u.linear.y1, &v[3]) ||
        !fword(k, p->u.linear.x2, &v[4]) || !fword(k, p->u.linear.y2, &v[5])) return 0;
    at = *pos = h->len;
    ct_buf_u8(h, 4);
    ct_buf_u24(h, 0);
    for (i = 0; i < 6; i++) ct_buf_u16(h, v[i]);
    return color_line(k, &p->u.linear.line, at, at + 1);
  case CT_PAINT_RADIAL:
    if (!fword(k, p->u.radial.x0, &v[0]) || !fword(k, p->u.radial.y0, &v[1]) ||
        !fword(k, p->u.radial.x1, &v[3]) || !fword(k, p->u.radial.y1, &v[4])) return 0;
    if (!(p->u.radial.r0 >= 0 && p->u.radial.r0 <= 65535 && p->u.radial.r1 >= 0 && p->u.radial.r1 <= 65535))
      return refuse(k, "a radius off the 16-bit range of font units");
    v[2] = (unsigned)lround(p->u.radial.r0);
    v[5] = (unsigned)lround(p->u.radial.r1);
    at = *pos = h->len;
    ct_buf_u8(h, 6);
    ct_buf_u24(h, 0);
    for (i = 0; i < 6; i++) ct_buf_u16(h, v[i]);
    return color_line(k, &p->u.radial.line, at, at + 1);
  case CT_PAINT_SWEEP:
    /* angles: 180 degrees per 1.0 with a bias of 180 degrees */
    if (!fword(k, p->u.sweep.cx, &v[0]) || !fword(k, p->u.sweep.cy, &v[1]) ||
        !f2dot14(k, p->u.sweep.start_angle / 180.0 - 1.0, &v[2]) ||
        !f2dot14(k, p->u.sweep.end_angle / 180.0 - 1.0, &v[3])) return 0;
    at = *pos = h->len;
    ct_buf_u8(h, 8);
    ct_buf_u24(h, 0);
    for (i = 0; i < 4; i++) ct_buf_u16(h, v[i]);
    return color_line(k, &p->u.sweep.line, at, at + 1);
  case CT_PAINT_GLYPH: {
    ct_font_t *font = p->u.glyph.font ? p->u.glyph.font : k->lead;
    long gid = k->sink->glyph(k->sink->data, font, p->u.glyph.gid, NULL);
    if (gid < 0) return refuse(k, k->sink->why);
    at = *pos = h->len;
    ct_buf_u8(h, 10);
    ct_buf_u24(h, 0);
    ct_buf_u16(h, (unsigned)gid);
    return child(k, p->u.glyph.child, at, at + 1, depth);
  }
  case CT_PAINT_CLIP: {
    long gid = k->sink->rect(k->sink->data, p->u.clip.x0, p->u.clip.y0, p->u.clip.x1, p->u.clip.y1);
    if (gid < 0) return refuse(k, k->sink->why);
    at = *pos = h->len;
    ct_buf_u8(h, 10);
    ct_buf_u24(h, 0);
    ct_buf_u16(h, (unsigned)gid);
    return child(k, p->u.clip.child, at, at + 1, depth);
  }
  case CT_PAINT_TRANSFORM: {
    const double m[6] = { p->u.transform.xx, p->u.transform.yx, p->u.transform.xy, p->u.transform.yy,
                          p->u.transform.dx, p->u.transform.dy };
    if (m[0] == 1 && m[1] == 0 && m[2] == 0 && m[3] == 1 && m[4] == rint(m[4]) && m[5] == rint(m[5])) {
      if (!fword(k, m[4], &v[0]) || !fword(k, m[5], &v[1])) return 0;
      at = *pos = h->len;   /* PaintTranslate */
      ct_buf_u8(h, 14);
      ct_buf_u24(h, 0);
      ct_buf_u16(h, v[0]);
      ct_buf_u16(h, v[1]);
      return child(k, p->u.transform.child, at, at + 1, depth);
    }
    for (i = 0; i < 6; i++)
      if (!(fabs(m[i]) < 32767.0)) return refuse(k, "a transform off the 16.16 range");
    at = *pos = h->len;   /* PaintTransform, its Affine2x3 right after it */
    ct_buf_u8(h, 12);
    ct_buf_u24(h, 0);
    ct_buf_u24(h, 7);
    for (i = 0; i < 6; i++) ct_buf_u32(h, (uint32_t)(int32_t)lround(m[i] * 65536.0));
    return child(k, p->u.transform.child, at, at + 1, depth);
  }
  case CT_PAINT_COMPOSITE:
    at = *pos = h->len;
    ct_buf_u8(h, 32);
    ct_buf_u24(h, 0);
    ct_buf_u8(h, p->u.composite.mode);
    ct_buf_u24(h, 0);
    return child(k, p->u.composite.source, at, at + 1, depth) &&
           child(k, p->u.composite.backdrop, at, at + 5, depth);
  case CT_PAINT_SVG:
    return refuse(k, "it is an SVG glyph (COLR cannot hold SVG documents)");
  case CT_PAINT_BITMAP:
    return refuse(k, "it is a bitmap glyph (COLR cannot hold images)");
  default:
    return refuse(k, "it has an unknown paint");
  }
}

int ct_colr_writer_add_v1(ct_colr_writer_t *w, unsigned gid, const ct_paint_t *tree, ct_font_t *lead,
                          ct_colr_sink_t *sink) {
  walk_t k = { w, sink, lead, 0, NULL };
  size_t mark = w->heap.len, pos = 0;
  unsigned layers = w->nlayers;
  if (!encode(&k, tree, 0, &pos) || w->heap.failed) {
    w->heap.len = mark;
    w->heap.failed = 0;
    w->nlayers = layers;
    snprintf(sink->why, sizeof sink->why, "%s", k.why ? k.why : "out of memory");
    return 0;
  }
  if (w->nv1 == w->v1cap) {
    unsigned cap = w->v1cap ? w->v1cap * 2 : 64;
    v1_base_t *v = realloc(w->v1, cap * sizeof *v);
    if (!v) {
      snprintf(sink->why, sizeof sink->why, "out of memory");
      return 0;
    }
    w->v1 = v;
    w->v1cap = cap;
  }
  w->v1[w->nv1].gid = gid;
  w->v1[w->nv1].heap = pos;
  w->nv1++;
  return 1;
}

static int v0_cmp(const void *a, const void *b) {
  const v0_base_t *x = a, *y = b;
  return x->gid < y->gid ? -1 : x->gid > y->gid;
}

static int v1_cmp(const void *a, const void *b) {
  const v1_base_t *x = a, *y = b;
  return x->gid < y->gid ? -1 : x->gid > y->gid;
}

int ct_colr_writer_finish(ct_colr_writer_t *w, ct_buf_t *out) {
  unsigned i;
  int v1 = w->nv1 > 0;
  size_t header = v1 ? 34 : 14, base0 = header, layer0 = base0 + (size_t)w->nv0 * 6;
  size_t blist = layer0 + w->v0layers.len, llist = blist + 4 + (size_t)w->nv1 * 6;
  size_t heap = llist + (w->nlayers ? 4 + (size_t)w->nlayers * 4 : 0);   /* no LayerList when empty */

  /* qsort's array must not be NULL even when empty (UBSan) */
  if (w->nv0 > 1) qsort(w->v0, w->nv0, sizeof *w->v0, v0_cmp);
  if (w->nv1 > 1) qsort(w->v1, w->nv1, sizeof *w->v1, v1_cmp);
  for (i = 1; i < w->nv0; i++)
    if (w->v0[i].gid == w->v0[i - 1].gid) return 0;
  ct_buf_u16(out, v1 ? 1 : 0);
  ct_buf_u16(out, w->nv0);
  ct_buf_u32(out, w->nv0 ? (uint32_t)base0 : 0);
  ct_buf_u32(out, w->nv0layers ? (uint32_t)layer0 : 0);
  ct_buf_u16(out, w->nv0layers);
  if (v1) {
    ct_buf_u32(out, (uint32_t)blist);
    ct_buf_u32(out, w->nlayers ? (uint32_t)llist : 0);
    ct_buf_u32(out, 0);   /* no ClipList: renderers find the bounds */
    ct_buf_u32(out, 0);   /* no variations */
    ct_buf_u32(out, 0);
  }
  for (i = 0; i < w->nv0; i++) {
    ct_buf_u16(out, w->v0[i].gid);
    ct_buf_u16(out, w->v0[i].first);
    ct_buf_u16(out, w->v0[i].count);
  }
  ct_buf_bytes(out, w->v0layers.p, w->v0layers.len);
  if (v1) {
    ct_buf_u32(out, w->nv1);
    for (i = 0; i < w->nv1; i++) {
      ct_buf_u16(out, w->v1[i].gid);
      ct_buf_u32(out, (uint32_t)(heap + w->v1[i].heap - blist));
    }
    if (w->nlayers) {
      ct_buf_u32(out, w->nlayers);
      for (i = 0; i < w->nlayers; i++) ct_buf_u32(out, (uint32_t)(heap + w->layers[i] - llist));
    }
    ct_buf_bytes(out, w->heap.p, w->heap.len);
  }
  return !out->failed && !w->heap.failed && !w->v0layers.failed;
}

/* ---- CPAL --------------------------------------------------------------------- */

static unsigned byte(double v) {
  return (unsigned)lround(fmin(1.0, fmax(0.0, v)) * 255.0);
}

void ct_cpal_encode(ct_buf_t *out, unsigned entries, unsigned count, const ct_rgba_t *colors,
                    const uint32_t *types, const unsigned *name_ids, const unsigned *label_ids) {
  int v1 = types || name_ids || label_ids;
  size_t header = 12 + 2 * (size_t)count + (v1 ? 12 : 0), records = header;
  size_t after = records + 4 * (size_t)entries * count;
  unsigned i;
  ct_buf_u16(out, v1 ? 1 : 0);
  ct_buf_u16(out, entries);
  ct_buf_u16(out, count);
  ct_buf_u16(out, entries * count);
  ct_buf_u32(out, (uint32_t)records);
  for (i = 0; i < count; i++) ct_buf_u16(out, i * entries);
  if (v1) {
    size_t t = types ? after : 0, n = name_ids ? after + (types ? 4 * (size_t)count : 0) : 0;
    size_t l = label_ids ? after + (types ? 4 * (size_t)count : 0) + (name_ids ? 2 * (size_t)count : 0) : 0;
    ct_buf_u32(out, (uint32_t)t);
    ct_buf_u32(out, (uint32_t)n);
    ct_buf_u32(out, (uint32_t)l);
  }
  for (i = 0; i < entries * count; i++) {   /* BGRA */
    ct_buf_u8(out, byte(colors[i].b));
    ct_buf_u8(out, byte(colors[i].g));
    ct_buf_u8(out, byte(colors[i].r));
    ct_buf_u8(out, byte(colors[i].a));
  }
  if (types)
    for (i = 0; i < count; i++) ct_buf_u32(out, types[i]);
  if (name_ids)
    for (i = 0; i < count; i++) ct_buf_u16(out, name_ids[i]);
  if (label_ids)
    for (i = 0; i < entries; i++) ct_buf_u16(out, label_ids[i]);
}
