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
   differently there, so trees with those are drawn directly.  With `raster`, whether a
   sprite gives the very pixels of direct drawing: pixman's repeating and reflecting
   gradients round differently at another offset; sweeps are fine. */
static int recordable_for(const ct_paint_t *p, unsigned depth, int raster);
static int recordable(const ct_paint_t *p, unsigned depth) { return recordable_for(p, depth, 0); }

static int recordable_for(const ct_paint_t *p, unsigned depth, int raster) {
  unsigned i;
  if (!p || depth > CT_MAX_PAINT_DEPTH) return 0;
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    for (i = 0; i < p->u.layers.count; i++) if (!recordable_for(p->u.layers.children[i], depth + 1, raster)) return 0;
    return 1;
  case CT_PAINT_GLYPH: return recordable_for(p->u.glyph.child, depth + 1, raster);
  case CT_PAINT_LINEAR: return p->u.linear.line.extend == CT_EXTEND_PAD;
  case CT_PAINT_RADIAL: return p->u.radial.line.extend == CT_EXTEND_PAD;
  case CT_PAINT_SWEEP: return raster && p->u.sweep.line.extend == CT_EXTEND_PAD;
  case CT_PAINT_TRANSFORM: return recordable_for(p->u.transform.child, depth + 1, raster);
  case CT_PAINT_CLIP: return recordable_for(p->u.clip.child, depth + 1, raster);
  case CT_PAINT_COMPOSITE:
    return recordable_for(p->u.composite.source, depth + 1, raster) && recordable_for(p->u.composite.backdrop, depth + 1, raster);
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

/* ---- raster: glyph sprites ------------------------------------------------------------
 *
 * On an image, a color glyph drawn again at the same size is a copy of pixels: the first
 * draw renders it (its paint tree, every layer, gradient and composite) into a small image,
 * the sprite, and each later draw at that size and subpixel phase (quarter pixels, as
 * browsers position glyphs) paints the sprite at an integer pixel offset.  A layered glyph
 * composited into its sprite and then onto the page gives the page the same pixels as its
 * layers drawn one by one (groups of OVER are associative, and composites inside a glyph
 * never read the page).  Glyphs larger than SPRITE_MAX_SIDE pixels are drawn directly. */

#define SPRITE_MAX_SIDE  512
#define SPRITE_MAX_BYTES (32u << 20)   /* per font */

typedef struct {
  const ct_paint_t            *paint;
  const ct_font_t             *font;
  uint64_t                     pal_hash;
  const ct_resolved_palette_t *pal;
  ct_palette_ref_t            *palref;
  double                       scale;    /* device pixels per font unit */
  int                          qx, qy;   /* subpixel phase, quarters */
  cairo_surface_t             *img;      /* NULL: drawn directly */
  int                          ox, oy;   /* the sprite's offset from the pixel of the origin */
  int                          used;
} sprite_t;

struct ct_sprite_cache {
  sprite_t *slots;
  unsigned  cap, count;
  size_t    bytes;
  cairo_t  *scratch;
};

ct_sprite_cache_t *ct_sprite_cache_create(void) {
  ct_sprite_cache_t *sc = calloc(1, sizeof *sc);
  cairo_surface_t *s;
  if (!sc) return NULL;
  s = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
  sc->scratch = cairo_create(s);
  cairo_surface_destroy(s);
  if (cairo_status(sc->scratch) != CAIRO_STATUS_SUCCESS) {
    cairo_destroy(sc->scratch);
    free(sc);
    return NULL;
  }
  return sc;
}

void ct_sprite_cache_destroy(ct_sprite_cache_t *sc) {
  unsigned i;
  if (!sc) return;
  for (i = 0; i < sc->cap; i++) {
    if (sc->slots[i].used) {
      if (sc->slots[i].img) cairo_surface_destroy(sc->slots[i].img);
      ct_palette_ref_release(sc->slots[i].palref);
    }
  }
  free(sc->slots);
  cairo_destroy(sc->scratch);
  free(sc);
}

static uint64_t sprite_hash(const sprite_t *k) {
  uint64_t h = slot_hash(k->paint, k->font, k->pal_hash);
  h = mix64(h, dbits(k->scale));
  return mix64(h, (uint64_t)(k->qx * 4 + k->qy));
}

static int sprite_grow(ct_sprite_cache_t *sc) {
  unsigned ncap = sc->cap ? sc->cap * 2 : 256, i;
  sprite_t *ns = calloc(ncap, sizeof *ns);
  if (!ns) return 0;
  for (i = 0; i < sc->cap; i++) {
    unsigned j;
    if (!sc->slots[i].used) continue;
    j = (unsigned)(sprite_hash(&sc->slots[i]) & (ncap - 1));
    while (ns[j].used) j = (j + 1) & (ncap - 1);
    ns[j] = sc->slots[i];
  }
  free(sc->slots);
  sc->slots = ns;
  sc->cap = ncap;
  return 1;
}

int ct_sprite_draw(ct_sprite_cache_t *sc, cairo_t *cr, ct_font_t *font, const ct_paint_t *paint,
                   ct_palette_ref_t *palref, double x, double y, double units) {
  cairo_matrix_t m;
  double dx = x, dy = y, scale, fx, fy;
  sprite_t key, *e = NULL;
  uint64_t h;
  unsigned j;
  long ix, iy;

  cairo_get_matrix(cr, &m);
  if (m.xy != 0 || m.yx != 0 || m.xx <= 0 || m.xx != m.yy) return 0;   /* scaled only */
  cairo_user_to_device(cr, &dx, &dy);
  if (!isfinite(dx) || !isfinite(dy) || fabs(dx) > 1e9 || fabs(dy) > 1e9) return 0;
  scale = m.xx * units;
  ix = (long)floor(dx);
  iy = (long)floor(dy);
  fx = floor((dx - (double)ix) * 4 + 0.5);
  fy = floor((dy - (double)iy) * 4 + 0.5);
  if (fx >= 4) { ix++; fx = 0; }
  if (fy >= 4) { iy++; fy = 0; }

  if (!palref->hashed) {
    palref->hash = palette_hash(&palref->pal);
    palref->hashed = 1;
  }
  memset(&key, 0, sizeof key);
  key.paint = paint;
  key.font = font;
  key.pal_hash = palref->hash;
  key.pal = &palref->pal;
  key.scale = scale;
  key.qx = (int)fx;
  key.qy = (int)fy;
  h = sprite_hash(&key);
  if (sc->cap) {
    for (j = (unsigned)(h & (sc->cap - 1)); sc->slots[j].used; j = (j + 1) & (sc->cap - 1)) {
      sprite_t *s = &sc->slots[j];
      if (s->paint == paint && s->font == font && s->scale == scale && s->qx == key.qx && s->qy == key.qy &&
          s->pal_hash == key.pal_hash && same_palette(s->pal, key.pal)) { e = s; break; }
    }
  }
  if (!e) {
    ct_draw_ctx_t ctx;
    double b[4];
    if ((sc->count + 1) * 4 > sc->cap * 3 && !sprite_grow(sc)) return 0;
    memset(&ctx, 0, sizeof ctx);
    ctx.font = font;
    ctx.palette = &palref->pal;
    cairo_identity_matrix(sc->scratch);
    cairo_translate(sc->scratch, fx / 4, fy / 4);
    cairo_scale(sc->scratch, scale, -scale);
    if (recordable_for(paint, 0, 1) && ct_render_bounds(sc->scratch, &ctx, paint, b) &&
        b[2] - b[0] < SPRITE_MAX_SIDE &&
        b[3] - b[1] < SPRITE_MAX_SIDE) {
      int ox = (int)floor(b[0]) - 1, oy = (int)floor(b[1]) - 1;
      int w = (int)ceil(b[2]) + 1 - ox, hgt = (int)ceil(b[3]) + 1 - oy;
      size_t bytes = (size_t)w * (size_t)hgt * 4;
      if (sc->bytes + bytes <= SPRITE_MAX_BYTES) {
        cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, hgt);
        cairo_t *c2 = cairo_create(img);
        cairo_translate(c2, fx / 4 - ox, fy / 4 - oy);
        cairo_scale(c2, scale, -scale);
        ct_render_paint(c2, &ctx, paint);
        if (cairo_status(c2) == CAIRO_STATUS_SUCCESS) {
          key.img = img;
          key.ox = ox;
          key.oy = oy;
          sc->bytes += bytes;
        } else {
          cairo_surface_destroy(img);
        }
        cairo_destroy(c2);
      }
    }
    for (j = (unsigned)(h & (sc->cap - 1)); sc->slots[j].used; j = (j + 1) & (sc->cap - 1)) {}
    e = &sc->slots[j];
    *e = key;
    e->palref = ct_palette_ref_retain(palref);
    e->used = 1;
    sc->count++;
  }
  if (!e->img) return 0;
  cairo_save(cr);
  cairo_identity_matrix(cr);
  cairo_set_source_surface(cr, e->img, (double)(ix + e->ox), (double)(iy + e->oy));
  cairo_paint(cr);
  cairo_restore(cr);
  return 1;
}
