/*
** fontbuild-gsub.c: the lead's GSUB with the features of a randomized font added: `calt`, a
** rotation (each glyph of a run that follows variant k of a base becomes variant k + 1, the
** technique handwriting fonts use, so that repeated letters differ in every program that
** shapes with calt), and `rand` (each base's variants as alternates, for programs that
** pick them at random).  Font builder (fontbuild.h).
**
** The lead's GSUB is kept byte for byte at the end of the new table; new ScriptList (every
** LangSys with the two features added), FeatureList and LookupList come first and point
** into it (its lookups keep their indices, its FeatureVariations its feature indices), then
** the new lookups: the rotation's chain rules, rand's alternates, and the single
** substitutions the rules call.  Offset16 reach: the lead's GSUB and the new lookups must
** fit in about 64 KB.
*/
#include <stdlib.h>
#include <string.h>

#include "fontbuild.h"

#define TAG CT_TAG

typedef struct {
  const unsigned char *p;
  size_t               len;
  int                  bad;
} rd_t;

static unsigned r16(rd_t *r, size_t at) {
  if (at + 2 > r->len) { r->bad = 1; return 0; }
  return ct_rd16(r->p + at);
}

static uint32_t r32(rd_t *r, size_t at) {
  if (at + 4 > r->len) { r->bad = 1; return 0; }
  return ct_rd32(r->p + at);
}

/* A coverage table of `n` ascending glyph ids. */
static void coverage(ct_buf_t *b, const unsigned *g, unsigned n) {
  unsigned i;
  ct_buf_u16(b, 1);
  ct_buf_u16(b, n);
  for (i = 0; i < n; i++) ct_buf_u16(b, g[i]);
}

/* One lookup of type `type` over `nsub` subtables whose bytes (each self-contained,
   offsets from its own start) are sub[i]. */
static void lookup(ct_buf_t *b, unsigned type, ct_buf_t *sub, unsigned nsub) {
  size_t at = b->len, off = 6 + 2 * (size_t)nsub;
  unsigned i;
  ct_buf_u16(b, type);
  ct_buf_u16(b, 0);
  ct_buf_u16(b, nsub);
  for (i = 0; i < nsub; i++) {
    ct_buf_u16(b, (unsigned)off);
    off += sub[i].len;
  }
  for (i = 0; i < nsub; i++) ct_buf_bytes(b, sub[i].p, sub[i].len);
  if (b->len - at > 0xFFFF) b->failed = 1;
}

/* Feature i's tag: the old FeatureList's, then calt and rand. */
static uint32_t feat_tag(rd_t *r, size_t fl, unsigned n_old, unsigned i) {
  if (i == n_old) return TAG('c', 'a', 'l', 't');
  if (i == n_old + 1) return TAG('r', 'a', 'n', 'd');
  return r32(r, fl + 2 + 6 * (size_t)i);
}

/* The lead's GSUB being extended: its lists' places and counts, the new feature order. */
typedef struct {
  const ct_font_builder_t *b;
  rd_t                     r;
  unsigned                 minor, nscripts, nfeat, nlook;   /* the old table's */
  size_t                   sl, fl, ll;                      /* its lists' offsets */
  unsigned                *order, *pos;
} gsub_t;

static ct_status_t read_old(gsub_t *g, ct_error_t *err) {
  rd_t *r = &g->r;
  const char *path = ct_font_get_path(g->b->lead);
  if (!r->p) return CT_OK;
  g->minor = r16(r, 2);
  g->sl = r16(r, 4);
  g->fl = r16(r, 6);
  g->ll = r16(r, 8);
  if (r->bad) return ct_set_error(err, CT_ERR_INVALID_FONT, "%s: a truncated GSUB (%zu bytes)", path, r->len);
  if (r16(r, 0) != 1 || g->minor > 1)
    return ct_set_error(err, CT_ERR_INVALID_FONT, "%s: a GSUB of an unknown version (%u.%u)", path, r16(r, 0), g->minor);
  g->nscripts = g->sl ? r16(r, g->sl) : 0;
  g->nfeat = g->fl ? r16(r, g->fl) : 0;
  g->nlook = g->ll ? r16(r, g->ll) : 0;
  if (r->bad) return ct_set_error(err, CT_ERR_INVALID_FONT, "%s: a GSUB whose offsets point past its end", path);
  return CT_OK;
}

/* The FeatureList in tag order (as the spec asks, and OTS checks), the two new features
   among the old: pos[i] the new index of old feature i, pos[n] calt's, pos[n + 1] rand's;
   a GSUB with FeatureVariations (which name old indices) keeps its order, the new ones last. */
static int feature_order(gsub_t *g) {
  unsigned n = g->nfeat + 2, a, c;
  int keep_order = g->minor == 1 && r32(&g->r, 10) != 0;
  g->order = malloc(n * sizeof *g->order);
  g->pos = malloc(n * sizeof *g->pos);
  if (!g->order || !g->pos) return 0;
  for (a = 0; a < n; a++) g->order[a] = a;
  for (a = 1; a < n && !keep_order; a++)   /* insertion sort: stable, the old order within a tag */
    for (c = a; c > 0 && feat_tag(&g->r, g->fl, g->nfeat, g->order[c - 1]) > feat_tag(&g->r, g->fl, g->nfeat, g->order[c]);
         c--) {
      unsigned x = g->order[c];
      g->order[c] = g->order[c - 1];
      g->order[c - 1] = x;
    }
  for (a = 0; a < n; a++) g->pos[g->order[a]] = a;
  return 1;
}

/* The new lookups (indices from the old count on): the rotation, rand, then base -> variant
   k + 1 for each k; their places in `looks` in look_at.  0 when out of memory. */
static int new_lookups(gsub_t *g, ct_buf_t *looks, size_t *look_at) {
  const ct_font_builder_t *b = g->b;
  unsigned nb = b->nvbases, nv = b->nvariants, j, k, n = 0, subst0 = g->nlook + 2;
  const unsigned *bases = b->vbase;   /* ascending: add_variants keeps them so */
  unsigned *level = malloc((nb + 1) * sizeof *level);
  ct_buf_t *subs = calloc(nv + 1, sizeof *subs), *s;
  int ok = level && subs;
  /* the rotation: a chain rule per level k = 0 .. nv-1: after a glyph of level k, a base
     becomes variant k + 1 (after the last variant it stays a base) */
  for (k = 0; ok && k < nv; k++) {
    size_t c1, c2;
    s = &subs[k];
    for (j = 0; j < nb; j++) level[j] = k == 0 ? bases[j] : b->vgid[(size_t)j * nv + (k - 1)];
    ct_buf_u16(s, 3);
    ct_buf_u16(s, 1);      /* backtrack */
    ct_buf_u16(s, 0);      /* its coverage: patched */
    ct_buf_u16(s, 1);      /* input */
    ct_buf_u16(s, 0);
    ct_buf_u16(s, 0);      /* no lookahead */
    ct_buf_u16(s, 1);      /* one SequenceLookupRecord */
    ct_buf_u16(s, 0);
    ct_buf_u16(s, subst0 + k);
    c1 = s->len;
    coverage(s, level, nb);
    c2 = s->len;
    coverage(s, bases, nb);
    ct_buf_put_u16(s, 4, (unsigned)c1);
    ct_buf_put_u16(s, 8, (unsigned)c2);
  }
  if (ok) {
    look_at[n++] = looks->len;
    lookup(looks, 6, subs, nv);
  }
  for (k = 0; subs && k < nv; k++) ct_buf_free(&subs[k]);
  s = subs ? &subs[nv] : NULL;
  if (ok) {   /* rand: AlternateSubst, each base its variants */
    size_t cov_at;
    ct_buf_u16(s, 1);
    ct_buf_u16(s, 0);      /* coverage: patched */
    ct_buf_u16(s, nb);
    for (j = 0; j < nb; j++) ct_buf_u16(s, 0);   /* AlternateSet offsets: patched */
    for (j = 0; j < nb; j++) {
      ct_buf_put_u16(s, 6 + 2 * (size_t)j, (unsigned)s->len);
      ct_buf_u16(s, nv);
      for (k = 0; k < nv; k++) ct_buf_u16(s, b->vgid[(size_t)j * nv + k]);
    }
    cov_at = s->len;
    coverage(s, bases, nb);
    ct_buf_put_u16(s, 2, (unsigned)cov_at);
    look_at[n++] = looks->len;
    lookup(looks, 3, s, 1);
    ct_buf_free(s);
  }
  for (k = 0; ok && k < nv; k++) {   /* base -> variant k + 1 */
    memset(s, 0, sizeof *s);
    ct_buf_u16(s, 2);
    ct_buf_u16(s, 6 + 2 * nb);   /* coverage after the substitutes */
    ct_buf_u16(s, nb);
    for (j = 0; j < nb; j++) ct_buf_u16(s, b->vgid[(size_t)j * nv + k]);
    coverage(s, bases, nb);
    look_at[n++] = looks->len;
    lookup(looks, 1, s, 1);
    ct_buf_free(s);
  }
  free(level);
  free(subs);
  return ok && !looks->failed;
}

/* The ScriptList: each script's LangSys with the two new features; a font with no
   scripts gets DFLT.  Feature indices renumbered by pos. */
static void script_list(gsub_t *g, ct_buf_t *news) {
  rd_t *r = &g->r;
  unsigned s, nsc = g->nscripts ? g->nscripts : 1;
  ct_buf_u16(news, nsc);
  for (s = 0; s < nsc; s++) {
    ct_buf_u32(news, g->nscripts ? r32(r, g->sl + 2 + 6 * (size_t)s) : TAG('D', 'F', 'L', 'T'));
    ct_buf_u16(news, 0);   /* patched */
  }
  for (s = 0; s < nsc; s++) {
    size_t so = g->nscripts ? g->sl + r16(r, g->sl + 2 + 6 * (size_t)s + 4) : 0, script_at = news->len;
    unsigned def = g->nscripts ? r16(r, so) : 0, nls = g->nscripts ? r16(r, so + 2) : 0, l;
    ct_buf_put_u16(news, 2 + 6 * (size_t)s + 4, (unsigned)script_at);
    ct_buf_u16(news, 0);   /* default LangSys: patched */
    ct_buf_u16(news, nls);
    for (l = 0; l < nls; l++) {
      ct_buf_u32(news, r32(r, so + 4 + 6 * (size_t)l));
      ct_buf_u16(news, 0);
    }
    for (l = 0; l <= nls; l++) {   /* l == nls: the default */
      size_t lo, at;
      unsigned req = 0xFFFF, nf = 0, f;
      if (l == nls && g->nscripts && !def) continue;
      lo = l < nls ? so + r16(r, so + 4 + 6 * (size_t)l + 4) : so + def;
      if (g->nscripts) {
        req = r16(r, lo + 2);
        nf = r16(r, lo + 4);
      }
      at = news->len;
      if (l < nls) ct_buf_put_u16(news, script_at + 4 + 6 * (size_t)l + 4, (unsigned)(at - script_at));
      else ct_buf_put_u16(news, script_at, (unsigned)(at - script_at));
      ct_buf_u16(news, 0);
      ct_buf_u16(news, req != 0xFFFF && req < g->nfeat ? g->pos[req] : req);
      ct_buf_u16(news, nf + 2);
      for (f = 0; f < nf; f++) {
        unsigned fi = r16(r, lo + 6 + 2 * (size_t)f);
        ct_buf_u16(news, fi < g->nfeat ? g->pos[fi] : fi);
      }
      ct_buf_u16(news, g->pos[g->nfeat]);
      ct_buf_u16(news, g->pos[g->nfeat + 1]);
    }
  }
}

/* The table: header, ScriptList, FeatureList (+ the two new Feature tables), LookupList,
   the new lookups, the old GSUB.  0 when an Offset16 cannot reach. */
static int assemble(gsub_t *g, const ct_buf_t *news, const ct_buf_t *looks, const size_t *look_at, unsigned nnew,
                    ct_buf_t *out) {
  rd_t *r = &g->r;
  size_t head = g->minor == 1 ? 14 : 10, sl2 = head, fl2 = sl2 + news->len;
  size_t calt_feat = fl2 + 2 + 6 * ((size_t)g->nfeat + 2), rand_feat = calt_feat + 6;
  size_t ll2 = rand_feat + 6, new_looks = ll2 + 2 + 2 * ((size_t)g->nlook + nnew);
  size_t old_at = new_looks + looks->len;
  unsigned i, f;
  if (old_at + (r->p ? r->len : 0) > 0xFFFF + ll2) return 0;
  ct_buf_u16(out, 1);
  ct_buf_u16(out, g->minor == 1 ? 1 : 0);
  ct_buf_u16(out, (unsigned)sl2);
  ct_buf_u16(out, (unsigned)fl2);
  ct_buf_u16(out, (unsigned)ll2);
  if (g->minor == 1) {
    uint32_t fv = r32(r, 10);
    ct_buf_u32(out, fv ? (uint32_t)(old_at + fv) : 0);
  }
  ct_buf_bytes(out, news->p, news->len);
  ct_buf_u16(out, g->nfeat + 2);
  for (i = 0; i < g->nfeat + 2; i++) {
    f = g->order[i];
    if (f == g->nfeat) {
      ct_buf_u32(out, TAG('c', 'a', 'l', 't'));
      ct_buf_u16(out, (unsigned)(calt_feat - fl2));
    } else if (f == g->nfeat + 1) {
      ct_buf_u32(out, TAG('r', 'a', 'n', 'd'));
      ct_buf_u16(out, (unsigned)(rand_feat - fl2));
    } else {
      size_t target = old_at + g->fl + r16(r, g->fl + 2 + 6 * (size_t)f + 4);
      if (target - fl2 > 0xFFFF) return 0;
      ct_buf_u32(out, r32(r, g->fl + 2 + 6 * (size_t)f));
      ct_buf_u16(out, (unsigned)(target - fl2));
    }
  }
  ct_buf_u16(out, 0);   /* calt: no params, one lookup */
  ct_buf_u16(out, 1);
  ct_buf_u16(out, g->nlook);
  ct_buf_u16(out, 0);   /* rand */
  ct_buf_u16(out, 1);
  ct_buf_u16(out, g->nlook + 1);
  ct_buf_u16(out, g->nlook + nnew);
  for (i = 0; i < g->nlook; i++) {
    size_t target = old_at + g->ll + r16(r, g->ll + 2 + 2 * (size_t)i);
    if (target - ll2 > 0xFFFF) return 0;
    ct_buf_u16(out, (unsigned)(target - ll2));
  }
  for (i = 0; i < nnew; i++) {
    size_t target = new_looks + look_at[i];
    if (target - ll2 > 0xFFFF) return 0;
    ct_buf_u16(out, (unsigned)(target - ll2));
  }
  ct_buf_bytes(out, looks->p, looks->len);
  if (r->p) ct_buf_bytes(out, r->p, r->len);
  return 1;
}

ct_status_t ct_build_gsub_variants(const ct_font_builder_t *b, ct_table_t *old, ct_buf_t *out, ct_error_t *err) {
  gsub_t g;
  ct_buf_t news = { 0 }, looks = { 0 };
  size_t *look_at = NULL;
  unsigned nnew = b->nvariants + 2;
  ct_status_t st = CT_OK;
  memset(&g, 0, sizeof g);
  g.b = b;
  g.r.p = old->p;
  g.r.len = old->p ? old->len : 0;
  if (!b->nvbases || b->nvariants < 1) return ct_set_error(err, CT_ERR_INVALID_ARG, "internal error: no variants for GSUB");
  if ((st = read_old(&g, err))) return st;
  if (!feature_order(&g) || !(look_at = calloc(nnew + 1, sizeof *look_at)) || !new_lookups(&g, &looks, look_at)) {
    st = ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    goto done;
  }
  script_list(&g, &news);
  if (g.r.bad) {
    st = ct_set_error(err, CT_ERR_INVALID_FONT, "%s: a truncated GSUB script list", ct_font_get_path(b->lead));
    goto done;
  }
  if (!assemble(&g, &news, &looks, look_at, nnew, out))
    st = ct_set_error(err, CT_ERR_LIMIT, "%s: its GSUB is too large to add the variants' features to (over 64 KB)",
                      ct_font_get_path(b->lead));
  else if (g.r.bad || out->failed || news.failed)
    st = ct_set_error(err, CT_ERR_NOMEM, "out of memory (or a bad GSUB)");
done:
  free(look_at);
  free(g.order);
  free(g.pos);
  ct_buf_free(&news);
  ct_buf_free(&looks);
  return st;
}

/* ---- the variants ------------------------------------------------------------------- */

ct_status_t ct_font_builder_add_variants(ct_font_builder_t *b, unsigned base, ct_paint_t *const *trees,
                                         unsigned n, unsigned *first, ct_error_t *err) {
  unsigned k, id;
  ct_paint_t **t;
  if (b->naxes) return ct_set_error(err, CT_ERR_INVALID_ARG, "variants and effect axes do not go together (one or the other)");
  if (!b->nlead) b->nlead = b->ntrees;
  if (base >= b->nlead) return ct_set_error(err, CT_ERR_INVALID_ARG, "glyph %u: the lead font has %u glyphs", base, b->nlead);
  if (n == 0 || n > 64) return ct_set_error(err, CT_ERR_INVALID_ARG, "variants: 1 to 64 a glyph, got %u", n);
  if (b->nvbases && n != b->nvariants)
    return ct_set_error(err, CT_ERR_INVALID_ARG, "variants: every glyph has the same number (%u), got %u", b->nvariants, n);
  if (b->nvbases && base <= b->vbase[b->nvbases - 1])
    return ct_set_error(err, CT_ERR_INVALID_ARG, "variants: glyphs in ascending order (%u after %u)", base,
                        b->vbase[b->nvbases - 1]);
  for (k = 0; k < n; k++)
    if (!trees[k]) return ct_set_error(err, CT_ERR_INVALID_ARG, "variants of glyph %u: no tree for variant %u", base, k + 1);
  id = b->ntrees;
  if ((size_t)id + n > CT_MAX_WRITTEN_GLYPHS)
    return ct_set_error(err, CT_ERR_LIMIT, "the font would have more than %u glyphs", CT_MAX_WRITTEN_GLYPHS);
  if (b->nvbases == b->vbase_cap) {
    unsigned cap = b->vbase_cap ? b->vbase_cap * 2 : 64, *vb = realloc(b->vbase, cap * sizeof *vb);
    unsigned *vg = vb ? realloc(b->vgid, (size_t)cap * n * sizeof *vg) : NULL;
    if (vb) b->vbase = vb;
    if (!vb || !vg) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    b->vgid = vg;
    b->vbase_cap = cap;
  }
  if (!(t = realloc(b->trees, ((size_t)id + n + 1) * sizeof *t))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  b->trees = t;
  for (k = 0; k < n; k++) {
    b->trees[id + k] = ct_paint_reference(trees[k]);
    b->vgid[(size_t)b->nvbases * n + k] = id + k;
  }
  b->ntrees = id + n;
  b->nvariants = n;
  b->vbase[b->nvbases++] = base;
  if (first) *first = id;
  return CT_OK;
}
