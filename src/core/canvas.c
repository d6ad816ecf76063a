/*
** canvas.c: pages of drawing recorded in points (cairo recording surfaces), and text
** and paint trees drawn onto them.  Writing them out is output.c.  Core layer.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct-private.h"
#include "canvas.h"

void ct_text_style_init(ct_text_style_t *style) {
  memset(style, 0, sizeof *style);
  style->size = 12.0;
  style->foreground.a = 1.0;
  style->format = CT_FORMAT_AUTO;
}

static int valid_side(double v) { return isfinite(v) && v > 0 && v <= CT_MAX_PAGE_SIDE; }

static ct_status_t add_page(ct_canvas_t *c, ct_error_t *err) {
  cairo_rectangle_t extents = { 0, 0, c->width, c->height };
  cairo_surface_t *s;
  if (c->npages >= CT_MAX_PAGES)
    return ct_set_error(err, CT_ERR_LIMIT, "more than %u pages", CT_MAX_PAGES);
  if (c->npages == c->cap) {
    unsigned cap = c->cap ? c->cap * 2 : 4;
    cairo_surface_t **p = realloc(c->pages, cap * sizeof *p);
    if (!p) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    c->pages = p;
    c->cap = cap;
  }
  s = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &extents);
  if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(s);
    return ct_set_error(err, CT_ERR_NOMEM, "cannot create a page: out of memory");
  }
  if (c->cr) cairo_destroy(c->cr);
  c->cr = cairo_create(s);
  c->pages[c->npages++] = s;
  if (cairo_status(c->cr) != CAIRO_STATUS_SUCCESS)
    return ct_set_error(err, CT_ERR_NOMEM, "cannot draw on a page: out of memory");
  return CT_OK;
}

ct_canvas_t *ct_canvas_create(double width, double height, ct_error_t *err) {
  ct_canvas_t *c;
  if (!valid_side(width) || !valid_side(height)) {
    ct_set_error(err, CT_ERR_INVALID_ARG, "page size %gx%g pt out of range (0 < side <= %g)", width,
                 height, CT_MAX_PAGE_SIDE);
    return NULL;
  }
  if (!(c = calloc(1, sizeof *c))) {
    ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    return NULL;
  }
  c->ref = 1;
  c->width = width;
  c->height = height;
  if (add_page(c, err) != CT_OK) {
    ct_canvas_destroy(c);
    return NULL;
  }
  return c;
}

ct_canvas_t *ct_canvas_reference(ct_canvas_t *c) {
  if (c) c->ref++;
  return c;
}

void ct_canvas_destroy(ct_canvas_t *c) {
  unsigned i;
  if (!c || --c->ref > 0) return;
  if (c->cr) cairo_destroy(c->cr);
  for (i = 0; i < c->npages; i++) cairo_surface_destroy(c->pages[i]);
  free(c->pages);
  free(c);
}

void ct_canvas_set_warning_func(ct_canvas_t *c, ct_warning_func_t func, void *data) {
  c->warn = func;
  c->warn_data = data;
}

double ct_canvas_get_width(const ct_canvas_t *c) { return c->width; }
double ct_canvas_get_height(const ct_canvas_t *c) { return c->height; }
unsigned ct_canvas_get_page_count(const ct_canvas_t *c) { return c->npages; }

ct_status_t ct_canvas_new_page(ct_canvas_t *c, ct_error_t *err) { return add_page(c, err); }

static ct_status_t check_cr(ct_canvas_t *c, ct_error_t *err) {
  cairo_status_t s = cairo_status(c->cr);
  if (s == CAIRO_STATUS_SUCCESS) return CT_OK;
  return ct_set_error(err, s == CAIRO_STATUS_NO_MEMORY ? CT_ERR_NOMEM : CT_ERR_BACKEND,
                      "drawing failed: %s", cairo_status_to_string(s));
}

ct_status_t ct_canvas_fill_rect(ct_canvas_t *c, double x, double y, double w, double h,
                                ct_rgba_t color, ct_error_t *err) {
  cairo_save(c->cr);
  cairo_set_source_rgba(c->cr, color.r, color.g, color.b, color.a);
  cairo_rectangle(c->cr, x, y, w, h);
  cairo_fill(c->cr);
  cairo_restore(c->cr);
  return check_cr(c, err);
}

ct_status_t ct_canvas_fill_background(ct_canvas_t *c, ct_rgba_t color, ct_error_t *err) {
  return ct_canvas_fill_rect(c, 0, 0, c->width, c->height, color, err);
}

static ct_status_t check_style(ct_font_t *font, const ct_text_style_t *style, ct_error_t *err) {
  if (!isfinite(style->size) || style->size <= 0 || style->size > CT_MAX_FONT_SIZE)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "font size %g out of range (0 < size <= %g)",
                        style->size, CT_MAX_FONT_SIZE);
  if (style->override_count > CT_MAX_PALETTE_OVERRIDES)
    return ct_set_error(err, CT_ERR_LIMIT, "%s: more than %u palette overrides", font->name,
                        CT_MAX_PALETTE_OVERRIDES);
  return CT_OK;
}

/* Draws one tree at a pen position (points, y down) scaled from font units (y up). */
static void draw_tree(ct_canvas_t *c, ct_draw_ctx_t *ctx, const ct_paint_t *paint,
                      double scale, double x, double y) {
  cairo_save(c->cr);
  cairo_translate(c->cr, x, y);
  cairo_scale(c->cr, scale, -scale);
  ct_render_paint(c->cr, ctx, paint);
  cairo_restore(c->cr);
}

static void warn_limit(ct_canvas_t *c, ct_font_t *font, unsigned gid) {
  char msg[600];
  if (!c->warn) return;
  snprintf(msg, sizeof msg, "%s: glyph %u: paint tree exceeds depth %u or %u nodes; drawn in part",
           font->name, gid, CT_MAX_PAINT_DEPTH, CT_MAX_PAINT_WORK);
  c->warn(c->warn_data, msg);
}

ct_status_t ct_canvas_draw_glyphs(ct_canvas_t *c, ct_font_t *font, const ct_shaped_t *run,
                                  const ct_text_style_t *style, double x, double y,
                                  ct_error_t *err) {
  ct_resolved_palette_t pal;
  ct_draw_ctx_t ctx;
  ct_status_t st;
  double scale, px = 0, py = 0;
  unsigned i;

  if ((st = check_style(font, style, err)) != CT_OK) return st;
  if ((st = ct_palette_resolve(font, style, &pal, err)) != CT_OK) return st;
  scale = style->size / font->upem;
  for (i = 0; i < run->count; i++) {
    const ct_glyph_pos_t *g = &run->glyphs[i];
    ct_paint_t *paint = ct_font_get_glyph_paint(font, g->gid, style->format, err);
    if (!paint) {
      ct_palette_fini(&pal);
      return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    }
    memset(&ctx, 0, sizeof ctx);
    ctx.font = font;
    ctx.palette = &pal;
    draw_tree(c, &ctx, paint, scale, x + (px + g->x_offset) * scale, y - (py + g->y_offset) * scale);
    if (ctx.limit_hit) warn_limit(c, font, g->gid);
    ct_paint_destroy(paint);
    px += g->x_advance;
    py += g->y_advance;
  }
  ct_palette_fini(&pal);
  return check_cr(c, err);
}

/* One warning per character the font lacks, naming the character and the font. */
static void warn_missing(ct_canvas_t *c, ct_font_t *font, const char *utf8, size_t len,
                         const ct_shaped_t *run) {
  uint32_t seen[16];
  unsigned nseen = 0, i, j;
  if (!c->warn) return;
  for (i = 0; i < run->count; i++) {
    size_t used, off = run->glyphs[i].cluster;
    uint32_t cp;
    char msg[700], ch[8] = "";
    if (run->glyphs[i].gid != 0 || off >= len) continue;
    cp = ct_utf8_decode(utf8 + off, len - off, &used);
    for (j = 0; j < nseen && seen[j] != cp; j++) {}
    if (j < nseen) continue;
    if (nseen < 16) seen[nseen++] = cp;
    if (cp >= 0x20 && used < sizeof ch) { memcpy(ch, utf8 + off, used); ch[used] = '\0'; }
    snprintf(msg, sizeof msg, "%s: no glyph for U+%04X%s%s%s; drawing .notdef", font->name,
             (unsigned)cp, ch[0] ? " '" : "", ch, ch[0] ? "'" : "");
    c->warn(c->warn_data, msg);
  }
}

ct_status_t ct_canvas_draw_text(ct_canvas_t *c, ct_font_t *font, const char *utf8, size_t len,
                                const ct_text_style_t *style, double x, double y,
                                double *advance, ct_error_t *err) {
  ct_shaped_t run;
  ct_status_t st;
  unsigned i;
  double adv = 0;

  if ((st = check_style(font, style, err)) != CT_OK) return st;
  if ((st = ct_shape(font, utf8, len, &style->shape, &run, err)) != CT_OK) return st;
  warn_missing(c, font, utf8, len, &run);
  st = ct_canvas_draw_glyphs(c, font, &run, style, x, y, err);
  for (i = 0; i < run.count; i++) adv += run.glyphs[i].x_advance;
  if (advance) *advance = adv * style->size / font->upem;
  ct_shaped_fini(&run);
  return st;
}

ct_status_t ct_canvas_draw_paint(ct_canvas_t *c, ct_font_t *font, const ct_paint_t *paint,
                                 const ct_text_style_t *style, double x, double y,
                                 ct_error_t *err) {
  ct_resolved_palette_t pal;
  ct_draw_ctx_t ctx;
  ct_status_t st;
  if ((st = check_style(font, style, err)) != CT_OK) return st;
  if ((st = ct_palette_resolve(font, style, &pal, err)) != CT_OK) return st;
  memset(&ctx, 0, sizeof ctx);
  ctx.font = font;
  ctx.palette = &pal;
  draw_tree(c, &ctx, paint, style->size / font->upem, x, y);
  if (ctx.limit_hit && c->warn) {
    char msg[600];
    snprintf(msg, sizeof msg, "%s: paint tree exceeds depth %u or %u nodes; drawn in part",
             font->name, CT_MAX_PAINT_DEPTH, CT_MAX_PAINT_WORK);
    c->warn(c->warn_data, msg);
  }
  ct_palette_fini(&pal);
  return check_cr(c, err);
}
