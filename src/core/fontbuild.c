/*
** fontbuild.c: writes OpenType fonts: a lead font's glyphs and layout (GSUB, GPOS, GDEF
** keep working: the lead's glyph ids do not move), glyphs of other fonts appended as new
** glyphs, color glyphs from paint trees as COLR version 0 and 1 and SVG, palettes as
** CPAL version 1 with types, names and entry labels, a new family name; then a glyph
** subset (hb-subset) and WOFF2 on request.  Core layer.
**
** Two modes.  With no glyph trees and no formats asked, the lead's tables are kept as
** they are (variations, hinting, color tables) and only CPAL and name are written anew:
** new palettes for an existing color font.  Otherwise glyf/loca, hmtx, maxp, post and
** the color tables are built: TrueType glyphs are copied as they are, CFF/CFF2 outlines
** and variable fonts (at their current location) are converted to quadratic glyphs.
*/
#include <math.h>
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

/* ---- the lead's tables ------------------------------------------------------------ */

static ct_table_t load_table(ct_font_t *font, uint32_t tag) {
  ct_table_t t = { NULL, 0 };
  FT_ULong len = 0;
  if (FT_Load_Sfnt_Table(font->ft_face, tag, 0, NULL, &len) || len == 0) return t;
  if (!(t.p = malloc(len))) return t;
  if (FT_Load_Sfnt_Table(font->ft_face, tag, 0, t.p, &len)) {
    free(t.p);
    t.p = NULL;
    return t;
  }
  t.len = len;
  return t;
}

static int has_table(ct_font_t *font, uint32_t tag) {
  FT_ULong len = 0;
  return FT_Load_Sfnt_Table(font->ft_face, tag, 0, NULL, &len) == 0 && len > 0;
}

/* ---- name ------------------------------------------------------------------------ */

typedef struct {
  unsigned platform, encoding, language, id;
  const unsigned char *bytes;   /* borrowed from the lead's table, or owned utf16 */
  size_t len;
  unsigned char *owned;
} name_rec_t;

static int name_cmp(const void *a, const void *b) {
  const name_rec_t *x = a, *y = b;
  if (x->platform != y->platform) return x->platform < y->platform ? -1 : 1;
  if (x->encoding != y->encoding) return x->encoding < y->encoding ? -1 : 1;
  if (x->language != y->language) return x->language < y->language ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

/* UTF-8 to UTF-16BE (malloc'ed). */
static unsigned char *utf16be(const char *s, size_t *len) {
  size_t n = strlen(s), i = 0, o = 0;
  unsigned char *out = malloc(n * 4 + 2);
  if (!out) return NULL;
  while (i < n) {
    size_t used = 0;
    uint32_t c = ct_utf8_decode(s + i, n - i, &used);
    if (!used) break;
    i += used;
    if (c >= 0x10000) {
      uint32_t v = c - 0x10000, hi = 0xD800 | (v >> 10), lo = 0xDC00 | (v & 0x3FF);
      out[o++] = (unsigned char)(hi >> 8);
      out[o++] = (unsigned char)hi;
      out[o++] = (unsigned char)(lo >> 8);
      out[o++] = (unsigned char)lo;
    } else {
      out[o++] = (unsigned char)(c >> 8);
      out[o++] = (unsigned char)c;
    }
  }
  *len = o;
  return out;
}

typedef struct {
  name_rec_t *v;
  unsigned    n, cap;
  unsigned    next_id;   /* for palette names and labels */
} names_t;

static int add_name(names_t *ns, unsigned id, const char *text) {
  name_rec_t *r;
  if (ns->n == ns->cap) {
    unsigned cap = ns->cap ? ns->cap * 2 : 64;
    name_rec_t *v = realloc(ns->v, cap * sizeof *v);
    if (!v) return 0;
    ns->v = v;
    ns->cap = cap;
  }
  r = &ns->v[ns->n];
  memset(r, 0, sizeof *r);
  r->platform = 3;
  r->encoding = 1;
  r->language = 0x409;
  r->id = id;
  if (!(r->owned = utf16be(text, &r->len))) return 0;
  r->bytes = r->owned;
  ns->n++;
  return 1;
}

static void names_free(names_t *ns) {
  unsigned i;
  for (i = 0; i < ns->n; i++) free(ns->v[i].owned);
  free(ns->v);
}

/* The lead's records (format 0 kept; language-tag records dropped), less the family's
   when renamed. */
static int read_names(names_t *ns, const ct_table_t *t, int renamed) {
  unsigned count, storage, i;
  ns->next_id = 256;
  if (!t->p || t->len < 6) return 1;
  count = ct_rd16(t->p + 2);
  storage = ct_rd16(t->p + 4);
  if (6 + (size_t)count * 12 > t->len) return 1;
  for (i = 0; i < count; i++) {
    const unsigned char *r = t->p + 6 + 12 * i;
    unsigned id = ct_rd16(r + 6), len = ct_rd16(r + 8), off = ct_rd16(r + 10);
    name_rec_t *n;
    if ((size_t)storage + off + len > t->len) continue;
    if (ct_rd16(r + 4) >= 0x8000 && ct_rd16(r) != 0) continue;   /* language tags: format 1 */
    if (id >= ns->next_id) ns->next_id = id + 1;
    if (renamed && (id == 1 || id == 3 || id == 4 || id == 6 || id == 16 || id == 17 || id == 18 ||
                    id == 21 || id == 22))
      continue;
    if (ns->n == ns->cap) {
      unsigned cap = ns->cap ? ns->cap * 2 : 64;
      name_rec_t *v = realloc(ns->v, cap * sizeof *v);
      if (!v) return 0;
      ns->v = v;
      ns->cap = cap;
    }
    n = &ns->v[ns->n++];
    memset(n, 0, sizeof *n);
    n->platform = ct_rd16(r);
    n->encoding = ct_rd16(r + 2);
    n->language = ct_rd16(r + 4);
    n->id = id;
    n->bytes = t->p + storage + off;
    n->len = len;
  }
  return 1;
}

static int write_names(names_t *ns, ct_buf_t *out) {
  unsigned i;
  size_t off = 0;
  qsort(ns->v, ns->n, sizeof *ns->v, name_cmp);
  ct_buf_u16(out, 0);
  ct_buf_u16(out, ns->n);
  ct_buf_u16(out, 6 + 12 * ns->n);
  for (i = 0; i < ns->n; i++) {
    if (ns->v[i].len > 0xFFFF || off > 0xFFFF) return 0;
    ct_buf_u16(out, ns->v[i].platform);
    ct_buf_u16(out, ns->v[i].encoding);
    ct_buf_u16(out, ns->v[i].language);
    ct_buf_u16(out, ns->v[i].id);
    ct_buf_u16(out, (unsigned)ns->v[i].len);
    ct_buf_u16(out, (unsigned)off);
    off += ns->v[i].len;
  }
  for (i = 0; i < ns->n; i++) ct_buf_bytes(out, ns->v[i].bytes, ns->v[i].len);
  return !out->failed;
}

/* The family's records: family, full name, unique id, PostScript name. */
static int add_family(names_t *ns, const char *family, const char *style) {
  char full[512], ps[64], uid[600];
  size_t n = 0;
  const char *p;
  int regular = !*style || strcmp(style, "Regular") == 0;
  snprintf(full, sizeof full, "%s%s%s", family, regular ? "" : " ", regular ? "" : style);
  for (p = family; *p && n < 40; p++)
    if (*p > 32 && *p < 127 && !strchr("[](){}<>/%", *p)) ps[n++] = *p;
  if (n == 0) ps[n++] = 'X';
  ps[n++] = '-';
  for (p = *style ? style : "Regular"; *p && n < 62; p++)
    if (*p > 32 && *p < 127 && !strchr("[](){}<>/%", *p)) ps[n++] = *p;
  ps[n] = '\0';
  snprintf(uid, sizeof uid, "%s;chromatype", ps);
  return add_name(ns, 1, family) && add_name(ns, 3, uid) && add_name(ns, 4, full) && add_name(ns, 6, ps);
}

/* ---- the tables written anew ----------------------------------------------------- */

static void write_post(ct_build_t *s, const ct_table_t *post, ct_buf_t *out) {
  unsigned i;
  unsigned char head[32];
  memset(head, 0, sizeof head);
  if (post->p && post->len >= 32) memcpy(head, post->p, 32);
  head[0] = 0;
  head[1] = s->names ? 2 : 3;
  head[2] = head[3] = 0;
  ct_buf_bytes(out, head, 32);
  if (!s->names) return;
  ct_buf_u16(out, s->count);
  for (i = 0; i < s->count; i++) ct_buf_u16(out, 258 + i);
  for (i = 0; i < s->count; i++) {
    char fallback[32];
    const char *n = s->gnames[i];
    size_t len;
    if (!n) {
      snprintf(fallback, sizeof fallback, "glyph%u", i);
      n = fallback;
    }
    len = strlen(n);
    ct_buf_u8(out, (unsigned)len);
    ct_buf_bytes(out, n, len);
  }
}

static void write_maxp(ct_build_t *s, const ct_table_t *maxp, int hinted, ct_buf_t *out) {
  unsigned char m[32];
  memset(m, 0, sizeof m);
  if (hinted && maxp->p && maxp->len >= 32 && ct_rd32(maxp->p) == 0x00010000u) memcpy(m, maxp->p, 32);
  else {
    m[15] = 2;   /* maxZones */
    if (maxp->p && maxp->len >= 32 && ct_rd32(maxp->p) == 0x00010000u) {
      memcpy(m + 6, maxp->p + 6, 8);     /* points, contours, composite points, contours */
      memcpy(m + 28, maxp->p + 28, 4);   /* component elements, depth */
    }
  }
  m[0] = 0; m[1] = 1; m[2] = 0; m[3] = 0;
  m[4] = (unsigned char)(s->count >> 8);
  m[5] = (unsigned char)s->count;
  if (s->max.points > ct_rd16(m + 6)) { m[6] = (unsigned char)(s->max.points >> 8); m[7] = (unsigned char)s->max.points; }
  if (s->max.contours > ct_rd16(m + 8)) { m[8] = (unsigned char)(s->max.contours >> 8); m[9] = (unsigned char)s->max.contours; }
  ct_buf_bytes(out, m, 32);
}

static void write_hmtx(ct_build_t *s, const ct_table_t *hhea, ct_buf_t *hmtx, ct_buf_t *hh) {
  unsigned i;
  int adv_max = 0, min_lsb = 0, min_rsb = 0, max_ext = 0, first = 1;
  for (i = 0; i < s->count; i++) {
    ct_buf_u16(hmtx, (unsigned)s->advance[i]);
    ct_buf_u16(hmtx, (unsigned)(s->lsb[i] & 0xFFFF));
    if (s->advance[i] > adv_max) adv_max = s->advance[i];
  }
  for (i = 0; i < s->count; i++) {
    size_t len = s->loca[i + 1] - s->loca[i];
    int xmin, xmax;
    if (len < 10) continue;
    xmin = ct_rds16(s->glyf.p + s->loca[i] + 2);
    xmax = ct_rds16(s->glyf.p + s->loca[i] + 6);
    if (first || s->lsb[i] < min_lsb) min_lsb = s->lsb[i];
    if (first || s->advance[i] - s->lsb[i] - (xmax - xmin) < min_rsb) min_rsb = s->advance[i] - s->lsb[i] - (xmax - xmin);
    if (first || s->lsb[i] + (xmax - xmin) > max_ext) max_ext = s->lsb[i] + (xmax - xmin);
    first = 0;
  }
  ct_buf_bytes(hh, hhea->p, 36);
  ct_buf_put_u16(hh, 10, (unsigned)adv_max);
  ct_buf_put_u16(hh, 12, (unsigned)(min_lsb & 0xFFFF));
  ct_buf_put_u16(hh, 14, (unsigned)(min_rsb & 0xFFFF));
  ct_buf_put_u16(hh, 16, (unsigned)(max_ext & 0xFFFF));
  ct_buf_put_u16(hh, 34, s->count);
}

/* ---- SVG ------------------------------------------------------------------------- */

typedef struct { unsigned gid; char *doc; size_t len; } svg_doc_t;

static void write_svg_table(svg_doc_t *docs, unsigned n, ct_buf_t *out) {
  unsigned i;
  size_t off = 2 + 12 * (size_t)n;
  ct_buf_u16(out, 0);
  ct_buf_u32(out, 10);
  ct_buf_u32(out, 0);
  ct_buf_u16(out, n);
  for (i = 0; i < n; i++) {
    ct_buf_u16(out, docs[i].gid);
    ct_buf_u16(out, docs[i].gid);
    ct_buf_u32(out, (uint32_t)off);
    ct_buf_u32(out, (uint32_t)docs[i].len);
    off += docs[i].len;
  }
  for (i = 0; i < n; i++) ct_buf_bytes(out, docs[i].doc, docs[i].len);
}

/* ---- write -------------------------------------------------------------------------- */

static int is_tag(uint32_t t, const char *s) {
  return t == TAG(s[0], s[1], s[2], s[3]);
}

/* Tables of the lead that a built font cannot keep: outlines, variations, color and
   bitmap data written anew or dropped, per-glyph tables whose glyph count changes. */
static int dropped_when_built(uint32_t t, int regenerated) {
  static const char *const drop[] = { "CFF ", "CFF2", "VORG", "fvar", "gvar", "avar", "HVAR", "VVAR",
    "MVAR", "cvar", "STAT", "sbix", "CBDT", "CBLC", "EBDT", "EBLC", "EBSC", "hdmx", "LTSH", "VDMX",
    "DSIG", "vhea", "vmtx", "COLR", "CPAL", "SVG ", "glyf", "loca", "head", "hhea", "hmtx", "maxp",
    "post", "name", NULL };
  unsigned i;
  for (i = 0; drop[i]; i++)
    if (is_tag(t, drop[i])) return 1;
  if (regenerated && (is_tag(t, "fpgm") || is_tag(t, "prep") || is_tag(t, "cvt "))) return 1;
  return 0;
}

static ct_status_t add_table(ct_sfnt_table_t **tables, unsigned *n, uint32_t tag, ct_buf_t *data,
                             ct_error_t *err) {
  ct_sfnt_table_t *t = realloc(*tables, (*n + 1) * sizeof *t);
  if (!t) {
    ct_buf_free(data);
    return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  }
  *tables = t;
  t[*n].tag = tag;
  t[*n].data = *data;
  memset(data, 0, sizeof *data);
  (*n)++;
  return CT_OK;
}

static ct_status_t copy_table(ct_sfnt_table_t **tables, unsigned *n, ct_font_t *font, uint32_t tag,
                              ct_error_t *err) {
  ct_table_t t = load_table(font, tag);
  ct_buf_t b = { 0 };
  if (!t.p) return CT_OK;
  b.p = t.p;
  b.len = b.cap = t.len;
  return add_table(tables, n, tag, &b, err);
}

static const char *glyph_label(ct_font_t *font, unsigned gid, char *buf, size_t size) {
  char name[128];
  if (ct_font_get_glyph_name(font, gid, name, sizeof name)) snprintf(buf, size, "glyph %u ('%s')", gid, name);
  else snprintf(buf, size, "glyph %u", gid);
  return buf;
}

ct_status_t ct_font_builder_write(ct_font_builder_t *b, const char *path, const ct_font_write_options_t *o,
                                  ct_error_t *err) {
  ct_font_t *lead = b->lead;
  ct_font_write_options_t defaults;
  ct_sfnt_table_t *tables = NULL;
  unsigned ntables = 0, i, formats, ntrees = 0;
  ct_buf_t file = { 0 }, buf = { 0 };
  names_t ns;
  ct_build_t s;
  ct_colr_writer_t *colr = NULL;
  svg_doc_t *docs = NULL;
  unsigned ndocs = 0;
  ct_table_t head = { 0 }, hhea = { 0 }, maxp = { 0 }, post = { 0 }, name = { 0 }, hmtx = { 0 };
  ct_table_t glyf = { 0 }, loca = { 0 };
  int cff = 0, keep, regenerate, renamed;
  ct_status_t st = CT_OK;
  char label[160];
  unsigned *name_ids = NULL, *label_ids = NULL;
  ct_rgba_t *colors = NULL;

  memset(&ns, 0, sizeof ns);
  memset(&s, 0, sizeof s);
  if (!o) {
    ct_font_write_options_init(&defaults);
    o = &defaults;
  }
  formats = o->formats;
  for (i = 0; i < b->ntrees; i++) ntrees += b->trees[i] != NULL;
  keep = ntrees == 0 && formats == 0;
  renamed = b->family != NULL;

  head = load_table(lead, TAG('h', 'e', 'a', 'd'));
  hhea = load_table(lead, TAG('h', 'h', 'e', 'a'));
  maxp = load_table(lead, TAG('m', 'a', 'x', 'p'));
  post = load_table(lead, TAG('p', 'o', 's', 't'));
  name = load_table(lead, TAG('n', 'a', 'm', 'e'));
  hmtx = load_table(lead, TAG('h', 'm', 't', 'x'));
  if (head.len < 54 || hhea.len < 36 || maxp.len < 6) {
    st = ct_set_error(err, CT_ERR_INVALID_FONT, "%s: no head, hhea or maxp table (not an OpenType font?)",
                      ct_font_get_path(lead));
    goto done;
  }
  cff = has_table(lead, TAG('C', 'F', 'F', ' ')) || has_table(lead, TAG('C', 'F', 'F', '2'));

  /* the tables kept as they are */
  {
    FT_ULong tag, len;
    FT_UInt k;
    /* outlines from FreeType: CFF, variable fonts (at their location), and WOFF2, whose
       glyf and loca FreeType 2.12 rebuilds with loca offsets past the table's end */
    regenerate = !keep && (cff || FT_HAS_MULTIPLE_MASTERS(lead->ft_face) ||
                           (lead->container && strcmp(lead->container, "WOFF2") == 0));
    for (k = 0; FT_Sfnt_Table_Info(lead->ft_face, k, &tag, &len) == 0; k++) {
      uint32_t t = (uint32_t)tag;
      if (keep ? (is_tag(t, "CPAL") || is_tag(t, "name") || is_tag(t, "DSIG") || is_tag(t, "head"))
               : dropped_when_built(t, regenerate))
        continue;
      if ((st = copy_table(&tables, &ntables, lead, t, err))) goto done;
    }
  }

  if (!keep) {
    int long_loca = ct_rds16(head.p + 50) == 1;
    /* the glyphs: the lead's, then those the color glyphs need */
    if (!ct_build_start(&s, b, err)) goto nomem;
    if (!regenerate) {
      glyf = load_table(lead, TAG('g', 'l', 'y', 'f'));
      loca = load_table(lead, TAG('l', 'o', 'c', 'a'));
      if (!glyf.p || !loca.p) {
        st = ct_set_error(err, CT_ERR_INVALID_FONT, "%s: no glyf/loca table", ct_font_get_path(lead));
        goto done;
      }
    }
    if (!ct_build_lead_glyphs(&s, regenerate, &glyf, &loca, &hmtx, ct_rd16(hhea.p + 34) ? ct_rd16(hhea.p + 34) : 1,
                              long_loca)) {
      st = err ? err->status : CT_ERR_NOMEM;
      goto done;
    }

    /* the color glyphs */
    if (!formats) {
      /* COLRv0 where every glyph fits it (every renderer reads it, Safari too), else COLRv1 */
      formats = CT_FONT_COLR0;
      for (i = 0; i < b->ntrees; i++)
        if (b->trees[i] && !ct_colr_fits_v0(b->trees[i], 0)) {
          formats = CT_FONT_COLR1;
          break;
        }
    }
    if (formats & (CT_FONT_COLR0 | CT_FONT_COLR1)) {
      if (!(colr = ct_colr_writer_create())) goto nomem;
      for (i = 0; i < b->ntrees; i++) {
        if (!b->trees[i]) continue;
        if ((formats & CT_FONT_COLR0) && !ct_colr_writer_add_v0(colr, i, b->trees[i], lead, &s.sink) &&
            !(formats & CT_FONT_COLR1)) {
          st = ct_set_error(err, CT_ERR_INVALID_ARG, "%s: COLRv0 cannot hold %s: %s (use --format colr1)",
                            ct_font_get_path(lead), glyph_label(lead, i, label, sizeof label), s.sink.why);
          goto done;
        }
        if ((formats & CT_FONT_COLR1) && !ct_colr_writer_add_v1(colr, i, b->trees[i], lead, &s.sink)) {
          st = ct_set_error(err, CT_ERR_INVALID_ARG, "%s: COLRv1 cannot hold %s: %s",
                            ct_font_get_path(lead), glyph_label(lead, i, label, sizeof label), s.sink.why);
          goto done;
        }
      }
    }
    if (formats & CT_FONT_SVG) {
      ct_svgwrite_t w;
      memset(&w, 0, sizeof w);
      w.palette = b->colors;
      w.palette_count = b->entries;
      if (!(docs = calloc(ntrees + 1, sizeof *docs))) goto nomem;
      for (i = 0; i < b->ntrees; i++) {
        char why[256] = "";
        if (!b->trees[i]) continue;
        w.gid = i;
        docs[ndocs].gid = i;
        if (!(docs[ndocs].doc = ct_svg_write_glyph(lead, b->trees[i], &w, &docs[ndocs].len, why, sizeof why))) {
          st = ct_set_error(err, CT_ERR_INVALID_ARG, "%s: OT-SVG cannot hold %s: %s",
                            ct_font_get_path(lead), glyph_label(lead, i, label, sizeof label), why);
          goto done;
        }
        ndocs++;
      }
    }
    if (s.glyf.failed) goto nomem;

    /* glyf, loca, hmtx, hhea, maxp, post, head */
    {
      ct_buf_t lo = { 0 }, hm = { 0 }, hh = { 0 }, mp = { 0 }, pt = { 0 }, hd = { 0 };
      for (i = 0; i <= s.count; i++) ct_buf_u32(&lo, (uint32_t)s.loca[i]);
      write_hmtx(&s, &hhea, &hm, &hh);
      write_maxp(&s, &maxp, !regenerate, &mp);
      write_post(&s, &post, &pt);
      ct_buf_bytes(&hd, head.p, 54);
      ct_buf_put_u16(&hd, 36, (unsigned)(s.max.xmin & 0xFFFF));
      ct_buf_put_u16(&hd, 38, (unsigned)(s.max.ymin & 0xFFFF));
      ct_buf_put_u16(&hd, 40, (unsigned)(s.max.xmax & 0xFFFF));
      ct_buf_put_u16(&hd, 42, (unsigned)(s.max.ymax & 0xFFFF));
      ct_buf_put_u16(&hd, 50, 1);   /* long loca */
      ct_buf_put_u16(&hd, 52, 0);
      if ((st = add_table(&tables, &ntables, TAG('g', 'l', 'y', 'f'), &s.glyf, err)) ||
          (st = add_table(&tables, &ntables, TAG('l', 'o', 'c', 'a'), &lo, err)) ||
          (st = add_table(&tables, &ntables, TAG('h', 'm', 't', 'x'), &hm, err)) ||
          (st = add_table(&tables, &ntables, TAG('h', 'h', 'e', 'a'), &hh, err)) ||
          (st = add_table(&tables, &ntables, TAG('m', 'a', 'x', 'p'), &mp, err)) ||
          (st = add_table(&tables, &ntables, TAG('p', 'o', 's', 't'), &pt, err)) ||
          (st = add_table(&tables, &ntables, TAG('h', 'e', 'a', 'd'), &hd, err)))
        goto done;
      cff = 0;
    }
    if (colr) {
      if (!ct_colr_writer_finish(colr, &buf)) goto nomem;
      if ((st = add_table(&tables, &ntables, TAG('C', 'O', 'L', 'R'), &buf, err))) goto done;
    }
    if (ndocs) {
      write_svg_table(docs, ndocs, &buf);
      if ((st = add_table(&tables, &ntables, TAG('S', 'V', 'G', ' '), &buf, err))) goto done;
    }
  } else {
    ct_buf_t hd = { 0 };
    ct_buf_bytes(&hd, head.p, head.len);
    if ((st = add_table(&tables, &ntables, TAG('h', 'e', 'a', 'd'), &hd, err))) goto done;
  }

  /* name, with the palettes' names and labels; CPAL */
  if (!read_names(&ns, &name, renamed)) goto nomem;
  if (renamed) {
    ct_font_info_t info;
    ct_font_get_info(lead, &info);
    if (!add_family(&ns, b->family, info.style)) goto nomem;
  }
  if (b->npalettes && b->entries) {
    unsigned p, e, total = b->entries + s.nextra, any_type = 0, any_name = 0, any_label = 0;
    if (!(colors = malloc((size_t)total * b->npalettes * sizeof *colors)) ||
        !(name_ids = malloc((b->npalettes + 1) * sizeof *name_ids)) ||
        !(label_ids = malloc((total + 1) * sizeof *label_ids)))
      goto nomem;
    for (p = 0; p < b->npalettes; p++) {
      memcpy(colors + (size_t)p * total, b->colors + (size_t)p * b->entries, b->entries * sizeof *colors);
      for (e = 0; e < s.nextra; e++) colors[(size_t)p * total + b->entries + e] = s.extra[(size_t)e * b->npalettes + p];
      any_type |= b->types[p];
      name_ids[p] = 0xFFFF;
      if (b->names[p]) {
        if (ns.next_id > 32767 || !add_name(&ns, ns.next_id, b->names[p])) goto nomem;
        name_ids[p] = ns.next_id++;
        any_name = 1;
      }
    }
    for (e = 0; e < total; e++) {
      label_ids[e] = 0xFFFF;
      if (e < b->entries && b->labels[e]) {
        if (ns.next_id > 32767 || !add_name(&ns, ns.next_id, b->labels[e])) goto nomem;
        label_ids[e] = ns.next_id++;
        any_label = 1;
      }
    }
    ct_cpal_encode(&buf, total, b->npalettes, colors, any_type ? b->types : NULL, any_name ? name_ids : NULL,
                   any_label ? label_ids : NULL);
    if ((st = add_table(&tables, &ntables, TAG('C', 'P', 'A', 'L'), &buf, err))) goto done;
  } else if (s.nextra) {
    /* no palettes of its own: one made of the colors the glyphs use */
    ct_buf_t tmp = { 0 };
    ct_cpal_encode(&tmp, s.nextra, 1, s.extra, NULL, NULL, NULL);
    if ((st = add_table(&tables, &ntables, TAG('C', 'P', 'A', 'L'), &tmp, err))) goto done;
  }
  if (!write_names(&ns, &buf)) goto nomem;
  if ((st = add_table(&tables, &ntables, TAG('n', 'a', 'm', 'e'), &buf, err))) goto done;

  if ((st = ct_sfnt_assemble(tables, ntables, cff, &file, err))) goto done;
  st = ct_build_output(&file, path, o, err);
  goto done;

nomem:
  st = ct_set_error(err, CT_ERR_NOMEM, "out of memory (or a table over the size limit)");
done:
  for (i = 0; i < ntables; i++) ct_buf_free(&tables[i].data);
  free(tables);
  for (i = 0; i < ndocs; i++) free(docs[i].doc);
  free(docs);
  ct_colr_writer_destroy(colr);
  ct_build_free(&s);
  names_free(&ns);
  ct_buf_free(&file);
  ct_buf_free(&buf);
  free(colors);
  free(name_ids);
  free(label_ids);
  free(head.p);
  free(hhea.p);
  free(maxp.p);
  free(post.p);
  free(name.p);
  free(hmtx.p);
  free(glyf.p);
  free(loca.p);
  return st;
}
