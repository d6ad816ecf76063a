/*
** fontbuild.h: what the font builder's files (fontbuild*.c) share: the builder, the lead's
** tables, the glyph set, the tables written anew, the file's last steps.  Fontmake stage,
** private to fontbuild*.c; the encoders they use are in fontmake.h.
*/
#ifndef CT_FONTBUILD_H
#define CT_FONTBUILD_H

#include "fontmake.h"

/* ---- fontbuild.c: the builder ------------------------------------------------ */

struct ct_font_builder {
  ct_font_t   *lead;
  unsigned     entries, npalettes;
  ct_rgba_t   *colors;       /* npalettes x entries */
  uint32_t    *types;        /* per palette */
  char       **names;        /* per palette, NULL: none */
  char       **labels;       /* per entry */
  ct_paint_t **trees;        /* per lead glyph, NULL: not a color glyph */
  unsigned     ntrees;
  char        *family;
  /* effect axes (set_axes): the masters' user coordinates, nmasters x naxes, and each
     glyph's trees at them (ntrees x nmasters; a glyph's NULL: it does not vary) */
  ct_axis_t   *axes;
  unsigned     naxes, nmasters;
  double      *masters;
  ct_paint_t **mtrees;
  /* a randomized font's variants (add_variants): nvbases lead glyphs, ascending, each with
     nvariants variants at vgid[base index * nvariants + k], glyphs after the lead's */
  unsigned     nlead, nvbases, nvariants, vbase_cap;
  unsigned    *vbase, *vgid;
  int          kept_var;   /* the last write kept a variable lead's design space */
};

/* A copy of s (NULL: NULL), or NULL when out of memory. */
char *ct_build_dup(const char *s);

/* ---- the lead's tables -------------------------------------------------------- */

/* A table's bytes (malloc'ed), as loaded from a font; p NULL: none. */
typedef struct {
  unsigned char *p;
  size_t         len;
} ct_table_t;

/* ---- fontbuild-glyphs.c: the glyphs of the written font --------------------- */

/* A glyph the color glyphs ask for: an outline of some font under a matrix, or a
   rectangle (clip boxes); added once. */
typedef struct {
  ct_font_t *font;     /* NULL: a rectangle, its box in m[0..3] */
  unsigned   gid;
  double     m[6];
  int        has_m;
  unsigned   out;      /* its glyph id in the written font */
} ct_glyph_key_t;

/* The glyph set being written, and the COLR encoder's sink into it. */
typedef struct {
  ct_font_builder_t *b;
  ct_error_t        *err;
  ct_buf_t           glyf;
  size_t            *loca;        /* glyph starts; count + 1 */
  unsigned           count, cap;
  int               *advance, *lsb;
  char             **gnames;      /* per glyph, NULL with no post names */
  int                names;       /* write post format 2 */
  ct_glyf_stats_t    max;         /* points, contours; the bbox union */
  int                have_box;
  ct_glyph_key_t    *keys;        /* added glyphs */
  unsigned           nkeys, keys_cap;
  unsigned          *key_hash;    /* 1 + index into keys, open addressing */
  unsigned           hash_cap;
  ct_rgba_t         *extra;       /* CPAL entries beyond the palettes: per palette */
  struct { int kind; unsigned index; double alpha; ct_rgba_t rgba; } *extra_src;
  unsigned           nextra, extra_cap;
  unsigned          *extra_hash;  /* 1 + index into extra_src, open addressing */
  unsigned           extra_hash_cap;
  ct_colr_sink_t     sink;
} ct_build_t;

/* Starts an empty glyph set for `b`'s lead (errors in `err`); 0 when out of memory. */
int ct_build_start(ct_build_t *s, ct_font_builder_t *b, ct_error_t *err);
/* The lead's glyphs at their own ids: TrueType records copied (convert 0: glyf, loca and
   hmtx of the lead, nhm long metrics), or every outline converted.  0 on failure (why in
   the error). */
int ct_build_lead_glyphs(ct_build_t *s, int convert, ct_table_t *glyf, ct_table_t *loca, ct_table_t *hmtx,
                         unsigned nhm, int long_loca);
void ct_build_free(ct_build_t *s);

/* ---- fontbuild-tables.c: the tables ------------------------------------------- */

/* The lead's table `tag` (p NULL: none, or out of memory); whether it has one. */
ct_table_t ct_table_load(ct_font_t *font, uint32_t tag);
int ct_table_has(ct_font_t *font, uint32_t tag);
/* Whether a written font copies the lead's table `t` as it is: keep (the lead's tables
   kept, only CPAL and name written anew), or a built font (its outlines regenerated). */
int ct_table_copied(uint32_t t, int keep, int regenerated);
/* Appends a table to the file's list, taking `data` (freed on failure); a copy of the
   lead's table `tag`, if it has one. */
ct_status_t ct_tables_add(ct_sfnt_table_t **tables, unsigned *n, uint32_t tag, ct_buf_t *data,
                          ct_error_t *err);
ct_status_t ct_tables_copy(ct_sfnt_table_t **tables, unsigned *n, ct_font_t *font, uint32_t tag,
                           ct_error_t *err);

/* name: records to be written, in the lead's encodings or UTF-16BE. */
typedef struct {
  unsigned platform, encoding, language, id;
  const unsigned char *bytes;   /* borrowed from the lead's table, or owned utf16 */
  size_t len;
  unsigned char *owned;
} ct_name_rec_t;

typedef struct {
  ct_name_rec_t *v;
  unsigned       n, cap;
  unsigned       next_id;   /* for palette names and labels */
} ct_names_t;

/* The lead's records (from its name table) less the family's when renamed; a Windows
   English record; the family's records (family, full name, unique id, PostScript name);
   the table.  0 when out of memory (or, for the table, over its 16-bit offsets). */
int ct_names_read(ct_names_t *ns, const ct_table_t *t, int renamed);
int ct_names_add(ct_names_t *ns, unsigned id, const char *text);
int ct_names_add_family(ct_names_t *ns, const char *family, const char *style);
int ct_names_write(ct_names_t *ns, ct_buf_t *out);
void ct_names_free(ct_names_t *ns);

/* ---- fontbuild-var.c: effect axes ------------------------------------------------ */

void ct_build_free_axes(ct_font_builder_t *b);
/* The masters' locations normalized (-1..1), nmasters x naxes (malloc'ed), or NULL. */
double *ct_build_normalized_masters(const ct_font_builder_t *b);
/* fvar and STAT for the builder's axes (none: nothing), their names added to `ns`. */
ct_status_t ct_build_var_tables(const ct_font_builder_t *b, ct_names_t *ns, ct_sfnt_table_t **tables, unsigned *ntables,
                                ct_error_t *err);

/* Whether table t is one of the variation tables a kept design space keeps as it is
   (fvar, avar, STAT, HVAR, VVAR, MVAR, cvar; gvar is extended instead). */
int ct_table_var_kept(uint32_t t);
/* The lead's gvar for `count` glyphs: its own, then none for the glyphs added. */
ct_status_t ct_build_gvar_extend(const ct_table_t *gvar, unsigned count, const char *path, ct_buf_t *out,
                                 ct_error_t *err);

/* ---- fontbuild-gsub.c: a randomized font's features ------------------------------- */

/* The lead's GSUB (old; p NULL: none) with calt (the variants in rotation) and rand (the
   variants as alternates) added, into out. */
ct_status_t ct_build_gsub_variants(const ct_font_builder_t *b, ct_table_t *old, ct_buf_t *out, ct_error_t *err);
/* The variants' glyphs (copies of their bases' outlines and advances) appended to the set. */
int ct_build_variant_glyphs(ct_build_t *s);

/* The glyph set's post (names when s->names: format 2, else 3; the rest from the lead's),
   maxp (the lead's hinting limits when hinted), hmtx and hhea (from the lead's). */
void ct_build_write_post(ct_build_t *s, const ct_table_t *post, ct_buf_t *out);
void ct_build_write_maxp(ct_build_t *s, const ct_table_t *maxp, int hinted, ct_buf_t *out);
void ct_build_write_hmtx(ct_build_t *s, const ct_table_t *hhea, ct_buf_t *hmtx, ct_buf_t *hh);

/* SVG: one document per color glyph, in glyph order. */
typedef struct { unsigned gid; char *doc; size_t len; } ct_build_svg_doc_t;
void ct_build_write_svg(ct_build_svg_doc_t *docs, unsigned n, ct_buf_t *out);

/* ---- fontbuild-subset.c: the file --------------------------------------------- */

/* The assembled font's last steps: a glyph subset when o->text is set, WOFF2 when
   o->woff2 is set or `path` ends in .woff2, then the file (written atomically). */
ct_status_t ct_build_output(ct_buf_t *file, const char *path, const ct_font_write_options_t *o,
                            ct_error_t *err);

#endif /* CT_FONTBUILD_H */
