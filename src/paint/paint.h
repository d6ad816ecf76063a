/*
** paint.h: the door of the paint stage (src/paint/): the paint tree (its public shape is
** in ct.h), trees kept once (interning), spot inks, and the compositor that draws a tree
** with cairo.  Sits below the glyph stage that makes trees from color tables: OT-SVG and
** bitmap glyphs are held here only through the small interfaces below.
*/
#ifndef CT_PAINT_H
#define CT_PAINT_H

#include "font/font.h"

/* The head of every SVG glyph (glyph/svg/ makes them, this first): what the paint stage
   keeps of one.  `free` frees the rest when the last reference goes. */
typedef struct {
  int      ref;
  unsigned gid;
  unsigned nlayers;     /* drawable children of the glyph element */
  int      animated;    /* the document has SMIL animations */
  void   (*free)(ct_svg_glyph_t *glyph);
} ct_svg_glyph_head_t;

/* paint.c: an SVG glyph's references and what its head says (layer count: ct.h). */
ct_svg_glyph_t *ct_svg_glyph_reference(ct_svg_glyph_t *glyph);
void            ct_svg_glyph_destroy(ct_svg_glyph_t *glyph);
unsigned        ct_svg_glyph_get_gid(const ct_svg_glyph_t *glyph);
int             ct_svg_glyph_is_animated(const ct_svg_glyph_t *glyph);

/* How the glyph images that are not paint are drawn (OT-SVG documents with librsvg,
   bitmap strikes): given by the glyph stage (ct_glyph_images, glyph/glyph.h) to every
   drawing through its context.  `svg` draws layer `layer` (-1: the whole glyph), its
   animations sampled at `time` seconds; `bitmap` the glyph `gid` of `font` in the strike
   the device scale needs. */
typedef struct {
  int  (*svg)(cairo_t *cr, ct_font_t *font, const ct_svg_glyph_t *glyph, int layer,
              const ct_resolved_palette_t *pal, double time);
  void (*bitmap)(cairo_t *cr, ct_font_t *font, unsigned gid);
} ct_glyph_images_t;

/* render.c: draws a tree in font units onto `cr` (the caller sets the matrix). */
typedef struct {
  ct_font_t                   *font;
  const ct_resolved_palette_t *palette;
  const ct_glyph_images_t     *images;    /* SVG and bitmap nodes (NULL: they draw nothing) */
  const ct_ink_t              *inks;      /* spot inks: an alpha on an ink's hue becomes a tint */
  unsigned                     ninks;
  unsigned                     depth;
  unsigned                     work;
  int                          limit_hit;
  double                       time;      /* seconds: SVG glyphs sample their animations at it */
} ct_draw_ctx_t;

/* The box (x0, y0, x1, y1, in `cr`'s device space) that a tree can paint, drawn with the
   matrix of `cr`; 0 if it is unbounded or paints nothing. */
int ct_render_bounds(cairo_t *cr, ct_draw_ctx_t *ctx, const ct_paint_t *p, double b[4]);

ct_status_t ct_render_paint(cairo_t *cr, ct_draw_ctx_t *ctx, const ct_paint_t *paint);

/* paint.c: a linear gradient's color line {x0, y0, x1, y1} (p1 projected as the spec
   says); 0 when the line has no direction. */
int ct_paint_linear_line(const ct_paint_t *p, double line[4]);

/* intern.c: trees a canvas draws that are equal to one it drew before.  ct_paint_intern
   returns a new reference to the tree `*interns` keeps equal to `paint` (`paint` itself
   once it is seen a second time), or NULL when none is kept (then the caller draws its
   own); `*interns` is made on first use.  Only trees without fonts or images of their own,
   of at most 1,024 nodes, up to a budget of nodes. */
typedef struct ct_paint_interns ct_paint_interns_t;
ct_paint_t *ct_paint_intern(ct_paint_interns_t **interns, ct_paint_t *paint);
void ct_paint_interns_destroy(ct_paint_interns_t *interns);

#endif /* CT_PAINT_H */
