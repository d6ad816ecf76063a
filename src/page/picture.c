/* picture.c: color glyphs recorded once and drawn many times, for vector output.
 *
 * In a PDF (or SVG) every draw of a color glyph would otherwise write its whole paint
 * graph again: a COLRv1 emoji is a kilobyte or more of gradients and paths each time.  The
 * cache records a glyph's drawing (its paint tree with one resolved palette) into a cairo
 * recording surface the first time and paints that surface afterwards; cairo writes a
 * recording surface into a PDF once, as a form XObject, and each further use is a few
 * dozen bytes ("q ... cm /x12 Do Q").  Keys are the paint tree (trees are shared per face
 * and glyph) and the palette's colors (compared in full on a hash match).  Raster output
 * uses sprites instead (below): replaying a recording costs what drawing does.  Page
 * stage; a font's sprites are kept in its CT_FONT_CACHE_SPRITES slot.
 */
#include "picture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- one table for both caches -------------------------------------------------
 *
 * An entry is keyed by a font's cached tree, the palette's colors (hashed once per
 * resolved palette, compared in full on a match) and, for sprites, the scale and the
 * quarter-pixel phase; it holds what was made for the key (a recording or an image, or
 * NULL when the glyph is drawn directly, so it is looked at once).  Open addressing. */

typedef struct {
  const ct_paint_t            *paint;
  const ct_font_t             *font;
  uint64_t                     pal_hash;
  const ct_resolved_palette_t *pal;       /* kept alive by `palref` */
  ct_palette_ref_t            *palref;
  double                       scale;     /* sprites: device pixels per font unit */
  int                          qx, qy;    /* sprites: subpixel phase, quarters */
  double                       time;      /* SVG animations: 0 for trees without */
  cairo_surface_t             *surface;   /* NULL: drawn directly */
  int                          ox, oy;    /* sprites: offset from the pixel of the origin */
  int                          used;
} entry_t;

typedef struct {
  entry_t *slots;
  unsigned cap, count;
  size_t   bytes;              /* sprites: the images' pixels */
  size_t   anim_bytes;         /* sprites: those of animated glyphs (one per frame) */
  cairo_t *scratch;            /* for measuring trees */
} table_t;

struct ct_picture_cache { table_t t; const ct_ink_t *inks; unsigned ninks; };
struct ct_sprite_cache { table_t t; };

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

static uint64_t key_hash(const entry_t *k) {
  uint64_t h = mix64(mix64(k->pal_hash, (uint64_t)(uintptr_t)k->paint), (uint64_t)(uintptr_t)k->font);
  h = mix64(h, dbits(k->scale));
  h = mix64(h, dbits(k->time));
  return mix64(h, (uint64_t)(k->qx * 4 + k->qy));
}

static int same_key(const entry_t *a, const entry_t *b) {
  return a->paint == b->paint && a->font == b->font && a->scale == b->scale && a->time == b->time && a->qx == b->qx &&
         a->qy == b->qy && a->pal_hash == b->pal_hash && same_palette(a->pal, b->pal);
}

static void key_init(entry_t *k, const ct_font_t *font, const ct_paint_t *paint, ct_palette_ref_t *palref,
                     double time) {
  if (!palref->hashed) {
    palref->hash = palette_hash(&palref->pal);
    palref->hashed = 1;
  }
  memset(k, 0, sizeof *k);
  k->paint = paint;
  k->font = font;
  k->pal_hash = palref->hash;
  k->pal = &palref->pal;
  k->palref = palref;
  k->time = paint->animated && time != 0 ? time : 0;   /* static trees: one entry for all times */
}

static int table_init(table_t *t) {
  cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
  memset(t, 0, sizeof *t);
  t->scratch = cairo_create(s);
  cairo_surface_destroy(s);
  if (cairo_status(t->scratch) == CAIRO_STATUS_SUCCESS) return 1;
  cairo_destroy(t->scratch);
  return 0;
}

static void table_fini(table_t *t) {
  unsigned i;
  for (i = 0; i < t->cap; i++) {
    if (t->slots[i].used) {
      if (t->slots[i].surface) cairo_surface_destroy(t->slots[i].surface);
      ct_palette_ref_release(t->slots[i].palref);
      ct_paint_destroy((ct_paint_t *)t->slots[i].paint);
    }
  }
  free(t->slots);
  cairo_destroy(t->scratch);
}

static entry_t *table_find(const table_t *t, const entry_t *key) {
  unsigned j;
  if (!t->cap) return NULL;
  for (j = (unsigned)(key_hash(key) & (t->cap - 1)); t->slots[j].used; j = (j + 1) & (t->cap - 1))
    if (same_key(&t->slots[j], key)) return &t->slots[j];
  return NULL;
}

/* Room for one more entry (the table doubles at three quarters full); 0 without memory. */
static int table_reserve(table_t *t) {
  unsigned ncap, i;
  entry_t *ns;
  if ((t->count + 1) * 4 <= t->cap * 3) return 1;
  ncap = t->cap ? t->cap * 2 : 256;
  if (!(ns = calloc(ncap, sizeof *ns))) return 0;
  for (i = 0; i < t->cap; i++) {
    unsigned j;
    if (!t->slots[i].used) continue;
    j = (unsigned)(key_hash(&t->slots[i]) & (ncap - 1));
    while (ns[j].used) j = (j + 1) & (ncap - 1);
    ns[j] = t->slots[i];
  }
  free(t->slots);
  t->slots = ns;
  t->cap = ncap;
  return 1;
}

/* Adds `e` (after table_reserve), taking a reference to its palette and to its tree (whose
   address must not be reused while it is a key). */
static entry_t *table_add(table_t *t, const entry_t *e) {
  unsigned j;
  for (j = (unsigned)(key_hash(e) & (t->cap - 1)); t->slots[j].used; j = (j + 1) & (t->cap - 1)) {}
  t->slots[j] = *e;
  t->slots[j].palref = ct_palette_ref_retain(e->palref);
  ct_paint_reference((ct_paint_t *)e->paint);   /* immutable; only its count changes */
  t->slots[j].used = 1;
  t->count++;
  return &t->slots[j];
}

/* Whether a tree's copy gives what drawing it does.  In a PDF (raster 0): cairo 1.16 cuts
   repeating and reflecting gradients short inside a form XObject, and draws sweeps (mesh
   patterns) differently there.  In a sprite (raster 1): pixman's repeating and reflecting
   gradients round differently at another offset; sweeps are fine. */
static int copyable_walk(const ct_paint_t *p, unsigned depth, int raster, unsigned *left) {
  unsigned i;
  if (!p || depth > CT_MAX_PAINT_DEPTH || *left == 0) return 0;
  --*left;
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    for (i = 0; i < p->u.layers.count; i++)
      if (!copyable_walk(p->u.layers.children[i], depth + 1, raster, left)) return 0;
    return 1;
  case CT_PAINT_GLYPH: return copyable_walk(p->u.glyph.child, depth + 1, raster, left);
  case CT_PAINT_LINEAR: return p->u.linear.line.extend == CT_EXTEND_PAD;
  case CT_PAINT_RADIAL: return p->u.radial.line.extend == CT_EXTEND_PAD;
  case CT_PAINT_SWEEP: return raster && p->u.sweep.line.extend == CT_EXTEND_PAD;
  case CT_PAINT_TRANSFORM: return copyable_walk(p->u.transform.child, depth + 1, raster, left);
  case CT_PAINT_CLIP: return copyable_walk(p->u.clip.child, depth + 1, raster, left);
  case CT_PAINT_COMPOSITE:
    return copyable_walk(p->u.composite.source, depth + 1, raster, left) &&
           copyable_walk(p->u.composite.backdrop, depth + 1, raster, left);
  default: return 1;
  }
}

/* A tree of more than CT_MAX_PAINT_WORK node visits (a subtree used twice counts twice) is
   not copied: it is drawn in part, as it comes. */
static int copyable(const ct_paint_t *p, unsigned depth, int raster) {
  unsigned left = CT_MAX_PAINT_WORK;
  return copyable_walk(p, depth, raster, &left);
}

/* ---- vector: recordings ------------------------------------------------------------ */

void ct_picture_cache_set_inks(ct_picture_cache_t *pc, const ct_ink_t *inks, unsigned ninks) {
  if (!pc) return;
  pc->inks = inks;
  pc->ninks = ninks;
}

ct_picture_cache_t *ct_picture_cache_create(void) {
  ct_picture_cache_t *pc = malloc(sizeof *pc);
  if (pc && !table_init(&pc->t)) {
    free(pc);
    return NULL;
  }
  return pc;
}

void ct_picture_cache_destroy(ct_picture_cache_t *pc) {
  if (!pc) return;
  table_fini(&pc->t);
  free(pc);
}

cairo_surface_t *ct_picture_cache_get(ct_picture_cache_t *pc, ct_font_t *font, const ct_paint_t *paint,
                                      ct_palette_ref_t *palref, double time) {
  entry_t key, *e;
  ct_draw_ctx_t ctx;
  double b[4];

  key_init(&key, font, paint, palref, time);
  if ((e = table_find(&pc->t, &key))) return e->surface;
  if (!table_reserve(&pc->t)) return NULL;
  /* record the glyph in font units, y up, as ct_page_replay would draw it, bounded by what
     the tree can paint (cairo needs bounds to write repeating gradients whole) */
  memset(&ctx, 0, sizeof ctx);
  ctx.images = &ct_glyph_images;
  ctx.font = font;
  ctx.palette = &palref->pal;
  ctx.inks = pc->inks;
  ctx.ninks = pc->ninks;
  ctx.time = key.time;
  cairo_identity_matrix(pc->t.scratch);
  if (copyable(paint, 0, 0) && ct_render_bounds(pc->t.scratch, &ctx, paint, b)) {
    cairo_rectangle_t ext;
    cairo_t *cr;
    ext.x = floor(b[0]) - 1;
    ext.y = floor(b[1]) - 1;
    ext.width = ceil(b[2]) + 1 - ext.x;
    ext.height = ceil(b[3]) + 1 - ext.y;
    key.surface = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &ext);
    cr = cairo_create(key.surface);
    ct_render_paint(cr, &ctx, paint);
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
      cairo_surface_destroy(key.surface);
      key.surface = NULL;
    }
    cairo_destroy(cr);
  }
  return table_add(&pc->t, &key)->surface;
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

/* the key of a sprite's own pixels (freed with it) */
static const cairo_user_data_key_t pixels_key;

#define SPRITE_MAX_SIDE  512
#define SPRITE_MAX_BYTES (32u << 20)   /* per font */
#define SPRITE_MAX_ANIM_BYTES (8u << 20)   /* of which animated glyphs' (a sprite per frame) */

ct_sprite_cache_t *ct_sprite_cache_create(void) {
  ct_sprite_cache_t *sc = malloc(sizeof *sc);
  if (sc && !table_init(&sc->t)) {
    free(sc);
    return NULL;
  }
  return sc;
}

void ct_sprite_cache_destroy(ct_sprite_cache_t *sc) {
  if (!sc) return;
  table_fini(&sc->t);
  free(sc);
}

/* A font's sprites are keyed by its trees, which a new location replaces: they go too. */
static void *sprites_clear(void *cache) {
  ct_sprite_cache_destroy(cache);
  return NULL;
}

static void sprites_destroy(void *cache) { ct_sprite_cache_destroy(cache); }

static const ct_font_cache_ops_t sprites_ops = { sprites_clear, sprites_destroy };

ct_sprite_cache_t *ct_font_sprites(ct_font_t *font) {
  ct_sprite_cache_t *sc = ct_font_get_cache(font, CT_FONT_CACHE_SPRITES);
  if (!sc && (sc = ct_sprite_cache_create())) ct_font_set_cache(font, CT_FONT_CACHE_SPRITES, sc, &sprites_ops);
  return sc;
}

/* Sizes a sprite for `key` (phase and scale set) and makes its image, blank, into
   key->surface; leaves it NULL when the glyph is to be drawn directly.  `job` receives what
   draws it (draw_sprite). */
static void make_sprite(table_t *t, entry_t *key, ct_font_t *font, ct_palette_ref_t *palref, ct_sprite_job_t *job) {
  ct_draw_ctx_t ctx;
  double b[4], fx = key->qx / 4.0, fy = key->qy / 4.0;
  int w, h, stride;
  size_t bytes;
  unsigned char *pixels;
  memset(&ctx, 0, sizeof ctx);
  ctx.images = &ct_glyph_images;
  ctx.font = font;
  ctx.palette = &palref->pal;
  ctx.time = key->time;
  cairo_identity_matrix(t->scratch);
  cairo_translate(t->scratch, fx, fy);
  cairo_scale(t->scratch, key->scale, -key->scale);
  if (!copyable(key->paint, 0, 1) || !ct_render_bounds(t->scratch, &ctx, key->paint, b) ||
      b[2] - b[0] >= SPRITE_MAX_SIDE || b[3] - b[1] >= SPRITE_MAX_SIDE)
    return;
  key->ox = (int)floor(b[0]) - 1;
  key->oy = (int)floor(b[1]) - 1;
  w = (int)ceil(b[2]) + 1 - key->ox;
  h = (int)ceil(b[3]) + 1 - key->oy;
  bytes = (size_t)w * (size_t)h * 4;
  if (t->bytes + bytes > SPRITE_MAX_BYTES) return;
  if (key->paint->animated && t->anim_bytes + bytes > SPRITE_MAX_ANIM_BYTES) return;
  /* the pixels are cleared by ct_sprite_render, on the thread that draws them */
  stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, w);
  if (stride <= 0 || !(pixels = malloc((size_t)stride * (size_t)h))) return;
  key->surface = cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_ARGB32, w, h, stride);
  if (cairo_surface_status(key->surface) != CAIRO_STATUS_SUCCESS ||
      cairo_surface_set_user_data(key->surface, &pixels_key, pixels, free) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(key->surface);
    key->surface = NULL;
    free(pixels);
    return;
  }
  t->bytes += bytes;
  if (key->paint->animated) t->anim_bytes += bytes;
  job->surface = key->surface;
  job->font = font;
  job->paint = key->paint;
  job->palref = palref;
  job->scale = key->scale;
  job->fx = fx - key->ox;
  job->fy = fy - key->oy;
  job->time = key->time;
}

int ct_sprite_render(const ct_sprite_job_t *job) {
  ct_draw_ctx_t ctx;
  cairo_t *cr;
  int ok;
  cairo_surface_flush(job->surface);
  memset(cairo_image_surface_get_data(job->surface), 0,
         (size_t)cairo_image_surface_get_stride(job->surface) * (size_t)cairo_image_surface_get_height(job->surface));
  cairo_surface_mark_dirty(job->surface);
  cr = cairo_create(job->surface);
  memset(&ctx, 0, sizeof ctx);
  ctx.images = &ct_glyph_images;
  ctx.font = job->font;
  ctx.palette = &job->palref->pal;
  ctx.time = job->time;
  cairo_translate(cr, job->fx, job->fy);
  cairo_scale(cr, job->scale, -job->scale);
  ct_render_paint(cr, &ctx, job->paint);
  ok = cairo_status(cr) == CAIRO_STATUS_SUCCESS;
  cairo_destroy(cr);
  cairo_surface_flush(job->surface);
  return ok;
}

int ct_sprite_place(ct_sprite_cache_t *sc, const cairo_matrix_t *m, ct_font_t *font, const ct_paint_t *paint,
                    ct_palette_ref_t *palref, double x, double y, double units, double time,
                    ct_sprite_spot_t *spot, ct_sprite_job_t *job) {
  double dx = x, dy = y, fx, fy;
  entry_t key, *e;
  long ix, iy;

  memset(job, 0, sizeof *job);
  if (m->xy != 0 || m->yx != 0 || m->xx <= 0 || m->xx != m->yy) return 0;   /* scaled only */
  cairo_matrix_transform_point(m, &dx, &dy);
  if (!isfinite(dx) || !isfinite(dy) || fabs(dx) > 1e9 || fabs(dy) > 1e9) return 0;
  ix = (long)floor(dx);
  iy = (long)floor(dy);
  fx = floor((dx - (double)ix) * 4 + 0.5);
  fy = floor((dy - (double)iy) * 4 + 0.5);
  if (fx >= 4) { ix++; fx = 0; }
  if (fy >= 4) { iy++; fy = 0; }

  key_init(&key, font, paint, palref, time);
  key.scale = m->xx * units;
  key.qx = (int)fx;
  key.qy = (int)fy;
  if (!(e = table_find(&sc->t, &key))) {
    if (!table_reserve(&sc->t)) return 0;
    make_sprite(&sc->t, &key, font, palref, job);
    e = table_add(&sc->t, &key);
  }
  if (!e->surface) return 0;
  spot->surface = e->surface;
  spot->x = (int)(ix + e->ox);
  spot->y = (int)(iy + e->oy);
  spot->w = cairo_image_surface_get_width(e->surface);
  spot->h = cairo_image_surface_get_height(e->surface);
  return 1;
}

void ct_sprite_paint(cairo_t *cr, const ct_sprite_spot_t *spot, int dx, int dy) {
  cairo_save(cr);
  cairo_identity_matrix(cr);
  cairo_set_source_surface(cr, spot->surface, (double)(spot->x + dx), (double)(spot->y + dy));
  cairo_paint(cr);
  cairo_restore(cr);
}
