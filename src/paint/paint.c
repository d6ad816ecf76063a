/*
** paint.c: the paint tree, the one representation of every color glyph: node
** constructors, reference counting, and the names of kinds and modes.  Paint stage: an
** SVG glyph is known here only by its head (paint.h).
*/
#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "paint.h"

/* Nodes are charged to --max-memory one by one (base/memory.c): a NULL past the limit is
   reported as it, the limit having stopped the run. */
static ct_paint_t *node_new(ct_paint_kind_t kind) {
  ct_paint_t *p;
  if (ct_mem_charge(sizeof *p, "a paint tree", NULL) != CT_OK) return NULL;
  if (!(p = calloc(1, sizeof *p))) ct_mem_release(sizeof *p);
  if (p) {
    p->ref = 1;
    p->kind = kind;
    p->weight = 1;
    p->height = 1;
  }
  return p;
}

static void node_free(ct_paint_t *p) {
  free(p);
  ct_mem_release(sizeof *p);
}

/* Adds a child's cost to its parent's. */
static void add_cost(ct_paint_t *p, const ct_paint_t *child) {
  p->weight = child->weight > UINT32_MAX - p->weight ? UINT32_MAX : p->weight + child->weight;
  if (child->height + 1 > p->height) p->height = child->height + 1;
  p->animated |= child->animated;
}

ct_paint_t *ct_paint_layers_create(unsigned capacity) {
  ct_paint_t *p = node_new(CT_PAINT_LAYERS);
  if (p && capacity) {
    p->u.layers.children = calloc(capacity, sizeof *p->u.layers.children);
    if (!p->u.layers.children) { node_free(p); return NULL; }
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

ct_paint_t *ct_paint_svg_create(ct_svg_glyph_t *glyph, int layer) {
  ct_paint_t *p = glyph ? node_new(CT_PAINT_SVG) : NULL;
  if (p) {
    p->u.svg.glyph = ct_svg_glyph_reference(glyph);
    p->u.svg.gid = ct_svg_glyph_get_gid(glyph);
    p->u.svg.layer = layer < 0 || (unsigned)layer >= ct_svg_glyph_get_layer_count(glyph) ? -1 : layer;
    p->animated = ct_svg_glyph_is_animated(glyph) != 0;
  }
  return p;
}

/* SVG glyphs, by their head: the glyph stage made the rest and frees it. */
static ct_svg_glyph_head_t *head(const ct_svg_glyph_t *g) { return (ct_svg_glyph_head_t *)(uintptr_t)g; }

ct_svg_glyph_t *ct_svg_glyph_reference(ct_svg_glyph_t *g) {
  if (g) head(g)->ref++;
  return g;
}

void ct_svg_glyph_destroy(ct_svg_glyph_t *g) {
  if (!g || --head(g)->ref > 0) return;
  head(g)->free(g);
}

unsigned ct_svg_glyph_get_gid(const ct_svg_glyph_t *g) { return head(g)->gid; }
unsigned ct_svg_glyph_get_layer_count(const ct_svg_glyph_t *g) { return head(g)->nlayers; }
int ct_svg_glyph_is_animated(const ct_svg_glyph_t *g) { return head(g)->animated; }

ct_paint_t *ct_paint_bitmap_create(ct_font_t *font, unsigned gid) {
  ct_paint_t *p = node_new(CT_PAINT_BITMAP);
  if (p) {
    p->u.bitmap.font = ct_font_reference(font);
    p->u.bitmap.gid = gid;
  }
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
  if (copy_line(&p->u.linear.line, line)) { node_free(p); return NULL; }
  p->u.linear.x0 = pt[0]; p->u.linear.y0 = pt[1];
  p->u.linear.x1 = pt[2]; p->u.linear.y1 = pt[3];
  p->u.linear.x2 = pt[4]; p->u.linear.y2 = pt[5];
  return p;
}

ct_paint_t *ct_paint_radial_create(const ct_color_line_t *line, const double c[6]) {
  ct_paint_t *p = node_new(CT_PAINT_RADIAL);
  if (!p) return NULL;
  if (copy_line(&p->u.radial.line, line)) { node_free(p); return NULL; }
  p->u.radial.x0 = c[0]; p->u.radial.y0 = c[1]; p->u.radial.r0 = c[2];
  p->u.radial.x1 = c[3]; p->u.radial.y1 = c[4]; p->u.radial.r1 = c[5];
  return p;
}

ct_paint_t *ct_paint_sweep_create(const ct_color_line_t *line, double cx, double cy,
                                  double start_deg, double end_deg) {
  ct_paint_t *p = node_new(CT_PAINT_SWEEP);
  if (!p) return NULL;
  if (copy_line(&p->u.sweep.line, line)) { node_free(p); return NULL; }
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
  case CT_PAINT_SVG: ct_svg_glyph_destroy(p->u.svg.glyph); break;
  case CT_PAINT_BITMAP: ct_font_destroy(p->u.bitmap.font); break;
  case CT_PAINT_SOLID: case CT_PAINT_KIND_COUNT: break;
  }
  node_free(p);
}

static const char *const kind_names[CT_PAINT_KIND_COUNT] = {
  "layers", "glyph", "solid", "linear", "radial", "sweep", "transform", "composite", "clip",
  "svg", "bitmap"
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

/* ---- traces ------------------------------------------------------------- */

typedef struct { char *buf; size_t len, cap; int failed; unsigned long visits; } text_t;

static void put(text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text_t *t, const char *fmt, ...) {
  va_list ap;
  int n;
  if (t->failed) return;
  for (;;) {
    va_start(ap, fmt);
    n = vsnprintf(t->buf ? t->buf + t->len : NULL, t->cap - t->len, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < t->cap - t->len) break;
    {
      size_t cap = t->cap * 2 + (size_t)(n > 0 ? n : 0) + 256;
      char *b = realloc(t->buf, cap);
      if (!b) { t->failed = 1; return; }
      t->buf = b;
      t->cap = cap;
    }
  }
  t->len += (size_t)n;
}

/* %.3g without a negative zero */
static void num(text_t *t, double v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%.3g", v);
  put(t, " %s", strcmp(buf, "-0") == 0 ? "0" : buf);
}

static void color(text_t *t, const ct_color_t *c) {
  switch (c->kind) {
  case CT_COLOR_PALETTE: put(t, " palette %u", c->index); break;
  case CT_COLOR_FOREGROUND: put(t, " foreground"); break;
  case CT_COLOR_RGBA:
    put(t, " rgba");
    num(t, c->rgba.r); num(t, c->rgba.g); num(t, c->rgba.b); num(t, c->rgba.a);
    break;
  }
  put(t, " alpha");
  num(t, c->alpha);
}

static const char *const extend_names[] = { "pad", "repeat", "reflect" };

static void line(text_t *t, const ct_color_line_t *l, int depth) {
  unsigned i;
  put(t, "%*sextend %s\n", depth * 2, "", (unsigned)l->extend < 3 ? extend_names[l->extend] : "?");
  for (i = 0; i < l->count; i++) {
    put(t, "%*sstop", depth * 2, "");
    num(t, l->stops[i].offset);
    color(t, &l->stops[i].color);
    put(t, "\n");
  }
}

static void trace(text_t *t, const ct_paint_t *p, int depth) {
  unsigned i;
  if (t->failed || ++t->visits > CT_MAX_PAINT_WORK) {   /* a tree that shares its children */
    if (t->visits == CT_MAX_PAINT_WORK + 1u)
      put(t, "%*s... the trace stops after %u nodes (CT_MAX_PAINT_WORK)\n", depth * 2, "", CT_MAX_PAINT_WORK);
    return;
  }
  put(t, "%*s%s", depth * 2, "", ct_paint_kind_name(p->kind));
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    put(t, " %u\n", p->u.layers.count);
    for (i = 0; i < p->u.layers.count; i++) trace(t, p->u.layers.children[i], depth + 1);
    return;
  case CT_PAINT_GLYPH:
    put(t, " gid %u%s\n", p->u.glyph.gid, p->u.glyph.font ? " (another font)" : "");
    trace(t, p->u.glyph.child, depth + 1);
    return;
  case CT_PAINT_SOLID:
    color(t, &p->u.solid.color);
    put(t, "\n");
    return;
  case CT_PAINT_LINEAR:
    put(t, " p0"); num(t, p->u.linear.x0); num(t, p->u.linear.y0);
    put(t, " p1"); num(t, p->u.linear.x1); num(t, p->u.linear.y1);
    put(t, " p2"); num(t, p->u.linear.x2); num(t, p->u.linear.y2);
    put(t, "\n");
    line(t, &p->u.linear.line, depth + 1);
    return;
  case CT_PAINT_RADIAL:
    put(t, " c0"); num(t, p->u.radial.x0); num(t, p->u.radial.y0);
    put(t, " r0"); num(t, p->u.radial.r0);
    put(t, " c1"); num(t, p->u.radial.x1); num(t, p->u.radial.y1);
    put(t, " r1"); num(t, p->u.radial.r1);
    put(t, "\n");
    line(t, &p->u.radial.line, depth + 1);
    return;
  case CT_PAINT_SWEEP:
    put(t, " center"); num(t, p->u.sweep.cx); num(t, p->u.sweep.cy);
    put(t, " angles"); num(t, p->u.sweep.start_angle); num(t, p->u.sweep.end_angle);
    put(t, "\n");
    line(t, &p->u.sweep.line, depth + 1);
    return;
  case CT_PAINT_TRANSFORM:
    num(t, p->u.transform.xx); num(t, p->u.transform.yx); num(t, p->u.transform.xy);
    num(t, p->u.transform.yy); num(t, p->u.transform.dx); num(t, p->u.transform.dy);
    put(t, "\n");
    trace(t, p->u.transform.child, depth + 1);
    return;
  case CT_PAINT_COMPOSITE:
    put(t, " %s\n", ct_composite_mode_name(p->u.composite.mode));
    put(t, "%*ssource\n", depth * 2 + 2, "");
    trace(t, p->u.composite.source, depth + 2);
    put(t, "%*sbackdrop\n", depth * 2 + 2, "");
    trace(t, p->u.composite.backdrop, depth + 2);
    return;
  case CT_PAINT_CLIP:
    num(t, p->u.clip.x0); num(t, p->u.clip.y0); num(t, p->u.clip.x1); num(t, p->u.clip.y1);
    put(t, "\n");
    trace(t, p->u.clip.child, depth + 1);
    return;
  case CT_PAINT_SVG:
    if (p->u.svg.layer >= 0) put(t, " gid %u layer %d\n", p->u.svg.gid, p->u.svg.layer);
    else put(t, " gid %u (%u layers)\n", p->u.svg.gid, ct_svg_glyph_get_layer_count(p->u.svg.glyph));
    return;
  case CT_PAINT_BITMAP:
    put(t, " gid %u%s\n", p->u.bitmap.gid, p->u.bitmap.font ? " (another font)" : "");
    return;
  case CT_PAINT_KIND_COUNT:
    put(t, "\n");
    return;
  }
}

char *ct_paint_trace(const ct_paint_t *paint) {
  text_t t = { NULL, 0, 0, 0, 0 };
  put(&t, "%s", "");
  if (paint) trace(&t, paint, 0);
  if (t.failed) {
    free(t.buf);
    return NULL;
  }
  return t.buf;
}

/* A linear gradient's color line: p2 sets the direction of the isolines, so the line runs
   from p0 to p1 projected onto the normal of p0->p2.  Returns 0 when it has no direction. */
int ct_paint_linear_line(const ct_paint_t *p, double line[4]) {
  double x0 = p->u.linear.x0, y0 = p->u.linear.y0, x1 = p->u.linear.x1, y1 = p->u.linear.y1;
  double nx = p->u.linear.y2 - y0, ny = -(p->u.linear.x2 - x0), nn = nx * nx + ny * ny;
  if (nn > 0) {
    double t = ((x1 - x0) * nx + (y1 - y0) * ny) / nn;
    x1 = x0 + t * nx;
    y1 = y0 + t * ny;
  }
  line[0] = x0;
  line[1] = y0;
  line[2] = x1;
  line[3] = y1;
  return !(fabs(x1 - x0) < 1e-9 && fabs(y1 - y0) < 1e-9);
}
