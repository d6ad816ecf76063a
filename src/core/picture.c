/* picture.c: color glyphs recorded once and drawn many times, for vector output.
 *
 * In a PDF (or SVG) every draw of a color glyph would otherwise write its whole paint
 * graph again: a COLRv1 emoji is a kilobyte or more of gradients and paths each time.  The
 * cache records a glyph's drawing (its paint tree with one resolved palette) into a cairo
 * recording surface the first time and paints that surface afterwards; cairo writes a
 * recording surface into a PDF once, as a form XObject, and each further use is a few
 * dozen bytes ("q ... cm /x12 Do Q").  Keys are the paint tree (trees are shared per face
 * and glyph) and the palette's colors (compared in full on a hash match).  Raster output
 * does not use it: replaying a recording costs what drawing does.
 */
#include "picture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const ct_paint_t            *paint;
  const ct_font_t             *font;
  uint64_t                     pal_hash;
  const ct_resolved_palette_t *pal;       /* kept alive by `palref` */
  ct_palette_ref_t            *palref;
  cairo_surface_t             *rec;       /* NULL: drawn directly (not recordable) */
  int                          used;
} entry_t;

struct ct_picture_cache {
  entry_t *slots;
  unsigned cap, count;
  cairo_t *scratch;          /* for measuring trees, identity matrix */
};

static uint64_t mix64(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdu;
}

static uint64_t dbits(double d) {
  uint64_t u;
  if (d == 0) d = 0;                       /* -0 and 0 alike */
  memcpy(&u, &d, sizeof u);
  return u;
}

static uint64_t rgba_hash(uint64_t h, const ct_rgba_t *c) {
  h = mix64(h, dbits(c->r));
  h = mix64(h, dbits(c->g));
  h = mix64(h, dbits(c->b));
  return mix64(h, dbits(c->a));
}

static uint64_t palette_hash(const ct_resolved_palette_t *p) {
  uint64_t h = mix64(0x243f6a8885a308d3u, p->count);
  unsigned i;
  h = rgba_hash(h, &p->foreground);
  for (i = 0; i < p->count; i++) h = rgba_hash(h, &p->colors[i]);
  return h;
}

static int same_palette(const ct_resolved_palette_t *a, const ct_resolved_palette_t *b) {
  return a == b || (a->count == b->count && memcmp(&a->foreground, &b->foreground, sizeof a->foreground) == 0
                    && memcmp(a->colors, b->colors, a->count * sizeof *a->colors) == 0);
}

static uint64_t slot_hash(const ct_paint_t *paint, const ct_font_t *font, uint64_t ph) {
  return mix64(mix64(ph, (uint64_t)(uintptr_t)paint), (uint64_t)(uintptr_t)font);
}

/* Whether cairo 1.16 writes a tree's recording faithfully into a PDF: it cuts repeating
   and reflecting gradients short inside a form XObject, and draws sweeps (mesh patterns)
   differently there, so trees with those are drawn directly. */
static int recordable(const ct_paint_t *p, unsigned depth) {
  unsigned i;
  if (!p || depth > CT_MAX_PAINT_DEPTH) return 0;
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    for (i = 0; i < p->u.layers.count; i++) if (!recordable(p->u.layers.children[i], depth + 1)) return 0;
    return 1;
  case CT_PAINT_GLYPH: return recordable(p->u.glyph.child, depth + 1);
  case CT_PAINT_LINEAR: return p->u.linear.line.extend == CT_EXTEND_PAD;
  case CT_PAINT_RADIAL: return p->u.radial.line.extend == CT_EXTEND_PAD;
  case CT_PAINT_SWEEP: return 0;
  case CT_PAINT_TRANSFORM: return recordable(p->u.transform.child, depth + 1);
  case CT_PAINT_CLIP: return recordable(p->u.clip.child, depth + 1);
  case CT_PAINT_COMPOSITE:
    return recordable(p->u.composite.source, depth + 1) && recordable(p->u.composite.backdrop, depth + 1);
  default: return 1;
  }
}

ct_picture_cache_t *ct_picture_cache_create(void) {
  ct_picture_cache_t *pc = calloc(1, sizeof *pc);
  cairo_surface_t *s;
  if (!pc) return NULL;
  s = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
  pc->scratch = cairo_create(s);
  cairo_surface_destroy(s);
  if (cairo_status(pc->scratch) != CAIRO_STATUS_SUCCESS) {
    cairo_destroy(pc->scratch);
    free(pc);
    return NULL;
  }
  return pc;
}

void ct_picture_cache_destroy(ct_picture_cache_t *pc) {
  unsigned i;
  if (!pc) return;
  for (i = 0; i < pc->cap; i++) {
    if (pc->slots[i].used) {
      if (pc->slots[i].rec) cairo_surface_destroy(pc->slots[i].rec);
      ct_palette_ref_release(pc->slots[i].palref);
    }
  }
  free(pc->slots);
  cairo_destroy(pc->scratch);
  free(pc);
}

static int grow(ct_picture_cache_t *pc) {
  unsigned ncap = pc->cap ? pc->cap * 2 : 256, i;
  entry_t *ns = calloc(ncap, sizeof *ns);
  if (!ns) return 0;
  for (i = 0; i < pc->cap; i++) {
    entry_t *e = &pc->slots[i];
    unsigned j;
    if (!e->used) continue;
    j = (unsigned)(slot_hash(e->paint, e->font, e->pal_hash) & (ncap - 1));
    while (ns[j].used) j = (j + 1) & (ncap - 1);
    ns[j] = *e;
  }
  free(pc->slots);
  pc->slots = ns;
  pc->cap = ncap;
  return 1;
}

cairo_surface_t *ct_picture_cache_get(ct_picture_cache_t *pc, ct_font_t *font, const ct_paint_t *paint,
                                      ct_palette_ref_t *palref) {
  const ct_resolved_palette_t *pal = &palref->pal;
  uint64_t ph, h;
  unsigned j;
  entry_t *e;
  cairo_t *cr;
  ct_draw_ctx_t ctx;

  if (!palref->hashed) {
    palref->hash = palette_hash(pal);
    palref->hashed = 1;
  }
  ph = palref->hash;
  h = slot_hash(paint, font, ph);
  if (pc->cap) {
    for (j = (unsigned)(h & (pc->cap - 1)); pc->slots[j].used; j = (j + 1) & (pc->cap - 1)) {
      e = &pc->slots[j];
      if (e->paint == paint && e->font == font && e->pal_hash == ph && same_palette(e->pal, pal)) return e->rec;
    }
  }
  if ((pc->count + 1) * 4 > pc->cap * 3 && !grow(pc)) return NULL;

  /* record the glyph in font units, y up, as ct_page_replay would draw it, bounded by what
     the tree can paint (cairo needs bounds to write repeating gradients whole); a tree that
     cannot be recorded is noted too, so it is looked at once */
  memset(&ctx, 0, sizeof ctx);
  ctx.font = font;
  ctx.palette = pal;
  {
    double b[4];
    cairo_rectangle_t ext;
    cairo_surface_t *rec = NULL;
    if (recordable(paint, 0) && ct_render_bounds(pc->scratch, &ctx, paint, b)) {
      ext.x = floor(b[0]) - 1;
      ext.y = floor(b[1]) - 1;
      ext.width = ceil(b[2]) + 1 - ext.x;
      ext.height = ceil(b[3]) + 1 - ext.y;
      rec = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &ext);
      cr = cairo_create(rec);
      ct_render_paint(cr, &ctx, paint);
      if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(rec);
        rec = NULL;
      }
      cairo_destroy(cr);
    }
    for (j = (unsigned)(h & (pc->cap - 1)); pc->slots[j].used; j = (j + 1) & (pc->cap - 1)) {}
    e = &pc->slots[j];
    e->paint = paint;
    e->font = font;
    e->pal_hash = ph;
    e->pal = pal;
    e->palref = ct_palette_ref_retain(palref);
    e->rec = rec;
    e->used = 1;
    pc->count++;
  }
  return e->rec;
}
