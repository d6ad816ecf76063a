/*
** font.h: the door of the font stage (src/font/): an open font (FreeType, HarfBuzz and
** its bytes), its outlines, its palettes resolved, fontconfig names and WOFF/WOFF2.  Knows
** nothing of paint trees, color tables or pages: what the stages above keep in a font,
** they keep in its cache slots, which the font only clears and destroys.
*/
#ifndef CT_FONT_H
#define CT_FONT_H

#include <hb.h>

#include "base/base.h"
#include "woff2.h"   /* WOFF2 both ways (woff2.cc): part of this door */

#define CT_FORMAT_COUNT (CT_FORMAT_MONO + 1)

/* Caches the stages above keep in a font, each made on first use by its owner.  The font
   names the slots, not what is in them, and knows two operations: `clear` when its
   location changes (variations), returning what is left (NULL: the cache is gone; no
   `clear`: nothing in it depends on the location), and `destroy` when the font goes.
   Both run in the order of the slots. */
typedef enum {
  CT_FONT_CACHE_SPRITES,   /* page/picture.c: raster sprites, keyed by the trees below */
  CT_FONT_CACHE_PAINTS,    /* glyph/colr.c: each glyph's paint tree, per format */
  CT_FONT_CACHE_SVG,       /* glyph/svg/: the SVG table and its parsed documents */
  CT_FONT_CACHE_BITMAPS,   /* glyph/bitmap.c: decoded CBDT/sbix images */
  CT_FONT_CACHE_COUNT
} ct_font_cache_id_t;

typedef struct {
  void *(*clear)(void *cache);
  void  (*destroy)(void *cache);
} ct_font_cache_ops_t;

struct ct_font {
  int            ref;
  int            inflated;      /* a WOFF/WOFF2 file, kept as its plain sfnt */
  char          *name;          /* path or caller's name, for messages */
  unsigned char *data;          /* the file's bytes, owned; FreeType reads them in place */
  size_t         size;
  size_t         charged;       /* bytes charged to --max-memory (base/memory.c) */
  unsigned       index;         /* face index */
  const char    *container;
  FT_Library     ft_lib;        /* one per font: FreeType libraries are not thread-safe */
  FT_Face        ft_face;
  int            ft_scaled;     /* outlines are loaded at ppem = upem (else NO_SCALE) */
  hb_blob_t     *blob;          /* borrows `data` (sfnt) or NULL (WOFF: tables via FreeType) */
  hb_face_t     *hb_face;
  hb_font_t     *hb_font;
  hb_blob_t     *colr_blob;     /* COLR, referenced on first use */
  cairo_font_face_t *cairo_face;    /* for the PDF text layer */
  unsigned       inked_glyph;   /* 1 + a glyph with an outline, 0 until looked for */
  unsigned       upem;
  int            var_set;       /* set_variations has run: axis_value holds the location */
  double         axis_value[64];
  unsigned       glyph_count;
  unsigned       color_formats;
  /* warnings met while building cached trees, until a caller takes them */
  char          *warnings[16];
  unsigned       nwarnings;
  /* outlines, indexed by glyph id and allocated on first use */
  cairo_path_t **outlines;
  struct { void *data; const ct_font_cache_ops_t *ops; } caches[CT_FONT_CACHE_COUNT];
};

/* font.c: the cache in slot `id` (NULL until its owner sets one), and setting it (the font
   then owns `cache` and destroys it with `ops`). */
void *ct_font_get_cache(const ct_font_t *font, ct_font_cache_id_t id);
void  ct_font_set_cache(ct_font_t *font, ct_font_cache_id_t id, void *cache, const ct_font_cache_ops_t *ops);

/* font.c: queues a warning about the font (drained by ct_font_take_warning). */
void ct_font_add_warning(ct_font_t *font, const char *message);
/* font.c: a cairo font face of the font (for the PDF text layer), made on first use and
   owned by the font; NULL when the font has no outlines (bitmap-only). */
cairo_font_face_t *ct_font_get_cairo_face(ct_font_t *font);

/* outline.c: the glyph's outline as a cairo path in font units, y up, cached in the
   font (borrowed: valid until the font's variations change or it is destroyed).
   Returns NULL for an empty glyph. */
const cairo_path_t *ct_font_get_outline(ct_font_t *font, unsigned gid);
void ct_font_clear_outlines(ct_font_t *font);
/* outline.c: a glyph with a non-empty outline (.notdef when it has one), for the text layer. */
unsigned ct_font_get_inked_glyph(ct_font_t *font);

/* palette.c: the palette of a style resolved to RGBA (`count` entries). */
typedef struct {
  ct_rgba_t *colors;
  unsigned   count;
  ct_rgba_t  foreground;
  ct_rgba_t  inline_buf[16];
} ct_resolved_palette_t;

ct_status_t ct_palette_resolve(ct_font_t *font, const ct_text_style_t *style,
                               ct_resolved_palette_t *out, ct_error_t *err);
void ct_palette_fini(ct_resolved_palette_t *pal);
ct_rgba_t ct_palette_color(const ct_resolved_palette_t *pal, const ct_color_t *color);

#endif /* CT_FONT_H */
