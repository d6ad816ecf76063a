/*
** svg.h: the door of OT-SVG glyphs (src/glyph/svg/), a part of the glyph stage below
** glyph/: the SVG table and its documents as paint nodes and their drawing with librsvg,
** and the sanitizer that pictures share.  Knows fonts and paint trees; what its files
** share among themselves (placement, SMIL) is in svg-private.h.
*/
#ifndef CT_SVG_H
#define CT_SVG_H

#include "paint/paint.h"

/* svg.c: the SVG glyph of a glyph id as a paint node, or NULL (none, or refused: then a
   warning is queued); svg-draw.c: its drawing.  The table is kept in the font's
   CT_FONT_CACHE_SVG slot. */
typedef struct ct_svg_table ct_svg_table_t;
ct_paint_t *ct_svg_glyph_paint(ct_font_t *font, unsigned gid);
/* ct_svg_render samples the glyph's SMIL animations at `time` seconds (glyphs without
   animations draw the same at any time). */
int ct_svg_render(cairo_t *cr, ct_font_t *font, const ct_svg_glyph_t *glyph, int layer,
                  const ct_resolved_palette_t *pal, double time);

/* svg-sanitize.c: an SVG picture file's bytes made safe for librsvg: inflated when
   gzip-compressed (capped), parsed without network, DTDs or entities (a DOCTYPE is
   refused), stripped of scripts and of every reference that is not a local #fragment or a
   PNG/JPEG data: URI, and written out again.  Returns a malloc'ed string (length in
   *out_len), or NULL with `why` filled; `what` receives what was removed ("" if nothing),
   for a warning. */
char *ct_svg_sanitize_picture(const unsigned char *bytes, size_t len, size_t *out_len, char *why,
                              size_t whylen, char *what, size_t whatlen);

#endif /* CT_SVG_H */
