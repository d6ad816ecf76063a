/*
** render.c: the compositor: draws a paint tree (font units, y up) with cairo.
** Palette entries are resolved here, at draw time.  Paint stage: SVG and bitmap glyphs
** are drawn through the context's images (the glyph stage's), never read here.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "paint.h"

static void set_color(cairo_t *cr, ct_draw_ctx_t *ctx, const ct_color_t *color) {
  ct_rgba_t c = ct_palette_color(ctx->palette, color);
  if (ctx->ninks) ct_ink_flatten(ctx->inks, ctx->ninks, &c);
  cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a);
}

static const cairo_operator_t composite_ops[CT_COMPOSITE_MODE_COUNT] = {
  CAIRO_OPERATOR_CLEAR, CAIRO_OPERATOR_SOURCE, CAIRO_OPERATOR_DEST, CAIRO_OPERATOR_OVER,
  CAIRO_OPERATOR_DEST_OVER, CAIRO_OPERATOR_IN, CAIRO_OPERATOR_DEST_IN, CAIRO_OPERATOR_OUT,
  CAIRO_OPERATOR_DEST_OUT, CAIRO_OPERATOR_ATOP, CAIRO_OPERATOR_DEST_ATOP, CAIRO_OPERATOR_XOR,
  CAIRO_OPERATOR_ADD, CAIRO_OPERATOR_SCREEN, CAIRO_OPERATOR_OVERLAY, CAIRO_OPERATOR_DARKEN,
  CAIRO_OPERATOR_LIGHTEN, CAIRO_OPERATOR_COLOR_DODGE, CAIRO_OPERATOR_COLOR_BURN,
  CAIRO_OPERATOR_HARD_LIGHT, CAIRO_OPERATOR_SOFT_LIGHT, CAIRO_OPERATOR_DIFFERENCE,
  CAIRO_OPERATOR_EXCLUSION, CAIRO_OPERATOR_MULTIPLY, CAIRO_OPERATOR_HSL_HUE,
  CAIRO_OPERATOR_HSL_SATURATION, CAIRO_OPERATOR_HSL_COLOR, CAIRO_OPERATOR_HSL_LUMINOSITY
};

static void draw(cairo_t *cr, ct_draw_ctx_t *ctx, const ct_paint_t *p);
static void draw_composite(cairo_t *cr, ct_draw_ctx_t *ctx, const ct_paint_t *p);

static void draw_glyph(cairo_t *cr, ct_draw_ctx_t *ctx, const ct_paint_t *p) {
  ct_font_t *font = p->u.glyph.font ? p->u.glyph.font : ctx->font;
  const cairo_path_t *path = ct_font_get_outline(font, p->u.glyph.gid);
  const ct_paint_t *child = p->u.glyph.child;
  if (!path) return;   /* an empty outline clips everything away */
  cairo_new_path(cr);
  cairo_append_path(cr, path);
  if (child->kind == CT_PAINT_SOLID) {   /* the common case: a fill, no clip */
    set_color(cr, ctx, &child->u.solid.color);
    cairo_fill(cr);
    return;
  }
  cairo_save(cr);
  cairo_clip(cr);
  draw(cr, ctx, child);
  cairo_restore(cr);
}

/* ---- gradients -------------------------------------------------------- */

typedef struct { double t; ct_rgba_t c; } stop_t;   /* straight alpha */

/* Resolved stops (sorted by the tree's builder); returns the count, 0 if none. */
static unsigned resolve_stops(ct_draw_ctx_t *ctx, const ct_color_line_t *line, stop_t *buf,
                              unsigned max, stop_t **out) {
  stop_t *s = line->count <= max ? buf : malloc(line->count * sizeof *s);
  unsigned i;
  *out = s;
  if (!s) return 0;
  for (i = 0; i < line->count; i++) {
    s[i].t = line->stops[i].offset;
    s[i].c = ct_palette_color(ctx->palette, &line->stops[i].color);
    if (ctx->ninks) ct_ink_flatten(ctx->inks, ctx->ninks, &s[i].c);
  }
  return line->count;
}

/* Colors interpolate in premultiplied alpha (the spec), returned straight. */
static ct_rgba_t mix(ct_rgba_t a, ct_rgba_t b, double f) {
  ct_rgba_t r;
  double pa = a.a * (1 - f), pb = b.a * f;
  r.a = pa + pb;
  if (r.a <= 0) {
    r.r = a.r + (b.r - a.r) * f;
    r.g = a.g + (b.g - a.g) * f;
    r.b = a.b + (b.b - a.b) * f;
    return r;
  }
  r.r = (a.r * pa + b.r * pb) / r.a;
  r.g = (a.g * pa + b.g * pb) / r.a;
  r.b = (a.b * pa + b.b * pb) / r.a;
  return r;
}

/* The color line at t in the stops' own range [s[0].t, s[n-1].t]. */
static ct_rgba_t line_at(const stop_t *s, unsigned n, double t) {
  unsigned i;
  if (t <= s[0].t) return s[0].c;
  for (i = 1; i < n; i++)
    if (t < s[i].t) return mix(s[i - 1].c, s[i].c, (t - s[i - 1].t) / (s[i].t - s[i - 1].t));
  return s[n - 1].c;
}

/* Maps t into [lo, hi] by the extend mode. */
static double extend_t(ct_extend_t mode, double t, double lo, double hi) {
  double w = hi - lo, u;
  if (mode == CT_EXTEND_PAD || w <= 0) return t < lo ? lo : t > hi ? hi : t;
  u = fmod(t - lo, mode == CT_EXTEND_REFLECT ? 2 * w : w);
  if (u < 0) u += mode == CT_EXTEND_REFLECT ? 2 * w : w;
  if (mode == CT_EXTEND_REFLECT && u > w) u = 2 * w - u;
  return lo + u;
}

/* Adds stops normalized to 0..1; between stops whose alphas differ, extra stops make
   cairo's straight-alpha interpolation follow the premultiplied one. */
static void add_stops(cairo_pattern_t *pat, const stop_t *s, unsigned n, double lo, double hi) {
  unsigned i, k;
  for (i = 0; i < n; i++) {
    double t = (s[i].t - lo) / (hi - lo);
    cairo_pattern_add_color_stop_rgba(pat, t, s[i].c.r, s[i].c.g, s[i].c.b, s[i].c.a);
    if (i + 1 < n && s[i].c.a != s[i + 1].c.a && s[i + 1].t > s[i].t) {
      double t1 = (s[i + 1].t - lo) / (hi - lo);
      for (k = 1; k < 8; k++) {
        ct_rgba_t c = mix(s[i].c, s[i + 1].c, k / 8.0);
        cairo_pattern_add_color_stop_rgba(pat, t + (t1 - t) * k / 8.0, c.r, c.g, c.b, c.a);
      }
    }
  }
}

static const cairo_extend_t cairo_extend[] = { CAIRO_EXTEND_PAD, CAIRO_EXTEND_REPEAT,
                                               CAIRO_EXTEND_REFLECT };

/* Linear and radial: the color line's stop range becomes 0..1 (cairo clamps offsets),
   moving the geometry with it. */
static void draw_linear_radial(cairo_t *cr, ct_draw_ctx_t *ctx, const ct_paint_t *p) {
  const ct_color_line_t *line = p->kind == CT_PAINT_LINEAR ? &p->u.linear.line : &p->u.radial.line;
  stop_t buf[16], *s;
  unsigned n = resolve_stops(ctx, line, buf, 16, &s);
  cairo_pattern_t *pat = NULL;
  double lo, hi;

  if (n == 0) goto done;
  if (n == 1) {
    cairo_set_source_rgba(cr, s[0].c.r, s[0].c.g, s[0].c.b, s[0].c.a);
    cairo_paint(cr);
    goto done;
  }
  lo = s[0].t;
  hi = s[n - 1].t;
  if (hi - lo < 1e-9) {   /* all stops at one offset: a hard edge when padded, else nothing */
    if (line->extend != CT_EXTEND_PAD) goto done;
    hi = lo + 1;
  }
  if (p->kind == CT_PAINT_LINEAR) {
    double l[4], x0, y0, x1, y1;
    if (!ct_paint_linear_line(p, l)) goto done;   /* no direction */
    x0 = l[0], y0 = l[1], x1 = l[2], y1 = l[3];
    pat = cairo_pattern_create_linear(x0 + lo * (x1 - x0), y0 + lo * (y1 - y0),
                                      x0 + hi * (x1 - x0), y0 + hi * (y1 - y0));
  } else {
    double x0 = p->u.radial.x0, y0 = p->u.radial.y0, r0 = p->u.radial.r0;
    double dx = p->u.radial.x1 - x0, dy = p->u.radial.y1 - y0, dr = p->u.radial.r1 - r0;
    double ra = r0 + lo * dr, rb = r0 + hi * dr;
    if (ra <= 0 && rb <= 0) goto done;   /* flattened to a point or a line: not drawn */
    pat = cairo_pattern_create_radial(x0 + lo * dx, y0 + lo * dy, ra < 0 ? 0 : ra,
                                      x0 + hi * dx, y0 + hi * dy, rb < 0 ? 0 : rb);
  }
  add_stops(pat, s, n, lo, hi);
  cairo_pattern_set_extend(pat, cairo_extend[(unsigned)line->extend < 3 ? line->extend : 0]);
  if (cairo_pattern_status(pat) == CAIRO_STATUS_SUCCESS) {
    cairo_set_source(cr, pat);
    cairo_paint(cr);
  }
done:
  if (pat) cairo_pattern_destroy(pat);
  if (s != buf) free(s);
}

/* Sweep gradients, which cairo 1.16 lacks: mesh patches, one per slice of the circle,
   each colored at its two edge angles.  Angles run counter-clockwise from +x in font
   units (y up); the color line maps start..end, extended around the full circle. */
static void draw_sweep(cairo_t *cr, ct_draw_ctx_t *ctx, const ct_paint_t *p) {
  const ct_color_line_t *line = &p->u.sweep.line;
  stop_t buf[16], *s;
  unsigned n = resolve_stops(ctx, line, buf, 16, &s), k;
  double a0 = p->u.sweep.start_angle, a1 = p->u.sweep.end_angle;
  double cx = p->u.sweep.cx, cy = p->u.sweep.cy, x1, y1, x2, y2, r = 0, lo, hi;
  double cuts[1024];
  unsigned ncuts = 0;
  cairo_pattern_t *mesh;

  if (n == 0) goto done;
  lo = s[0].t;
  hi = s[n - 1].t;
  /* equal angles, or all stops at one offset: a hard edge when padded, else nothing */
  if ((fabs(a1 - a0) < 1e-9 || hi - lo < 1e-9) && line->extend != CT_EXTEND_PAD) goto done;
  /* a radius that covers what can be seen: the clip's corners from the center */
  cairo_clip_extents(cr, &x1, &y1, &x2, &y2);
  {
    double xs[2] = { x1, x2 }, ys[2] = { y1, y2 };
    unsigned i, j;
    for (i = 0; i < 2; i++)
      for (j = 0; j < 2; j++) {
        double d = hypot(xs[i] - cx, ys[j] - cy);
        if (d > r) r = d;
      }
  }
  if (!(r > 0) || !isfinite(r)) goto done;
  r = r * 1.01 + 1;

  /* slice edges: every 10 degrees, and at every angle where the color line has a stop */
  for (k = 0; k <= 36; k++) cuts[ncuts++] = k * 10.0;
  if (fabs(a1 - a0) >= 1e-9) {
    /* the color line's stops, repeated or mirrored as the extend mode says, as angles */
    double span = a1 - a0, w = hi - lo, ta = (0 - a0) / span, tb = (360 - a0) / span;
    double tmin = ta < tb ? ta : tb, tmax = ta < tb ? tb : ta;
    double period = line->extend == CT_EXTEND_REFLECT ? 2 * w : w;
    long m, mmin = 0, mmax = 0;
    unsigned i;
    if (line->extend != CT_EXTEND_PAD && period > 1e-9) {
      mmin = (long)floor((tmin - lo) / period) - 1;
      mmax = (long)ceil((tmax - lo) / period) + 1;
      if (mmax - mmin > 360) mmax = mmin + 360;   /* finer than a degree: enough cuts */
    }
    for (m = mmin; m <= mmax; m++)
      for (i = 0; i < n && ncuts < 1020; i++) {
        double ts[2], a;
        unsigned j, nts = 1;
        ts[0] = s[i].t + m * period;
        if (line->extend == CT_EXTEND_REFLECT) ts[nts++] = 2 * lo + 2 * w - s[i].t + m * period;
        for (j = 0; j < nts; j++) {
          a = a0 + ts[j] * span;
          if (a > 0 && a < 360) cuts[ncuts++] = a;
        }
      }
  }
  for (k = 1; k < ncuts; k++) {   /* insertion sort: a few dozen values */
    double v = cuts[k];
    unsigned j = k;
    while (j > 0 && cuts[j - 1] > v) { cuts[j] = cuts[j - 1]; j--; }
    cuts[j] = v;
  }

  mesh = cairo_pattern_create_mesh();
  for (k = 0; k + 1 < ncuts; k++) {
    double t0 = cuts[k] * M_PI / 180, t1 = cuts[k + 1] * M_PI / 180, h, mid;
    ct_rgba_t c0, c1;
    double u0, u1;
    if (t1 - t0 < 1e-9) continue;
    /* the color at each edge: slightly inside the slice, so hard stops stay hard */
    mid = 1e-6 * (cuts[k + 1] - cuts[k]);
    if (fabs(a1 - a0) < 1e-9) {   /* padded, zero width: first color before, last after */
      c0 = cuts[k] + mid < a0 ? s[0].c : s[n - 1].c;
      c1 = cuts[k + 1] - mid < a0 ? s[0].c : s[n - 1].c;
    } else if (hi - lo < 1e-9) {   /* padded, one offset: first color before it, last after */
      double edge = a0 + lo * (a1 - a0);
      int rev = a1 < a0;
      c0 = ((cuts[k] + mid < edge) != rev) ? s[0].c : s[n - 1].c;
      c1 = ((cuts[k + 1] - mid < edge) != rev) ? s[0].c : s[n - 1].c;
    } else {
      u0 = (cuts[k] + mid - a0) / (a1 - a0);
      u1 = (cuts[k + 1] - mid - a0) / (a1 - a0);
      c0 = line_at(s, n, extend_t(line->extend, u0, lo, hi));
      c1 = line_at(s, n, extend_t(line->extend, u1, lo, hi));
    }
    h = 4.0 / 3.0 * tan((t1 - t0) / 4);   /* cubic arc control length */
    cairo_mesh_pattern_begin_patch(mesh);
    cairo_mesh_pattern_move_to(mesh, cx, cy);
    cairo_mesh_pattern_line_to(mesh, cx + r * cos(t0), cy + r * sin(t0));
    cairo_mesh_pattern_curve_to(mesh, cx + r * (cos(t0) - h * sin(t0)), cy + r * (sin(t0) + h * cos(t0)),
                                cx + r * (cos(t1) + h * sin(t1)), cy + r * (sin(t1) - h * cos(t1)),
                                cx + r * cos(t1), cy + r * sin(t1));
    cairo_mesh_pattern_line_to(mesh, cx, cy);
    cairo_mesh_pattern_set_corner_color_rgba(mesh, 0, c0.r, c0.g, c0.b, c0.a);
    cairo_mesh_pattern_set_corner_color_rgba(mesh, 1, c0.r, c0.g, c0.b, c0.a);
    cairo_mesh_pattern_set_corner_color_rgba(mesh, 2, c1.r, c1.g, c1.b, c1.a);
    cairo_mesh_pattern_set_corner_color_rgba(mesh, 3, c1.r, c1.g, c1.b, c1.a);
    cairo_mesh_pattern_end_patch(mesh);
  }
  if (cairo_pattern_status(mesh) == CAIRO_STATUS_SUCCESS) {
    cairo_set_source(cr, mesh);
    cairo_paint(cr);
  }
  cairo_pattern_destroy(mesh);
done:
  if (s != buf) free(s);
}

/* ---- bounds of a subtree, in device space ----------------------------------- */

static void box_add(double b[4], double x, double y) {
  if (x < b[0]) b[0] = x;
  if (y < b[1]) b[1] = y;
  if (x > b[2]) b[2] = x;
  if (y > b[3]) b[3] = y;
}

/* Device-space box of what a subtree can paint; 0 when it is unbounded (a bare fill or
   gradient with no glyph or clip around it).  Used to bound the groups of composites:
   cairo's PDF fallback otherwise rasterizes the whole page for an unbounded operator. */
static int tree_bounds_walk(cairo_t *cr, ct_draw_ctx_t *ctx, const ct_paint_t *p, double b[4], unsigned depth,
                            unsigned *left) {
  unsigned i;
  int ok = 1;
  if (!p || depth > CT_MAX_PAINT_DEPTH || *left == 0) return 0;
  --*left;
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    for (i = 0; i < p->u.layers.count && ok; i++) ok = tree_bounds_walk(cr, ctx, p->u.layers.children[i], b, depth + 1, left);
    return ok;
  case CT_PAINT_COMPOSITE:
    return tree_bounds_walk(cr, ctx, p->u.composite.source, b, depth + 1, left) &&
           tree_bounds_walk(cr, ctx, p->u.composite.backdrop, b, depth + 1, left);
  case CT_PAINT_TRANSFORM: {
    cairo_matrix_t m;
    cairo_save(cr);
    cairo_matrix_init(&m, p->u.transform.xx, p->u.transform.yx, p->u.transform.xy,
                      p->u.transform.yy, p->u.transform.dx, p->u.transform.dy);
    cairo_transform(cr, &m);
    ok = tree_bounds_walk(cr, ctx, p->u.transform.child, b, depth + 1, left);
    cairo_restore(cr);
    return ok;
  }
  case CT_PAINT_GLYPH: case CT_PAINT_CLIP: case CT_PAINT_SVG: case CT_PAINT_BITMAP: {
    double x0, y0, x1, y1, xs[4], ys[4];
    cairo_new_path(cr);
    if (p->kind == CT_PAINT_GLYPH) {
      ct_font_t *font = p->u.glyph.font ? p->u.glyph.font : ctx->font;
      const cairo_path_t *path = ct_font_get_outline(font, p->u.glyph.gid);
      int k, j;
      if (!path) return 1;   /* paints nothing */
      /* the box of the outline's points, control points too: a little more than the
         curves' own, and much cheaper than handing the path to cairo */
      x0 = y0 = HUGE_VAL;
      x1 = y1 = -HUGE_VAL;
      for (k = 0; k < path->num_data; k += path->data[k].header.length)
        for (j = 1; j < path->data[k].header.length; j++) {
          double px = path->data[k + j].point.x, py = path->data[k + j].point.y;
          if (px < x0) x0 = px;
          if (px > x1) x1 = px;
          if (py < y0) y0 = py;
          if (py > y1) y1 = py;
        }
      if (x0 > x1) return 1;
    } else if (p->kind == CT_PAINT_CLIP) {
      x0 = p->u.clip.x0; y0 = p->u.clip.y0; x1 = p->u.clip.x1; y1 = p->u.clip.y1;
    } else {   /* svg and bitmap glyphs: within a generous em box */
      unsigned upem = ctx->font->upem;
      x0 = -(double)upem; y0 = -(double)upem; x1 = 2.0 * upem; y1 = 2.0 * upem;
    }
    cairo_new_path(cr);
    xs[0] = x0; ys[0] = y0; xs[1] = x1; ys[1] = y0; xs[2] = x0; ys[2] = y1; xs[3] = x1; ys[3] = y1;
    for (i = 0; i < 4; i++) {
      cairo_user_to_device(cr, &xs[i], &ys[i]);
      box_add(b, xs[i], ys[i]);
    }
    return 1;
  }
  default:
    return 0;
  }
}

/* At most CT_MAX_PAINT_WORK node visits (a subtree used twice counts twice): a larger tree
   is taken as unbounded. */
static int tree_bounds(cairo_t *cr, ct_draw_ctx_t *ctx, const ct_paint_t *p, double b[4], unsigned depth) {
  unsigned left = CT_MAX_PAINT_WORK;
  return tree_bounds_walk(cr, ctx, p, b, depth, &left);
}

int ct_render_bounds(cairo_t *cr, ct_draw_ctx_t *ctx, const ct_paint_t *p, double b[4]) {
  b[0] = b[1] = HUGE_VAL;
  b[2] = b[3] = -HUGE_VAL;
  if (!tree_bounds(cr, ctx, p, b, 0)) return 0;
  return b[0] <= b[2] && b[1] <= b[3];
}

/* Porter-Duff modes that PDF lacks are rewritten where an exact equivalent exists (so
   PDF output stays vector): CLEAR, SRC and DEST draw one side or none, DEST_OVER swaps
   the order, SRC_IN and DEST_IN are one side masked by the other's alpha.  The rest
   composite two groups with the cairo operator (PDF: rasterized by cairo's fallback
   for SRC_OUT, DEST_OUT, SRC_ATOP, DEST_ATOP, XOR and PLUS; blend modes stay vector). */
static void draw_composite(cairo_t *cr, ct_draw_ctx_t *ctx, const ct_paint_t *p) {
  const ct_paint_t *src = p->u.composite.source, *dst = p->u.composite.backdrop;
  ct_composite_mode_t mode = p->u.composite.mode;
  cairo_pattern_t *mask;
  switch (mode) {
  case CT_COMPOSITE_CLEAR: return;
  case CT_COMPOSITE_SRC: draw(cr, ctx, src); return;
  case CT_COMPOSITE_DEST: draw(cr, ctx, dst); return;
  case CT_COMPOSITE_SRC_OVER: draw(cr, ctx, dst); draw(cr, ctx, src); return;
  case CT_COMPOSITE_DEST_OVER: draw(cr, ctx, src); draw(cr, ctx, dst); return;
  case CT_COMPOSITE_SRC_IN: case CT_COMPOSITE_DEST_IN:
    cairo_push_group(cr);
    draw(cr, ctx, mode == CT_COMPOSITE_SRC_IN ? dst : src);
    mask = cairo_pop_group(cr);
    cairo_push_group(cr);
    draw(cr, ctx, mode == CT_COMPOSITE_SRC_IN ? src : dst);
    cairo_pop_group_to_source(cr);
    cairo_mask(cr, mask);
    cairo_pattern_destroy(mask);
    return;
  default:
    break;
  }
  cairo_save(cr);
  {
    double b[4] = { 1e300, 1e300, -1e300, -1e300 };
    if (tree_bounds(cr, ctx, p, b, 0) && b[0] <= b[2]) {   /* the groups need no more */
      cairo_matrix_t m;
      cairo_get_matrix(cr, &m);
      cairo_identity_matrix(cr);
      cairo_rectangle(cr, floor(b[0]) - 1, floor(b[1]) - 1, ceil(b[2]) - floor(b[0]) + 2,
                      ceil(b[3]) - floor(b[1]) + 2);
      cairo_clip(cr);
      cairo_set_matrix(cr, &m);
    }
  }
  cairo_push_group(cr);
  draw(cr, ctx, dst);
  cairo_push_group(cr);
  draw(cr, ctx, src);
  cairo_pop_group_to_source(cr);
  /* an unknown mode composites as clear, as the spec says */
  cairo_set_operator(cr, (unsigned)mode < CT_COMPOSITE_MODE_COUNT ? composite_ops[mode]
                                                                  : CAIRO_OPERATOR_CLEAR);
  cairo_paint(cr);
  cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
  cairo_pop_group_to_source(cr);
  cairo_paint(cr);
  cairo_restore(cr);
}

static void draw(cairo_t *cr, ct_draw_ctx_t *ctx, const ct_paint_t *p) {
  unsigned i;
  if (!p) return;
  if (ctx->depth >= CT_MAX_PAINT_DEPTH || ctx->work >= CT_MAX_PAINT_WORK) {
    ctx->limit_hit = 1;
    return;
  }
  ctx->work++;
  ctx->depth++;
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    for (i = 0; i < p->u.layers.count; i++) draw(cr, ctx, p->u.layers.children[i]);
    break;
  case CT_PAINT_GLYPH:
    draw_glyph(cr, ctx, p);
    break;
  case CT_PAINT_SOLID:
    set_color(cr, ctx, &p->u.solid.color);
    cairo_paint(cr);
    break;
  case CT_PAINT_LINEAR: case CT_PAINT_RADIAL:
    draw_linear_radial(cr, ctx, p);
    break;
  case CT_PAINT_SWEEP:
    draw_sweep(cr, ctx, p);
    break;
  case CT_PAINT_TRANSFORM: {
    cairo_matrix_t m, inv;
    cairo_matrix_init(&m, p->u.transform.xx, p->u.transform.yx, p->u.transform.xy,
                      p->u.transform.yy, p->u.transform.dx, p->u.transform.dy);
    inv = m;
    cairo_save(cr);
    if (cairo_matrix_invert(&inv) == CAIRO_STATUS_SUCCESS) {   /* singular: draws nothing */
      cairo_transform(cr, &m);
      draw(cr, ctx, p->u.transform.child);
    }
    cairo_restore(cr);
    break;
  }
  case CT_PAINT_CLIP:
    cairo_save(cr);
    cairo_rectangle(cr, p->u.clip.x0, p->u.clip.y0, p->u.clip.x1 - p->u.clip.x0,
                    p->u.clip.y1 - p->u.clip.y0);
    cairo_clip(cr);
    draw(cr, ctx, p->u.clip.child);
    cairo_restore(cr);
    break;
  case CT_PAINT_COMPOSITE:
    draw_composite(cr, ctx, p);
    break;
  case CT_PAINT_SVG:
    if (ctx->images) ctx->images->svg(cr, ctx->font, p->u.svg.glyph, p->u.svg.layer, ctx->palette, ctx->time);
    break;
  case CT_PAINT_BITMAP:
    if (ctx->images) ctx->images->bitmap(cr, p->u.bitmap.font ? p->u.bitmap.font : ctx->font, p->u.bitmap.gid);
    break;
  case CT_PAINT_KIND_COUNT:
    break;
  }
  ctx->depth--;
}

ct_status_t ct_render_paint(cairo_t *cr, ct_draw_ctx_t *ctx, const ct_paint_t *paint) {
  cairo_save(cr);
  cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
  draw(cr, ctx, paint);
  cairo_restore(cr);
  return cairo_status(cr) == CAIRO_STATUS_SUCCESS ? CT_OK : CT_ERR_BACKEND;
}
