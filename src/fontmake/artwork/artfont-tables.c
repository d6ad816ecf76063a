/*
** artfont-tables.c: the plain TrueType font of artfont.c's glyph set, the lead of a font
** made from artwork: head, hhea, maxp, OS/2 (version 4, typo metrics used), hmtx, cmap
** (formats 4 and 12), post (format 2), a placeholder name, glyf/loca, GDEF (glyph classes)
** and GSUB (the sequences as ligatures of 'ccmp').  Fontmake stage.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "artfont.h"

#define TAG CT_TAG

static unsigned s16(double v) {
  long x = lround(v);
  if (x < -32768) x = -32768;
  if (x > 32767) x = 32767;
  return (unsigned)(x & 0xFFFF);
}

/* A LONGDATETIME (seconds since 1904): SOURCE_DATE_EPOCH when set, as reproducible builds
   ask (the same sources then give the same bytes), else now. */
static void write_date(ct_buf_t *b) {
  const char *e = getenv("SOURCE_DATE_EPOCH");
  char *end = NULL;
  long long t = e && *e ? strtoll(e, &end, 10) : -1;
  unsigned long long v;
  if (!e || !*e || *end || t < 0) t = (long long)time(NULL);
  v = (unsigned long long)t + 2082844800ull;   /* 1904-01-01 to 1970-01-01 */
  ct_buf_u32(b, (unsigned)(v >> 32));
  ct_buf_u32(b, (unsigned)(v & 0xFFFFFFFFu));
}

static void write_head(const ct_artfont_t *f, ct_buf_t *b) {
  ct_buf_u32(b, 0x00010000u);   /* version */
  ct_buf_u32(b, 0x00010000u);   /* fontRevision */
  ct_buf_u32(b, 0);             /* checkSumAdjustment: ct_sfnt_assemble's */
  ct_buf_u32(b, 0x5F0F3CF5u);
  ct_buf_u16(b, 0x000B);        /* baseline at 0, lsb at x = xMin, integer scaling */
  ct_buf_u16(b, f->upem);
  write_date(b);                /* created */
  write_date(b);                /* modified */
  ct_buf_u16(b, s16(f->max.xmin));
  ct_buf_u16(b, s16(f->max.ymin));
  ct_buf_u16(b, s16(f->max.xmax));
  ct_buf_u16(b, s16(f->max.ymax));
  ct_buf_u16(b, 0);             /* macStyle */
  ct_buf_u16(b, 8);             /* lowestRecPPEM */
  ct_buf_u16(b, 2);             /* fontDirectionHint */
  ct_buf_u16(b, 1);             /* long loca */
  ct_buf_u16(b, 0);
}

/* hhea and hmtx (every glyph a long metric). */
static void write_hmtx(const ct_artfont_t *f, ct_buf_t *hh, ct_buf_t *hm) {
  unsigned g;
  int adv_max = 0, min_lsb = 0, min_rsb = 0, max_ext = 0, first = 1;
  for (g = 0; g < f->count; g++) {
    size_t len = f->loca[g + 1] - f->loca[g];
    ct_buf_u16(hm, (unsigned)f->advance[g]);
    ct_buf_u16(hm, s16(f->xmin[g]));
    if (f->advance[g] > adv_max) adv_max = f->advance[g];
    if (len >= 10) {
      int xmin = ct_rds16(f->glyf.p + f->loca[g] + 2), xmax = ct_rds16(f->glyf.p + f->loca[g] + 6);
      int rsb = f->advance[g] - xmax;
      if (first || xmin < min_lsb) min_lsb = xmin;
      if (first || rsb < min_rsb) min_rsb = rsb;
      if (first || xmax > max_ext) max_ext = xmax;
      first = 0;
    }
  }
  ct_buf_u32(hh, 0x00010000u);
  ct_buf_u16(hh, s16(f->ascent));
  ct_buf_u16(hh, s16(f->descent));
  ct_buf_u16(hh, 0);            /* lineGap */
  ct_buf_u16(hh, (unsigned)adv_max);
  ct_buf_u16(hh, s16(min_lsb));
  ct_buf_u16(hh, s16(min_rsb));
  ct_buf_u16(hh, s16(max_ext));
  ct_buf_u16(hh, 1);            /* caretSlopeRise */
  ct_buf_u16(hh, 0);
  ct_buf_u16(hh, 0);
  ct_buf_grow(hh, 8);           /* reserved */
  ct_buf_u16(hh, 0);            /* metricDataFormat */
  ct_buf_u16(hh, f->count);
}

static void write_maxp(const ct_artfont_t *f, ct_buf_t *b) {
  ct_buf_u32(b, 0x00010000u);
  ct_buf_u16(b, f->count);
  ct_buf_u16(b, f->max.points);
  ct_buf_u16(b, f->max.contours);
  ct_buf_u16(b, 0);
  ct_buf_u16(b, 0);
  ct_buf_u16(b, 2);             /* maxZones */
  ct_buf_grow(b, 18);           /* no hinting */
}

static unsigned max_context(const ct_artfont_t *f) {
  unsigned i, m = f->ncmap ? 1 : 0;
  for (i = 0; i < f->nligs; i++)
    if (f->ligs[i].ncomps + 1 > m) m = f->ligs[i].ncomps + 1;
  return m;
}

static void write_os2(const ct_artfont_t *f, ct_buf_t *b) {
  double u = f->upem, sum = 0, win_asc = fmax(f->ascent, f->max.ymax), win_desc = fmax(-f->descent, -f->max.ymin);
  unsigned g, n = 0, first = 0, last = 0;
  for (g = 0; g < f->count; g++)
    if (f->advance[g] > 0) {
      sum += f->advance[g];
      n++;
    }
  if (f->ncmap) {
    first = f->cmap[0].cp > 0xFFFF ? 0xFFFF : f->cmap[0].cp;
    last = f->cmap[f->ncmap - 1].cp > 0xFFFF ? 0xFFFF : f->cmap[f->ncmap - 1].cp;
  }
  ct_buf_u16(b, 4);
  ct_buf_u16(b, s16(n ? sum / n : 0));   /* xAvgCharWidth */
  ct_buf_u16(b, 400);
  ct_buf_u16(b, 5);
  ct_buf_u16(b, 0);             /* fsType: installable */
  ct_buf_u16(b, s16(u * 0.65));  /* subscript x/y size, x/y offset */
  ct_buf_u16(b, s16(u * 0.6));
  ct_buf_u16(b, 0);
  ct_buf_u16(b, s16(u * 0.075));
  ct_buf_u16(b, s16(u * 0.65));  /* superscript */
  ct_buf_u16(b, s16(u * 0.6));
  ct_buf_u16(b, 0);
  ct_buf_u16(b, s16(u * 0.35));
  ct_buf_u16(b, s16(u * 0.05));  /* strikeout size, position */
  ct_buf_u16(b, s16(u * 0.25));
  ct_buf_u16(b, 0);             /* sFamilyClass */
  ct_buf_grow(b, 10);           /* panose */
  ct_buf_grow(b, 16);           /* ulUnicodeRange1..4 */
  ct_buf_bytes(b, "NONE", 4);
  ct_buf_u16(b, 0x00C0);        /* REGULAR | USE_TYPO_METRICS */
  ct_buf_u16(b, first);
  ct_buf_u16(b, last);
  ct_buf_u16(b, s16(f->ascent));
  ct_buf_u16(b, s16(f->descent));
  ct_buf_u16(b, 0);             /* sTypoLineGap */
  ct_buf_u16(b, (unsigned)lround(fmin(65535, fmax(0, win_asc))));
  ct_buf_u16(b, (unsigned)lround(fmin(65535, fmax(0, win_desc))));
  ct_buf_u32(b, 1);             /* ulCodePageRange1: Latin 1 */
  ct_buf_u32(b, 0);
  ct_buf_u16(b, 0);             /* sxHeight, sCapHeight: none */
  ct_buf_u16(b, 0);
  ct_buf_u16(b, 0);             /* usDefaultChar */
  ct_buf_u16(b, 0x20);          /* usBreakChar */
  ct_buf_u16(b, max_context(f));
}

/* cmap: format 4 (the BMP; what fits its 16-bit length) and 12 (everything), for Unicode
   (0/3, 0/4) and Windows (3/1, 3/10). */
static void write_cmap(const ct_artfont_t *f, ct_buf_t *b) {
  unsigned i, j, nseg = 0, ngroups = 0, pow2 = 1, log2 = 0, *start = NULL, *end = NULL;
  int *delta = NULL;
  size_t off12;
  start = malloc((f->ncmap + 1) * sizeof *start);
  end = malloc((f->ncmap + 1) * sizeof *end);
  delta = malloc((f->ncmap + 1) * sizeof *delta);
  if (!start || !end || !delta) {
    b->failed = 1;
    goto done;
  }
  for (i = 0; i < f->ncmap && nseg < 8188; i++) {
    uint32_t cp = f->cmap[i].cp;
    int d = (int)f->cmap[i].gid - (int)cp;
    if (cp >= 0xFFFF) break;
    if (nseg && end[nseg - 1] + 1 == cp && delta[nseg - 1] == d) end[nseg - 1] = cp;
    else {
      start[nseg] = end[nseg] = cp;
      delta[nseg++] = d;
    }
  }
  start[nseg] = end[nseg] = 0xFFFF;
  delta[nseg++] = 1;
  while (pow2 * 2 <= nseg) {
    pow2 *= 2;
    log2++;
  }
  for (i = 0; i < f->ncmap; i++)
    if (i == 0 || f->cmap[i].cp != f->cmap[i - 1].cp + 1 || f->cmap[i].gid != f->cmap[i - 1].gid + 1) ngroups++;
  off12 = 4 + 4 * 8 + 16 + 8 * (size_t)nseg;
  ct_buf_u16(b, 0);
  ct_buf_u16(b, 4);
  ct_buf_u16(b, 0); ct_buf_u16(b, 3); ct_buf_u32(b, 36);
  ct_buf_u16(b, 0); ct_buf_u16(b, 4); ct_buf_u32(b, (uint32_t)off12);
  ct_buf_u16(b, 3); ct_buf_u16(b, 1); ct_buf_u32(b, 36);
  ct_buf_u16(b, 3); ct_buf_u16(b, 10); ct_buf_u32(b, (uint32_t)off12);
  ct_buf_u16(b, 4);
  ct_buf_u16(b, 16 + 8 * nseg);
  ct_buf_u16(b, 0);
  ct_buf_u16(b, nseg * 2);
  ct_buf_u16(b, pow2 * 2);
  ct_buf_u16(b, log2);
  ct_buf_u16(b, nseg * 2 - pow2 * 2);
  for (i = 0; i < nseg; i++) ct_buf_u16(b, end[i]);
  ct_buf_u16(b, 0);
  for (i = 0; i < nseg; i++) ct_buf_u16(b, start[i]);
  for (i = 0; i < nseg; i++) ct_buf_u16(b, (unsigned)(delta[i] & 0xFFFF));
  for (i = 0; i < nseg; i++) ct_buf_u16(b, 0);
  ct_buf_u16(b, 12);
  ct_buf_u16(b, 0);
  ct_buf_u32(b, 16 + 12 * ngroups);
  ct_buf_u32(b, 0);
  ct_buf_u32(b, ngroups);
  for (i = 0; i < f->ncmap; i = j) {
    for (j = i + 1; j < f->ncmap && f->cmap[j].cp == f->cmap[j - 1].cp + 1 && f->cmap[j].gid == f->cmap[j - 1].gid + 1; j++)
      ;
    ct_buf_u32(b, f->cmap[i].cp);
    ct_buf_u32(b, f->cmap[j - 1].cp);
    ct_buf_u32(b, f->cmap[i].gid);
  }
done:
  free(start);
  free(end);
  free(delta);
}

static void write_post(const ct_artfont_t *f, ct_buf_t *b) {
  unsigned g;
  ct_buf_u32(b, 0x00020000u);
  ct_buf_u32(b, 0);                  /* italicAngle */
  ct_buf_u16(b, s16(-f->upem * 0.1));  /* underlinePosition, thickness */
  ct_buf_u16(b, s16(f->upem * 0.05));
  ct_buf_grow(b, 20);                /* isFixedPitch, memory hints */
  ct_buf_u16(b, f->count);
  for (g = 0; g < f->count; g++) ct_buf_u16(b, g == 0 ? 0 : 258 + g - 1);
  for (g = 1; g < f->count; g++) {
    size_t n = strlen(f->names[g]);
    ct_buf_u8(b, (unsigned)n);
    ct_buf_bytes(b, f->names[g], n);
  }
}

/* A placeholder name (the builder renames the family) with the version string a font
   must carry (name ID 5, as head's fontRevision 1.0 says): Windows English records. */
static void write_name(ct_buf_t *b) {
  static const char *const text[] = { "Artwork", "Regular", "Artwork-Regular;chromatype", "Artwork", "Version 1.000",
                                      "Artwork-Regular" };
  static const unsigned ids[] = { 1, 2, 3, 4, 5, 6 };
  unsigned i, n = 6;
  size_t off = 0;
  ct_buf_u16(b, 0);
  ct_buf_u16(b, n);
  ct_buf_u16(b, 6 + 12 * n);
  for (i = 0; i < n; i++) {
    size_t len = strlen(text[i]) * 2;
    ct_buf_u16(b, 3);
    ct_buf_u16(b, 1);
    ct_buf_u16(b, 0x409);
    ct_buf_u16(b, ids[i]);
    ct_buf_u16(b, (unsigned)len);
    ct_buf_u16(b, (unsigned)off);
    off += len;
  }
  for (i = 0; i < n; i++) {
    const char *p;
    for (p = text[i]; *p; p++) ct_buf_u16(b, (unsigned char)*p);
  }
}

/* GDEF 1.0: glyph classes only (ClassDef format 2). */
static void write_gdef(const ct_artfont_t *f, ct_buf_t *b) {
  unsigned g, h, n = 0;
  size_t at;
  ct_buf_u32(b, 0x00010000u);
  ct_buf_u16(b, 12);
  ct_buf_u16(b, 0);
  ct_buf_u16(b, 0);
  ct_buf_u16(b, 0);
  ct_buf_u16(b, 2);
  at = b->len;
  ct_buf_u16(b, 0);
  for (g = 0; g < f->count; g = h) {
    for (h = g + 1; h < f->count && f->gclass[h] == f->gclass[g]; h++)
      ;
    if (f->gclass[g] == CT_ART_CLASS_NONE) continue;
    ct_buf_u16(b, g);
    ct_buf_u16(b, h - 1);
    ct_buf_u16(b, f->gclass[g]);
    n++;
  }
  ct_buf_put_u16(b, at, n);
}

static int lig_cmp(const void *a, const void *b) {
  const ct_art_lig_t *x = a, *y = b;
  if (x->first != y->first) return x->first < y->first ? -1 : 1;
  if (x->ncomps != y->ncomps) return x->ncomps > y->ncomps ? -1 : 1;   /* longest first */
  return x->order < y->order ? -1 : x->order > y->order;
}

static size_t lig_size(const ct_art_lig_t *l) { return 2 + 4 + 2 * (size_t)l->ncomps; }

/* One LigatureSubst format 1 subtable of the ligature sets of ligs[a, z). */
static void write_ligsubst(const ct_art_lig_t *ligs, unsigned a, unsigned z, ct_buf_t *b) {
  unsigned i, j, k, nsets = 0;
  size_t cov, sets, at;
  for (i = a; i < z; i++) nsets += i == a || ligs[i].first != ligs[i - 1].first;
  ct_buf_u16(b, 1);
  ct_buf_u16(b, 6 + 2 * nsets);
  ct_buf_u16(b, nsets);
  sets = b->len;
  ct_buf_grow(b, 2 * (size_t)nsets);
  cov = b->len;
  ct_buf_u16(b, 1);
  ct_buf_u16(b, nsets);
  for (i = a; i < z; i++)
    if (i == a || ligs[i].first != ligs[i - 1].first) ct_buf_u16(b, ligs[i].first);
  for (i = a, k = 0; i < z; i = j, k++) {
    size_t set = b->len, offs;
    unsigned n;
    for (j = i + 1; j < z && ligs[j].first == ligs[i].first; j++)
      ;
    n = j - i;
    ct_buf_put_u16(b, sets + 2 * k, (unsigned)(set));
    ct_buf_u16(b, n);
    offs = b->len;
    ct_buf_grow(b, 2 * (size_t)n);
    for (at = 0; at < n; at++) {
      const ct_art_lig_t *l = &ligs[i + at];
      unsigned c;
      ct_buf_put_u16(b, offs + 2 * at, (unsigned)(b->len - set));
      ct_buf_u16(b, l->lig);
      ct_buf_u16(b, l->ncomps + 1);
      for (c = 0; c < l->ncomps; c++) ct_buf_u16(b, l->comps[c]);
    }
  }
  (void)cov;
}

/* GSUB 1.0: 'ccmp' for DFLT and latn, one lookup (Extension, type 4, IgnoreMarks) of
   LigatureSubst subtables, each under 64 KB. */
static ct_status_t write_gsub(ct_artfont_t *f, ct_buf_t *b, ct_error_t *err) {
  ct_buf_t *subs = NULL;
  unsigned i, j, nsub = 0, start = 0;
  size_t size = 10, base, off;
  ct_status_t st = CT_OK;
  if (f->nligs) qsort(f->ligs, f->nligs, sizeof *f->ligs, lig_cmp);
  if (!(subs = calloc(f->nligs + 1, sizeof *subs))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  for (i = 0; i < f->nligs; i = j) {
    size_t set = 2 + 2 + 2;   /* its offset, its coverage glyph, its count */
    for (j = i; j < f->nligs && f->ligs[j].first == f->ligs[i].first; j++) set += 2 + lig_size(&f->ligs[j]);
    if (set > 60000) {
      st = ct_set_error(err, CT_ERR_LIMIT, "over 60000 bytes of ligatures begin with glyph %u: too many sequences "
                        "beginning with one character", f->ligs[i].first);
      goto done;
    }
    if (size + set > 60000) {
      write_ligsubst(f->ligs, start, i, &subs[nsub++]);
      start = i;
      size = 10;
    }
    size += set;
  }
  if (start < f->nligs) write_ligsubst(f->ligs, start, f->nligs, &subs[nsub++]);
  /* header, ScriptList (10), FeatureList (48), LookupList (62) */
  ct_buf_u16(b, 1);
  ct_buf_u16(b, 0);
  ct_buf_u16(b, 10);
  ct_buf_u16(b, 48);
  ct_buf_u16(b, 62);
  ct_buf_u16(b, 2);
  ct_buf_u32(b, TAG('D', 'F', 'L', 'T'));
  ct_buf_u16(b, 14);
  ct_buf_u32(b, TAG('l', 'a', 't', 'n'));
  ct_buf_u16(b, 26);
  for (i = 0; i < 2; i++) {
    ct_buf_u16(b, 4);        /* defaultLangSys */
    ct_buf_u16(b, 0);
    ct_buf_u16(b, 0);        /* lookupOrder */
    ct_buf_u16(b, 0xFFFF);   /* no required feature */
    ct_buf_u16(b, 1);
    ct_buf_u16(b, 0);
  }
  ct_buf_u16(b, 1);
  ct_buf_u32(b, TAG('c', 'c', 'm', 'p'));
  ct_buf_u16(b, 8);
  ct_buf_u16(b, 0);
  ct_buf_u16(b, 1);
  ct_buf_u16(b, 0);
  ct_buf_u16(b, 1);          /* LookupList */
  ct_buf_u16(b, 4);
  base = b->len;             /* the Lookup */
  ct_buf_u16(b, 7);
  ct_buf_u16(b, 0x0008);     /* IgnoreMarks: U+FE0F and U+FE0E between the components */
  ct_buf_u16(b, nsub);
  for (i = 0; i < nsub; i++) ct_buf_u16(b, 6 + 2 * nsub + 8 * i);
  off = 6 + 2 * (size_t)nsub + 8 * (size_t)nsub;   /* the first LigatureSubst, from the Lookup */
  for (i = 0; i < nsub; i++) {
    size_t ext = 6 + 2 * (size_t)nsub + 8 * (size_t)i;
    ct_buf_u16(b, 1);
    ct_buf_u16(b, 4);
    ct_buf_u32(b, (uint32_t)(off - ext));
    off += subs[i].len;
  }
  for (i = 0; i < nsub; i++) {
    if (subs[i].failed) b->failed = 1;
    ct_buf_bytes(b, subs[i].p, subs[i].len);
  }
  (void)base;
done:
  for (i = 0; i < nsub; i++) ct_buf_free(&subs[i]);
  free(subs);
  return st;
}

ct_status_t ct_artfont_write(ct_artfont_t *f, ct_buf_t *out, ct_error_t *err) {
  ct_sfnt_table_t t[12];
  unsigned i, n = 0;
  ct_status_t st = CT_OK;
  memset(t, 0, sizeof t);
  t[n].tag = TAG('h', 'e', 'a', 'd'); write_head(f, &t[n++].data);
  t[n].tag = TAG('h', 'h', 'e', 'a');
  t[n + 1].tag = TAG('h', 'm', 't', 'x');
  write_hmtx(f, &t[n].data, &t[n + 1].data);
  n += 2;
  t[n].tag = TAG('m', 'a', 'x', 'p'); write_maxp(f, &t[n++].data);
  t[n].tag = TAG('O', 'S', '/', '2'); write_os2(f, &t[n++].data);
  t[n].tag = TAG('c', 'm', 'a', 'p'); write_cmap(f, &t[n++].data);
  t[n].tag = TAG('p', 'o', 's', 't'); write_post(f, &t[n++].data);
  t[n].tag = TAG('n', 'a', 'm', 'e'); write_name(&t[n++].data);
  t[n].tag = TAG('g', 'l', 'y', 'f'); ct_buf_bytes(&t[n++].data, f->glyf.p, f->glyf.len);
  t[n].tag = TAG('l', 'o', 'c', 'a');
  for (i = 0; i <= f->count; i++) ct_buf_u32(&t[n].data, (uint32_t)f->loca[i]);
  n++;
  t[n].tag = TAG('G', 'D', 'E', 'F'); write_gdef(f, &t[n++].data);
  if (f->nligs) {
    t[n].tag = TAG('G', 'S', 'U', 'B');
    st = write_gsub(f, &t[n++].data, err);
  }
  if (f->glyf.failed) st = ct_set_error(err, CT_ERR_NOMEM, "out of memory (or glyphs over the size limit)");
  if (!st) st = ct_sfnt_assemble(t, n, 0, out, err);
  for (i = 0; i < n; i++) ct_buf_free(&t[i].data);
  return st;
}
