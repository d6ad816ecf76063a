/* picture.h: color glyphs recorded once per output and drawn many times (see picture.c);
   private to the page stage (the cache's life: page.h). */
#ifndef CT_PICTURE_H
#define CT_PICTURE_H

#include "page.h"

/* The recording of `paint` drawn in `font` units (y up) with the palette at `time` (SVG
   animations; 0 for trees that have none, so they are recorded once), made on first use;
   NULL if it cannot be made (draw directly then).  Owned by the cache. */
cairo_surface_t *ct_picture_cache_get(ct_picture_cache_t *pc, ct_font_t *font, const ct_paint_t *paint,
                                      ct_palette_ref_t *palref, double time);

/* Raster output: color glyphs rendered once per size and quarter-pixel phase into small
   images and copied after that (see picture.c). */
typedef struct ct_sprite_cache ct_sprite_cache_t;

ct_sprite_cache_t *ct_sprite_cache_create(void);
void               ct_sprite_cache_destroy(ct_sprite_cache_t *sc);
/* The sprite cache of a font, in its CT_FONT_CACHE_SPRITES slot (made on first use; NULL
   without memory). */
ct_sprite_cache_t *ct_font_sprites(ct_font_t *font);

/* Sprites in two steps, for drawing a page in bands on several threads (bands.c): where
   the sprite goes, and what draws a sprite made by this call.  ct_sprite_place finds or
   makes the sprite of `paint` (font units, y up, `units` user units per font unit) with its
   origin at the user point (x, y) under the matrix `m` (user to device); it returns 0 if the
   glyph must be drawn directly (a rotated or skewed matrix, a glyph too large, the sprites
   of animated glyphs over their share of the memory), else 1 with `spot` filled.  `time`
   as for ct_picture_cache_get.  A sprite it makes is blank: `job->surface` is then set,
   and ct_sprite_render(job) draws it (once, before the sprite is painted; on any thread, as
   long as the caches it reads are built: the tree's outlines, and no SVG or bitmap glyphs,
   whose renderers are not thread-safe).  Not thread-safe itself. */
typedef struct {
  cairo_surface_t *surface;
  int              x, y, w, h;   /* device pixels: the sprite's top-left corner and size */
} ct_sprite_spot_t;

typedef struct {
  cairo_surface_t        *surface;   /* NULL: nothing to draw */
  ct_font_t              *font;
  const ct_paint_t       *paint;
  ct_palette_ref_t       *palref;
  double                  scale, fx, fy, time;
} ct_sprite_job_t;

int  ct_sprite_place(ct_sprite_cache_t *sc, const cairo_matrix_t *m, ct_font_t *font, const ct_paint_t *paint,
                     ct_palette_ref_t *palref, double x, double y, double units, double time,
                     ct_sprite_spot_t *spot, ct_sprite_job_t *job);
/* Draws a sprite made blank by ct_sprite_place; 0 if cairo failed (out of memory). */
int  ct_sprite_render(const ct_sprite_job_t *job);
/* Paints a placed sprite on `cr`, moved by (dx, dy) device pixels (a band's offset). */
void ct_sprite_paint(cairo_t *cr, const ct_sprite_spot_t *spot, int dx, int dy);

#endif /* CT_PICTURE_H */
