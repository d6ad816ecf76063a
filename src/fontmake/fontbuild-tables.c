/*
** fontbuild-tables.c: the lead's tables read and chosen, and those written anew from the
** glyph set: hmtx/hhea, maxp, post, name, the SVG table's index.  Font builder, core layer;
** knows no paint tree, COLR or CPAL encoding, nor the order of a write.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fontbuild.h"
#include FT_TRUETYPE_TABLES_H

#define TAG CT_TAG

/* ---- the lead's tables ------------------------------------------------------------ */

ct_table_t ct_table_load(ct_font_t *font, uint32_t tag) {
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

int ct_table_has(ct_font_t *font, uint32_t tag) {
  FT_ULong len = 0;
  return FT_Load_Sfnt_Table(font->ft_face, tag, 0, NULL, &len) == 0 && len > 0;
}

/* ---- name ------------------------------------------------------------------------ */

static int name_cmp(const void *a, const void *b) {
  const ct_name_rec_t *x = a, *y = b;
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

/* Room for one more record; 0 without memory. */
static int names_reserve(ct_names_t *ns) {
  if (ns->n == ns->cap) {
    unsigned cap = ns->cap ? ns->cap * 2 : 64;
    ct_name_rec_t *v = realloc(ns->v, cap * sizeof *v);
    if (!v) return 0;
    ns->v = v;
    ns->cap = cap;
  }
  return 1;
}

int ct_names_add(ct_names_t *ns, unsigned id, const char *text) {
  ct_name_rec_t *r;
  if (!names_reserve(ns)) return 0;
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

void ct_names_free(ct_names_t *ns) {
  unsigned i;
  for (i = 0; i < ns->n; i++) free(ns->v[i].owned);
  free(ns->v);
}

/* The lead's records (format 0 kept; language-tag records dropped), less the family's
   when renamed. */
int ct_names_read(ct_names_t *ns, const ct_table_t *t, int renamed) {
  unsigned count, storage, i;
  ns->next_id = 256;
  if (!t->p || t->len < 6) return 1;
  count = ct_rd16(t->p + 2);
  storage = ct_rd16(t->p + 4);
  if (6 + (size_t)count * 12 > t->len) return 1;
  for (i = 0; i < count; i++) {
    const unsigned char *r = t->p + 6 + 12 * i;
    unsigned id = ct_rd16(r + 6), len = ct_rd16(r + 8), off = ct_rd16(r + 10);
    ct_name_rec_t *n;
    if ((size_t)storage + off + len > t->len) continue;
    if (ct_rd16(r + 4) >= 0x8000 && ct_rd16(r) != 0) continue;   /* language tags: format 1 */
    if (id >= ns->next_id) ns->next_id = id + 1;
    if (renamed && (id == 1 || id == 3 || id == 4 || id == 6 || id == 16 || id == 17 || id == 18 ||
                    id == 21 || id == 22))
      continue;
    if (!names_reserve(ns)) return 0;
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

int ct_names_write(ct_names_t *ns, ct_buf_t *out) {
  unsigned i;
  size_t off = 0;
  if (ns->n > 1) qsort(ns->v, ns->n, sizeof *ns->v, name_cmp);   /* no records: v is NULL (UBSan) */
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
int ct_names_add_family(ct_names_t *ns, const char *family, const char *style) {
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
  return ct_names_add(ns, 1, family) && ct_names_add(ns, 3, uid) && ct_names_add(ns, 4, full) && ct_names_add(ns, 6, ps);
}

/* ---- the tables written anew ----------------------------------------------------- */

void ct_build_write_post(ct_build_t *s, const ct_table_t *post, ct_buf_t *out) {
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

void ct_build_write_maxp(ct_build_t *s, const ct_table_t *maxp, int hinted, ct_buf_t *out) {
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

void ct_build_write_hmtx(ct_build_t *s, const ct_table_t *hhea, ct_buf_t *hmtx, ct_buf_t *hh) {
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

void ct_build_write_svg(ct_build_svg_doc_t *docs, unsigned n, ct_buf_t *out) {
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

/* ---- the tables of the file ------------------------------------------------------ */

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

int ct_table_copied(uint32_t t, int keep, int regenerated) {
  return !(keep ? (is_tag(t, "CPAL") || is_tag(t, "name") || is_tag(t, "DSIG") || is_tag(t, "head"))
                : dropped_when_built(t, regenerated));
}

ct_status_t ct_tables_add(ct_sfnt_table_t **tables, unsigned *n, uint32_t tag, ct_buf_t *data,
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

ct_status_t ct_tables_copy(ct_sfnt_table_t **tables, unsigned *n, ct_font_t *font, uint32_t tag,
                           ct_error_t *err) {
  ct_table_t t = ct_table_load(font, tag);
  ct_buf_t b = { 0 };
  if (!t.p) return CT_OK;
  b.p = t.p;
  b.len = b.cap = t.len;
  return ct_tables_add(tables, n, tag, &b, err);
}
