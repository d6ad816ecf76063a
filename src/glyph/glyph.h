/*
** glyph.h: the door of the glyph stage (src/glyph/): a font's color tables expanded into
** paint trees (COLRv0, COLRv1, bitmaps here; OT-SVG in glyph/svg/), each glyph's tree
** cached in the font, and the drawing of the glyph images that are not paint.  Knows
** fonts and paint trees; never pages or outputs.
*/
#ifndef CT_GLYPH_H
#define CT_GLYPH_H

#include "svg/svg.h"   /* OT-SVG glyphs and the picture sanitizer: part of this door */

/* colr.c: how SVG and bitmap glyphs are drawn, for every drawing context (paint.h). */
extern const ct_glyph_images_t ct_glyph_images;

/* colr.c: whether `paint` is the tree the font caches for `gid` (caches keyed by trees
   hold a reference to each, so an address is not reused while it is a key).  The trees
   themselves: ct_font_get_glyph_paint (ct.h). */
int ct_font_caches_paint(const ct_font_t *font, unsigned gid, const ct_paint_t *paint);

/* colr.c: COLRv0 layers of a glyph as a paint tree, or NULL (not a color glyph). */
ct_paint_t *ct_colr0_glyph_paint(ct_font_t *font, unsigned gid, ct_error_t *err);
/* colr1.c: the COLRv1 graph of a glyph as a paint tree, or NULL (none, or over a limit:
   then *warned is set and `err` says why).  A tree with bad parts left out also sets
   *warned. */
ct_paint_t *ct_colr1_glyph_paint(ct_font_t *font, unsigned gid, ct_error_t *err, int *warned);
/* bitmap.c: CBDT/sbix bitmap glyphs: a paint node when the font has a bitmap for the
   glyph in some strike, and its drawing (the strike chosen from the device scale). */
ct_paint_t *ct_bitmap_glyph_paint(ct_font_t *font, unsigned gid);
void ct_bitmap_render(cairo_t *cr, ct_font_t *font, unsigned gid);

#endif /* CT_GLYPH_H */
