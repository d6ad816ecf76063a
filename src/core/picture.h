/* picture.h: color glyphs recorded once per output and drawn many times (see picture.c). */
#ifndef CT_PICTURE_H
#define CT_PICTURE_H

#include "canvas.h"

typedef struct ct_picture_cache ct_picture_cache_t;

ct_picture_cache_t *ct_picture_cache_create(void);
void                ct_picture_cache_destroy(ct_picture_cache_t *pc);

/* The recording of `paint` drawn in `font` units (y up) with the palette, made on first
   use; NULL if it cannot be made (draw directly then).  Owned by the cache. */
cairo_surface_t *ct_picture_cache_get(ct_picture_cache_t *pc, ct_font_t *font, const ct_paint_t *paint,
                                      ct_palette_ref_t *palref);

#endif /* CT_PICTURE_H */
