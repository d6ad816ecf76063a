/*
** canvas.c: pages of drawing kept as display lists (rectangles, placed paint trees and
** pictures, in points) and their replay onto a cairo context.  Page stage: writing them
** out is write/'s, reached only through the canvas's sink (page.h).
*/
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "page.h"
#include "picture.h"

void ct_text_style_init(ct_text_style_t *style) {
  memset(style, 0, sizeof *style);
  style->size = 12.0;
  style->foreground.a = 1.0;
  style->format = CT_FORMAT_AUTO;
}

static int valid_side(double v) { return isfinite(v) && v > 0 && v <= CT_MAX_PAGE_SIDE; }

static ct_status_t add_page(ct_canvas_t *c, double width, double height, ct_error_t *err) {
  if (c->npages >= CT_MAX_PAGES)
    return ct_set_error(err, CT_ERR_LIMIT, "more than %u pages", CT_MAX_PAGES);
  if (c->npages == c->cap) {
    unsigned cap = c->cap ? c->cap * 2 : 4;
    ct_page_t *p = realloc(c->pages, cap * sizeof *p);
    if (!p) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    c->pages = p;
    c->cap = cap;
  }
  memset(&c->pages[c->npages], 0, sizeof(ct_page_t));
  c->pages[c->npages].width = width;
  c->pages[c->npages].height = height;
  c->npages++;
  c->width = width;
  c->height = height;
  return CT_OK;
}

ct_canvas_t *ct_canvas_create(double width, double height, ct_error_t *err) {
  ct_canvas_t *c;
  if (!valid_side(width) || !valid_side(height)) {
    ct_set_error(err, CT_ERR_INVALID_ARG, "page size %gx%g pt out of range (0 < side <= %g)", width,
                 height, CT_MAX_PAGE_SIDE);
    return NULL;
  }
  if (ct_mem_charge(sizeof *c, "a canvas", err) != CT_OK) return NULL;
  if (!(c = calloc(1, sizeof *c))) {
    ct_mem_release(sizeof *c);
    ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    return NULL;
  }
  c->ref = 1;
  c->charged = sizeof *c;
  if (add_page(c, width, height, err) != CT_OK) {
    ct_canvas_destroy(c);
    return NULL;
  }
  return c;
}

void ct_canvas_set_time(ct_canvas_t *c, double seconds) {
  if (c) c->time = isfinite(seconds) && seconds > 0 ? seconds : 0;
}

double ct_canvas_get_time(const ct_canvas_t *c) { return c ? c->time : 0; }

ct_canvas_t *ct_canvas_reference(ct_canvas_t *c) {
  if (c) c->ref++;
  return c;
}

static void palette_unref(ct_palette_ref_t *p) {
  if (p && --p->ref == 0) {
    ct_palette_fini(&p->pal);
    free(p);
  }
}

ct_palette_ref_t *ct_palette_ref_retain(ct_palette_ref_t *p) {
  if (p) p->ref++;
  return p;
}

void ct_palette_ref_release(ct_palette_ref_t *p) { palette_unref(p); }

static void op_fini(ct_op_t *op) {
  unsigned i;
  if (op->kind == CT_OP_IMAGE) ct_image_destroy(op->u.image.image);
  if (op->kind != CT_OP_GLYPHS) return;
  for (i = 0; i < op->u.glyphs.count; i++) ct_paint_destroy(op->u.glyphs.items[i].paint);
  free(op->u.glyphs.items);
  free(op->u.glyphs.text);
  palette_unref(op->u.glyphs.palette);
  ct_font_destroy(op->u.glyphs.font);
}

void ct_page_clear(ct_page_t *page) {
  unsigned j;
  for (j = 0; j < page->count; j++) op_fini(&page->ops[j]);
  free(page->ops);
  page->ops = NULL;
  page->count = page->cap = 0;
  ct_mem_release(page->charged);
  page->charged = 0;
}

void ct_canvas_destroy(ct_canvas_t *c) {
  unsigned i, j;
  if (!c || --c->ref > 0) return;
  if (c->stream) c->sink->abort(c);
  for (i = 0; i < CT_CANVAS_PALCACHE; i++) {
    if (c->palcache[i].ref) {
      palette_unref(c->palcache[i].ref);
      ct_font_destroy(c->palcache[i].font);
    }
  }
  for (i = 0; i < c->npages; i++) {
    for (j = 0; j < c->pages[i].count; j++) op_fini(&c->pages[i].ops[j]);
    free(c->pages[i].ops);
    free(c->pages[i].marks);
    ct_mem_release(c->pages[i].charged);
  }
  free(c->pages);
  ct_mem_release(c->charged);
  for (i = 0; i < c->nimages; i++) ct_image_destroy(c->images[i]);
  free(c->images);
  ct_paint_interns_destroy(c->kept);
  for (i = 0; i < CT_CANVAS_PLACED; i++) ct_paint_destroy((ct_paint_t *)c->placed[i].paint);
  free(c);
}

void ct_canvas_set_warning_func(ct_canvas_t *c, ct_warning_func_t func, void *data) {
  c->warn = func;
  c->warn_data = data;
}

double ct_canvas_get_width(const ct_canvas_t *c) { return c->width; }
double ct_canvas_get_height(const ct_canvas_t *c) { return c->height; }
unsigned ct_canvas_get_page_count(const ct_canvas_t *c) { return c->npages; }

ct_status_t ct_canvas_new_page_sized(ct_canvas_t *c, double width, double height, ct_error_t *err) {
  ct_status_t st;
  if (!valid_side(width) || !valid_side(height))
    return ct_set_error(err, CT_ERR_INVALID_ARG, "page size %gx%g pt out of range (0 < side <= %g)",
                        width, height, CT_MAX_PAGE_SIDE);
  if (c->stream && (st = c->sink->flush(c, c->npages, err)) != CT_OK) return st;
  return add_page(c, width, height, err);
}

ct_status_t ct_canvas_new_page(ct_canvas_t *c, ct_error_t *err) {
  return ct_canvas_new_page_sized(c, c->width, c->height, err);
}

static int box_inside(const double b[4], double w, double h) {
  int i;
  for (i = 0; i < 4; i++)
    if (!isfinite(b[i])) return 0;
  return b[2] > 0 && b[3] > 0 && b[0] >= -1e-6 && b[1] >= -1e-6 && b[0] + b[2] <= w + 1e-6 &&
         b[1] + b[3] <= h + 1e-6;
}

ct_status_t ct_canvas_set_page_boxes(ct_canvas_t *c, const double trim[4], const double bleed[4],
                                     ct_error_t *err) {
  ct_page_t *page = &c->pages[c->npages - 1];
  if (!box_inside(trim, page->width, page->height) || !box_inside(bleed, page->width, page->height))
    return ct_set_error(err, CT_ERR_INVALID_ARG, "page boxes must have a positive size and lie inside the "
                        "%gx%g pt page", page->width, page->height);
  if (trim[0] < bleed[0] - 1e-6 || trim[1] < bleed[1] - 1e-6 || trim[0] + trim[2] > bleed[0] + bleed[2] + 1e-6 ||
      trim[1] + trim[3] > bleed[1] + bleed[3] + 1e-6)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "the trim box must lie inside the bleed box");
  memcpy(page->trim, trim, sizeof page->trim);
  memcpy(page->bleed, bleed, sizeof page->bleed);
  page->has_boxes = 1;
  return CT_OK;
}

/* Charges n bytes more to the current page (its operations, their glyphs and text), against
   --max-memory. */
static ct_status_t charge_page(ct_canvas_t *c, size_t n, ct_error_t *err) {
  ct_status_t st = ct_mem_charge(n, "a canvas's page", err);
  if (st == CT_OK) c->pages[c->npages - 1].charged += n;
  return st;
}

/* A new operation at the end of the current page, or NULL when out of memory or past
   --max-memory (*st says which). */
static ct_op_t *push_op(ct_canvas_t *c, ct_op_kind_t kind, ct_status_t *st, ct_error_t *err) {
  ct_page_t *page = &c->pages[c->npages - 1];
  ct_op_t *op;
  *st = CT_OK;
  if (page->count == page->cap) {
    unsigned cap = page->cap ? page->cap * 2 : 16;
    ct_op_t *ops;
    if ((*st = charge_page(c, (size_t)(cap - page->cap) * sizeof *ops, err)) != CT_OK) return NULL;
    if (!(ops = realloc(page->ops, cap * sizeof *ops))) {
      *st = ct_set_error(err, CT_ERR_NOMEM, "out of memory");   /* the charge stays: freed with the page */
      return NULL;
    }
    page->ops = ops;
    page->cap = cap;
  }
  op = &page->ops[page->count++];
  memset(op, 0, sizeof *op);
  op->kind = kind;
  return op;
}

static int finite4(double a, double b, double c, double d) {
  return isfinite(a) && isfinite(b) && isfinite(c) && isfinite(d);
}

ct_status_t ct_canvas_fill_rect(ct_canvas_t *c, double x, double y, double w, double h,
                                ct_rgba_t color, ct_error_t *err) {
  ct_op_t *op;
  ct_status_t st;
  if (!finite4(x, y, w, h))
    return ct_set_error(err, CT_ERR_INVALID_ARG, "rectangle %g,%g %gx%g is not finite", x, y, w, h);
  if (!(op = push_op(c, CT_OP_RECT, &st, err))) return st;
  op->u.rect.x = x;
  op->u.rect.y = y;
  op->u.rect.w = w;
  op->u.rect.h = h;
  op->u.rect.color = color;
  return CT_OK;
}

ct_status_t ct_canvas_fill_registration(ct_canvas_t *c, double x, double y, double w, double h,
                                        ct_error_t *err) {
  ct_page_t *pg = &c->pages[c->npages - 1];
  if (!finite4(x, y, w, h))
    return ct_set_error(err, CT_ERR_INVALID_ARG, "rectangle %g,%g %gx%g is not finite", x, y, w, h);
  if (pg->nmarks == pg->capmarks) {
    unsigned cap = pg->capmarks ? pg->capmarks * 2 : 32;
    double *m = realloc(pg->marks, cap * 4 * sizeof *m);
    if (!m) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    pg->marks = m;
    pg->capmarks = cap;
  }
  pg->marks[4 * pg->nmarks] = x;
  pg->marks[4 * pg->nmarks + 1] = y;
  pg->marks[4 * pg->nmarks + 2] = w;
  pg->marks[4 * pg->nmarks + 3] = h;
  pg->nmarks++;
  return CT_OK;
}

void ct_page_draw_marks(const ct_page_t *page, cairo_t *cr) {
  unsigned i;
  if (page->nmarks == 0) return;
  cairo_save(cr);
  cairo_set_source_rgb(cr, 0, 0, 0);
  for (i = 0; i < page->nmarks; i++)
    cairo_rectangle(cr, page->marks[4 * i], page->marks[4 * i + 1], page->marks[4 * i + 2], page->marks[4 * i + 3]);
  cairo_fill(cr);
  cairo_restore(cr);
}

ct_status_t ct_canvas_add_ink(ct_canvas_t *c, const ct_ink_t *ink, ct_error_t *err) {
  char why[160];
  unsigned i;
  if (ct_ink_check(ink, why, sizeof why) != 0) return ct_set_error(err, CT_ERR_INVALID_ARG, "%s", why);
  for (i = 0; i < c->ninks && strcmp(c->inks[i].name, ink->name) != 0; i++) {}
  if (i == CT_MAX_INKS) return ct_set_error(err, CT_ERR_LIMIT, "ink '%s': more than %d inks", ink->name, CT_MAX_INKS);
  c->inks[i] = *ink;
  if (i == c->ninks) c->ninks++;
  return CT_OK;
}

unsigned ct_canvas_get_ink_count(const ct_canvas_t *c) { return c->ninks; }

const ct_ink_t *ct_canvas_get_ink(const ct_canvas_t *c, unsigned i) { return i < c->ninks ? &c->inks[i] : NULL; }

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

/* The palette of a drawing call (a reference in *out): one resolved lately for the same
   font, palette and text color (no overrides), or a new one. */
static ct_status_t palette_for(ct_canvas_t *c, ct_font_t *font, const ct_text_style_t *style,
                               ct_palette_ref_t **out, ct_error_t *err) {
  ct_palette_ref_t *pal;
  ct_status_t st;
  unsigned i;
  int cacheable = style->override_count == 0;
  *out = NULL;
  if (cacheable) {
    for (i = 0; i < CT_CANVAS_PALCACHE; i++) {
      if (c->palcache[i].ref && c->palcache[i].font == font && c->palcache[i].palette == style->palette &&
          memcmp(&c->palcache[i].fg, &style->foreground, sizeof style->foreground) == 0) {
        *out = ct_palette_ref_retain(c->palcache[i].ref);
        return CT_OK;
      }
    }
  }
  if (!(pal = calloc(1, sizeof *pal))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  pal->ref = 1;
  if ((st = ct_palette_resolve(font, style, &pal->pal, err)) != CT_OK) {
    free(pal);
    return st;
  }
  if (cacheable) {
    i = c->palnext++ % CT_CANVAS_PALCACHE;
    if (c->palcache[i].ref) {
      palette_unref(c->palcache[i].ref);
      ct_font_destroy(c->palcache[i].font);
    }
    c->palcache[i].font = ct_font_reference(font);
    c->palcache[i].palette = style->palette;
    c->palcache[i].fg = style->foreground;
    c->palcache[i].ref = ct_palette_ref_retain(pal);
  }
  *out = pal;
  return CT_OK;
}

/* Starts a glyph operation: the font referenced, the palette resolved once. */
static ct_status_t begin_glyphs(ct_canvas_t *c, ct_font_t *font, const ct_text_style_t *style,
                                unsigned count, ct_op_t **out, ct_error_t *err) {
  ct_palette_ref_t *pal = NULL;
  ct_placed_t *items = count ? calloc(count, sizeof *items) : NULL;
  ct_op_t *op = NULL;
  ct_status_t st;
  if (c->nglyphs + count > CT_MAX_GLYPHS) {
    free(items);
    return ct_set_error(err, CT_ERR_LIMIT, "more than %u glyphs on one canvas (the limit CT_MAX_GLYPHS)",
                        CT_MAX_GLYPHS);
  }
  c->nglyphs += count ? count : 1;
  if (count && !items) goto nomem;
  if ((st = charge_page(c, (size_t)count * sizeof *items, err)) != CT_OK ||
      (st = palette_for(c, font, style, &pal, err)) != CT_OK) {
    free(items);
    return st;
  }
  if (!(op = push_op(c, CT_OP_GLYPHS, &st, err))) {
    palette_unref(pal);
    free(items);
    return st;
  }
  op->u.glyphs.font = ct_font_reference(font);
  op->u.glyphs.palette = pal;
  op->u.glyphs.scale = style->size / font->upem;
  op->u.glyphs.items = items;
  op->u.glyphs.time = c->time;
  *out = op;
  return CT_OK;

nomem:
  free(pal);
  free(items);
  return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
}

static int within_limits(const ct_paint_t *p) {
  return p->height <= CT_MAX_PAINT_DEPTH && p->weight <= CT_MAX_PAINT_WORK;
}

/* One warning a page for the trees over the walk limits (a filter may make one for every
   glyph of a document); the compositor draws them in part. */
static void check_limits(ct_canvas_t *c, ct_font_t *font, const ct_paint_t *paint, int gid) {
  char msg[700];
  const char *more = "; others on this page over the limits are drawn in part without a warning";
  if (!c->warn || within_limits(paint) || c->limits_page == c->npages) return;
  c->limits_page = c->npages;
  if (gid >= 0)
    snprintf(msg, sizeof msg, "%s: glyph %d: paint tree deeper than %u or larger than %u nodes; "
             "drawn in part%s", font->name, gid, CT_MAX_PAINT_DEPTH, CT_MAX_PAINT_WORK, more);
  else
    snprintf(msg, sizeof msg, "%s: paint tree deeper than %u or larger than %u nodes; drawn in part%s",
             font->name, CT_MAX_PAINT_DEPTH, CT_MAX_PAINT_WORK, more);
  c->warn(c->warn_data, msg);
}

/* Charges a tree placed on the current page to the page's and the canvas's budgets of paint
   node visits (CT_MAX_PAGE_PAINT_WORK, CT_MAX_RUN_PAINT_WORK); CT_ERR_LIMIT past one.
   Trees placed lately are remembered (a reference each, in a slot by their address): one
   placed again costs the page 1 and the canvas nothing.  A slot taken by another tree only
   makes a tree cost in full again, never less than drawing it does. */
static ct_status_t charge_work(ct_canvas_t *c, const ct_paint_t *paint, ct_error_t *err) {
  uintptr_t h = (uintptr_t)paint;
  unsigned k = (unsigned)((h >> 4) ^ (h >> 17)) & (CT_CANVAS_PLACED - 1);
  unsigned long page_cost = paint->weight < CT_MAX_PAINT_WORK ? paint->weight : CT_MAX_PAINT_WORK;
  unsigned long run_cost = page_cost;
  if (c->work_page != c->npages) {
    c->work_page = c->npages;
    c->page_work = 0;
  }
  if (c->placed[k].paint == paint) {
    run_cost = 0;
    if (c->placed[k].page == c->npages) page_cost = 1;
  } else {
    ct_paint_destroy((ct_paint_t *)c->placed[k].paint);
    c->placed[k].paint = ct_paint_reference((ct_paint_t *)paint);   /* only its count changes */
  }
  c->placed[k].page = c->npages;
  c->page_work += page_cost;
  c->run_work += run_cost;
  if (c->page_work > CT_MAX_PAGE_PAINT_WORK)
    return ct_set_error(err, CT_ERR_LIMIT, "page %u: paint trees of more than %u node visits (the limit "
                        "CT_MAX_PAGE_PAINT_WORK: trees that use their parts many times?)", c->npages,
                        CT_MAX_PAGE_PAINT_WORK);
  if (c->run_work > CT_MAX_RUN_PAINT_WORK)
    return ct_set_error(err, CT_ERR_LIMIT, "paint trees of more than %u node visits in all (the limit "
                        "CT_MAX_RUN_PAINT_WORK: trees that use their parts many times?)", CT_MAX_RUN_PAINT_WORK);
  return CT_OK;
}

/* Hands the font's warnings (from building trees) to the canvas's warning function. */
static void pass_warnings(ct_canvas_t *c, ct_font_t *font) {
  char *m;
  while ((m = ct_font_take_warning(font))) {
    if (c->warn) c->warn(c->warn_data, m);
    free(m);
  }
}

ct_status_t ct_canvas_draw_glyphs(ct_canvas_t *c, ct_font_t *font, const ct_shaped_t *run,
                                  const ct_text_style_t *style, double x, double y,
                                  ct_error_t *err) {
  ct_status_t st;
  ct_op_t *op;
  double scale, px = 0, py = 0;
  unsigned i;

  if ((st = check_style(font, style, err)) != CT_OK) return st;
  if (!isfinite(x) || !isfinite(y))
    return ct_set_error(err, CT_ERR_INVALID_ARG, "position %g,%g is not finite", x, y);
  if ((st = begin_glyphs(c, font, style, run->count, &op, err)) != CT_OK) return st;
  scale = op->u.glyphs.scale;
  for (i = 0; i < run->count; i++) {
    const ct_glyph_pos_t *g = &run->glyphs[i];
    ct_placed_t *item = &op->u.glyphs.items[op->u.glyphs.count];
    item->paint = ct_font_get_glyph_paint(font, g->gid, style->format, err);
    if (!item->paint) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    pass_warnings(c, font);
    item->x = x + (px + g->x_offset) * scale;
    item->y = y - (py + g->y_offset) * scale;
    item->gid = g->gid;
    item->cluster = g->cluster;
    op->u.glyphs.count++;
    check_limits(c, font, item->paint, (int)g->gid);
    if ((st = charge_work(c, item->paint, err)) != CT_OK) return st;
    px += g->x_advance;
    py += g->y_advance;
  }
  return CT_OK;
}

/* Whether a font's missing character was reported on this canvas already; notes it if not
   (after CT_CANVAS_MISSING_MAX different ones, further ones are reported each call). */
static int missing_seen(ct_canvas_t *c, const ct_font_t *font, uint32_t cp) {
  uint64_t h = 1469598103934665603u;          /* FNV-1a of the name, then the code point */
  const char *s;
  unsigned i;
  for (s = font->name; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
  h = (h ^ cp) * 1099511628211u;
  for (i = 0; i < c->nmissing; i++) if (c->missing[i] == h) return 1;
  if (c->nmissing < CT_CANVAS_MISSING_MAX) c->missing[c->nmissing++] = h;
  return 0;
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
    if (missing_seen(c, font, cp)) continue;
    if (cp >= 0x20 && used < sizeof ch) { memcpy(ch, utf8 + off, used); ch[used] = '\0'; }
    snprintf(msg, sizeof msg, "%s: no glyph for U+%04X%s%s%s; drawing .notdef", font->name,
             (unsigned)cp, ch[0] ? " '" : "", ch, ch[0] ? "'" : "");
    c->warn(c->warn_data, msg);
  }
}

ct_status_t ct_canvas_draw_shaped(ct_canvas_t *c, ct_font_t *font, const char *utf8, size_t len,
                                  const ct_shaped_t *run, const ct_text_style_t *style, double x,
                                  double y, ct_error_t *err) {
  ct_status_t st;
  unsigned i;
  if ((st = check_style(font, style, err)) != CT_OK) return st;
  for (i = 0; i < run->count; i++)
    if (run->glyphs[i].cluster >= len && !(len == 0 && run->glyphs[i].cluster == 0))
      return ct_set_error(err, CT_ERR_INVALID_ARG, "glyph %u: cluster %u is past the text's %zu bytes",
                          i + 1, (unsigned)run->glyphs[i].cluster, len);
  warn_missing(c, font, utf8, len, run);
  st = ct_canvas_draw_glyphs(c, font, run, style, x, y, err);
  if (st == CT_OK && run->count > 0) {   /* keep the text for the PDF's text layer */
    ct_page_t *page = &c->pages[c->npages - 1];
    ct_op_t *op = &page->ops[page->count - 1];
    if ((st = charge_page(c, len + 1, err)) != CT_OK) return st;
    if ((op->u.glyphs.text = malloc(len + 1))) {
      memcpy(op->u.glyphs.text, utf8, len);
      op->u.glyphs.text[len] = '\0';
      op->u.glyphs.text_len = len;
      op->u.glyphs.rtl = run->direction == CT_DIR_RTL || run->direction == CT_DIR_BTT;
    }
  }
  return st;
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
  st = ct_canvas_draw_shaped(c, font, utf8, len, &run, style, x, y, err);
  for (i = 0; i < run.count; i++) adv += run.glyphs[i].x_advance;
  if (advance) *advance = adv * style->size / font->upem;
  ct_shaped_fini(&run);
  return st;
}

ct_status_t ct_canvas_draw_paint(ct_canvas_t *c, ct_font_t *font, ct_paint_t *paint,
                                 const ct_text_style_t *style, double x, double y,
                                 ct_error_t *err) {
  ct_status_t st;
  ct_op_t *op;
  ct_paint_t *kept;
  if ((st = check_style(font, style, err)) != CT_OK) return st;
  if (!isfinite(x) || !isfinite(y))
    return ct_set_error(err, CT_ERR_INVALID_ARG, "position %g,%g is not finite", x, y);
  if ((st = begin_glyphs(c, font, style, 1, &op, err)) != CT_OK) return st;
  /* the tree is shared, not copied: trees are immutable once made; one equal to a tree
     drawn before is that one (intern.c), so the caches take it */
  kept = ct_paint_intern(&c->kept, paint);
  op->u.glyphs.items[0].paint = kept ? kept : ct_paint_reference(paint);
  op->u.glyphs.items[0].x = x;
  op->u.glyphs.items[0].y = y;
  op->u.glyphs.count = 1;
  check_limits(c, font, paint, -1);
  return charge_work(c, op->u.glyphs.items[0].paint, err);
}

/* The canvas's image of the file at `path`, read on first use.  Returns a borrowed image,
   or NULL with `err` filled. */
static ct_image_t *find_image(ct_canvas_t *c, const char *path, ct_error_t *err) {
  char *key, warning[700];
  ct_image_t *img;
  unsigned i;
  struct stat sb;
  /* the rules first: realpath follows links wherever they go */
  if (ct_fs_stat(path, &sb, err) != CT_OK) return NULL;
  if (!(key = realpath(path, NULL))) {
    ct_set_error(err, errno == ENOMEM ? CT_ERR_NOMEM : CT_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  for (i = 0; i < c->nimages; i++)
    if (strcmp(ct_image_get_key(c->images[i]), key) == 0) {
      free(key);
      return c->images[i];
    }
  if (c->nimages == c->capimages) {
    unsigned cap = c->capimages ? c->capimages * 2 : 8;
    ct_image_t **p = realloc(c->images, cap * sizeof *p);
    if (!p) {
      free(key);
      ct_set_error(err, CT_ERR_NOMEM, "out of memory");
      return NULL;
    }
    c->images = p;
    c->capimages = cap;
  }
  img = ct_image_load(path, key, warning, sizeof warning, err);
  free(key);
  if (!img) return NULL;
  if (warning[0] && c->warn) c->warn(c->warn_data, warning);
  c->images[c->nimages++] = img;
  return img;
}

ct_status_t ct_canvas_draw_image(ct_canvas_t *c, const char *path, double x, double y, double w,
                                 double h, ct_fit_t fit, ct_error_t *err) {
  ct_image_t *img;
  ct_op_t *op;
  ct_error_t local;
  ct_status_t st;
  double iw, ih;
  if (!err) err = &local;   /* the status comes back through it */
  if (!isfinite(x) || !isfinite(y))
    return ct_set_error(err, CT_ERR_INVALID_ARG, "position %g,%g is not finite", x, y);
  if (!(isfinite(w) && w >= 0 && w <= CT_MAX_PAGE_SIDE) || !(isfinite(h) && h >= 0 && h <= CT_MAX_PAGE_SIDE))
    return ct_set_error(err, CT_ERR_INVALID_ARG, "image box %gx%g pt out of range (0 < side <= %g)",
                        w, h, CT_MAX_PAGE_SIDE);
  if ((unsigned)fit > CT_FIT_FILL)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "unknown fit %d", (int)fit);
  if (!(img = find_image(c, path, err))) return err->status;
  ct_image_get_size(img, &iw, &ih);
  if (w == 0 && h == 0) {
    w = iw;
    h = ih;
  } else if (w == 0) {
    w = h * iw / ih;
  } else if (h == 0) {
    h = w * ih / iw;
  }
  if (!(w > 0 && w <= CT_MAX_PAGE_SIDE && h > 0 && h <= CT_MAX_PAGE_SIDE))
    return ct_set_error(err, CT_ERR_LIMIT, "%s: drawn %gx%g pt, out of range (0 < side <= %g)",
                        path, w, h, CT_MAX_PAGE_SIDE);
  if (!(op = push_op(c, CT_OP_IMAGE, &st, err))) return st;
  op->u.image.image = ct_image_reference(img);
  op->u.image.x = x;
  op->u.image.y = y;
  op->u.image.w = w;
  op->u.image.h = h;
  op->u.image.fit = fit;
  return CT_OK;
}

/* Whether a tree is worth recording: a color glyph (a plain outline is one path, as small
   in a PDF as the reference to a recording would be). */
int ct_paint_worth_recording(const ct_paint_t *p) {
  return p->kind != CT_PAINT_GLYPH || p->u.glyph.child->kind != CT_PAINT_SOLID;
}

void ct_page_replay(const ct_page_t *page, cairo_t *cr, struct ct_picture_cache *pictures, const ct_ink_t *inks,
                    unsigned ninks) {
  unsigned i, j;
  for (i = 0; i < page->count; i++) {
    const ct_op_t *op = &page->ops[i];
    if (op->kind == CT_OP_IMAGE) {
      ct_image_draw(cr, op->u.image.image, op->u.image.x, op->u.image.y, op->u.image.w,
                    op->u.image.h, op->u.image.fit);
      continue;
    }
    if (op->kind == CT_OP_RECT) {
      ct_rgba_t col = op->u.rect.color;
      if (ninks) ct_ink_flatten(inks, ninks, &col);
      cairo_set_source_rgba(cr, col.r, col.g, col.b, col.a);
      cairo_rectangle(cr, op->u.rect.x, op->u.rect.y, op->u.rect.w, op->u.rect.h);
      cairo_fill(cr);
      continue;
    }
    for (j = 0; j < op->u.glyphs.count; j++) {
      const ct_placed_t *g = &op->u.glyphs.items[j];
      ct_draw_ctx_t ctx;
      memset(&ctx, 0, sizeof ctx);
      ctx.images = &ct_glyph_images;
      ctx.font = op->u.glyphs.font;
      ctx.palette = &op->u.glyphs.palette->pal;
      ctx.inks = inks;
      ctx.ninks = ninks;
      /* animated SVG glyphs are cached per time, the others once for all times */
      ctx.time = g->paint->animated ? op->u.glyphs.time : 0;
      /* font units (y up) at the pen position (points, y down) */
      cairo_save(cr);
      cairo_translate(cr, g->x, g->y);
      cairo_scale(cr, op->u.glyphs.scale, -op->u.glyphs.scale);
      /* the font's own trees, and trees of ct_canvas_draw_paint drawn again (intern.c):
         one recording each, a form XObject in a PDF */
      if (pictures && (g->paint->kept || ct_font_caches_paint(ctx.font, g->gid, g->paint))) {
        cairo_surface_t *rec = ct_picture_cache_get(pictures, ctx.font, g->paint, op->u.glyphs.palette, ctx.time);
        if (rec) {
          cairo_set_source_surface(cr, rec, 0, 0);
          cairo_paint(cr);
          cairo_restore(cr);
          continue;
        }
      }
      ct_render_paint(cr, &ctx, g->paint);
      cairo_restore(cr);
    }
  }
}
