/*
** fontbuild.c: writes OpenType fonts: a lead font's glyphs and layout (GSUB, GPOS, GDEF
** keep working: the lead's glyph ids do not move), glyphs of other fonts appended as new
** glyphs, color glyphs from paint trees as COLR version 0 and 1 and SVG, palettes as
** CPAL version 1 with types, names and entry labels, a new family name; then a glyph
** subset (hb-subset) and WOFF2 on request.  Fontmake stage: knows fonts and paint trees,
** never pages or outputs.
**
** Two modes.  With no glyph trees and no formats asked, the lead's tables are kept as
** they are (variations, hinting, color tables) and only CPAL and name are written anew:
** new palettes for an existing color font.  Otherwise glyf/loca, hmtx, maxp, post and
** the color tables are built: TrueType glyphs are copied as they are, CFF/CFF2 outlines
** and variable fonts (at their current location) are converted to quadratic glyphs.
**
** This file is the API and the order of a write (head, loca and CPAL's inputs are put
** together here).  The glyph set is fontbuild-glyphs.c, the other tables fontbuild-tables.c,
** hb-subset, WOFF2 and the file fontbuild-subset.c (shared: fontbuild.h); the encoders of
** COLR, CPAL, glyf and sfnt are fontmake.h's, OT-SVG documents svgwrite.c's.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fontbuild.h"
#include FT_TRUETYPE_TABLES_H
#include FT_MULTIPLE_MASTERS_H

#define TAG CT_TAG

/* ---- the builder ------------------------------------------------------------ */

char *ct_build_dup(const char *s) {
  char *d;
  if (!s) return NULL;
  if ((d = malloc(strlen(s) + 1))) strcpy(d, s);
  return d;
}

static void free_palettes(ct_font_builder_t *b) {
  unsigned i;
  for (i = 0; i < b->npalettes && b->names; i++) free(b->names[i]);
  for (i = 0; i < b->entries && b->labels; i++) free(b->labels[i]);
  free(b->colors);
  free(b->types);
  free(b->names);
  free(b->labels);
  b->colors = NULL;
  b->types = NULL;
  b->names = b->labels = NULL;
  b->entries = b->npalettes = 0;
}

static int alloc_palettes(ct_font_builder_t *b, unsigned entries, unsigned count) {
  free_palettes(b);
  b->colors = calloc((size_t)entries * count + 1, sizeof *b->colors);
  b->types = calloc(count + 1, sizeof *b->types);
  b->names = calloc(count + 1, sizeof *b->names);
  b->labels = calloc(entries + 1, sizeof *b->labels);
  if (!b->colors || !b->types || !b->names || !b->labels) return 0;
  b->entries = entries;
  b->npalettes = count;
  return 1;
}

ct_font_builder_t *ct_font_builder_create(ct_font_t *lead, ct_error_t *err) {
  ct_font_builder_t *b;
  unsigned p, e, count, entries;
  char buf[512];
  if (!lead) {
    ct_set_error(err, CT_ERR_INVALID_ARG, "no lead font");
    return NULL;
  }
  if (!(b = calloc(1, sizeof *b))) goto nomem;
  b->lead = ct_font_reference(lead);
  b->ntrees = ct_font_get_glyph_count(lead);
  if (!(b->trees = calloc(b->ntrees + 1, sizeof *b->trees))) goto nomem;
  /* the lead's own palettes, with their types, names and labels */
  count = ct_font_get_palette_count(lead);
  entries = ct_font_get_palette_entry_count(lead);
  if (count && entries) {
    if (!alloc_palettes(b, entries, count)) goto nomem;
    for (p = 0; p < count; p++) {
      ct_font_get_palette_colors(lead, p, b->colors + (size_t)p * entries, entries);
      b->types[p] = ct_font_get_palette_type(lead, p);
      if (ct_font_get_palette_name(lead, p, buf, sizeof buf) && !(b->names[p] = ct_build_dup(buf))) goto nomem;
    }
    for (e = 0; e < entries; e++)
      if (ct_font_get_palette_entry_label(lead, e, buf, sizeof buf) && !(b->labels[e] = ct_build_dup(buf))) goto nomem;
  }
  return b;
nomem:
  ct_font_builder_destroy(b);
  ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  return NULL;
}

void ct_font_builder_destroy(ct_font_builder_t *b) {
  unsigned i;
  if (!b) return;
  free_palettes(b);
  ct_build_free_axes(b);
  free(b->vbase);
  free(b->vgid);
  for (i = 0; i < b->ntrees && b->trees; i++) ct_paint_destroy(b->trees[i]);
  free(b->trees);
  free(b->family);
  ct_font_destroy(b->lead);
  free(b);
}

ct_status_t ct_font_builder_set_palettes(ct_font_builder_t *b, unsigned entries, unsigned count,
                                         const ct_rgba_t *colors, ct_error_t *err) {
  if (entries == 0 || count == 0 || entries > 0xFFFF || count > 0xFFFF || (size_t)entries * count > 0xFFFF)
    return ct_set_error(err, CT_ERR_INVALID_ARG,
                        "palettes: %u palettes of %u entries (CPAL holds at most 65535 colors)", count, entries);
  if (!alloc_palettes(b, entries, count)) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  memcpy(b->colors, colors, (size_t)entries * count * sizeof *colors);
  return CT_OK;
}

ct_status_t ct_font_builder_set_palette_info(ct_font_builder_t *b, unsigned palette, unsigned type,
                                             const char *name, ct_error_t *err) {
  char *n = NULL;
  if (palette >= b->npalettes)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "palette %u: the font has %u palettes", palette, b->npalettes);
  if (name && *name && !(n = ct_build_dup(name))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  free(b->names[palette]);
  b->names[palette] = n;
  b->types[palette] = type & 3;
  return CT_OK;
}

ct_status_t ct_font_builder_set_entry_label(ct_font_builder_t *b, unsigned entry, const char *label,
                                            ct_error_t *err) {
  char *l = NULL;
  if (entry >= b->entries)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "palette entry %u: the palettes have %u entries", entry, b->entries);
  if (label && *label && !(l = ct_build_dup(label))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  free(b->labels[entry]);
  b->labels[entry] = l;
  return CT_OK;
}

ct_status_t ct_font_builder_set_glyph(ct_font_builder_t *b, unsigned gid, ct_paint_t *tree, ct_error_t *err) {
  if (gid >= b->ntrees)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "glyph %u: the lead font has %u glyphs", gid, b->ntrees);
  ct_paint_destroy(b->trees[gid]);
  b->trees[gid] = ct_paint_reference(tree);
  return CT_OK;
}

ct_status_t ct_font_builder_set_family(ct_font_builder_t *b, const char *family, ct_error_t *err) {
  char *f = NULL;
  if (family) {
    size_t n = strlen(family);
    if (n == 0 || n > 200) return ct_set_error(err, CT_ERR_INVALID_ARG, "family name: 1 to 200 bytes expected");
    if (!(f = ct_build_dup(family))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  }
  free(b->family);
  b->family = f;
  return CT_OK;
}

void ct_font_write_options_init(ct_font_write_options_t *o) {
  memset(o, 0, sizeof *o);
}

/* ---- write -------------------------------------------------------------------------- */

/* One write: what the steps of ct_font_builder_write share, freed by write_free. */
typedef struct {
  ct_font_builder_t  *b;
  ct_error_t         *err;
  unsigned            formats, ntrees;
  int                 cff, keep, regenerate, renamed;
  int                 keep_var;   /* a variable TrueType lead's design space kept (its gvar extended) */
  ct_table_t          head, hhea, maxp, post, name, hmtx, glyf, loca;   /* the lead's */
  ct_build_t          s;
  ct_colr_writer_t   *colr;
  ct_colr_var_t      *var;
  ct_build_svg_doc_t *docs;
  unsigned            ndocs;
  ct_sfnt_table_t    *tables;   /* of the file */
  unsigned            ntables;
  ct_buf_t            file, buf;
  ct_names_t          ns;
  unsigned           *name_ids, *label_ids;
  ct_rgba_t          *colors;
} write_t;

static ct_status_t nomem(ct_error_t *err) {
  return ct_set_error(err, CT_ERR_NOMEM, "out of memory (or a table over the size limit)");
}

static const char *glyph_label(ct_font_t *font, unsigned gid, char *buf, size_t size) {
  char name[128];
  if (ct_font_get_glyph_name(font, gid, name, sizeof name)) snprintf(buf, size, "glyph %u ('%s')", gid, name);
  else snprintf(buf, size, "glyph %u", gid);
  return buf;
}

/* Whether every axis of the font is at its default. */
static int at_default(ct_font_t *font) {
  unsigned i, n = ct_font_get_axis_count(font);
  for (i = 0; i < n; i++) {
    ct_axis_t a;
    if (ct_font_get_axis(font, i, &a) != 0 || a.value != a.def) return 0;   /* 0: read */
  }
  return 1;
}

/* Whether a tree paints outlines of a font other than `lead` (a stack's layers): those do
   not vary with the lead's gvar, so its design space cannot be kept. */
static int other_font(const ct_paint_t *p, const ct_font_t *lead, unsigned depth) {
  unsigned i;
  if (!p || depth > CT_MAX_PAINT_DEPTH) return depth > CT_MAX_PAINT_DEPTH;
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    for (i = 0; i < p->u.layers.count; i++)
      if (other_font(p->u.layers.children[i], lead, depth + 1)) return 1;
    return 0;
  case CT_PAINT_GLYPH:
    return (p->u.glyph.font && p->u.glyph.font != lead) || other_font(p->u.glyph.child, lead, depth + 1);
  case CT_PAINT_TRANSFORM: return other_font(p->u.transform.child, lead, depth + 1);
  case CT_PAINT_CLIP: return other_font(p->u.clip.child, lead, depth + 1);
  case CT_PAINT_COMPOSITE:
    return other_font(p->u.composite.source, lead, depth + 1) || other_font(p->u.composite.backdrop, lead, depth + 1);
  case CT_PAINT_BITMAP: return p->u.bitmap.font && p->u.bitmap.font != lead;
  default: return 0;
  }
}

/* Whether the font's COLR varies its paints (an ItemVariationStore): the trees read from it
   are at one location, so its design space cannot be kept as it is. */
static int colr_varies(ct_font_t *font) {
  ct_table_t c = ct_table_load(font, TAG('C', 'O', 'L', 'R'));
  int v = ct_colr_table_varies(c.p, c.len);
  free(c.p);
  return v;
}

static int trees_other_font(const ct_font_builder_t *b) {
  unsigned i;
  for (i = 0; i < b->ntrees; i++)
    if (b->trees[i] && other_font(b->trees[i], b->lead, 0)) return 1;
  return 0;
}

/* The lead's tables the others are made from, and those kept as they are. */
static ct_status_t read_lead(write_t *w) {
  ct_font_t *lead = w->b->lead;
  ct_status_t st;
  w->head = ct_table_load(lead, TAG('h', 'e', 'a', 'd'));
  w->hhea = ct_table_load(lead, TAG('h', 'h', 'e', 'a'));
  w->maxp = ct_table_load(lead, TAG('m', 'a', 'x', 'p'));
  w->post = ct_table_load(lead, TAG('p', 'o', 's', 't'));
  w->name = ct_table_load(lead, TAG('n', 'a', 'm', 'e'));
  w->hmtx = ct_table_load(lead, TAG('h', 'm', 't', 'x'));
  if (w->head.len < 54 || w->hhea.len < 36 || w->maxp.len < 6)
    return ct_set_error(w->err, CT_ERR_INVALID_FONT, "%s: no head, hhea or maxp table (not an OpenType font?)",
                        ct_font_get_path(lead));
  w->cff = ct_table_has(lead, TAG('C', 'F', 'F', ' ')) || ct_table_has(lead, TAG('C', 'F', 'F', '2'));

  /* the tables kept as they are */
  {
    FT_ULong tag, len;
    FT_UInt k;
    /* outlines from FreeType: CFF, variable fonts (at their location), and WOFF2 (once
       because FreeType 2.12 rebuilt its loca wrongly; Google's decoder reads it now, and a
       variable WOFF2 lead's glyphs are copied, but static ones are converted still, so that
       the fonts written stay as they were) */
    int woff2 = lead->container && strcmp(lead->container, "WOFF2") == 0;
    /* a variable TrueType lead at its default location keeps its axes when COLRv1 alone is
       written (whose PaintGlyph use its own outlines, as gvar varies them): its glyphs are
       copied, its variation tables kept, gvar given the glyphs added */
    w->keep_var = !w->keep && !w->cff && FT_HAS_MULTIPLE_MASTERS(lead->ft_face) && !w->b->naxes &&
                  ct_table_has(lead, TAG('g', 'v', 'a', 'r')) && ct_table_has(lead, TAG('g', 'l', 'y', 'f')) &&
                  (w->formats == 0 || w->formats == CT_FONT_COLR1) && at_default(lead) && !trees_other_font(w->b) &&
                  !colr_varies(lead);
    if (w->keep_var) w->formats = CT_FONT_COLR1;
    w->regenerate = !w->keep && !w->keep_var && (w->cff || FT_HAS_MULTIPLE_MASTERS(lead->ft_face) || woff2);
    for (k = 0; FT_Sfnt_Table_Info(lead->ft_face, k, &tag, &len) == 0; k++) {
      uint32_t t = (uint32_t)tag;
      if (!ct_table_copied(t, w->keep, w->regenerate) && !(w->keep_var && ct_table_var_kept(t))) continue;
      if (w->b->nvbases && t == TAG('G', 'S', 'U', 'B')) continue;   /* written anew with the variants */
      if ((st = ct_tables_copy(&w->tables, &w->ntables, lead, t, w->err))) return st;
    }
  }
  return CT_OK;
}

/* The lead's glyphs at their own ids (those the color glyphs ask for are added as they are
   encoded, through the glyph set's sink). */
static ct_status_t add_glyphs(write_t *w) {
  ct_font_t *lead = w->b->lead;
  int long_loca = ct_rds16(w->head.p + 50) == 1;
  if (!ct_build_start(&w->s, w->b, w->err)) return nomem(w->err);
  if (!w->regenerate) {
    w->glyf = ct_table_load(lead, TAG('g', 'l', 'y', 'f'));
    w->loca = ct_table_load(lead, TAG('l', 'o', 'c', 'a'));
    if (!w->glyf.p || !w->loca.p)
      return ct_set_error(w->err, CT_ERR_INVALID_FONT, "%s: no glyf/loca table", ct_font_get_path(lead));
  }
  if (!ct_build_lead_glyphs(&w->s, w->regenerate, &w->glyf, &w->loca, &w->hmtx,
                            ct_rd16(w->hhea.p + 34) ? ct_rd16(w->hhea.p + 34) : 1, long_loca))
    return w->err ? w->err->status : CT_ERR_NOMEM;
  if (w->b->nvbases && !ct_build_variant_glyphs(&w->s)) return w->err ? w->err->status : CT_ERR_NOMEM;
  return CT_OK;
}

/* A randomized font's GSUB: the lead's with calt and rand over the variants. */
static ct_status_t add_gsub(write_t *w) {
  ct_table_t old;
  ct_buf_t out = { 0 };
  ct_status_t st;
  if (!w->b->nvbases) return CT_OK;
  old = ct_table_load(w->b->lead, TAG('G', 'S', 'U', 'B'));
  st = ct_build_gsub_variants(w->b, &old, &out, w->err);
  free(old.p);
  if (st) {
    ct_buf_free(&out);
    return st;
  }
  return ct_tables_add(&w->tables, &w->ntables, TAG('G', 'S', 'U', 'B'), &out, w->err);
}

/* The color glyphs as COLR (v0, v1 or both; with no format asked, v0 if every glyph fits
   it, else v1). */
static ct_status_t add_colr(write_t *w) {
  ct_font_builder_t *b = w->b;
  ct_font_t *lead = b->lead;
  unsigned i;
  char label[160];
  if (b->naxes) {   /* effects that vary: COLRv1 alone can hold them */
    double *norm;
    if (w->formats & ~CT_FONT_COLR1)
      return ct_set_error(w->err, CT_ERR_INVALID_ARG, "a font whose effects vary is COLRv1 alone (COLRv0 and OT-SVG "
                          "cannot vary): --format colr1");
    w->formats = CT_FONT_COLR1;
    if (!(w->colr = ct_colr_writer_create()) || !(norm = ct_build_normalized_masters(b))) return nomem(w->err);
    w->var = ct_colr_var_create(b->naxes, b->nmasters, norm);
    free(norm);
    if (!w->var) return nomem(w->err);
    ct_colr_writer_set_var(w->colr, w->var);
  }
  if (!w->formats) {
    /* COLRv0 where every glyph fits it (every renderer reads it, Safari too), else COLRv1 */
    w->formats = CT_FONT_COLR0;
    for (i = 0; i < b->ntrees; i++)
      if (b->trees[i] && !ct_colr_fits_v0(b->trees[i], 0)) {
        w->formats = CT_FONT_COLR1;
        break;
      }
  }
  if (w->formats & (CT_FONT_COLR0 | CT_FONT_COLR1)) {
    if (!w->colr && !(w->colr = ct_colr_writer_create())) return nomem(w->err);
    for (i = 0; i < b->ntrees; i++) {
      ct_paint_t *const *m = b->naxes && b->mtrees[(size_t)i * b->nmasters] ? b->mtrees + (size_t)i * b->nmasters : NULL;
      unsigned j;
      if (!b->trees[i]) continue;
      for (j = 0; m && j < b->nmasters; j++) {
        const char *why;
        if (!ct_colr_same_shape(b->trees[i], m[j], &why)) {
          char at[200] = "";
          unsigned a;
          size_t n = 0;
          for (a = 0; a < b->naxes && n < sizeof at - 40; a++)
            if (b->masters[j * b->naxes + a] != b->axes[a].def)
              n += (size_t)snprintf(at + n, sizeof at - n, "%s=%g", b->axes[a].tag_str, b->masters[j * b->naxes + a]);
          return ct_set_error(w->err, CT_ERR_INVALID_ARG, "%s: %s cannot vary: at %s %s", ct_font_get_path(lead),
                              glyph_label(lead, i, label, sizeof label), at, why);
        }
      }
      if ((w->formats & CT_FONT_COLR0) && !ct_colr_writer_add_v0(w->colr, i, b->trees[i], lead, &w->s.sink) &&
          !(w->formats & CT_FONT_COLR1))
        return ct_set_error(w->err, CT_ERR_INVALID_ARG, "%s: COLRv0 cannot hold %s: %s (use --format colr1)",
                            ct_font_get_path(lead), glyph_label(lead, i, label, sizeof label), w->s.sink.why);
      if ((w->formats & CT_FONT_COLR1) &&
          !ct_colr_writer_add_v1_masters(w->colr, i, b->trees[i], (const ct_paint_t *const *)m, lead, &w->s.sink))
        return ct_set_error(w->err, CT_ERR_INVALID_ARG, "%s: COLRv1 cannot hold %s: %s",
                            ct_font_get_path(lead), glyph_label(lead, i, label, sizeof label), w->s.sink.why);
    }
  }
  return CT_OK;
}

/* The color glyphs as OT-SVG documents, when asked. */
static ct_status_t add_svg(write_t *w) {
  ct_font_builder_t *b = w->b;
  ct_font_t *lead = b->lead;
  ct_svgwrite_t sw;
  unsigned i;
  char label[160];
  if (!(w->formats & CT_FONT_SVG)) return CT_OK;
  memset(&sw, 0, sizeof sw);
  sw.palette = b->colors;
  sw.palette_count = b->entries;
  if (!(w->docs = calloc(w->ntrees + 1, sizeof *w->docs))) return nomem(w->err);
  for (i = 0; i < b->ntrees; i++) {
    ct_build_svg_doc_t *d = &w->docs[w->ndocs];
    char why[256] = "";
    if (!b->trees[i]) continue;
    sw.gid = i;
    d->gid = i;
    if (!(d->doc = ct_svg_write_glyph(lead, b->trees[i], &sw, &d->len, why, sizeof why)))
      return ct_set_error(w->err, CT_ERR_INVALID_ARG, "%s: OT-SVG cannot hold %s: %s",
                          ct_font_get_path(lead), glyph_label(lead, i, label, sizeof label), why);
    w->ndocs++;
  }
  return CT_OK;
}

/* The lead's gvar with the glyphs the color glyphs added (no variations of their own). */
static ct_status_t add_gvar(write_t *w) {
  ct_table_t g = ct_table_load(w->b->lead, TAG('g', 'v', 'a', 'r'));
  ct_buf_t out = { 0 };
  ct_status_t st = ct_build_gvar_extend(&g, w->s.count, ct_font_get_path(w->b->lead), &out, w->err);
  free(g.p);
  if (st) {
    ct_buf_free(&out);
    return st;
  }
  w->b->kept_var = 1;
  return ct_tables_add(&w->tables, &w->ntables, TAG('g', 'v', 'a', 'r'), &out, w->err);
}

/* glyf, loca, hmtx, hhea, maxp, post, head from the glyph set; COLR, SVG. */
static ct_status_t glyph_tables(write_t *w) {
  ct_build_t *s = &w->s;
  ct_status_t st;
  unsigned i;
  if (s->glyf.failed) return nomem(w->err);
  {
    ct_buf_t lo = { 0 }, hm = { 0 }, hh = { 0 }, mp = { 0 }, pt = { 0 }, hd = { 0 };
    for (i = 0; i <= s->count; i++) ct_buf_u32(&lo, (uint32_t)s->loca[i]);
    ct_build_write_hmtx(s, &w->hhea, &hm, &hh);
    ct_build_write_maxp(s, &w->maxp, !w->regenerate, &mp);
    ct_build_write_post(s, &w->post, &pt);
    ct_buf_bytes(&hd, w->head.p, 54);
    ct_buf_put_u16(&hd, 36, (unsigned)(s->max.xmin & 0xFFFF));
    ct_buf_put_u16(&hd, 38, (unsigned)(s->max.ymin & 0xFFFF));
    ct_buf_put_u16(&hd, 40, (unsigned)(s->max.xmax & 0xFFFF));
    ct_buf_put_u16(&hd, 42, (unsigned)(s->max.ymax & 0xFFFF));
    ct_buf_put_u16(&hd, 50, 1);   /* long loca */
    ct_buf_put_u16(&hd, 52, 0);
    if ((st = ct_tables_add(&w->tables, &w->ntables, TAG('g', 'l', 'y', 'f'), &s->glyf, w->err)) ||
        (st = ct_tables_add(&w->tables, &w->ntables, TAG('l', 'o', 'c', 'a'), &lo, w->err)) ||
        (st = ct_tables_add(&w->tables, &w->ntables, TAG('h', 'm', 't', 'x'), &hm, w->err)) ||
        (st = ct_tables_add(&w->tables, &w->ntables, TAG('h', 'h', 'e', 'a'), &hh, w->err)) ||
        (st = ct_tables_add(&w->tables, &w->ntables, TAG('m', 'a', 'x', 'p'), &mp, w->err)) ||
        (st = ct_tables_add(&w->tables, &w->ntables, TAG('p', 'o', 's', 't'), &pt, w->err)) ||
        (st = ct_tables_add(&w->tables, &w->ntables, TAG('h', 'e', 'a', 'd'), &hd, w->err)) ||
        (w->keep_var && (st = add_gvar(w)))) {
      /* out of memory: the buffers not handed over yet (a table added or refused leaves
         its buffer empty) */
      ct_buf_t *left[] = { &lo, &hm, &hh, &mp, &pt, &hd };
      for (i = 0; i < sizeof left / sizeof *left; i++) ct_buf_free(left[i]);
      return st;
    }
    w->cff = 0;
  }
  if (w->colr) {
    if (!ct_colr_writer_finish(w->colr, &w->buf)) return nomem(w->err);
    if ((st = ct_tables_add(&w->tables, &w->ntables, TAG('C', 'O', 'L', 'R'), &w->buf, w->err))) return st;
  }
  if (w->ndocs) {
    ct_build_write_svg(w->docs, w->ndocs, &w->buf);
    if ((st = ct_tables_add(&w->tables, &w->ntables, TAG('S', 'V', 'G', ' '), &w->buf, w->err))) return st;
  }
  return CT_OK;
}

/* name, with the palettes' names and labels; CPAL (the palettes, then the entries the
   color glyphs added). */
static ct_status_t name_cpal(write_t *w) {
  ct_font_builder_t *b = w->b;
  ct_build_t *s = &w->s;
  ct_names_t *ns = &w->ns;
  ct_status_t st;
  if (!ct_names_read(ns, &w->name, w->renamed)) return nomem(w->err);
  if (w->renamed) {
    ct_font_info_t info;
    ct_font_get_info(b->lead, &info);
    if (!ct_names_add_family(ns, b->family, info.style)) return nomem(w->err);
  }
  if (b->npalettes && b->entries) {
    unsigned p, e, total = b->entries + s->nextra, any_type = 0, any_name = 0, any_label = 0;
    if (!(w->colors = malloc((size_t)total * b->npalettes * sizeof *w->colors)) ||
        !(w->name_ids = malloc((b->npalettes + 1) * sizeof *w->name_ids)) ||
        !(w->label_ids = malloc((total + 1) * sizeof *w->label_ids)))
      return nomem(w->err);
    for (p = 0; p < b->npalettes; p++) {
      memcpy(w->colors + (size_t)p * total, b->colors + (size_t)p * b->entries, b->entries * sizeof *w->colors);
      for (e = 0; e < s->nextra; e++)
        w->colors[(size_t)p * total + b->entries + e] = s->extra[(size_t)e * b->npalettes + p];
      any_type |= b->types[p];
      w->name_ids[p] = 0xFFFF;
      if (b->names[p]) {
        if (ns->next_id > 32767 || !ct_names_add(ns, ns->next_id, b->names[p])) return nomem(w->err);
        w->name_ids[p] = ns->next_id++;
        any_name = 1;
      }
    }
    for (e = 0; e < total; e++) {
      w->label_ids[e] = 0xFFFF;
      if (e < b->entries && b->labels[e]) {
        if (ns->next_id > 32767 || !ct_names_add(ns, ns->next_id, b->labels[e])) return nomem(w->err);
        w->label_ids[e] = ns->next_id++;
        any_label = 1;
      }
    }
    ct_cpal_encode(&w->buf, total, b->npalettes, w->colors, any_type ? b->types : NULL,
                   any_name ? w->name_ids : NULL, any_label ? w->label_ids : NULL);
    if ((st = ct_tables_add(&w->tables, &w->ntables, TAG('C', 'P', 'A', 'L'), &w->buf, w->err))) return st;
  } else if (s->nextra) {
    /* no palettes of its own: one made of the colors the glyphs use */
    ct_buf_t tmp = { 0 };
    ct_cpal_encode(&tmp, s->nextra, 1, s->extra, NULL, NULL, NULL);
    if ((st = ct_tables_add(&w->tables, &w->ntables, TAG('C', 'P', 'A', 'L'), &tmp, w->err))) return st;
  }
  if ((st = ct_build_var_tables(b, ns, &w->tables, &w->ntables, w->err))) return st;
  if (!ct_names_write(ns, &w->buf)) return nomem(w->err);
  return ct_tables_add(&w->tables, &w->ntables, TAG('n', 'a', 'm', 'e'), &w->buf, w->err);
}

static void write_free(write_t *w) {
  unsigned i;
  for (i = 0; i < w->ntables; i++) ct_buf_free(&w->tables[i].data);
  free(w->tables);
  for (i = 0; i < w->ndocs; i++) free(w->docs[i].doc);
  free(w->docs);
  ct_colr_writer_destroy(w->colr);
  ct_colr_var_destroy(w->var);
  ct_build_free(&w->s);
  ct_names_free(&w->ns);
  ct_buf_free(&w->file);
  ct_buf_free(&w->buf);
  free(w->colors);
  free(w->name_ids);
  free(w->label_ids);
  free(w->head.p);
  free(w->hhea.p);
  free(w->maxp.p);
  free(w->post.p);
  free(w->name.p);
  free(w->hmtx.p);
  free(w->glyf.p);
  free(w->loca.p);
}

ct_status_t ct_font_builder_write(ct_font_builder_t *b, const char *path, const ct_font_write_options_t *o,
                                  ct_error_t *err) {
  ct_font_write_options_t defaults;
  write_t w;
  unsigned i;
  ct_status_t st;

  memset(&w, 0, sizeof w);
  w.b = b;
  w.err = err;
  if (!o) {
    ct_font_write_options_init(&defaults);
    o = &defaults;
  }
  w.formats = o->formats;
  for (i = 0; i < b->ntrees; i++) w.ntrees += b->trees[i] != NULL;
  w.keep = w.ntrees == 0 && w.formats == 0 && !b->naxes && !b->nvbases;
  b->kept_var = 0;
  w.renamed = b->family != NULL;

  if ((st = read_lead(&w))) goto done;
  if (!w.keep) {
    /* the glyphs: the lead's, then those the color glyphs need */
    if ((st = add_glyphs(&w)) || (st = add_colr(&w)) || (st = add_svg(&w)) || (st = glyph_tables(&w)) ||
        (st = add_gsub(&w)))
      goto done;
  } else {
    ct_buf_t hd = { 0 };
    ct_buf_bytes(&hd, w.head.p, w.head.len);
    if ((st = ct_tables_add(&w.tables, &w.ntables, TAG('h', 'e', 'a', 'd'), &hd, err))) goto done;
  }
  if ((st = name_cpal(&w))) goto done;
  if ((st = ct_sfnt_assemble(w.tables, w.ntables, w.cff, &w.file, err))) goto done;
  st = ct_build_output(&w.file, path, o, err);
done:
  write_free(&w);
  return st;
}
