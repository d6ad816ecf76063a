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

ct_status_t ct_build_gsub_variants(const ct_font_builder_t *b, ct_table_t *old, ct_buf_t *out, ct_error_t *err) {
  rd_t r = { old->p, old->p ? old->len : 0, 0 };
  unsigned nb = b->nvbases, nv = b->nvariants, i, j, k;
  unsigned *bases = NULL, *level = NULL, *order = NULL, *pos = NULL, n_old_feat = 0, n_old_look = 0, nscripts = 0, minor = 0;
  size_t sl = 0, fl = 0, ll = 0;
  ct_buf_t news = { 0 }, looks = { 0 }, *subs = NULL;
  size_t *look_at = NULL;
  unsigned nlook = 0;
  ct_status_t st = CT_OK;
  if (!nb || nv < 1) return ct_set_error(err, CT_ERR_INVALID_ARG, "internal error: no variants for GSUB");
  if (r.p) {
    minor = r16(&r, 2);
    sl = r16(&r, 4);
    fl = r16(&r, 6);
    ll = r16(&r, 8);
    if (r.bad) return ct_set_error(err, CT_ERR_INVALID_FONT, "%s: a truncated GSUB (%zu bytes)", ct_font_get_path(b->lead), r.len);
    if (r16(&r, 0) != 1 || minor > 1)
      return ct_set_error(err, CT_ERR_INVALID_FONT, "%s: a GSUB of an unknown version (%u.%u)", ct_font_get_path(b->lead),
                          r16(&r, 0), minor);
    nscripts = sl ? r16(&r, sl) : 0;
    n_old_feat = fl ? r16(&r, fl) : 0;
    n_old_look = ll ? r16(&r, ll) : 0;
    if (r.bad) return ct_set_error(err, CT_ERR_INVALID_FONT, "%s: a GSUB whose offsets point past its end", ct_font_get_path(b->lead));
  }
  /* the FeatureList in tag order (as the spec asks, and OTS checks), the two new features
     among the old: pos[i] the new index of old feature i, pos[n] calt's, pos[n + 1] rand's;
     a GSUB with FeatureVariations (which name old indices) keeps its order, the new ones last */
  order = malloc(((size_t)n_old_feat + 2) * sizeof *order);
  pos = malloc(((size_t)n_old_feat + 2) * sizeof *pos);
  if (!order || !pos) {
    st = ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    goto done;
  }
  {
    int keep_order = minor == 1 && r32(&r, 10) != 0;
    unsigned n = n_old_feat + 2, a, c;
    for (a = 0; a < n; a++) order[a] = a;
    for (a = 1; a < n && !keep_order; a++)   /* insertion sort: stable, the old order within a tag */
      for (c = a; c > 0 && feat_tag(&r, fl, n_old_feat, order[c - 1]) > feat_tag(&r, fl, n_old_feat, order[c]); c--) {
        unsigned x = order[c];
        order[c] = order[c - 1];
        order[c - 1] = x;
      }
    for (a = 0; a < n; a++) pos[order[a]] = a;
  }
  bases = malloc((nb + 1) * sizeof *bases);
  level = malloc((nb + 1) * sizeof *level);
  subs = calloc(nv + 2, sizeof *subs);
  look_at = calloc(nv + 4, sizeof *look_at);
  if (!bases || !level || !subs || !look_at) {
    st = ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    goto done;
  }
  for (i = 0; i < nb; i++) bases[i] = b->vbase[i];   /* ascending: set_variants keeps them so */

  /* the new lookups, indices n_old_look.. : the rotation, rand, then base -> variant k */
  {
    unsigned subst0 = n_old_look + 2;
    /* the rotation: a chain rule per level k = 0 .. nv-1: after a glyph of level k, a base
       becomes variant k + 1 (after the last variant it stays a base) */
    for (k = 0; k < nv; k++) {
      ct_buf_t *s = &subs[k];
      size_t c1, c2;
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
    look_at[nlook++] = looks.len;
    lookup(&looks, 6, subs, nv);
    for (k = 0; k < nv; k++) {
      ct_buf_free(&subs[k]);
      memset(&subs[k], 0, sizeof subs[k]);
    }
    /* rand: AlternateSubst, each base its variants */
    {
      ct_buf_t *s = &subs[0];
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
      look_at[nlook++] = looks.len;
      lookup(&looks, 3, s, 1);
      ct_buf_free(s);
      memset(s, 0, sizeof *s);
    }
    /* base -> variant k + 1, for k = 0 .. nv - 1 (after the last variant a base stays) */
    for (k = 0; k < nv; k++) {
      ct_buf_t *s = &subs[0];
      ct_buf_u16(s, 2);
      ct_buf_u16(s, 6 + 2 * nb);   /* coverage after the substitutes */
      ct_buf_u16(s, nb);
      for (j = 0; j < nb; j++) ct_buf_u16(s, b->vgid[(size_t)j * nv + k]);
      coverage(s, bases, nb);
      look_at[nlook++] = looks.len;
      lookup(&looks, 1, s, 1);
      ct_buf_free(s);
      memset(s, 0, sizeof *s);
    }
  }
  /* ScriptList: each script's LangSys with the two new features (indices n_old_feat,
     n_old_feat + 1); a font with no scripts gets DFLT */
  {
    size_t at;
    unsigned s, nsc = nscripts ? nscripts : 1;
    ct_buf_u16(&news, nsc);
    for (s = 0; s < nsc; s++) {
      ct_buf_u32(&news, nscripts ? r32(&r, sl + 2 + 6 * (size_t)s) : TAG('D', 'F', 'L', 'T'));
      ct_buf_u16(&news, 0);   /* patched */
    }
    for (s = 0; s < nsc; s++) {
      size_t so = nscripts ? sl + r16(&r, sl + 2 + 6 * (size_t)s + 4) : 0, script_at = news.len;
      unsigned def = nscripts ? r16(&r, so) : 0, nls = nscripts ? r16(&r, so + 2) : 0, l;
      ct_buf_put_u16(&news, 2 + 6 * (size_t)s + 4, (unsigned)script_at);
      ct_buf_u16(&news, 0);   /* default LangSys: patched */
      ct_buf_u16(&news, nls);
      for (l = 0; l < nls; l++) {
        ct_buf_u32(&news, r32(&r, so + 4 + 6 * (size_t)l));
        ct_buf_u16(&news, 0);
      }
      for (l = 0; l <= nls; l++) {   /* l == nls: the default */
        size_t lo;
        unsigned req = 0xFFFF, nf = 0, f;
        if (l == nls && nscripts && !def) continue;
        lo = l < nls ? so + r16(&r, so + 4 + 6 * (size_t)l + 4) : so + def;
        if (nscripts) {
          req = r16(&r, lo + 2);
          nf = r16(&r, lo + 4);
        }
        at = news.len;
        if (l < nls) ct_buf_put_u16(&news, script_at + 4 + 6 * (size_t)l + 4, (unsigned)(at - script_at));
        else ct_buf_put_u16(&news, script_at, (unsigned)(at - script_at));
        ct_buf_u16(&news, 0);
        ct_buf_u16(&news, req);
        ct_buf_u16(&news, nf + 2);
        if (req != 0xFFFF && req < n_old_feat) req = pos[req];
        ct_buf_put_u16(&news, news.len - 4, req);
        for (f = 0; f < nf; f++) {
          unsigned fi = r16(&r, lo + 6 + 2 * (size_t)f);
          ct_buf_u16(&news, fi < n_old_feat ? pos[fi] : fi);
        }
        ct_buf_u16(&news, pos[n_old_feat]);
        ct_buf_u16(&news, pos[n_old_feat + 1]);
      }
    }
  }
  if (r.bad) {
    st = ct_set_error(err, CT_ERR_INVALID_FONT, "%s: a truncated GSUB script list", ct_font_get_path(b->lead));
    goto done;
  }

  /* the table: header, ScriptList, FeatureList (+ the two new Feature tables), LookupList,
     the new lookups, the old GSUB */
  {
    size_t head = minor == 1 ? 14 : 10, sl2 = head, fl2 = sl2 + news.len;
    size_t feat_tables = fl2 + 2 + 6 * ((size_t)n_old_feat + 2);
    size_t calt_feat = feat_tables, rand_feat = calt_feat + 6;
    size_t ll2 = rand_feat + 6, new_looks = ll2 + 2 + 2 * ((size_t)n_old_look + 2 + nv);
    size_t old_at = new_looks + looks.len;
    unsigned f;
    if (old_at + (r.p ? r.len : 0) > 0xFFFF + ll2) {
      st = ct_set_error(err, CT_ERR_LIMIT, "%s: its GSUB is too large to add the variants' features to (over 64 KB)",
                        ct_font_get_path(b->lead));
      goto done;
    }
    ct_buf_u16(out, 1);
    ct_buf_u16(out, minor == 1 ? 1 : 0);
    ct_buf_u16(out, (unsigned)sl2);
    ct_buf_u16(out, (unsigned)fl2);
    ct_buf_u16(out, (unsigned)ll2);
    if (minor == 1) {
      uint32_t fv = r32(&r, 10);
      ct_buf_u32(out, fv ? (uint32_t)(old_at + fv) : 0);
    }
    ct_buf_bytes(out, news.p, news.len);
    ct_buf_u16(out, n_old_feat + 2);
    for (i = 0; i < n_old_feat + 2; i++) {
      f = order[i];
      if (f == n_old_feat) {
        ct_buf_u32(out, TAG('c', 'a', 'l', 't'));
        ct_buf_u16(out, (unsigned)(calt_feat - fl2));
      } else if (f == n_old_feat + 1) {
        ct_buf_u32(out, TAG('r', 'a', 'n', 'd'));
        ct_buf_u16(out, (unsigned)(rand_feat - fl2));
      } else {
        size_t target = old_at + fl + r16(&r, fl + 2 + 6 * (size_t)f + 4);
        ct_buf_u32(out, r32(&r, fl + 2 + 6 * (size_t)f));
        if (target - fl2 > 0xFFFF) goto too_big;
        ct_buf_u16(out, (unsigned)(target - fl2));
      }
    }
    ct_buf_u16(out, 0);   /* calt: no params, one lookup */
    ct_buf_u16(out, 1);
    ct_buf_u16(out, n_old_look);
    ct_buf_u16(out, 0);   /* rand */
    ct_buf_u16(out, 1);
    ct_buf_u16(out, n_old_look + 1);
    ct_buf_u16(out, n_old_look + nlook);
    for (i = 0; i < n_old_look; i++) {
      size_t target = old_at + ll + r16(&r, ll + 2 + 2 * (size_t)i);
      if (target - ll2 > 0xFFFF) goto too_big;
      ct_buf_u16(out, (unsigned)(target - ll2));
    }
    for (i = 0; i < nlook; i++) {
      size_t target = new_looks + look_at[i];
      if (target - ll2 > 0xFFFF) goto too_big;
      ct_buf_u16(out, (unsigned)(target - ll2));
    }
    ct_buf_bytes(out, looks.p, looks.len);
    if (r.p) ct_buf_bytes(out, r.p, r.len);
    if (r.bad || out->failed || looks.failed || news.failed) st = ct_set_error(err, CT_ERR_NOMEM, "out of memory (or a bad GSUB)");
  }
  goto done;
too_big:
  st = ct_set_error(err, CT_ERR_LIMIT, "%s: its GSUB is too large to add the variants' features to (over 64 KB)",
                    ct_font_get_path(b->lead));
done:
  if (subs)
    for (k = 0; k < nv + 2; k++) ct_buf_free(&subs[k]);
  free(subs);
  free(look_at);
  free(order);
  free(pos);
  free(bases);
  free(level);
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
