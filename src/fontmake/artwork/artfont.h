/*
** artfont.h: what the files of the font made from artwork share (artfont.c: the glyph set
** from the drawings read; artfont-tables.c: the plain TrueType font that leads the font
** builder).  Fontmake stage, private to artfont*.c and their unit test.
*/
#ifndef CT_ARTFONT_H
#define CT_ARTFONT_H

#include "fontmake/fontmake.h"
#include "glyph/artwork/artwork.h"

/* GDEF glyph classes */
enum { CT_ART_CLASS_NONE = 0, CT_ART_CLASS_BASE = 1, CT_ART_CLASS_LIGATURE = 2, CT_ART_CLASS_MARK = 3 };

typedef struct {
  uint32_t cp;
  unsigned gid;
} ct_art_cmap_t;

/* One ligature of the ccmp lookup: `first` followed by comps[0..ncomps) becomes `lig`. */
typedef struct {
  unsigned  first, lig;
  unsigned *comps;     /* points into the font's component pool */
  unsigned  ncomps;    /* components after the first */
  unsigned  order;     /* the file's place, for a stable order among equals */
} ct_art_lig_t;

/* The lead font's glyphs and mappings, in glyph order. */
typedef struct {
  unsigned        upem;
  double          ascent, descent;   /* descent below the baseline is negative */
  unsigned        count;             /* glyphs */
  ct_buf_t        glyf;
  size_t         *loca;              /* count + 1 */
  int            *advance, *xmin;
  char          **names;             /* post names, unique */
  unsigned char  *gclass;            /* GDEF classes */
  ct_glyf_stats_t max;               /* points, contours, the bbox union */
  int             have_box;
  ct_art_cmap_t  *cmap;              /* ascending by code point */
  unsigned        ncmap;
  ct_art_lig_t   *ligs;
  unsigned        nligs;
  unsigned       *pool;              /* the ligatures' components */
} ct_artfont_t;

/* The font's bytes (an sfnt: head, hhea, maxp, OS/2, hmtx, cmap, post, name, glyf, loca,
   GDEF, GSUB).  Sorts f->ligs. */
ct_status_t ct_artfont_write(ct_artfont_t *f, ct_buf_t *out, ct_error_t *err);

/* The builder of the drawings already read: `arts[i]` is `src[i]`'s (skipped files left
   out by the caller); the outlines and trees stay the caller's.  Every check of the
   sources (characters and names given twice, glyph count) is made here as well. */
ct_font_builder_t *ct_artfont_build(const ct_artwork_source_t *src, const ct_artwork_t *arts, unsigned n,
                                    const ct_artwork_font_options_t *o, void (*warn)(void *data, const char *msg),
                                    void *warn_data, ct_error_t *err);

#endif /* CT_ARTFONT_H */
