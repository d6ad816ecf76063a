/*
** fontmake.h: the header of the fontmake stage (src/fontmake/), private to it: the pieces
** of the font writer: a growing byte buffer in the big-endian order of OpenType, the sfnt
** assembler, TrueType glyph encoding, the COLR/CPAL and OT-SVG encoders.  fontbuild*.c put
** them together.  The compositor's twin: it stands on fonts and paint trees, never pages.
*/
#ifndef CT_FONTMAKE_H
#define CT_FONTMAKE_H

#include "paint/paint.h"

/* ---- sfnt.c: bytes ------------------------------------------------------ */

typedef struct {
  unsigned char *p;
  size_t         len, cap;
  int            failed;   /* out of memory (or over CT_MAX_FONT_FILE_SIZE): later writes do nothing */
} ct_buf_t;

void ct_buf_free(ct_buf_t *b);
unsigned char *ct_buf_grow(ct_buf_t *b, size_t n);   /* n more bytes (zeroed), or NULL */
void ct_buf_bytes(ct_buf_t *b, const void *data, size_t n);
void ct_buf_u8(ct_buf_t *b, unsigned v);
void ct_buf_u16(ct_buf_t *b, unsigned v);
void ct_buf_u24(ct_buf_t *b, uint32_t v);
void ct_buf_u32(ct_buf_t *b, uint32_t v);
void ct_buf_pad4(ct_buf_t *b);
void ct_buf_put_u16(ct_buf_t *b, size_t at, unsigned v);   /* patch what was written */
void ct_buf_put_u24(ct_buf_t *b, size_t at, uint32_t v);
void ct_buf_put_u32(ct_buf_t *b, size_t at, uint32_t v);

/* Reads of a table's bytes; callers check the length first. */
static inline unsigned ct_rd16(const unsigned char *p) { return (unsigned)p[0] << 8 | p[1]; }
static inline int ct_rds16(const unsigned char *p) { return (int16_t)ct_rd16(p); }
static inline uint32_t ct_rd32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

#define CT_TAG(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

/* One table of a font being written. */
typedef struct {
  uint32_t tag;
  ct_buf_t data;
} ct_sfnt_table_t;

/* The font file: tables sorted by tag, each checksummed and padded, then head's
   checkSumAdjustment (head must be among them, at least 54 bytes). */
ct_status_t ct_sfnt_assemble(ct_sfnt_table_t *tables, unsigned count, int cff, ct_buf_t *out,
                             ct_error_t *err);

/* ---- glyf.c: TrueType glyphs ------------------------------------------- */

typedef struct {
  int      xmin, ymin, xmax, ymax;   /* of the points; all 0 for an empty glyph */
  unsigned points, contours;
  int      empty;
} ct_glyf_stats_t;

/* Appends the loaded FreeType outline (face->glyph, loaded in units of `scale`: 1 for
   NO_SCALE, 1/64 for 26.6 at ppem = upem) as a simple glyph, its points mapped by `m`
   (cairo order) and rounded to the font-unit grid.  Cubic segments become quadratic
   ones within CT_GLYF_TOLERANCE font units.  Returns 0 if the glyph is too large for
   the format (over 65535 points or contours). */
int ct_glyf_encode(ct_buf_t *out, const FT_Outline *outline, double scale, const double m[6],
                   ct_glyf_stats_t *stats);
/* A rectangle (for clip boxes) as a simple glyph. */
void ct_glyf_encode_rect(ct_buf_t *out, double x0, double y0, double x1, double y1,
                         ct_glyf_stats_t *stats);
/* The stats of a glyph record as found in a font (simple or composite). */
void ct_glyf_read_stats(const unsigned char *p, size_t len, ct_glyf_stats_t *stats);

/* ---- colrwrite.c, cpalwrite.c: COLR and CPAL ----------------------------------------- */

/* A color of the written font: CPAL entry index (0xFFFF: the text color) and alpha. */
typedef struct {
  unsigned index;
  double   alpha;
} ct_colr_color_t;

/* What the encoder asks of the font being built: the output glyph id of a (font, glyph,
   matrix) outline (identity: NULL), adding it if new; the CPAL entry of a tree color
   (colr0: alpha folded into the entry).  Return -1 on failure (why set). */
typedef struct {
  void *data;
  long (*glyph)(void *data, ct_font_t *font, unsigned gid, const double *m);
  long (*rect)(void *data, double x0, double y0, double x1, double y1);
  long (*color)(void *data, const ct_color_t *color, int fold_alpha);
  char why[600];
} ct_colr_sink_t;

typedef struct ct_colr_writer ct_colr_writer_t;

ct_colr_writer_t *ct_colr_writer_create(void);
void ct_colr_writer_destroy(ct_colr_writer_t *w);
/* Adds glyph `gid`'s tree as a v0 record (layers of glyph outlines in solid colors:
   returns 0 with why set when the tree needs more) and/or as a v1 paint graph. */
int ct_colr_writer_add_v0(ct_colr_writer_t *w, unsigned gid, const ct_paint_t *tree, ct_font_t *lead,
                          ct_colr_sink_t *sink);
int ct_colr_writer_add_v1(ct_colr_writer_t *w, unsigned gid, const ct_paint_t *tree, ct_font_t *lead,
                          ct_colr_sink_t *sink);
/* The same with the glyph's tree at each master of the writer's variations (masters: one
   tree per master, each the default's shape, see ct_colr_same_shape; NULL: it does not
   vary): what differs is written as PaintVar* records and their deltas. */
int ct_colr_writer_add_v1_masters(ct_colr_writer_t *w, unsigned gid, const ct_paint_t *tree,
                                  const ct_paint_t *const *masters, ct_font_t *lead, ct_colr_sink_t *sink);
/* The variations the v1 graphs draw on (the writer takes `var`, which must outlive it). */
typedef struct ct_colr_var ct_colr_var_t;
void ct_colr_writer_set_var(ct_colr_writer_t *w, ct_colr_var_t *var);
/* Whether the tree is plain layers of glyphs in solid colors (call with depth 0). */
int ct_colr_fits_v0(const ct_paint_t *tree, unsigned depth);
/* The table (version 0 if no v1 glyph was added). */
int ct_colr_writer_finish(ct_colr_writer_t *w, ct_buf_t *out);

/* ---- colrvar.c: the variations of a COLR table -------------------------- */

/* The variations of `n` masters at `locations` (n x axes normalized coordinates, -1..1;
   each master off the default on one axis): one region per master, its tent falling to
   zero at the neighbouring masters on that axis (or the default).  NULL on bad counts or
   out of memory. */
ct_colr_var_t *ct_colr_var_create(unsigned axes, unsigned n, const double *locations);
void ct_colr_var_destroy(ct_colr_var_t *v);
unsigned ct_colr_var_regions(const ct_colr_var_t *v);
unsigned ct_colr_var_rows_used(const ct_colr_var_t *v);
/* n consecutive rows of deltas (n x regions, row-major: field, then master), stored once:
   the index of the first, or -1 (out of memory, over 65535 rows). */
long ct_colr_var_rows(ct_colr_var_t *v, const int32_t *deltas, unsigned n);
/* Forgets the rows from `nrows` on (a glyph that failed). */
void ct_colr_var_truncate(ct_colr_var_t *v, unsigned nrows);
/* Whether a COLR table's bytes vary its paints (version 1 with an ItemVariationStore). */
int ct_colr_table_varies(const unsigned char *colr, size_t len);
/* The ItemVariationStore (one ItemVariationData, row i = variation index i). */
int ct_colr_var_encode(const ct_colr_var_t *v, ct_buf_t *out);
/* Whether `master` has the shape of `def`: the same nodes, glyphs, colors (but alphas),
   modes and clip boxes, so that only numbers differ; else 0 and *why says what changes. */
int ct_colr_same_shape(const ct_paint_t *def, const ct_paint_t *master, const char **why);

/* CPAL: `count` palettes of `entries` colors, palette-major; types, name ids and label
   name ids optional (NULL: version 0 unless another is given; 0xFFFF: none). */
/* A color channel (0..1) as CPAL holds it, 0..255; the one rounding every writer shares. */
unsigned ct_cpal_byte(double v);
void ct_cpal_encode(ct_buf_t *out, unsigned entries, unsigned count, const ct_rgba_t *colors,
                    const uint32_t *types, const unsigned *name_ids, const unsigned *label_ids);

/* svgwrite.c: a glyph's paint tree as an OT-SVG glyph document (the em square, y down,
   baseline at 0) whose drawing element is id="glyphN". */
typedef struct {
  unsigned         gid;            /* N of id="glyphN" */
  const ct_rgba_t *palette;        /* palette 0: the fallbacks of var(--colorI, ...) */
  unsigned         palette_count;
} ct_svgwrite_t;
/* Returns the document (malloc'ed, NUL-terminated, *len set) or NULL with `why` filled
   ("sweep gradients have no SVG equivalent", "out of memory", ...). Glyph nodes whose font is
   NULL use `font`.  Palette entries are written as var(--colorI, #RRGGBB[AA]) (the fallback
   carries the entry's alpha, the paint's alpha is fill-opacity), the text color as
   currentColor.  Refused: sweep gradients, SVG and bitmap nodes, the composite modes
   src_atop, dest_atop, xor and plus, trees over CT_MAX_PAINT_WORK nodes or
   CT_MAX_PAINT_DEPTH deep, documents over CT_MAX_SVG_WRITE_SIZE bytes. */
char *ct_svg_write_glyph(ct_font_t *font, const ct_paint_t *tree, const ct_svgwrite_t *w,
                         size_t *len, char *why, size_t whylen);

#endif /* CT_FONTMAKE_H */
