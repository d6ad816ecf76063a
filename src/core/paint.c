/*
** paint.c: the paint tree, the one representation of every color glyph: node
** constructors, reference counting, and the names of kinds and modes.  Core layer.
*/
#include <stdlib.h>
#include <string.h>

#include "ct-private.h"

static ct_paint_t *node_new(ct_paint_kind_t kind) {
  ct_paint_t *p = calloc(1, sizeof *p);
  if (p) {
    p->ref = 1;
    p->kind = kind;
    p->weight = 1;
    p->height = 1;
  }
  return p;
}

/* Adds a child's cost to its parent's. */
static void add_cost(ct_paint_t *p, const ct_paint_t *child) {
  p->weight = child->weight > UINT32_MAX - p->weight ? UINT32_MAX : p->weight + child->weight;
  if (child->height + 1 > p->height) p->height = child->height + 1;
}

ct_paint_t *ct_paint_layers_create(unsigned capacity) {
  ct_paint_t *p = node_new(CT_PAINT_LAYERS);
  if (p && capacity) {
    p->u.layers.children = calloc(capacity, sizeof *p->u.layers.children);
    if (!p->u.layers.children) { free(p); return NULL; }
  }
  return p;
}

/* Children are appended one at a time; the array grows by doubling, and its
   capacity is the next power of two of the count (or the initial capacity). */
ct_status_t ct_paint_layers_append(ct_paint_t *layers, ct_paint_t *child) {
  unsigned n = layers->u.layers.count;
  if (!child) return CT_ERR_NOMEM;
  if (n == 0 || (n & (n - 1)) == 0) {   /* n is 0 or a power of two: maybe grow */
    size_t cap = n ? (size_t)n * 2 : 4;
    ct_paint_t **c = realloc(layers->u.layers.children, cap * sizeof *c);
    if (!c) { ct_paint_destroy(child); return CT_ERR_NOMEM; }
    layers->u.layers.children = c;
  }
  layers->u.layers.children[n] = child;
  layers->u.layers.count = n + 1;
  add_cost(layers, child);
  return CT_OK;
}

ct_paint_t *ct_paint_glyph_create(ct_font_t *font, unsigned gid, ct_paint_t *child) {
  ct_paint_t *p = child ? node_new(CT_PAINT_GLYPH) : NULL;
  if (!p) { ct_paint_destroy(child); return NULL; }
  p->u.glyph.font = ct_font_reference(font);
  p->u.glyph.gid = gid;
  p->u.glyph.child = child;
  add_cost(p, child);
  return p;
}

ct_paint_t *ct_paint_solid_create(ct_color_t color) {
  ct_paint_t *p = node_new(CT_PAINT_SOLID);
  if (p) p->u.solid.color = color;
  return p;
}

ct_paint_t *ct_paint_transform_create(const double m[6], ct_paint_t *child) {
  ct_paint_t *p = child ? node_new(CT_PAINT_TRANSFORM) : NULL;
  if (!p) { ct_paint_destroy(child); return NULL; }
  p->u.transform.xx = m[0];
  p->u.transform.yx = m[1];
  p->u.transform.xy = m[2];
  p->u.transform.yy = m[3];
  p->u.transform.dx = m[4];
  p->u.transform.dy = m[5];
  p->u.transform.child = child;
  add_cost(p, child);
  return p;
}

ct_paint_t *ct_paint_composite_create(ct_composite_mode_t mode, ct_paint_t *source,
                                      ct_paint_t *backdrop) {
  ct_paint_t *p = source && backdrop ? node_new(CT_PAINT_COMPOSITE) : NULL;
  if (!p) {
    ct_paint_destroy(source);
    ct_paint_destroy(backdrop);
    return NULL;
  }
  p->u.composite.mode = mode;
  p->u.composite.source = source;
  p->u.composite.backdrop = backdrop;
  add_cost(p, source);
  add_cost(p, backdrop);
  return p;
}

ct_paint_t *ct_paint_clip_create(double x0, double y0, double x1, double y1, ct_paint_t *child) {
  ct_paint_t *p = child ? node_new(CT_PAINT_CLIP) : NULL;
  if (!p) { ct_paint_destroy(child); return NULL; }
  p->u.clip.x0 = x0;
  p->u.clip.y0 = y0;
  p->u.clip.x1 = x1;
  p->u.clip.y1 = y1;
  p->u.clip.child = child;
  add_cost(p, child);
  return p;
}

static int copy_line(ct_color_line_t *dst, const ct_color_line_t *src) {
  *dst = *src;
  dst->stops = NULL;
  if (src->count == 0) return 0;
  dst->stops = malloc(src->count * sizeof *dst->stops);
  if (!dst->stops) return -1;
  memcpy(dst->stops, src->stops, src->count * sizeof *dst->stops);
  return 0;
}

ct_paint_t *ct_paint_linear_create(const ct_color_line_t *line, const double pt[6]) {
  ct_paint_t *p = node_new(CT_PAINT_LINEAR);
  if (!p) return NULL;
  if (copy_line(&p->u.linear.line, line)) { free(p); return NULL; }
  p->u.linear.x0 = pt[0]; p->u.linear.y0 = pt[1];
  p->u.linear.x1 = pt[2]; p->u.linear.y1 = pt[3];
  p->u.linear.x2 = pt[4]; p->u.linear.y2 = pt[5];
  return p;
}

ct_paint_t *ct_paint_radial_create(const ct_color_line_t *line, const double c[6]) {
  ct_paint_t *p = node_new(CT_PAINT_RADIAL);
  if (!p) return NULL;
  if (copy_line(&p->u.radial.line, line)) { free(p); return NULL; }
  p->u.radial.x0 = c[0]; p->u.radial.y0 = c[1]; p->u.radial.r0 = c[2];
  p->u.radial.x1 = c[3]; p->u.radial.y1 = c[4]; p->u.radial.r1 = c[5];
  return p;
}

ct_paint_t *ct_paint_sweep_create(const ct_color_line_t *line, double cx, double cy,
                                  double start_deg, double end_deg) {
  ct_paint_t *p = node_new(CT_PAINT_SWEEP);
  if (!p) return NULL;
  if (copy_line(&p->u.sweep.line, line)) { free(p); return NULL; }
  p->u.sweep.cx = cx;
  p->u.sweep.cy = cy;
  p->u.sweep.start_angle = start_deg;
  p->u.sweep.end_angle = end_deg;
  return p;
}

ct_paint_t *ct_paint_reference(ct_paint_t *paint) {
  if (paint) paint->ref++;
  return paint;
}

void ct_paint_destroy(ct_paint_t *p) {
  unsigned i;
  if (!p || --p->ref > 0) return;
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    for (i = 0; i < p->u.layers.count; i++) ct_paint_destroy(p->u.layers.children[i]);
    free(p->u.layers.children);
    break;
  case CT_PAINT_GLYPH:
    ct_paint_destroy(p->u.glyph.child);
    ct_font_destroy(p->u.glyph.font);
    break;
  case CT_PAINT_LINEAR: free(p->u.linear.line.stops); break;
  case CT_PAINT_RADIAL: free(p->u.radial.line.stops); break;
  case CT_PAINT_SWEEP: free(p->u.sweep.line.stops); break;
  case CT_PAINT_TRANSFORM: ct_paint_destroy(p->u.transform.child); break;
  case CT_PAINT_COMPOSITE:
    ct_paint_destroy(p->u.composite.source);
    ct_paint_destroy(p->u.composite.backdrop);
    break;
  case CT_PAINT_CLIP: ct_paint_destroy(p->u.clip.child); break;
  case CT_PAINT_SOLID: case CT_PAINT_KIND_COUNT: break;
  }
  free(p);
}

static const char *const kind_names[CT_PAINT_KIND_COUNT] = {
  "layers", "glyph", "solid", "linear", "radial", "sweep", "transform", "composite", "clip"
};

const char *ct_paint_kind_name(ct_paint_kind_t kind) {
  return (unsigned)kind < CT_PAINT_KIND_COUNT ? kind_names[kind] : "unknown";
}

static int find_name(const char *const *names, int n, const char *name) {
  int i;
  for (i = 0; i < n; i++)
    if (strcmp(names[i], name) == 0) return i;
  return -1;
}

int ct_paint_kind_from_name(const char *name) {
  return find_name(kind_names, CT_PAINT_KIND_COUNT, name);
}

static const char *const mode_names[CT_COMPOSITE_MODE_COUNT] = {
  "clear", "src", "dest", "src_over", "dest_over", "src_in", "dest_in", "src_out", "dest_out",
  "src_atop", "dest_atop", "xor", "plus", "screen", "overlay", "darken", "lighten",
  "color_dodge", "color_burn", "hard_light", "soft_light", "difference", "exclusion",
  "multiply", "hsl_hue", "hsl_saturation", "hsl_color", "hsl_luminosity"
};

const char *ct_composite_mode_name(ct_composite_mode_t mode) {
  return (unsigned)mode < CT_COMPOSITE_MODE_COUNT ? mode_names[mode] : "unknown";
}

int ct_composite_mode_from_name(const char *name) {
  return find_name(mode_names, CT_COMPOSITE_MODE_COUNT, name);
}

static const char *const format_names[CT_FORMAT_COUNT] = {
  "auto", "colr1", "colr0", "svg", "bitmap", "mono"
};

const char *ct_format_name(ct_format_t format) {
  return (unsigned)format < CT_FORMAT_COUNT ? format_names[format] : "unknown";
}

int ct_format_from_name(const char *name) {
  return find_name(format_names, CT_FORMAT_COUNT, name);
}

ct_color_t ct_color_palette(unsigned index, double alpha) {
  ct_color_t c;
  memset(&c, 0, sizeof c);
  c.kind = index == CT_PALETTE_FOREGROUND ? CT_COLOR_FOREGROUND : CT_COLOR_PALETTE;
  c.index = index;
  c.alpha = alpha;
  return c;
}

ct_color_t ct_color_foreground(double alpha) {
  return ct_color_palette(CT_PALETTE_FOREGROUND, alpha);
}

ct_color_t ct_color_rgba(ct_rgba_t rgba) {
  ct_color_t c;
  memset(&c, 0, sizeof c);
  c.kind = CT_COLOR_RGBA;
  c.rgba = rgba;
  c.alpha = 1.0;
  return c;
}
