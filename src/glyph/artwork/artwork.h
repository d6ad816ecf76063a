/*
** artwork.h: the door of src/glyph/artwork/, a part of the glyph stage beside glyph/svg/:
** SVG drawings (a designer's artwork, one file per glyph) read as color glyphs: their
** shapes as outlines in font units, strokes outlined, and a paint tree over those outlines
** (solid colors, gradients, transforms, clips, group opacity).  What COLR cannot express
** (filters, masks, patterns, text, images, blend modes) is refused, naming the element.
** Knows fonts' units and paint trees; writing them into a font is fontmake's.
*/
#ifndef CT_ARTWORK_H
#define CT_ARTWORK_H

#include "paint/paint.h"

/* How a drawing is placed in the em: by default its viewBox's height spans the em (upem
   units), its bottom at `descent` plus half of what ascent - descent leaves over upem, and
   the advance is its width scaled alike; `advance` > 0 fixes the advance, the drawing
   centred in it. */
typedef struct {
  unsigned upem;               /* 16..16384 */
  double   ascent, descent;    /* font units; descent below the baseline is negative */
  double   advance;            /* <= 0: from the drawing */
  int      flat_only;          /* COLRv0 alone: what it cannot hold (a gradient, a clip, group
                                  opacity over several shapes) is refused, naming the element */
  int      flatten_gradients;  /* a gradient becomes its stops' mean color (wins over refuse) */
} ct_artwork_options_t;

void ct_artwork_options_init(ct_artwork_options_t *o);   /* upem 1024, ascent 819, descent -205 */

/* One drawing read.  `outlines[i]` is a shape in 26.6 font units (font units x 64), y up,
   filled with the nonzero rule, its arrays malloc'ed (points, tags, contours); the tree's
   glyph nodes have font NULL and gid = i (the font writer maps outlines to glyph ids).
   Colors are RGBA (ct_color_rgba) or the text color (ct_color_foreground, currentColor). */
typedef struct {
  FT_Outline  *outlines;
  unsigned     count;
  ct_paint_t  *tree;           /* NULL: the drawing paints nothing */
  double       advance;        /* font units */
  unsigned     gradients;      /* how many gradient paints the tree holds */
  char         warning[256];   /* what was drawn otherwise than the file says ("" none) */
} ct_artwork_t;

/* Reads the SVG document `data` (len bytes; `name` is the file named in messages).  On
   failure returns an error whose message is one line, "NAME: what" ("NAME: <filter>
   (line 12): filters cannot be expressed in COLR", "NAME: not well-formed XML (line 3)",
   "NAME: over 1000000 elements"), CT_ERR_INVALID_IMAGE for a drawing refused, CT_ERR_LIMIT
   for one over a limit of ct-limits.h, CT_ERR_NOMEM; `*out` is then empty.  Thread-safe:
   drawings are read in parallel. */
ct_status_t ct_artwork_read(const char *name, const unsigned char *data, size_t len,
                            const ct_artwork_options_t *o, ct_artwork_t *out, ct_error_t *err);
void ct_artwork_free(ct_artwork_t *a);   /* its outlines and tree; NULL-safe, leaves it empty */

#endif /* CT_ARTWORK_H */
