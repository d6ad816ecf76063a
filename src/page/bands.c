/*
** bands.c: a page rasterized in horizontal bands on several threads.  Page stage,
** between canvas.c (the display list) and the writers (PNG files, animation frames).
**
** Every band is BAND_ROWS device rows of the one image, drawn through its own cairo context
** (a surface on those rows, moved up by whole pixels), so threads only change which band
** is drawn by whom: the pixels never depend on the thread count.  What the threads share
** must be only read while they draw, so a single-threaded pass comes first (plan): it loads
** every outline the page's glyphs use (FreeType is not thread-safe), resolves each color
** glyph to its sprite (picture.c) at a whole device pixel, and makes the new sprites blank;
** those are drawn next, in parallel (each by one thread), then the bands.  SVG and bitmap
** glyphs (librsvg, decoded PNG caches) and picture files are drawn under a lock.
*/
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "page.h"
#include "picture.h"

#define BAND_ROWS CT_BAND_ROWS
#define JOB_BLOCK 1024

typedef struct {
  ct_sprite_spot_t spot;     /* spot.surface NULL: drawn directly */
  int              y0, y1;   /* device rows it can touch, [y0, y1); all bands if y0 >= y1 */
  int              locked;   /* drawn under the lock: an SVG or bitmap glyph */
} plan_t;

struct ct_bands {
  const ct_page_t *page;
  double           scale;
  const ct_ink_t  *inks;
  unsigned         ninks;
  plan_t         **plans;      /* per op: per placed glyph (glyph ops) */
  ct_sprite_job_t **jobs;      /* sprites to draw before the bands, in blocks that never move
                                  (room for a block pointer per JOB_BLOCK glyphs) */
  unsigned         njobs, taken;
  int              planned;    /* the plan is done: no more jobs */
  pthread_cond_t   more;       /* a job was added, or the plan is done */
  int              width, height;
  int              opaque;     /* an opaque rectangle covers the page */
  unsigned         first;      /* the first op drawn: ops under a rectangle covering every
                                  pixel whole are not, the band starts in its color */
  uint32_t         fill;       /* the pixel the bands start with */
  pthread_mutex_t  lock;       /* for what is not thread-safe to draw */
  int              failed;     /* a cairo status, under the lock */
};
typedef struct ct_bands bands_t;

/* Whether a tree draws with cairo alone (outlines already loaded): no SVG or bitmap node.
   At most `*left` nodes are visited (a subtree used twice counts twice): a tree larger
   than that is taken as not plain, drawn under the lock as it comes. */
static int plain_tree(const ct_paint_t *p, unsigned depth, unsigned *left) {
  unsigned i;
  if (!p) return 1;
  if (depth > CT_MAX_PAINT_DEPTH || *left == 0) return 0;
  --*left;
  switch (p->kind) {
  case CT_PAINT_SVG: case CT_PAINT_BITMAP: return 0;
  case CT_PAINT_LAYERS:
    for (i = 0; i < p->u.layers.count; i++) if (!plain_tree(p->u.layers.children[i], depth + 1, left)) return 0;
    return 1;
  case CT_PAINT_GLYPH: return plain_tree(p->u.glyph.child, depth + 1, left);
  case CT_PAINT_TRANSFORM: return plain_tree(p->u.transform.child, depth + 1, left);
  case CT_PAINT_CLIP: return plain_tree(p->u.clip.child, depth + 1, left);
  case CT_PAINT_COMPOSITE:
    return plain_tree(p->u.composite.source, depth + 1, left) && plain_tree(p->u.composite.backdrop, depth + 1, left);
  default: return 1;
  }
}

/* Loads the outline of every glyph node of a tree into its font's cache (a plain tree:
   plain_tree visited all of it within the budget). */
static void load_outlines(ct_font_t *font, const ct_paint_t *p, unsigned depth) {
  unsigned i;
  if (!p || depth > CT_MAX_PAINT_DEPTH) return;
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    for (i = 0; i < p->u.layers.count; i++) load_outlines(font, p->u.layers.children[i], depth + 1);
    break;
  case CT_PAINT_GLYPH:
    ct_font_get_outline(p->u.glyph.font ? p->u.glyph.font : font, p->u.glyph.gid);
    load_outlines(font, p->u.glyph.child, depth + 1);
    break;
  case CT_PAINT_TRANSFORM: load_outlines(font, p->u.transform.child, depth + 1); break;
  case CT_PAINT_CLIP: load_outlines(font, p->u.clip.child, depth + 1); break;
  case CT_PAINT_COMPOSITE:
    load_outlines(font, p->u.composite.source, depth + 1);
    load_outlines(font, p->u.composite.backdrop, depth + 1);
    break;
  default: break;
  }
}

/* Queues a sprite for the threads drawing them while the plan goes on; 0 without memory. */
static int add_job(bands_t *b, const ct_sprite_job_t *job) {
  unsigned k = b->njobs;   /* only this thread adds */
  if (!b->jobs[k / JOB_BLOCK] && !(b->jobs[k / JOB_BLOCK] = malloc(JOB_BLOCK * sizeof **b->jobs))) return 0;
  b->jobs[k / JOB_BLOCK][k % JOB_BLOCK] = *job;
  pthread_mutex_lock(&b->lock);
  b->njobs++;
  pthread_cond_signal(&b->more);
  pthread_mutex_unlock(&b->lock);
  return 1;
}

/* Draws queued sprites until the plan is done and the queue empty. */
static void *sprite_worker(void *arg) {
  bands_t *b = arg;
  for (;;) {
    unsigned k;
    pthread_mutex_lock(&b->lock);
    while (b->taken == b->njobs && !b->planned) pthread_cond_wait(&b->more, &b->lock);
    if (b->taken == b->njobs) {
      pthread_mutex_unlock(&b->lock);
      return NULL;
    }
    k = b->taken++;
    pthread_mutex_unlock(&b->lock);
    if (!ct_sprite_render(&b->jobs[k / JOB_BLOCK][k % JOB_BLOCK])) {
      pthread_mutex_lock(&b->lock);
      b->failed = CAIRO_STATUS_NO_MEMORY;
      pthread_mutex_unlock(&b->lock);
    }
  }
}

/* The single-threaded pass: every placed glyph's plan, the sprites to draw. */
static ct_status_t plan(bands_t *b, cairo_t *scratch, ct_error_t *err) {
  const ct_page_t *page = b->page;
  unsigned i, j;
  size_t nglyphs = 0;
  if (!(b->plans = calloc(page->count ? page->count : 1, sizeof *b->plans)))
    return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  for (i = 0; i < page->count; i++)
    if (page->ops[i].kind == CT_OP_GLYPHS) nglyphs += page->ops[i].u.glyphs.count;
  if (!(b->jobs = calloc(nglyphs / JOB_BLOCK + 1, sizeof *b->jobs)))
    return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  for (i = 0; i < page->count; i++) {
    const ct_op_t *op = &page->ops[i];
    if (op->kind == CT_OP_RECT) {   /* a background: every pixel opaque from there on */
      ct_rgba_t col = op->u.rect.color;
      if (b->ninks) ct_ink_flatten(b->inks, b->ninks, &col);
      if (col.a >= 1 && op->u.rect.x <= 0 && op->u.rect.y <= 0 && op->u.rect.x + op->u.rect.w >= page->width &&
          op->u.rect.y + op->u.rect.h >= page->height)
        b->opaque = 1;
      if (col.a >= 1 && op->u.rect.x * b->scale <= 0 && op->u.rect.y * b->scale <= 0 &&
          (op->u.rect.x + op->u.rect.w) * b->scale >= b->width && (op->u.rect.y + op->u.rect.h) * b->scale >= b->height) {
        /* every pixel covered whole by an opaque color: what cairo makes of it, read back */
        cairo_surface_t *px = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
        cairo_t *cr = cairo_create(px);
        cairo_set_source_rgba(cr, col.r, col.g, col.b, col.a);
        cairo_rectangle(cr, -1, -1, 3, 3);
        cairo_fill(cr);
        cairo_surface_flush(px);
        if (cairo_status(cr) == CAIRO_STATUS_SUCCESS && cairo_image_surface_get_data(px)) {
          memcpy(&b->fill, cairo_image_surface_get_data(px), 4);
          b->first = i + 1;
        }
        cairo_destroy(cr);
        cairo_surface_destroy(px);
      }
    }
    if (op->kind == CT_OP_IMAGE) {   /* drawn within its box, in the bands the box meets */
      if (!(b->plans[i] = calloc(1, sizeof **b->plans))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
      b->plans[i]->y0 = (int)floor(op->u.image.y * b->scale) - 1;
      b->plans[i]->y1 = (int)ceil((op->u.image.y + op->u.image.h) * b->scale) + 1;
      b->plans[i]->locked = 1;
      continue;
    }
    if (op->kind != CT_OP_GLYPHS || op->u.glyphs.count == 0) continue;
    if (!(b->plans[i] = calloc(op->u.glyphs.count, sizeof **b->plans)))
      return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    for (j = 0; j < op->u.glyphs.count; j++) {
      const ct_placed_t *g = &op->u.glyphs.items[j];
      plan_t *p = &b->plans[i][j];
      ct_font_t *font = op->u.glyphs.font;
      double t = g->paint->animated ? op->u.glyphs.time : 0, bx[4];
      unsigned left = CT_MAX_PAINT_WORK;
      int plain = plain_tree(g->paint, 0, &left);
      ct_draw_ctx_t ctx;
      cairo_matrix_t m;
      cairo_matrix_init_scale(&m, b->scale, b->scale);
      if (plain) load_outlines(font, g->paint, 0);
      /* sprites as ct_page_replay uses them: not with inks, color glyphs cached per font */
      if (!b->ninks && ct_paint_worth_recording(g->paint) && ct_font_caches_paint(font, g->gid, g->paint)) {
        ct_sprite_cache_t *sc = ct_font_sprites(font);
        ct_sprite_job_t job;
        if (sc && ct_sprite_place(sc, &m, font, g->paint, op->u.glyphs.palette, g->x, g->y, op->u.glyphs.scale,
                                  t, &p->spot, &job)) {
          p->y0 = p->spot.y;
          p->y1 = p->spot.y + p->spot.h;
          /* drawn by the sprite threads; here for librsvg and bitmaps (or without memory) */
          if (job.surface && !(plain && add_job(b, &job))) ct_sprite_render(&job);
          continue;
        }
      }
      /* drawn directly: in the bands its box meets (SVG and bitmap glyphs: the generous em
         box their sprites have too) */
      p->locked = !plain;
      memset(&ctx, 0, sizeof ctx);
      ctx.images = &ct_glyph_images;
      ctx.font = font;
      ctx.palette = &op->u.glyphs.palette->pal;
      ctx.time = t;
      cairo_identity_matrix(scratch);
      cairo_scale(scratch, b->scale, b->scale);
      cairo_translate(scratch, g->x, g->y);
      cairo_scale(scratch, op->u.glyphs.scale, -op->u.glyphs.scale);
      if (ct_render_bounds(scratch, &ctx, g->paint, bx) && fabs(bx[1]) < 1e9 && fabs(bx[3]) < 1e9) {
        /* antialiasing stays within the pixels the box touches; one more row either side */
        p->y0 = (int)floor(bx[1]) - 1;
        p->y1 = (int)ceil(bx[3]) + 1;
        if (p->y0 >= p->y1) p->y1 = p->y0 + 1;
      }
    }
  }
  return CT_OK;
}

int ct_bands_draw(ct_bands_t *b, unsigned band, unsigned char *rows, int stride) {
  const ct_page_t *page = b->page;
  int y0 = (int)band * BAND_ROWS, h = b->height - y0 < BAND_ROWS ? b->height - y0 : BAND_ROWS;
  cairo_surface_t *s = cairo_image_surface_create_for_data(rows, CAIRO_FORMAT_ARGB32, b->width, h, stride);
  cairo_t *cr = cairo_create(s);
  cairo_status_t st;
  unsigned i, j;

  for (i = 0; i < (unsigned)h; i++) {   /* the background, or transparent */
    uint32_t *row = (uint32_t *)(void *)(rows + (size_t)i * (size_t)stride);
    int x;
    if (!b->fill) memset(row, 0, (size_t)b->width * 4);
    else for (x = 0; x < b->width; x++) row[x] = b->fill;
  }
  cairo_surface_mark_dirty(s);
  cairo_translate(cr, 0, -y0);   /* whole pixels: the page's own device grid */
  cairo_scale(cr, b->scale, b->scale);
  for (i = b->first; i < page->count; i++) {
    const ct_op_t *op = &page->ops[i];
    if (op->kind == CT_OP_IMAGE) {
      const plan_t *p = b->plans[i];
      if (p->y1 <= y0 || p->y0 >= y0 + h) continue;   /* not in this band */
      pthread_mutex_lock(&b->lock);
      ct_image_draw(cr, op->u.image.image, op->u.image.x, op->u.image.y, op->u.image.w, op->u.image.h,
                    op->u.image.fit);
      pthread_mutex_unlock(&b->lock);
      continue;
    }
    if (op->kind == CT_OP_RECT) {
      ct_rgba_t col = op->u.rect.color;
      if (b->ninks) ct_ink_flatten(b->inks, b->ninks, &col);
      cairo_set_source_rgba(cr, col.r, col.g, col.b, col.a);
      cairo_rectangle(cr, op->u.rect.x, op->u.rect.y, op->u.rect.w, op->u.rect.h);
      cairo_fill(cr);
      continue;
    }
    for (j = 0; j < op->u.glyphs.count; j++) {
      const ct_placed_t *g = &op->u.glyphs.items[j];
      const plan_t *p = &b->plans[i][j];
      ct_draw_ctx_t ctx;
      if (p->y0 < p->y1 && (p->y1 <= y0 || p->y0 >= y0 + h)) continue;   /* not in this band */
      if (p->spot.surface) {
        ct_sprite_paint(cr, &p->spot, 0, -y0);
        continue;
      }
      memset(&ctx, 0, sizeof ctx);
      ctx.images = &ct_glyph_images;
      ctx.font = op->u.glyphs.font;
      ctx.palette = &op->u.glyphs.palette->pal;
      ctx.inks = b->inks;
      ctx.ninks = b->ninks;
      ctx.time = g->paint->animated ? op->u.glyphs.time : 0;
      cairo_save(cr);
      cairo_translate(cr, g->x, g->y);
      cairo_scale(cr, op->u.glyphs.scale, -op->u.glyphs.scale);
      if (p->locked) pthread_mutex_lock(&b->lock);
      ct_render_paint(cr, &ctx, g->paint);
      if (p->locked) pthread_mutex_unlock(&b->lock);
      cairo_restore(cr);
    }
  }
  ct_page_draw_marks(page, cr);
  st = cairo_status(cr);
  cairo_destroy(cr);
  cairo_surface_flush(s);
  cairo_surface_destroy(s);
  if (st != CAIRO_STATUS_SUCCESS) {
    pthread_mutex_lock(&b->lock);
    b->failed = st;
    pthread_mutex_unlock(&b->lock);
  }
  return st == CAIRO_STATUS_SUCCESS;
}

ct_bands_t *ct_bands_create(const ct_page_t *page, int width, int height, double scale, const ct_ink_t *inks,
                            unsigned ninks, unsigned threads, ct_error_t *err) {
  bands_t *b = calloc(1, sizeof *b);
  pthread_t tids[CT_MAX_THREADS];
  unsigned started = 0, k;
  cairo_surface_t *s;
  cairo_t *scratch;
  ct_status_t st;
  if (!b) {
    ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    return NULL;
  }
  b->page = page;
  b->scale = scale;
  b->inks = inks;
  b->ninks = ninks;
  b->width = width;
  b->height = height;
  pthread_mutex_init(&b->lock, NULL);
  pthread_cond_init(&b->more, NULL);
  /* the sprites are drawn on the other threads as the plan makes them, then on all */
  if (threads > CT_MAX_THREADS) threads = CT_MAX_THREADS;
  for (k = 1; k < threads; k++)
    if (pthread_create(&tids[started], NULL, sprite_worker, b) == 0) started++;
  s = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
  scratch = cairo_create(s);
  cairo_surface_destroy(s);
  if (cairo_status(scratch) != CAIRO_STATUS_SUCCESS) st = ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  else st = plan(b, scratch, err);
  cairo_destroy(scratch);
  pthread_mutex_lock(&b->lock);
  b->planned = 1;
  if (st != CT_OK) b->taken = b->njobs;   /* drop what is queued */
  pthread_cond_broadcast(&b->more);
  pthread_mutex_unlock(&b->lock);
  sprite_worker(b);
  for (k = 0; k < started; k++) pthread_join(tids[k], NULL);
  if (st != CT_OK) {
    ct_bands_destroy(b);
    return NULL;
  }
  return b;
}

unsigned ct_bands_count(const ct_bands_t *b) { return (unsigned)((b->height + BAND_ROWS - 1) / BAND_ROWS); }

int ct_bands_opaque(const ct_bands_t *b) { return b->opaque; }

int ct_bands_status(ct_bands_t *b) {
  int st;
  pthread_mutex_lock(&b->lock);
  st = b->failed;
  pthread_mutex_unlock(&b->lock);
  return st;
}

void ct_bands_destroy(ct_bands_t *b) {
  unsigned i;
  if (!b) return;
  if (b->plans)
    for (i = 0; i < b->page->count; i++) free(b->plans[i]);
  free(b->plans);
  if (b->jobs)
    for (i = 0; i <= b->njobs / JOB_BLOCK; i++) free(b->jobs[i]);
  free(b->jobs);
  pthread_cond_destroy(&b->more);
  pthread_mutex_destroy(&b->lock);
  free(b);
}

typedef struct { ct_bands_t *b; unsigned char *data; int stride; } image_t;

static void draw_image_band(void *arg, unsigned band, unsigned worker) {
  image_t *im = arg;
  (void)worker;
  ct_bands_draw(im->b, band, im->data + (size_t)band * BAND_ROWS * (size_t)im->stride, im->stride);
}

ct_status_t ct_bands_draw_image(ct_bands_t *b, cairo_surface_t *img, unsigned threads, ct_error_t *err) {
  image_t im;
  int st;
  cairo_surface_flush(img);
  im.b = b;
  im.data = cairo_image_surface_get_data(img);
  im.stride = cairo_image_surface_get_stride(img);
  if (!im.data || cairo_image_surface_get_width(img) != b->width || cairo_image_surface_get_height(img) != b->height)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "cannot render: not the bands' image");
  ct_parallel_for(ct_bands_count(b), threads, draw_image_band, &im);
  cairo_surface_mark_dirty(img);
  if ((st = ct_bands_status(b)) != CAIRO_STATUS_SUCCESS)
    return ct_set_error(err, st == CAIRO_STATUS_NO_MEMORY ? CT_ERR_NOMEM : CT_ERR_BACKEND, "cannot render: %s",
                        cairo_status_to_string((cairo_status_t)st));
  return CT_OK;
}
