/*
** fontbuild-glyphs.c: the glyph set of a written font: the lead's glyphs at their ids, then
** those the color glyphs ask for (other fonts' outlines, transformed ones, clip boxes) and the
** CPAL entries they add.  Font builder, core layer; knows no table but glyf/loca/hmtx records.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fontbuild.h"

static int grow_glyphs(ct_build_t *s) {
  if (s->count + 1 >= s->cap) {
    unsigned cap = s->cap ? s->cap * 2 : 1024;
    size_t *l = realloc(s->loca, (cap + 1) * sizeof *l);
    int *a, *ls;
    char **n;
    if (l) s->loca = l;
    a = l ? realloc(s->advance, cap * sizeof *a) : NULL;
    if (a) s->advance = a;
    ls = a ? realloc(s->lsb, cap * sizeof *ls) : NULL;
    if (ls) s->lsb = ls;
    n = ls ? realloc(s->gnames, cap * sizeof *n) : NULL;
    if (!n) return 0;
    s->gnames = n;
    s->cap = cap;
  }
  return 1;
}

static void note_stats(ct_build_t *s, const ct_glyf_stats_t *st) {
  if (st->points > s->max.points) s->max.points = st->points;
  if (st->contours > s->max.contours) s->max.contours = st->contours;
  if (st->empty) return;
  if (!s->have_box || st->xmin < s->max.xmin) s->max.xmin = st->xmin;
  if (!s->have_box || st->ymin < s->max.ymin) s->max.ymin = st->ymin;
  if (!s->have_box || st->xmax > s->max.xmax) s->max.xmax = st->xmax;
  if (!s->have_box || st->ymax > s->max.ymax) s->max.ymax = st->ymax;
  s->have_box = 1;
}

/* A glyph name for post: [A-Za-z0-9._] only, at most 63 bytes. */
static char *clean_name(const char *base, const char *suffix) {
  char buf[64];
  size_t n = 0;
  const char *p;
  for (p = base; *p && n < 40; p++)
    buf[n++] = ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                *p == '.' || *p == '_') ? *p : '_';
  buf[n] = '\0';
  if (suffix) snprintf(buf + n, sizeof buf - n, "%s", suffix);
  return ct_build_dup(buf);
}

/* A lead glyph's name as it is when post can hold it (printable ASCII, at most 63
   bytes), else cleaned. */
static char *post_name(const char *name) {
  const char *p;
  size_t n = strlen(name);
  for (p = name; *p; p++)
    if (*p <= 32 || *p >= 127) break;
  return *p || n == 0 || n > 63 ? clean_name(name, NULL) : ct_build_dup(name);
}

/* Ends glyph s->count (its bytes already in glyf). */
static int finish_glyph(ct_build_t *s, const ct_glyf_stats_t *st, int advance, int lsb, char *name) {
  note_stats(s, st);
  s->advance[s->count] = advance;
  s->lsb[s->count] = st->empty ? 0 : lsb;
  s->gnames[s->count] = name;
  s->count++;
  s->loca[s->count] = s->glyf.len;
  return !s->glyf.failed;
}

/* Loads glyph `gid` of `font` as an outline in font units; returns the scale of its
   coordinates, or 0 if it has none. */
static double load_outline(ct_font_t *font, unsigned gid) {
  FT_Int32 flags = FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP | FT_LOAD_IGNORE_TRANSFORM;
  if (!font->ft_scaled) flags |= FT_LOAD_NO_SCALE;
  if (FT_Load_Glyph(font->ft_face, gid, flags)) return 0;
  if (font->ft_face->glyph->format != FT_GLYPH_FORMAT_OUTLINE) return 0;
  return font->ft_scaled ? 1.0 / 64.0 : 1.0;
}

/* Appends glyph `gid` of `font` mapped by m (NULL: as it is), converted from FreeType. */
static int add_converted(ct_build_t *s, ct_font_t *font, unsigned gid, const double *m, const char *suffix) {
  static const double identity[6] = { 1, 0, 0, 1, 0, 0 };
  ct_glyf_stats_t st;
  double scale;
  char name[128] = "";
  if (s->count >= CT_MAX_WRITTEN_GLYPHS) {
    ct_set_error(s->err, CT_ERR_LIMIT, "the font would have more than %u glyphs", CT_MAX_WRITTEN_GLYPHS);
    return 0;
  }
  if (!grow_glyphs(s)) goto nomem;
  scale = load_outline(font, gid);
  if (scale > 0) {
    if (!ct_glyf_encode(&s->glyf, &font->ft_face->glyph->outline, scale, m ? m : identity, &st)) {
      ct_font_get_glyph_name(font, gid, name, sizeof name);
      ct_set_error(s->err, CT_ERR_LIMIT, "%s: glyph %u%s%s%s: outline too large for a TrueType glyph "
                   "(over 65535 points or off the 16-bit coordinate range)", ct_font_get_path(font), gid,
                   *name ? " ('" : "", name, *name ? "')" : "");
      return 0;
    }
  } else {
    memset(&st, 0, sizeof st);
    st.empty = 1;
  }
  if (!ct_font_get_glyph_name(font, gid, name, sizeof name)) snprintf(name, sizeof name, "glyph%u", gid);
  {
    char *gname = suffix ? clean_name(name, suffix) : post_name(name);
    double adv = ct_font_get_glyph_advance(font, gid);
    if (!gname) goto nomem;
    if (m) adv = adv * m[0];
    if (finish_glyph(s, &st, (int)lround(fmax(0, fmin(65535, adv))), st.xmin, gname)) return 1;
  }
nomem:
  ct_set_error(s->err, CT_ERR_NOMEM, "out of memory");
  return 0;
}

static uint64_t key_hash(const ct_glyph_key_t *k) {
  uint64_t h = (uint64_t)(uintptr_t)k->font * 0x9E3779B97F4A7C15ull ^ k->gid;
  unsigned i;
  for (i = 0; i < 6 && k->has_m; i++) {
    uint64_t bits;
    double v = k->m[i] + 0.0;
    memcpy(&bits, &v, sizeof bits);
    h = (h ^ bits) * 0x100000001B3ull;
  }
  return h ^ (h >> 29);
}

static int key_eq(const ct_glyph_key_t *a, const ct_glyph_key_t *b) {
  return a->font == b->font && a->gid == b->gid && a->has_m == b->has_m &&
         (!a->has_m || memcmp(a->m, b->m, sizeof a->m) == 0);
}

static int rehash(ct_build_t *s) {
  unsigned cap = s->hash_cap ? s->hash_cap * 2 : 1024, i;
  unsigned *h = calloc(cap, sizeof *h);
  if (!h) return 0;
  for (i = 0; i < s->nkeys; i++) {
    unsigned j = (unsigned)(key_hash(&s->keys[i]) & (cap - 1));
    while (h[j]) j = (j + 1) & (cap - 1);
    h[j] = i + 1;
  }
  free(s->key_hash);
  s->key_hash = h;
  s->hash_cap = cap;
  return 1;
}

/* The output glyph of a key, added the first time it is asked for. */
static long glyph_for(ct_build_t *s, ct_glyph_key_t *k) {
  unsigned j;
  char suffix[32];
  if (s->nkeys * 2 >= s->hash_cap && !rehash(s)) goto nomem;
  j = (unsigned)(key_hash(k) & (s->hash_cap - 1));
  while (s->key_hash[j]) {
    if (key_eq(&s->keys[s->key_hash[j] - 1], k)) return s->keys[s->key_hash[j] - 1].out;
    j = (j + 1) & (s->hash_cap - 1);
  }
  if (s->nkeys == s->keys_cap) {
    unsigned cap = s->keys_cap ? s->keys_cap * 2 : 256;
    ct_glyph_key_t *nk = realloc(s->keys, cap * sizeof *nk);
    if (!nk) goto nomem;
    s->keys = nk;
    s->keys_cap = cap;
  }
  k->out = s->count;
  snprintf(suffix, sizeof suffix, ".c%u", s->nkeys + 1);
  if (k->font) {
    if (!add_converted(s, k->font, k->gid, k->has_m ? k->m : NULL, suffix)) goto failed;
  } else {
    ct_glyf_stats_t st;
    char *name;
    if (s->count >= CT_MAX_WRITTEN_GLYPHS || !grow_glyphs(s)) goto nomem;
    ct_glyf_encode_rect(&s->glyf, k->m[0], k->m[1], k->m[2], k->m[3], &st);
    snprintf(suffix, sizeof suffix, "clip.c%u", s->nkeys + 1);
    if (!(name = ct_build_dup(suffix)) || !finish_glyph(s, &st, 0, st.xmin, name)) goto nomem;
  }
  s->keys[s->nkeys++] = *k;
  s->key_hash[j] = s->nkeys;
  return k->out;
nomem:
  ct_set_error(s->err, CT_ERR_NOMEM, "out of memory");
failed:
  snprintf(s->sink.why, sizeof s->sink.why, "%s", s->err ? s->err->message : "out of memory");
  return -1;
}

static long sink_glyph(void *data, ct_font_t *font, unsigned gid, const double *m) {
  ct_build_t *s = data;
  ct_glyph_key_t k;
  ct_font_t *lead = s->b->lead;
  if (gid >= font->glyph_count) {
    snprintf(s->sink.why, sizeof s->sink.why, "it paints glyph %u, and %s has %u glyphs", gid, ct_font_get_path(font),
             font->glyph_count);
    return -1;
  }
  if (font == lead && !m) return (long)gid;
  if (font->upem != lead->upem) {
    ct_error_t e;
    ct_set_error(&e, CT_ERR_INVALID_ARG, "%s has %u units per em and the lead font %s has %u: "
                 "layers must share one em (scale one of them first, e.g. fontTools' scaleUpem)",
                 ct_font_get_path(font), font->upem, ct_font_get_path(lead), lead->upem);
    snprintf(s->sink.why, sizeof s->sink.why, "%s", e.message);
    return -1;
  }
  memset(&k, 0, sizeof k);
  k.font = font;
  k.gid = gid;
  if (m) {
    memcpy(k.m, m, sizeof k.m);
    k.has_m = 1;
  }
  return glyph_for(s, &k);
}

static long sink_rect(void *data, double x0, double y0, double x1, double y1) {
  ct_build_t *s = data;
  ct_glyph_key_t k;
  memset(&k, 0, sizeof k);
  k.gid = ~0u;
  k.m[0] = fmin(x0, x1);
  k.m[1] = fmin(y0, y1);
  k.m[2] = fmax(x0, x1);
  k.m[3] = fmax(y0, y1);
  k.has_m = 1;
  return glyph_for(s, &k);
}

static uint64_t extra_key(int kind, unsigned index, double alpha, const ct_rgba_t *c) {
  const double v[5] = { alpha + 0.0, c->r, c->g, c->b, c->a };   /* -0 alpha equals 0 */
  uint64_t h = (uint64_t)kind * 0x9E3779B97F4A7C15ull ^ index, bits;
  unsigned i;
  for (i = 0; i < 5; i++) {
    memcpy(&bits, &v[i], sizeof bits);
    h = (h ^ bits) * 0x100000001B3ull;
  }
  return h ^ (h >> 29);
}

static int extra_eq(const ct_build_t *s, unsigned i, int kind, unsigned index, double alpha, const ct_rgba_t *c) {
  return s->extra_src[i].kind == kind && s->extra_src[i].index == index && s->extra_src[i].alpha == alpha &&
         memcmp(&s->extra_src[i].rgba, c, sizeof *c) == 0;
}

static int extra_rehash(ct_build_t *s) {
  unsigned cap = s->extra_hash_cap ? s->extra_hash_cap * 2 : 64, i;
  unsigned *h = calloc(cap, sizeof *h);
  if (!h) return 0;
  for (i = 0; i < s->nextra; i++) {
    unsigned j = (unsigned)(extra_key(s->extra_src[i].kind, s->extra_src[i].index, s->extra_src[i].alpha,
                                      &s->extra_src[i].rgba) & (cap - 1));
    while (h[j]) j = (j + 1) & (cap - 1);
    h[j] = i + 1;
  }
  free(s->extra_hash);
  s->extra_hash = h;
  s->extra_hash_cap = cap;
  return 1;
}

/* CPAL entries beyond the palettes: an explicit color, or a palette entry at an alpha
   (COLRv0 has no alpha of its own).  Found by hash: thousands of colors, tens of
   thousands of lookups. */
static long extra_entry(ct_build_t *s, int kind, unsigned index, double alpha, ct_rgba_t rgba) {
  ct_font_builder_t *b = s->b;
  unsigned p, j, np = b->npalettes ? b->npalettes : 1;
  if (s->nextra * 2 >= s->extra_hash_cap && !extra_rehash(s)) {
    snprintf(s->sink.why, sizeof s->sink.why, "out of memory");
    return -1;
  }
  j = (unsigned)(extra_key(kind, index, alpha, &rgba) & (s->extra_hash_cap - 1));
  for (; s->extra_hash[j]; j = (j + 1) & (s->extra_hash_cap - 1))
    if (extra_eq(s, s->extra_hash[j] - 1, kind, index, alpha, &rgba)) return b->entries + s->extra_hash[j] - 1;
  if (b->entries + s->nextra >= 0xFFFF || (size_t)(b->entries + s->nextra + 1) * np > 0xFFFF) {
    snprintf(s->sink.why, sizeof s->sink.why, "more colors than CPAL can hold (65535 across the palettes)");
    return -1;
  }
  if (s->nextra == s->extra_cap) {
    unsigned cap = s->extra_cap ? s->extra_cap * 2 : 16;
    void *src = realloc(s->extra_src, cap * sizeof *s->extra_src);
    ct_rgba_t *e;
    if (src) s->extra_src = src;
    e = src ? realloc(s->extra, (size_t)cap * np * sizeof *e) : NULL;
    if (!e) {
      snprintf(s->sink.why, sizeof s->sink.why, "out of memory");
      return -1;
    }
    s->extra = e;
    s->extra_cap = cap;
  }
  s->extra_src[s->nextra].kind = kind;
  s->extra_src[s->nextra].index = index;
  s->extra_src[s->nextra].alpha = alpha;
  s->extra_src[s->nextra].rgba = rgba;
  for (p = 0; p < np; p++) {   /* entry-major: extra[e * np + p] */
    ct_rgba_t c = kind == CT_COLOR_PALETTE ? b->colors[(size_t)p * b->entries + index] : rgba;
    c.a *= alpha;
    s->extra[(size_t)s->nextra * np + p] = c;
  }
  s->extra_hash[j] = s->nextra + 1;
  return b->entries + s->nextra++;
}

static long sink_color(void *data, const ct_color_t *c, int fold) {
  ct_build_t *s = data;
  ct_rgba_t none = { 0, 0, 0, 0 };
  switch (c->kind) {
  case CT_COLOR_FOREGROUND:
    return 0xFFFF;
  case CT_COLOR_PALETTE:
    if (c->index == 0xFFFF) return 0xFFFF;
    if (c->index >= s->b->entries) {
      snprintf(s->sink.why, sizeof s->sink.why, "palette entry %u is beyond the palettes' %u entries",
               c->index, s->b->entries);
      return -1;
    }
    if (!fold || c->alpha >= 1) return c->index;
    return extra_entry(s, CT_COLOR_PALETTE, c->index, c->alpha, none);
  case CT_COLOR_RGBA:
  default:
    return extra_entry(s, CT_COLOR_RGBA, 0, fold ? c->alpha : 1, c->rgba);
  }
}

int ct_build_start(ct_build_t *s, ct_font_builder_t *b, ct_error_t *err) {
  s->b = b;
  s->err = err;
  s->sink.data = s;
  s->sink.glyph = sink_glyph;
  s->sink.rect = sink_rect;
  s->sink.color = sink_color;
  if (!grow_glyphs(s)) return 0;
  s->loca[0] = 0;
  return 1;
}

void ct_build_free(ct_build_t *s) {
  unsigned i;
  ct_buf_free(&s->glyf);
  for (i = 0; i < s->count && s->gnames; i++) free(s->gnames[i]);
  free(s->gnames);
  free(s->loca);
  free(s->advance);
  free(s->lsb);
  free(s->keys);
  free(s->key_hash);
  free(s->extra);
  free(s->extra_src);
  free(s->extra_hash);
}

/* The lead's glyphs at their own ids: TrueType records copied (with their hinting), or
   every outline converted (CFF, CFF2, a variable font at its location). */
int ct_build_lead_glyphs(ct_build_t *s, int convert, ct_table_t *glyf, ct_table_t *loca, ct_table_t *hmtx,
                         unsigned nhm, int long_loca) {
  ct_font_t *lead = s->b->lead;
  unsigned g, n = lead->glyph_count;
  size_t a = 0, z = 0;
  char name[128];
  s->names = FT_HAS_GLYPH_NAMES(lead->ft_face) ? 1 : 0;
  for (g = 0; g < n; g++) {
    if (convert) {
      if (!add_converted(s, lead, g, NULL, NULL)) return 0;
      if (!s->names) {
        free(s->gnames[g]);
        s->gnames[g] = NULL;
      }
      continue;
    }
    {
      ct_glyf_stats_t st;
      int adv, lsb;
      char *gname = NULL;
      if (!grow_glyphs(s)) goto nomem;
      if (long_loca) {
        if ((size_t)(g + 2) * 4 > loca->len) goto bad;
        a = ct_rd32(loca->p + 4 * g);
        z = ct_rd32(loca->p + 4 * g + 4);
      } else {
        if ((size_t)(g + 2) * 2 > loca->len) goto bad;
        a = (size_t)ct_rd16(loca->p + 2 * g) * 2;
        z = (size_t)ct_rd16(loca->p + 2 * g + 2) * 2;
      }
      if (a > z || z > glyf->len) goto bad;
      ct_buf_bytes(&s->glyf, glyf->p + a, z - a);
      ct_buf_pad4(&s->glyf);
      ct_glyf_read_stats(glyf->p + a, z - a, &st);
      if (z == a) st.empty = 1;
      {
        unsigned i = g < nhm ? g : nhm - 1;
        adv = (size_t)i * 4 + 4 <= hmtx->len ? (int)ct_rd16(hmtx->p + 4 * i) : 0;
        if (g < nhm) lsb = (size_t)g * 4 + 4 <= hmtx->len ? ct_rds16(hmtx->p + 4 * g + 2) : 0;
        else {
          size_t o = (size_t)nhm * 4 + (size_t)(g - nhm) * 2;
          lsb = o + 2 <= hmtx->len ? ct_rds16(hmtx->p + o) : 0;
        }
      }
      if (s->names && ct_font_get_glyph_name(lead, g, name, sizeof name) && !(gname = post_name(name)))
        goto nomem;
      if (!finish_glyph(s, &st, adv, lsb, gname)) goto nomem;
      if (!st.empty) s->lsb[g] = lsb;
    }
  }
  return 1;
bad:
  ct_set_error(s->err, CT_ERR_INVALID_FONT, "%s: glyph %u: bad loca/glyf offsets", ct_font_get_path(lead), g);
  return 0;
nomem:
  ct_set_error(s->err, CT_ERR_NOMEM, "out of memory");
  return 0;
}

int ct_build_variant_glyphs(ct_build_t *s) {
  const ct_font_builder_t *b = s->b;
  unsigned j, k;
  char suffix[32];
  for (j = 0; j < b->nvbases; j++)
    for (k = 0; k < b->nvariants; k++) {
      snprintf(suffix, sizeof suffix, ".rand%u", k + 1);
      if (!add_converted(s, b->lead, b->vbase[j], NULL, suffix)) return 0;
    }
  return 1;
}
