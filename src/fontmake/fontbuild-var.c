/*
** fontbuild-var.c: the design space of a written font whose effects vary (effect axes):
** the builder's axes and masters, each glyph's trees at the masters, and the tables that
** say so: fvar (the axes, named in name), STAT (their records, as a variable font's style
** names need), the masters' normalized locations for the COLR variation store
** (colrvar.c).  Fontmake stage, part of the font builder (fontbuild.h).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fontbuild.h"

#define TAG CT_TAG

void ct_build_free_axes(ct_font_builder_t *b) {
  unsigned i;
  if (b->mtrees)
    for (i = 0; i < b->ntrees * b->nmasters; i++) ct_paint_destroy(b->mtrees[i]);
  free(b->mtrees);
  free(b->axes);
  free(b->masters);
  b->mtrees = NULL;
  b->axes = NULL;
  b->masters = NULL;
  b->naxes = b->nmasters = 0;
}


static int tag_ok(const char *t) {
  unsigned i;
  if (strlen(t) != 4) return 0;
  for (i = 0; i < 4; i++)
    if (t[i] < 0x20 || t[i] > 0x7E) return 0;
  return 1;
}

ct_status_t ct_font_builder_set_axes(ct_font_builder_t *b, const ct_axis_t *axes, unsigned naxes,
                                     const double *masters, unsigned nmasters, ct_error_t *err) {
  unsigned a, j, k;
  ct_build_free_axes(b);
  if (naxes == 0) return CT_OK;
  if (b->nvbases) return ct_set_error(err, CT_ERR_INVALID_ARG, "effect axes and variants do not go together (one or the other)");
  if (naxes > 16) return ct_set_error(err, CT_ERR_INVALID_ARG, "axes: at most 16, got %u", naxes);
  if (nmasters == 0 || nmasters > 255) return ct_set_error(err, CT_ERR_INVALID_ARG, "masters: 1 to 255, got %u", nmasters);
  for (a = 0; a < naxes; a++) {
    const ct_axis_t *x = &axes[a];
    if (!tag_ok(x->tag_str)) return ct_set_error(err, CT_ERR_INVALID_ARG, "axis '%s': a tag of four printable ASCII characters expected", x->tag_str);
    for (k = 0; k < a; k++)
      if (!strcmp(axes[k].tag_str, x->tag_str)) return ct_set_error(err, CT_ERR_INVALID_ARG, "axis %s given twice", x->tag_str);
    if (!(x->min <= x->def && x->def <= x->max && x->min < x->max) || !(fabs(x->min) <= 32767 && fabs(x->max) <= 32767))
      return ct_set_error(err, CT_ERR_INVALID_ARG, "axis %s: min <= default <= max, min < max, within +-32767 expected (%g:%g:%g)",
                          x->tag_str, x->min, x->def, x->max);
  }
  for (j = 0; j < nmasters; j++) {
    unsigned off = 0;
    for (a = 0; a < naxes; a++) {
      double v = masters[j * naxes + a];
      if (!(v >= axes[a].min && v <= axes[a].max))
        return ct_set_error(err, CT_ERR_INVALID_ARG, "master %u: %s=%g is off the axis (%g to %g)", j + 1, axes[a].tag_str, v,
                            axes[a].min, axes[a].max);
      off += v != axes[a].def;
    }
    if (off != 1) return ct_set_error(err, CT_ERR_INVALID_ARG, "master %u: off the default on %u axes (one expected)", j + 1, off);
    for (k = 0; k < j; k++)
      if (!memcmp(masters + k * naxes, masters + j * naxes, naxes * sizeof *masters))
        return ct_set_error(err, CT_ERR_INVALID_ARG, "masters %u and %u are at the same place", k + 1, j + 1);
  }
  for (a = 0; a < naxes; a++) {   /* each end of each axis (but the default) has a master */
    int lo = axes[a].min == axes[a].def, hi = axes[a].max == axes[a].def;
    for (j = 0; j < nmasters; j++) {
      lo |= masters[j * naxes + a] == axes[a].min;
      hi |= masters[j * naxes + a] == axes[a].max;
    }
    if (!lo || !hi) return ct_set_error(err, CT_ERR_INVALID_ARG, "axis %s: no master at its %s (%g)", axes[a].tag_str,
                                        lo ? "maximum" : "minimum", lo ? axes[a].max : axes[a].min);
  }
  b->axes = malloc(naxes * sizeof *b->axes);
  b->masters = malloc((size_t)naxes * nmasters * sizeof *b->masters);
  b->mtrees = calloc((size_t)b->ntrees * nmasters + 1, sizeof *b->mtrees);
  if (!b->axes || !b->masters || !b->mtrees) {
    ct_build_free_axes(b);
    return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  }
  memcpy(b->axes, axes, naxes * sizeof *axes);
  memcpy(b->masters, masters, (size_t)naxes * nmasters * sizeof *masters);
  b->naxes = naxes;
  b->nmasters = nmasters;
  return CT_OK;
}

ct_status_t ct_font_builder_set_glyph_masters(ct_font_builder_t *b, unsigned gid, ct_paint_t *const *trees,
                                              ct_error_t *err) {
  unsigned j;
  if (!b->naxes) return ct_set_error(err, CT_ERR_INVALID_ARG, "glyph masters without axes (set the axes first)");
  if (gid >= b->ntrees) return ct_set_error(err, CT_ERR_INVALID_ARG, "glyph %u: the lead font has %u glyphs", gid, b->ntrees);
  for (j = 0; trees && j < b->nmasters; j++)
    if (!trees[j]) return ct_set_error(err, CT_ERR_INVALID_ARG, "glyph %u: no tree at master %u", gid, j + 1);
  for (j = 0; j < b->nmasters; j++) {
    ct_paint_t **slot = &b->mtrees[(size_t)gid * b->nmasters + j];
    ct_paint_destroy(*slot);
    *slot = trees ? ct_paint_reference(trees[j]) : NULL;
  }
  return CT_OK;
}

double *ct_build_normalized_masters(const ct_font_builder_t *b) {
  double *n = malloc((size_t)b->naxes * b->nmasters * sizeof *n + 1);
  unsigned j, a;
  if (!n) return NULL;
  for (j = 0; j < b->nmasters; j++)
    for (a = 0; a < b->naxes; a++) {
      const ct_axis_t *x = &b->axes[a];
      double v = b->masters[j * b->naxes + a];
      n[j * b->naxes + a] = v > x->def ? (v - x->def) / (x->max - x->def) : v < x->def ? (v - x->def) / (x->def - x->min) : 0;
    }
  return n;
}

static uint32_t fixed(double v) { return (uint32_t)(int32_t)lround(v * 65536.0); }

static uint32_t tag_of(const char *t) { return TAG(t[0], t[1], t[2], t[3]); }

ct_status_t ct_build_var_tables(const ct_font_builder_t *b, ct_names_t *ns, ct_sfnt_table_t **tables, unsigned *ntables,
                                ct_error_t *err) {
  ct_buf_t fvar = { 0 }, stat = { 0 };
  unsigned a, *ids;
  ct_status_t st;
  if (!b->naxes) return CT_OK;
  if (!(ids = malloc(b->naxes * sizeof *ids))) return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  for (a = 0; a < b->naxes; a++) {
    const char *name = b->axes[a].name[0] ? b->axes[a].name : b->axes[a].tag_str;
    if (ns->next_id > 32767 || !ct_names_add(ns, ns->next_id, name)) {
      free(ids);
      return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    }
    ids[a] = ns->next_id++;
  }
  /* fvar 1.0: the axes, no named instances */
  ct_buf_u16(&fvar, 1);
  ct_buf_u16(&fvar, 0);
  ct_buf_u16(&fvar, 16);
  ct_buf_u16(&fvar, 2);
  ct_buf_u16(&fvar, b->naxes);
  ct_buf_u16(&fvar, 20);
  ct_buf_u16(&fvar, 0);
  ct_buf_u16(&fvar, 4 + 4 * b->naxes);
  for (a = 0; a < b->naxes; a++) {
    const ct_axis_t *x = &b->axes[a];
    ct_buf_u32(&fvar, tag_of(x->tag_str));
    ct_buf_u32(&fvar, fixed(x->min));
    ct_buf_u32(&fvar, fixed(x->def));
    ct_buf_u32(&fvar, fixed(x->max));
    ct_buf_u16(&fvar, x->hidden ? 1 : 0);
    ct_buf_u16(&fvar, ids[a]);
  }
  /* STAT 1.1: one design axis record each, no axis values; "Regular" (name 2) elided */
  ct_buf_u16(&stat, 1);
  ct_buf_u16(&stat, 1);
  ct_buf_u16(&stat, 8);
  ct_buf_u16(&stat, b->naxes);
  ct_buf_u32(&stat, 20);
  ct_buf_u16(&stat, 0);
  ct_buf_u32(&stat, 0);
  ct_buf_u16(&stat, 2);
  for (a = 0; a < b->naxes; a++) {
    ct_buf_u32(&stat, tag_of(b->axes[a].tag_str));
    ct_buf_u16(&stat, ids[a]);
    ct_buf_u16(&stat, a);
  }
  free(ids);
  if ((st = ct_tables_add(tables, ntables, TAG('f', 'v', 'a', 'r'), &fvar, err))) {
    ct_buf_free(&stat);
    return st;
  }
  return ct_tables_add(tables, ntables, TAG('S', 'T', 'A', 'T'), &stat, err);
}

/* ---- a variable lead's design space kept ---------------------------------------- */

int ct_font_builder_kept_variations(const ct_font_builder_t *b) { return b->kept_var; }

int ct_table_var_kept(uint32_t t) {
  return t == TAG('f', 'v', 'a', 'r') || t == TAG('a', 'v', 'a', 'r') || t == TAG('S', 'T', 'A', 'T') ||
         t == TAG('H', 'V', 'A', 'R') || t == TAG('V', 'V', 'A', 'R') || t == TAG('M', 'V', 'A', 'R') ||
         t == TAG('c', 'v', 'a', 'r');
}

ct_status_t ct_build_gvar_extend(const ct_table_t *gvar, unsigned count, const char *path, ct_buf_t *out,
                                 ct_error_t *err) {
  const unsigned char *p = gvar->p;
  size_t len = gvar->p ? gvar->len : 0, shared_at, shared_len, data_at, data_len, offs_len;
  unsigned axes, nshared, nglyphs, flags, g;
  uint32_t last = 0;
  if (len < 20) return ct_set_error(err, CT_ERR_INVALID_FONT, "%s: a truncated gvar (%zu bytes)", path, len);
  if (ct_rd16(p) != 1) return ct_set_error(err, CT_ERR_INVALID_FONT, "%s: a gvar of an unknown version (%u)", path, ct_rd16(p));
  axes = ct_rd16(p + 4);
  nshared = ct_rd16(p + 6);
  shared_at = ct_rd32(p + 8);
  nglyphs = ct_rd16(p + 12);
  flags = ct_rd16(p + 14);
  data_at = ct_rd32(p + 16);
  offs_len = (size_t)(nglyphs + 1) * (flags & 1 ? 4 : 2);
  shared_len = (size_t)nshared * axes * 2;
  if (20 + offs_len > len || shared_at > len || shared_len > len - shared_at || data_at > len)
    return ct_set_error(err, CT_ERR_INVALID_FONT, "%s: a truncated gvar", path);
  if (count < nglyphs || count > 0xFFFF)
    return ct_set_error(err, CT_ERR_INVALID_FONT, "%s: gvar has %u glyphs, the font %u", path, nglyphs, count);
  last = flags & 1 ? ct_rd32(p + 20 + 4 * (size_t)nglyphs) : (uint32_t)ct_rd16(p + 20 + 2 * (size_t)nglyphs) * 2;
  data_len = last;
  if (data_len > len - data_at) return ct_set_error(err, CT_ERR_INVALID_FONT, "%s: a truncated gvar", path);
  /* header, long offsets for every glyph (the added ones empty), the shared tuples, the data */
  ct_buf_u16(out, 1);
  ct_buf_u16(out, 0);
  ct_buf_u16(out, axes);
  ct_buf_u16(out, nshared);
  ct_buf_u32(out, (uint32_t)(20 + 4 * ((size_t)count + 1)));
  ct_buf_u16(out, count);
  ct_buf_u16(out, flags | 1);
  ct_buf_u32(out, (uint32_t)(20 + 4 * ((size_t)count + 1) + shared_len));
  for (g = 0; g <= count; g++) {
    uint32_t o = g > nglyphs ? last : flags & 1 ? ct_rd32(p + 20 + 4 * (size_t)g) : (uint32_t)ct_rd16(p + 20 + 2 * (size_t)g) * 2;
    ct_buf_u32(out, o);
  }
  ct_buf_bytes(out, p + shared_at, shared_len);
  ct_buf_bytes(out, p + data_at, data_len);
  return out->failed ? ct_set_error(err, CT_ERR_NOMEM, "out of memory") : CT_OK;
}
