/*
** render.c: the compositor: draws a paint tree (font units, y up) with cairo.
** Palette entries are resolved here, at draw time.  Core layer.
*/
#include <math.h>
#include <string.h>

#include "ct-private.h"

static void set_color(cairo_t *cr, ct_draw_ctx_t *ctx, const ct_color_t *color) {
  ct_rgba_t c = ct_palette_color(ctx->palette, color);
  cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a);
}

static int add_stops(cairo_pattern_t *pat, ct_draw_ctx_t *ctx, const ct_color_line_t *line) {
  unsigned i;
  static const cairo_extend_t extend[] = { CAIRO_EXTEND_PAD, CAIRO_EXTEND_REPEAT,
                                           CAIRO_EXTEND_REFLECT };
  for (i = 0; i < line->count; i++) {
    ct_rgba_t c = ct_palette_color(ctx->palette, &line->stops[i].color);
    cairo_pattern_add_color_stop_rgba(pat, line->stops[i].offset, c.r, c.g, c.b, c.a);
  }
  cairo_pattern_set_extend(pat, extend[(unsigned)line->extend < 3 ? line->extend : 0]);
  return cairo_pattern_status(pat) == CAIRO_STATUS_SUCCESS;
}

/* COLR's three-point linear gradient: p2 sets the direction of the isolines; the
   color line runs from p0 to p1 projected onto the normal of p0->p2. */
static cairo_pattern_t *linear_pattern(const ct_paint_t *p) {
  double x0 = p->u.linear.x0, y0 = p->u.linear.y0;
  double x1 = p->u.linear.x1, y1 = p->u.linear.y1;
  double nx = p->u.linear.y2 - y0, ny = -(p->u.linear.x2 - x0);   /* normal of p0->p2 */
  double nn = nx * nx + ny * ny;
  if (nn > 0) {
    double t = ((x1 - x0) * nx + (y1 - y0) * ny) / nn;
    x1 = x0 + t * nx;
    y1 = y0 + t * ny;
  }
  return cairo_pattern_create_linear(x0, y0, x1, y1);
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

static void draw_gradient(cairo_t *cr, ct_draw_ctx_t *ctx, const ct_paint_t *p) {
  cairo_pattern_t *pat = NULL;
  const ct_color_line_t *line = NULL;
  if (p->kind == CT_PAINT_LINEAR) {
    pat = linear_pattern(p);
    line = &p->u.linear.line;
  } else if (p->kind == CT_PAINT_RADIAL) {
    pat = cairo_pattern_create_radial(p->u.radial.x0, p->u.radial.y0, p->u.radial.r0,
                                      p->u.radial.x1, p->u.radial.y1, p->u.radial.r1);
    line = &p->u.radial.line;
  } else {
    return;   /* sweep gradients: drawn by the COLRv1 renderer (mesh patches) */
  }
  if (add_stops(pat, ctx, line)) {
    cairo_set_source(cr, pat);
    cairo_paint(cr);
  }
  cairo_pattern_destroy(pat);
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
  case CT_PAINT_LINEAR: case CT_PAINT_RADIAL: case CT_PAINT_SWEEP:
    draw_gradient(cr, ctx, p);
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
  case CT_PAINT_COMPOSITE: {
    ct_composite_mode_t mode = p->u.composite.mode;
    cairo_push_group(cr);
    draw(cr, ctx, p->u.composite.backdrop);
    cairo_push_group(cr);
    draw(cr, ctx, p->u.composite.source);
    cairo_pop_group_to_source(cr);
    /* An unknown mode composites as clear, as the spec says. */
    cairo_set_operator(cr, (unsigned)mode < CT_COMPOSITE_MODE_COUNT ? composite_ops[mode]
                                                                    : CAIRO_OPERATOR_CLEAR);
    cairo_paint(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
    cairo_pop_group_to_source(cr);
    cairo_paint(cr);
    break;
  }
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
