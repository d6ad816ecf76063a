/*
** artfont.c: a color font made from artwork (SVG drawings, one per glyph, read by
** glyph/artwork/): the drawings read in parallel, then in file order the glyph set of a
** plain TrueType font (one empty base glyph per drawing, placeholders, every distinct
** outline once), which leads a font builder whose color glyphs are the drawings' trees.
** Fontmake stage, fonts from artwork (fontmake/artwork/); the tables of that font are
** artfont-tables.c's.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "artfont.h"

void ct_artwork_font_options_init(ct_artwork_font_options_t *o) {
  memset(o, 0, sizeof *o);
  o->upem = 1024;
  o->ascent = 819;
  o->descent = -205;
}

/* ---- strings by hash --------------------------------------------------------------- */

/* A set of strings (owned) with a number each: open addressing, grown at half full. */
typedef struct {
  char    **keys;
  unsigned *vals;
  unsigned  n, cap;
} strmap_t;

static uint64_t str_hash(const char *s, size_t len) {
  uint64_t h = 0xCBF29CE484222325ull;
  size_t i;
  for (i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001B3ull;
  return h ^ (h >> 31);
}

static void strmap_free(strmap_t *m) {
  unsigned i;
  for (i = 0; i < m->cap; i++) free(m->keys[i]);
  free(m->keys);
  free(m->vals);
  memset(m, 0, sizeof *m);
}

/* The slot of `s` (its key NULL when absent), or -1 when out of memory. */
static long strmap_slot(strmap_t *m, const char *s) {
  size_t len = strlen(s);
  unsigned j;
  if (m->n * 2 >= m->cap) {
    unsigned cap = m->cap ? m->cap * 2 : 256, i;
    char **k = calloc(cap, sizeof *k);
    unsigned *v = calloc(cap, sizeof *v);
    if (!k || !v) {
      free(k);
      free(v);
      return -1;
    }
    for (i = 0; i < m->cap; i++) {
      if (!m->keys[i]) continue;
      j = (unsigned)(str_hash(m->keys[i], strlen(m->keys[i])) & (cap - 1));
      while (k[j]) j = (j + 1) & (cap - 1);
      k[j] = m->keys[i];
      v[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = k;
    m->vals = v;
    m->cap = cap;
  }
  j = (unsigned)(str_hash(s, len) & (m->cap - 1));
  while (m->keys[j] && strcmp(m->keys[j], s) != 0) j = (j + 1) & (m->cap - 1);
  return j;
}

/* 1 added, 0 present (*val its number), -1 out of memory. */
static int strmap_add(strmap_t *m, const char *s, unsigned val, unsigned *old) {
  long j = strmap_slot(m, s);
  if (j < 0) return -1;
  if (m->keys[j]) {
    if (old) *old = m->vals[j];
    return 0;
  }
  if (!(m->keys[j] = malloc(strlen(s) + 1))) return -1;
  strcpy(m->keys[j], s);
  m->vals[j] = val;
  m->n++;
  return 1;
}

/* ---- the sources' characters ------------------------------------------------------- */

static int is_vs(uint32_t c) { return c == 0xFE0F || c == 0xFE0E; }

/* The characters a source stands for in the font: its code points without the
   presentation selectors (all of them if nothing else is left).  Returns the count. */
static unsigned source_key(const ct_artwork_source_t *s, uint32_t *key) {
  unsigned i, n = 0;
  for (i = 0; i < s->ncodepoints; i++)
    if (!is_vs(s->codepoints[i])) key[n++] = s->codepoints[i];
  if (n == 0)
    for (i = 0; i < s->ncodepoints; i++) key[n++] = s->codepoints[i];
  return n;
}

/* "U+1F468 U+200D U+1F469" */
static void seq_text(const uint32_t *cps, unsigned n, char *buf, size_t size) {
  size_t at = 0;
  unsigned i;
  buf[0] = '\0';
  for (i = 0; i < n && at + 12 < size; i++) at += (size_t)snprintf(buf + at, size - at, "%sU+%04X", i ? " " : "", (unsigned)cps[i]);
}

static int name_ok(const char *s) {
  size_t n = strlen(s);
  const char *p;
  if (n == 0 || n > 63) return 0;
  for (p = s; *p; p++)
    if (*p <= 32 || *p >= 127 || *p == '[' || *p == ']' || *p == '(' || *p == ')' || *p == '{' ||
        *p == '}' || *p == '<' || *p == '>' || *p == '/' || *p == '%')
      return 0;
  return 1;
}

/* Every source checked: code points valid, one drawing per character (sequence) and per
   glyph name. */
static ct_status_t check_sources(const ct_artwork_source_t *src, unsigned n, ct_error_t *err) {
  strmap_t chars = { 0 }, names = { 0 };
  ct_status_t st = CT_OK;
  unsigned i, k, old = 0;
  uint32_t *key = NULL;
  size_t most = 1;
  char text[600];
  for (i = 0; i < n; i++)
    if (src[i].ncodepoints > most) most = src[i].ncodepoints;
  if (!(key = malloc(most * sizeof *key))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  for (i = 0; i < n && !st; i++) {
    const ct_artwork_source_t *s = &src[i];
    const char *name = s->name ? s->name : "<artwork>";
    unsigned nk;
    int r;
    if (!s->data && s->len) {
      st = ct_set_error(err, CT_ERR_INVALID_ARG, "%s: no data", name);
      break;
    }
    if (s->ncodepoints > 64) {
      st = ct_set_error(err, CT_ERR_INVALID_ARG, "%s: a sequence of %u characters (at most 64)", name, s->ncodepoints);
      break;
    }
    for (k = 0; k < s->ncodepoints; k++) {
      uint32_t c = s->codepoints[k];
      if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF) || c == 0) {
        st = ct_set_error(err, CT_ERR_INVALID_ARG, "%s: U+%04X is not a character", name, (unsigned)c);
        break;
      }
    }
    if (st) break;
    if (s->glyph_name && !name_ok(s->glyph_name)) {
      st = ct_set_error(err, CT_ERR_INVALID_ARG, "%s: glyph name '%.80s' (1 to 63 printable ASCII characters, "
                        "no space or []{}()<>/%%)", name, s->glyph_name);
      break;
    }
    if (!s->ncodepoints && !s->glyph_name) {
      st = ct_set_error(err, CT_ERR_INVALID_ARG, "%s: no character and no glyph name", name);
      break;
    }
    if (s->ncodepoints) {
      nk = source_key(s, key);
      seq_text(key, nk, text, sizeof text);
      if ((r = strmap_add(&chars, text, i, &old)) < 0) goto nomem;
      if (r == 0) {
        st = ct_set_error(err, CT_ERR_INVALID_ARG, "%s and %s both give %s", src[old].name ? src[old].name : "<artwork>",
                          name, text);
        break;
      }
    }
    if (s->glyph_name) {
      if ((r = strmap_add(&names, s->glyph_name, i, &old)) < 0) goto nomem;
      if (r == 0) {
        st = ct_set_error(err, CT_ERR_INVALID_ARG, "%s and %s both give the glyph name '%s'",
                          src[old].name ? src[old].name : "<artwork>", name, s->glyph_name);
        break;
      }
    }
  }
  goto done;
nomem:
  st = ct_set_error(err, CT_ERR_NOMEM, "out of memory");
done:
  free(key);
  strmap_free(&chars);
  strmap_free(&names);
  return st;
}

/* ---- the glyph set ----------------------------------------------------------------- */

static void artfont_free(ct_artfont_t *f) {
  unsigned i;
  ct_buf_free(&f->glyf);
  for (i = 0; i < f->count && f->names; i++) free(f->names[i]);
  free(f->names);
  free(f->loca);
  free(f->advance);
  free(f->xmin);
  free(f->gclass);
  free(f->cmap);
  free(f->ligs);
  free(f->pool);
  memset(f, 0, sizeof *f);
}

/* Room for glyph f->count; 0 when out of memory. */
static int grow(ct_artfont_t *f, unsigned *cap) {
  if (f->count + 1 >= *cap) {
    unsigned c = *cap ? *cap * 2 : 256;
    size_t *l = realloc(f->loca, (c + 1) * sizeof *l);
    int *a, *x;
    char **nm;
    unsigned char *gc;
    if (l) f->loca = l;
    a = l ? realloc(f->advance, c * sizeof *a) : NULL;
    if (a) f->advance = a;
    x = a ? realloc(f->xmin, c * sizeof *x) : NULL;
    if (x) f->xmin = x;
    nm = x ? realloc(f->names, c * sizeof *nm) : NULL;
    if (nm) f->names = nm;
    gc = nm ? realloc(f->gclass, c) : NULL;
    if (!gc) return 0;
    f->gclass = gc;
    *cap = c;
  }
  return 1;
}

/* Ends glyph f->count (room made by grow), whose record (if any) is in glyf already;
   takes `name` (0 if it is NULL: out of memory). */
static int add_glyph(ct_artfont_t *f, const ct_glyf_stats_t *st, int advance, char *name, unsigned cls) {
  if (!name) return 0;
  if (st->points > f->max.points) f->max.points = st->points;
  if (st->contours > f->max.contours) f->max.contours = st->contours;
  if (!st->empty) {
    if (!f->have_box || st->xmin < f->max.xmin) f->max.xmin = st->xmin;
    if (!f->have_box || st->ymin < f->max.ymin) f->max.ymin = st->ymin;
    if (!f->have_box || st->xmax > f->max.xmax) f->max.xmax = st->xmax;
    if (!f->have_box || st->ymax > f->max.ymax) f->max.ymax = st->ymax;
    f->have_box = 1;
  }
  ct_buf_pad4(&f->glyf);
  f->advance[f->count] = advance < 0 ? 0 : advance > 65535 ? 65535 : advance;
  f->xmin[f->count] = st->empty ? 0 : st->xmin;
  f->names[f->count] = name;
  f->gclass[f->count] = (unsigned char)cls;
  f->count++;
  f->loca[f->count] = f->glyf.len;
  return !f->glyf.failed;
}

static char *dup_str(const char *s) {
  char *d = malloc(strlen(s) + 1);
  if (d) strcpy(d, s);
  return d;
}

/* uniXXXX, uXXXXX, or u1F468_200D_1F469 for a sequence. */
static char *cp_name(const uint32_t *cps, unsigned n) {
  char buf[64 * 8 + 8];
  size_t at;
  unsigned i;
  if (n == 1 && cps[0] <= 0xFFFF) snprintf(buf, sizeof buf, "uni%04X", (unsigned)cps[0]);
  else {
    at = (size_t)snprintf(buf, sizeof buf, "u");
    for (i = 0; i < n && at + 9 < sizeof buf; i++)
      at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%04X", i ? "_" : "", (unsigned)cps[i]);
  }
  if (strlen(buf) > 63) buf[63] = '\0';
  return dup_str(buf);
}

/* .notdef: a box with a hole, half an em wide. */
static int add_notdef(ct_artfont_t *f) {
  static const unsigned char tags[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
  static const short ends[2] = { 3, 7 };
  double w = f->upem * 0.5, m = f->upem * 0.05, t = f->upem * 0.05, h = f->ascent > 0 ? f->ascent * 0.9 : f->upem * 0.7;
  FT_Vector pts[8];
  FT_Outline o;
  ct_glyf_stats_t st;
  double x[8] = { m, m, w - m, w - m, m + t, w - m - t, w - m - t, m + t };
  double y[8] = { 0, h, h, 0, t, t, h - t, h - t };
  unsigned i;
  for (i = 0; i < 8; i++) {
    pts[i].x = (FT_Pos)lround(x[i] * 64);
    pts[i].y = (FT_Pos)lround(y[i] * 64);
  }
  memset(&o, 0, sizeof o);
  o.n_points = 8;
  o.n_contours = 2;
  o.points = pts;
  o.tags = (char *)(uintptr_t)tags;   /* FT_Outline's fields are not const; glyf.c only reads them */
  o.contours = (short *)(uintptr_t)ends;
  if (!ct_glyf_encode(&f->glyf, &o, 1.0 / 64.0, NULL, &st)) return 0;
  return add_glyph(f, &st, (int)lround(w), dup_str(".notdef"), CT_ART_CLASS_NONE);
}

static int cp_cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static int cmap_cmp(const void *a, const void *b) {
  const ct_art_cmap_t *x = a, *y = b;
  return x->cp < y->cp ? -1 : x->cp > y->cp;
}

static long cmap_gid(const ct_artfont_t *f, uint32_t cp) {
  ct_art_cmap_t k, *hit;
  k.cp = cp;
  hit = bsearch(&k, f->cmap, f->ncmap, sizeof *f->cmap, cmap_cmp);
  return hit ? (long)hit->gid : -1;
}

/* Outlines by their glyf bytes: the glyph of each distinct record. */
typedef struct {
  ct_buf_t  tmp;
  size_t   *at, *len;     /* per slot: the record in f->glyf */
  unsigned *gid;          /* 0: empty slot */
  unsigned  n, cap;
} dedup_t;

static uint64_t bytes_hash(const unsigned char *p, size_t n) {
  return str_hash((const char *)p, n);
}

static int dedup_grow(dedup_t *d, const ct_artfont_t *f) {
  unsigned cap = d->cap ? d->cap * 2 : 1024, i, j;
  size_t *at = calloc(cap, sizeof *at), *len = calloc(cap, sizeof *len);
  unsigned *gid = calloc(cap, sizeof *gid);
  if (!at || !len || !gid) {
    free(at);
    free(len);
    free(gid);
    return 0;
  }
  for (i = 0; i < d->cap; i++) {
    if (!d->gid[i]) continue;
    j = (unsigned)(bytes_hash(f->glyf.p + d->at[i], d->len[i]) & (cap - 1));
    while (gid[j]) j = (j + 1) & (cap - 1);
    at[j] = d->at[i];
    len[j] = d->len[i];
    gid[j] = d->gid[i];
  }
  free(d->at);
  free(d->len);
  free(d->gid);
  d->at = at;
  d->len = len;
  d->gid = gid;
  d->cap = cap;
  return 1;
}

/* The glyph of outline `o` (added when it is new); -1 with `err` set. */
static long outline_gid(ct_artfont_t *f, dedup_t *d, unsigned *cap, const FT_Outline *o, const char *name,
                        ct_error_t *err) {
  ct_glyf_stats_t st;
  unsigned j;
  char gname[32];
  d->tmp.len = 0;
  if (!ct_glyf_encode(&d->tmp, o, 1.0 / 64.0, NULL, &st)) {
    ct_set_error(err, CT_ERR_LIMIT, "%s: a shape too large for a TrueType glyph (over 65535 points or off the "
                 "16-bit coordinate range)", name);
    return -1;
  }
  if (d->tmp.failed || ((d->n + 1) * 2 >= d->cap && !dedup_grow(d, f))) goto nomem;
  j = (unsigned)(bytes_hash(d->tmp.p, d->tmp.len) & (d->cap - 1));
  while (d->gid[j]) {
    if (d->len[j] == d->tmp.len && (d->tmp.len == 0 || memcmp(f->glyf.p + d->at[j], d->tmp.p, d->tmp.len) == 0))
      return d->gid[j];
    j = (j + 1) & (d->cap - 1);
  }
  if (f->count >= CT_MAX_WRITTEN_GLYPHS) {
    ct_set_error(err, CT_ERR_LIMIT, "the font would have more than %u glyphs (at %s)", CT_MAX_WRITTEN_GLYPHS, name);
    return -1;
  }
  if (!grow(f, cap)) goto nomem;
  d->at[j] = f->glyf.len;
  d->len[j] = d->tmp.len;
  d->gid[j] = f->count;
  d->n++;
  ct_buf_bytes(&f->glyf, d->tmp.p, d->tmp.len);
  snprintf(gname, sizeof gname, "shape%u", d->n);
  if (!add_glyph(f, &st, 0, dup_str(gname), CT_ART_CLASS_NONE)) goto nomem;
  return d->gid[j];
nomem:
  ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  return -1;
}

/* Post names made unique: a later glyph whose name was taken gets ".1", ".2"... */
static ct_status_t unique_names(ct_artfont_t *f, ct_error_t *err) {
  strmap_t seen = { 0 };
  unsigned g, k;
  int r;
  for (g = 0; g < f->count; g++) {
    if ((r = strmap_add(&seen, f->names[g], g, NULL)) < 0) goto nomem;
    for (k = 1; r == 0; k++) {
      char buf[80];
      char *n;
      snprintf(buf, sizeof buf, "%.56s.%u", f->names[g], k);
      if ((r = strmap_add(&seen, buf, g, NULL)) < 0) goto nomem;
      if (r == 1) {
        if (!(n = dup_str(buf))) goto nomem;
        free(f->names[g]);
        f->names[g] = n;
      }
    }
  }
  strmap_free(&seen);
  return CT_OK;
nomem:
  strmap_free(&seen);
  return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
}

/* The code points of sequences that have no drawing of their own (and the presentation
   selectors, whenever there are characters), ascending and distinct, in *out. */
static ct_status_t placeholders(const ct_artwork_source_t *src, unsigned n, const ct_artfont_t *f, uint32_t **out,
                                unsigned *nout, ct_error_t *err) {
  size_t total = 2, k = 0, i, j;
  uint32_t *v;
  unsigned m = 0;
  for (i = 0; i < n; i++) total += src[i].ncodepoints;
  if (!(v = malloc(total * sizeof *v))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  for (i = 0; i < n; i++)
    for (j = 0; j < src[i].ncodepoints; j++) v[k++] = src[i].codepoints[j];
  if (k) {
    v[k++] = 0xFE0E;
    v[k++] = 0xFE0F;
  }
  qsort(v, k, sizeof *v, cp_cmp);
  for (i = 0; i < k; i++)
    if ((m == 0 || v[m - 1] != v[i]) && cmap_gid(f, v[i]) < 0) v[m++] = v[i];
  *out = v;
  *nout = m;
  return CT_OK;
}

/* The cmap of the drawings of one character and the placeholders; the ligatures. */
static ct_status_t map_characters(ct_artfont_t *f, const ct_artwork_source_t *src, unsigned n, unsigned *cap,
                                  ct_error_t *err) {
  uint32_t *ph = NULL, key[64];
  unsigned i, k, nph = 0, nk, npool = 0;
  ct_status_t st;
  if (!(f->cmap = malloc((2 * (size_t)n + 4) * sizeof *f->cmap))) goto nomem;
  for (i = 0; i < n; i++)
    if (src[i].ncodepoints && source_key(&src[i], key) == 1) {
      f->cmap[f->ncmap].cp = key[0];
      f->cmap[f->ncmap++].gid = i + 1;
      if (is_vs(key[0])) f->gclass[i + 1] = CT_ART_CLASS_MARK;
    }
  qsort(f->cmap, f->ncmap, sizeof *f->cmap, cmap_cmp);
  if ((st = placeholders(src, n, f, &ph, &nph, err))) return st;
  {
    ct_art_cmap_t *c = realloc(f->cmap, ((size_t)f->ncmap + nph + 1) * sizeof *c);
    if (!c) goto nomem;
    f->cmap = c;
  }
  for (k = 0; k < nph; k++) {
    ct_glyf_stats_t st0;
    uint32_t cp = ph[k];
    memset(&st0, 0, sizeof st0);
    st0.empty = 1;
    if (f->count >= CT_MAX_WRITTEN_GLYPHS) {
      free(ph);
      return ct_set_error(err, CT_ERR_LIMIT, "the font would have more than %u glyphs", CT_MAX_WRITTEN_GLYPHS);
    }
    f->cmap[f->ncmap].cp = cp;
    f->cmap[f->ncmap++].gid = f->count;
    if (!grow(f, cap) || !add_glyph(f, &st0, 0, cp_name(&cp, 1), is_vs(cp) ? CT_ART_CLASS_MARK : CT_ART_CLASS_BASE)) {
      free(ph);   /* a name add_glyph did not keep is NULL: none was made */
      goto nomem;
    }
  }
  free(ph);
  qsort(f->cmap, f->ncmap, sizeof *f->cmap, cmap_cmp);
  /* the ligatures: every sequence of two or more characters left */
  for (i = 0; i < n; i++) npool += src[i].ncodepoints;
  if (!(f->ligs = malloc(((size_t)n + 1) * sizeof *f->ligs)) || !(f->pool = malloc(((size_t)npool + 1) * sizeof *f->pool)))
    goto nomem;
  npool = 0;
  for (i = 0; i < n; i++) {
    ct_art_lig_t *l = &f->ligs[f->nligs];
    if (!src[i].ncodepoints || (nk = source_key(&src[i], key)) < 2) continue;
    l->first = (unsigned)cmap_gid(f, key[0]);
    l->lig = i + 1;
    l->comps = f->pool + npool;
    l->ncomps = nk - 1;
    l->order = i;
    for (k = 1; k < nk; k++) f->pool[npool++] = (unsigned)cmap_gid(f, key[k]);
    f->gclass[i + 1] = CT_ART_CLASS_LIGATURE;
    f->nligs++;
  }
  return CT_OK;
nomem:
  return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
}

/* ---- the trees ----------------------------------------------------------------------- */

/* The palette: each distinct color of the drawings (as CPAL holds it, 8 bits a channel)
   once, in the order first met, found by hash. */
typedef struct {
  ct_rgba_t *v;
  uint32_t  *key;
  unsigned   n, cap;
  unsigned  *hash, hcap;   /* entry + 1, 0 empty; hcap a power of two */
} colors_t;

static uint32_t color_key(ct_rgba_t c) {
  return (uint32_t)ct_cpal_byte(c.r) << 24 | (uint32_t)ct_cpal_byte(c.g) << 16 | (uint32_t)ct_cpal_byte(c.b) << 8 |
         (uint32_t)ct_cpal_byte(c.a);
}

/* The entry of the color: -1 out of memory, -2 over CPAL's 65535 entries. */
static long color_entry(colors_t *c, ct_rgba_t rgba) {
  uint32_t k = color_key(rgba);
  unsigned j;
  if (c->n * 2 >= c->hcap) {
    unsigned cap = c->hcap ? c->hcap * 2 : 256, i, *h = calloc(cap, sizeof *h);
    if (!h) return -1;
    for (i = 0; i < c->n; i++) {
      for (j = (c->key[i] * 2654435761u) & (cap - 1); h[j]; j = (j + 1) & (cap - 1)) {}
      h[j] = i + 1;
    }
    free(c->hash);
    c->hash = h;
    c->hcap = cap;
  }
  for (j = (k * 2654435761u) & (c->hcap - 1); c->hash[j]; j = (j + 1) & (c->hcap - 1))
    if (c->key[c->hash[j] - 1] == k) return c->hash[j] - 1;
  if (c->n >= 0xFFFF) return -2;
  if (c->n == c->cap) {
    unsigned cap = c->cap ? c->cap * 2 : 64;
    ct_rgba_t *v = realloc(c->v, cap * sizeof *v);
    uint32_t *kk;
    if (v) c->v = v;
    if (!v || !(kk = realloc(c->key, cap * sizeof *kk))) return -1;
    c->key = kk;
    c->cap = cap;
  }
  c->v[c->n].r = ((k >> 24) & 255) / 255.0;
  c->v[c->n].g = ((k >> 16) & 255) / 255.0;
  c->v[c->n].b = ((k >> 8) & 255) / 255.0;
  c->v[c->n].a = (k & 255) / 255.0;
  c->key[c->n] = k;
  c->hash[j] = c->n + 1;
  return c->n++;
}

/* A drawing's tree with its glyph nodes (font NULL, outline index) on the lead's glyphs
   and its colors on palette entries (so OT-SVG writes them as var(--colorN) and a CPAL
   palette recolors every format alike); shared subtrees stay shared. */
typedef struct {
  const unsigned *map;
  unsigned        nmap;
  const ct_paint_t **from;
  ct_paint_t      **to;
  unsigned        nmemo, cap;
  int             bad;       /* 1 a bad tree, 2 over 65535 colors */
  colors_t        colors;
} remap_t;

static int recolor(remap_t *r, ct_color_t *c) {
  long e;
  if (c->kind != CT_COLOR_RGBA) return 1;
  if ((e = color_entry(&r->colors, c->rgba)) < 0) {
    if (e == -2) r->bad = 2;
    return 0;
  }
  c->kind = CT_COLOR_PALETTE;
  c->index = (unsigned)e;
  return 1;
}

/* A copy of the line with its colors on entries, stops malloc'ed (NULL: failed). */
static ct_color_stop_t *recolor_line(remap_t *r, const ct_color_line_t *in, ct_color_line_t *out) {
  ct_color_stop_t *st = malloc((in->count ? in->count : 1) * sizeof *st);
  unsigned i;
  if (!st) return NULL;
  *out = *in;
  out->stops = st;
  for (i = 0; i < in->count; i++) {
    st[i] = in->stops[i];
    if (!recolor(r, &st[i].color)) {
      free(st);
      return NULL;
    }
  }
  return st;
}

static ct_paint_t *remap(remap_t *r, const ct_paint_t *p, unsigned depth);

static ct_paint_t *remap_node(remap_t *r, const ct_paint_t *p, unsigned depth) {
  ct_paint_t *q = NULL, *a, *b;
  unsigned i;
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    if (!(q = ct_paint_layers_create(p->u.layers.count))) return NULL;
    for (i = 0; i < p->u.layers.count; i++)
      if (!(a = remap(r, p->u.layers.children[i], depth + 1)) || ct_paint_layers_append(q, a)) {
        ct_paint_destroy(q);
        return NULL;
      }
    return q;
  case CT_PAINT_GLYPH:
    if (p->u.glyph.font == NULL && p->u.glyph.gid >= r->nmap) {
      r->bad = 1;
      return NULL;
    }
    if (!(a = remap(r, p->u.glyph.child, depth + 1))) return NULL;
    return ct_paint_glyph_create(p->u.glyph.font, p->u.glyph.font ? p->u.glyph.gid : r->map[p->u.glyph.gid], a);
  case CT_PAINT_SOLID: {
    ct_color_t c = p->u.solid.color;
    return recolor(r, &c) ? ct_paint_solid_create(c) : NULL;
  }
  case CT_PAINT_LINEAR: case CT_PAINT_RADIAL: case CT_PAINT_SWEEP: {
    const ct_color_line_t *in = p->kind == CT_PAINT_LINEAR ? &p->u.linear.line
                              : p->kind == CT_PAINT_RADIAL ? &p->u.radial.line : &p->u.sweep.line;
    ct_color_line_t l;
    ct_color_stop_t *st = recolor_line(r, in, &l);
    if (!st) return NULL;
    if (p->kind == CT_PAINT_LINEAR) {
      double v[6] = { p->u.linear.x0, p->u.linear.y0, p->u.linear.x1, p->u.linear.y1, p->u.linear.x2, p->u.linear.y2 };
      q = ct_paint_linear_create(&l, v);
    } else if (p->kind == CT_PAINT_RADIAL) {
      double v[6] = { p->u.radial.x0, p->u.radial.y0, p->u.radial.r0, p->u.radial.x1, p->u.radial.y1, p->u.radial.r1 };
      q = ct_paint_radial_create(&l, v);
    } else {
      q = ct_paint_sweep_create(&l, p->u.sweep.cx, p->u.sweep.cy, p->u.sweep.start_angle, p->u.sweep.end_angle);
    }
    free(st);
    return q;
  }
  case CT_PAINT_TRANSFORM: {
    double m[6] = { p->u.transform.xx, p->u.transform.yx, p->u.transform.xy, p->u.transform.yy,
                    p->u.transform.dx, p->u.transform.dy };
    if (!(a = remap(r, p->u.transform.child, depth + 1))) return NULL;
    return ct_paint_transform_create(m, a);
  }
  case CT_PAINT_COMPOSITE:
    if (!(a = remap(r, p->u.composite.source, depth + 1))) return NULL;
    if (!(b = remap(r, p->u.composite.backdrop, depth + 1))) {
      ct_paint_destroy(a);
      return NULL;
    }
    return ct_paint_composite_create(p->u.composite.mode, a, b);
  case CT_PAINT_CLIP:
    if (!(a = remap(r, p->u.clip.child, depth + 1))) return NULL;
    return ct_paint_clip_create(p->u.clip.x0, p->u.clip.y0, p->u.clip.x1, p->u.clip.y1, a);
  default:   /* SVG and bitmap nodes hold no outline index */
    return ct_paint_reference((ct_paint_t *)(uintptr_t)p);
  }
}

static ct_paint_t *remap(remap_t *r, const ct_paint_t *p, unsigned depth) {
  ct_paint_t *q;
  unsigned i;
  if (!p || depth > CT_MAX_PAINT_DEPTH) {
    r->bad = 1;
    return NULL;
  }
  if (p->ref > 1)
    for (i = 0; i < r->nmemo; i++)
      if (r->from[i] == p) return ct_paint_reference(r->to[i]);
  if (!(q = remap_node(r, p, depth))) return NULL;
  if (p->ref > 1 && r->nmemo < 4096) {
    if (r->nmemo == r->cap) {
      unsigned cap = r->cap ? r->cap * 2 : 16;
      const ct_paint_t **f = realloc(r->from, cap * sizeof *f);
      ct_paint_t **t;
      if (f) r->from = f;
      if (!f || !(t = realloc(r->to, cap * sizeof *t))) return q;   /* not kept: still right */
      r->to = t;
      r->cap = cap;
    }
    r->from[r->nmemo] = p;
    r->to[r->nmemo++] = q;
  }
  return q;
}

/* ---- the builder --------------------------------------------------------------------- */

static void warn_file(void (*warn)(void *, const char *), void *data, const char *name, const char *msg) {
  char buf[1024];
  size_t n = strlen(name);
  if (!warn || !*msg) return;
  if (strncmp(msg, name, n) == 0 && msg[n] == ':') snprintf(buf, sizeof buf, "%s", msg);
  else snprintf(buf, sizeof buf, "%s: %s", name, msg);
  warn(data, buf);
}

/* A skin-tone, tag or emoji-presentation sequence (its second character U+1F3FB..U+1F3FF, a
   tag or U+FE0F) whose base has no drawing of its own: Firefox (153) then draws the whole
   sequence from a color emoji font that has the base (other ZWJ sequences, flags and keycaps
   it takes from this font all the same), so that is said, once a base. */
static void warn_bases(const ct_artfont_t *f, const ct_artwork_source_t *src, unsigned n,
                       void (*warn)(void *, const char *), void *data) {
  uint32_t key[64], said[16];
  unsigned i, k, nsaid = 0;
  char buf[400];
  for (i = 0; i < n && warn && nsaid < 16; i++) {
    long g;
    if (src[i].ncodepoints > 64 || src[i].ncodepoints < 2 || source_key(&src[i], key) < 2) continue;
    if (!((key[1] >= 0x1F3FB && key[1] <= 0x1F3FF) || (key[1] >= 0xE0020 && key[1] <= 0xE007F) ||
          src[i].codepoints[1] == 0xFE0F))   /* the key leaves selectors out */
      continue;
    if ((g = cmap_gid(f, key[0])) >= 1 && g <= (long)n) continue;   /* drawn */
    for (k = 0; k < nsaid && said[k] != key[0]; k++) {}
    if (k < nsaid) continue;
    said[nsaid++] = key[0];
    snprintf(buf, sizeof buf, "%s: U+%04X has no drawing of its own: Firefox draws this sequence with another font "
             "(add a file for U+%04X)", src[i].name ? src[i].name : "<artwork>", (unsigned)key[0], (unsigned)key[0]);
    warn(data, buf);
  }
}

static ct_status_t check_options(const ct_artwork_font_options_t *o, ct_error_t *err) {
  if (o->upem < 16 || o->upem > 16384)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "upem %u: 16 to 16384 expected", o->upem);
  if (!(o->ascent > o->descent) || fabs(o->ascent) > 32767 || fabs(o->descent) > 32767)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "ascent %g and descent %g: the ascent must be above the descent "
                        "(descent below the baseline is negative), both within +-32767", o->ascent, o->descent);
  if (!(o->advance >= 0 && o->advance <= 65535))
    return ct_set_error(err, CT_ERR_INVALID_ARG, "advance %g: 0 to 65535 expected", o->advance);
  return CT_OK;
}

/* The lead's glyphs: .notdef, the drawings', the placeholders, the outlines (their glyph
   ids in gids[i][k]). */
static ct_status_t glyph_set(ct_artfont_t *f, const ct_artwork_source_t *src, const ct_artwork_t *arts, unsigned n,
                             unsigned **gids, ct_error_t *err) {
  dedup_t d;
  unsigned cap = 0, i, k;
  ct_glyf_stats_t empty;
  ct_status_t st = CT_OK;
  memset(&d, 0, sizeof d);
  memset(&empty, 0, sizeof empty);
  empty.empty = 1;
  if (!grow(f, &cap)) goto nomem;
  f->loca[0] = 0;
  if (!add_notdef(f)) goto nomem;
  for (i = 0; i < n; i++) {
    char *name = src[i].glyph_name ? dup_str(src[i].glyph_name) : cp_name(src[i].codepoints, src[i].ncodepoints);
    if (!name || !grow(f, &cap)) {
      free(name);
      goto nomem;
    }
    if (!add_glyph(f, &empty, (int)lround(arts[i].advance), name, CT_ART_CLASS_BASE)) goto nomem;
  }
  if ((st = map_characters(f, src, n, &cap, err))) goto done;
  for (i = 0; i < n; i++) {
    if (!(gids[i] = malloc(((size_t)arts[i].count + 1) * sizeof **gids))) goto nomem;
    for (k = 0; k < arts[i].count; k++) {
      long g = outline_gid(f, &d, &cap, &arts[i].outlines[k], src[i].name ? src[i].name : "<artwork>", err);
      if (g < 0) {
        st = err ? err->status : CT_ERR_NOMEM;
        goto done;
      }
      gids[i][k] = (unsigned)g;
    }
  }
  st = unique_names(f, err);
  goto done;
nomem:
  st = ct_set_error(err, CT_ERR_NOMEM, "out of memory");
done:
  ct_buf_free(&d.tmp);
  free(d.at);
  free(d.len);
  free(d.gid);
  return st;
}

ct_font_builder_t *ct_artfont_build(const ct_artwork_source_t *src, const ct_artwork_t *arts, unsigned n,
                                    const ct_artwork_font_options_t *o, void (*warn)(void *data, const char *msg),
                                    void *warn_data, ct_error_t *err) {
  ct_artwork_font_options_t defaults;
  ct_artfont_t f;
  ct_buf_t bytes = { 0 };
  ct_font_t *lead = NULL;
  ct_font_builder_t *b = NULL;
  unsigned **gids = NULL, i;
  ct_paint_t **trees = NULL;
  remap_t r;
  memset(&f, 0, sizeof f);
  memset(&r, 0, sizeof r);
  if (!o) {
    ct_artwork_font_options_init(&defaults);
    o = &defaults;
  }
  if (n == 0) {
    ct_set_error(err, CT_ERR_INVALID_ARG, "no artwork to make a font of");
    return NULL;
  }
  if (n >= CT_MAX_WRITTEN_GLYPHS) {
    ct_set_error(err, CT_ERR_LIMIT, "%u drawings: the font would have more than %u glyphs", n, CT_MAX_WRITTEN_GLYPHS);
    return NULL;
  }
  if (check_options(o, err) || check_sources(src, n, err)) return NULL;
  f.upem = o->upem;
  f.ascent = o->ascent;
  f.descent = o->descent;
  if (!(gids = calloc(n, sizeof *gids))) {
    ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    return NULL;
  }
  if (glyph_set(&f, src, arts, n, gids, err) || ct_artfont_write(&f, &bytes, err)) goto done;
  warn_bases(&f, src, n, warn, warn_data);
  if (!(lead = ct_font_create_from_data(bytes.p, bytes.len, 0, "<artwork>", err))) goto done;
  if (!(b = ct_font_builder_create(lead, err))) goto done;
  if (!(trees = calloc(n, sizeof *trees))) {
    ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    goto fail;
  }
  /* the trees on the lead's glyphs and the palette's entries, then the palette, then
     the glyphs (which must find their entries in it) */
  for (i = 0; i < n; i++) {
    const char *name = src[i].name ? src[i].name : "<artwork>";
    warn_file(warn, warn_data, name, arts[i].warning);
    if (!arts[i].tree) continue;
    r.map = gids[i];
    r.nmap = arts[i].count;
    r.nmemo = 0;
    r.bad = 0;
    if (!(trees[i] = remap(&r, arts[i].tree, 0))) {
      ct_set_error(err, r.bad == 1 ? CT_ERR_INVALID_ARG : r.bad ? CT_ERR_LIMIT : CT_ERR_NOMEM, "%s: %s", name,
                   r.bad == 1 ? "a paint tree with a glyph node beyond its outlines, or too deep"
                   : r.bad ? "the drawings have more than 65535 colors (CPAL's limit)" : "out of memory");
      goto fail;
    }
  }
  if (r.colors.n && ct_font_builder_set_palettes(b, r.colors.n, 1, r.colors.v, err)) goto fail;
  for (i = 0; i < n; i++)
    if (trees[i] && ct_font_builder_set_glyph(b, i + 1, trees[i], err)) goto fail;
  goto done;
fail:
  ct_font_builder_destroy(b);
  b = NULL;
done:
  for (i = 0; i < n; i++) {
    free(gids[i]);
    if (trees) ct_paint_destroy(trees[i]);
  }
  free(trees);
  free(gids);
  free(r.from);
  free(r.to);
  free(r.colors.v);
  free(r.colors.key);
  free(r.colors.hash);
  ct_font_destroy(lead);
  ct_buf_free(&bytes);
  artfont_free(&f);
  return b;
}

/* ---- reading the drawings ------------------------------------------------------------ */

typedef struct {
  const ct_artwork_source_t *src;
  ct_artwork_options_t       opts;
  ct_artwork_t              *arts;
  ct_error_t                *errs;
  ct_status_t               *status;
} read_t;

static void read_one(void *arg, unsigned job, unsigned worker) {
  read_t *r = arg;
  const ct_artwork_source_t *s = &r->src[job];
  (void)worker;
  r->status[job] = ct_artwork_read(s->name ? s->name : "<artwork>", s->data, s->len, &r->opts, &r->arts[job],
                                   &r->errs[job]);
}

ct_font_builder_t *ct_font_builder_create_from_artwork(const ct_artwork_source_t *src, unsigned n,
                                                       const ct_artwork_font_options_t *o,
                                                       void (*warn)(void *data, const char *msg),
                                                       void *warn_data, ct_error_t *err) {
  ct_artwork_font_options_t defaults;
  ct_artwork_source_t *okay = NULL;
  ct_artwork_t *kept = NULL;
  ct_font_builder_t *b = NULL;
  read_t r;
  unsigned i, m = 0, threads;
  char msg[700];
  memset(&r, 0, sizeof r);
  if (!o) {
    ct_artwork_font_options_init(&defaults);
    o = &defaults;
  }
  if (n == 0) {
    ct_set_error(err, CT_ERR_INVALID_ARG, "no artwork to make a font of");
    return NULL;
  }
  if (n >= CT_MAX_WRITTEN_GLYPHS) {
    ct_set_error(err, CT_ERR_LIMIT, "%u drawings: the font would have more than %u glyphs", n, CT_MAX_WRITTEN_GLYPHS);
    return NULL;
  }
  if (check_options(o, err) || check_sources(src, n, err)) return NULL;
  r.src = src;
  ct_artwork_options_init(&r.opts);
  r.opts.upem = o->upem;
  r.opts.ascent = o->ascent;
  r.opts.descent = o->descent;
  r.opts.advance = o->advance;
  r.opts.flat_only = o->flat_only;
  r.opts.flatten_gradients = o->flatten_gradients;
  r.arts = calloc(n, sizeof *r.arts);
  r.errs = calloc(n, sizeof *r.errs);
  r.status = calloc(n, sizeof *r.status);
  okay = calloc(n, sizeof *okay);
  kept = calloc(n, sizeof *kept);
  if (!r.arts || !r.errs || !r.status || !okay || !kept) {
    ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    goto done;
  }
  threads = o->threads ? o->threads : ct_get_threads();
  ct_parallel_for(n, threads > CT_MAX_THREADS ? CT_MAX_THREADS : threads, read_one, &r);
  for (i = 0; i < n; i++) {
    const char *name = src[i].name ? src[i].name : "<artwork>";
    if (r.status[i] == CT_OK) {
      okay[m] = src[i];
      kept[m++] = r.arts[i];
      continue;
    }
    if (!o->keep_going || r.status[i] == CT_ERR_NOMEM) {
      ct_set_error(err, r.status[i], "%s", r.errs[i].message[0] ? r.errs[i].message : ct_status_string(r.status[i]));
      goto done;
    }
    if (warn) {
      const char *why = r.errs[i].message[0] ? r.errs[i].message : ct_status_string(r.status[i]);
      size_t k = strlen(name);
      if (strncmp(why, name, k) == 0 && why[k] == ':') why += k + 1 + (why[k + 1] == ' ');
      snprintf(msg, sizeof msg, "%s: skipped: %s", name, why);
      warn(warn_data, msg);
    }
  }
  if (m == 0) {
    ct_set_error(err, CT_ERR_INVALID_IMAGE, "no drawing could be read (%u files, each skipped)", n);
    goto done;
  }
  b = ct_artfont_build(okay, kept, m, o, warn, warn_data, err);
done:
  for (i = 0; i < n && r.arts; i++) ct_artwork_free(&r.arts[i]);
  free(r.arts);
  free(r.errs);
  free(r.status);
  free(okay);
  free(kept);
  return b;
}
