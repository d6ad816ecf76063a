/*
** colr.c: COLR color glyphs into paint trees, and the per-glyph tree cache with the
** format choice (COLRv1 > COLRv0 > SVG > bitmap, else the outline): the glyph stage's
** entry, kept in the font's CT_FONT_CACHE_PAINTS slot.
*/
#include <stdlib.h>
#include <string.h>

#include <hb-ot.h>

#include "glyph.h"
#include "svg/svg.h"
#include FT_COLOR_H

/* COLRv0: each layer is a glyph outline filled with a palette entry, bottom to top. */
ct_paint_t *ct_colr0_glyph_paint(ct_font_t *font, unsigned gid, ct_error_t *err) {
  hb_ot_color_layer_t buf[32];
  unsigned total, start = 0, i;
  ct_paint_t *layers;

  if (!(font->color_formats & CT_COLOR_COLR0)) return NULL;
  total = hb_ot_color_glyph_get_layers(font->hb_face, gid, 0, NULL, NULL);
  if (total == 0) return NULL;
  if (total > CT_MAX_COLR0_LAYERS) {
    ct_set_error(err, CT_ERR_LIMIT, "%s: glyph %u has %u COLR layers (limit %u)", font->name, gid,
                 total, CT_MAX_COLR0_LAYERS);
    return NULL;
  }
  if (!(layers = ct_paint_layers_create(total))) goto nomem;
  while (start < total) {
    unsigned n = sizeof buf / sizeof buf[0];
    hb_ot_color_glyph_get_layers(font->hb_face, gid, start, &n, buf);
    if (n == 0) break;
    for (i = 0; i < n; i++) {
      ct_paint_t *solid = ct_paint_solid_create(ct_color_palette(buf[i].color_index, 1.0));
      ct_paint_t *glyph = ct_paint_glyph_create(NULL, buf[i].glyph, solid);
      if (ct_paint_layers_append(layers, glyph) != CT_OK) goto nomem;
    }
    start += n;
  }
  return layers;

nomem:
  ct_paint_destroy(layers);
  ct_set_error(err, CT_ERR_NOMEM, "out of memory");
  return NULL;
}

/* The plain outline in the text color. */
static ct_paint_t *mono_paint(unsigned gid) {
  return ct_paint_glyph_create(NULL, gid, ct_paint_solid_create(ct_color_foreground(1.0)));
}

static ct_paint_t *colr1(ct_font_t *font, unsigned gid, int *handled) {
  ct_error_t e;
  int warned = 0;
  ct_paint_t *p = ct_colr1_glyph_paint(font, gid, &e, &warned);
  if (warned) ct_font_add_warning(font, e.message);
  *handled = p != NULL || warned;   /* over a limit: the outline, not COLRv0 */
  return p;
}

static ct_paint_t *build_paint(ct_font_t *font, unsigned gid, ct_format_t format, ct_error_t *err) {
  ct_paint_t *p = NULL;
  int handled = 0;
  switch (format) {
  case CT_FORMAT_AUTO:   /* COLRv1 > COLRv0 > SVG > bitmap, the first the glyph has */
    p = colr1(font, gid, &handled);
    if (!handled) p = ct_colr0_glyph_paint(font, gid, err);
    if (!p && !handled) p = ct_svg_glyph_paint(font, gid);
    if (!p && !handled) p = ct_bitmap_glyph_paint(font, gid);
    break;
  case CT_FORMAT_COLR1:
    p = colr1(font, gid, &handled);
    break;
  case CT_FORMAT_COLR0:
    p = ct_colr0_glyph_paint(font, gid, err);
    break;
  case CT_FORMAT_SVG:
    p = ct_svg_glyph_paint(font, gid);
    break;
  case CT_FORMAT_BITMAP:
    p = ct_bitmap_glyph_paint(font, gid);
    break;
  case CT_FORMAT_MONO:
    break;
  }
  return p ? p : mono_paint(gid);
}

/* Each glyph's tree per format, made on first use; cleared when the location changes
   (COLRv1 trees depend on it). */
typedef struct {
  unsigned     nglyphs;
  ct_paint_t **paints[CT_FORMAT_COUNT];
} paint_cache_t;

static void *cache_clear(void *cache) {
  paint_cache_t *c = cache;
  unsigned f, i;
  for (f = 0; f < CT_FORMAT_COUNT; f++) {
    if (!c->paints[f]) continue;
    for (i = 0; i < c->nglyphs; i++) {
      ct_paint_destroy(c->paints[f][i]);
      c->paints[f][i] = NULL;
    }
  }
  return c;
}

static void cache_destroy(void *cache) {
  paint_cache_t *c = cache_clear(cache);
  unsigned f;
  for (f = 0; f < CT_FORMAT_COUNT; f++) free(c->paints[f]);
  free(c);
}

static const ct_font_cache_ops_t cache_ops = { cache_clear, cache_destroy };

int ct_font_caches_paint(const ct_font_t *font, unsigned gid, const ct_paint_t *paint) {
  const paint_cache_t *c = ct_font_get_cache(font, CT_FONT_CACHE_PAINTS);
  unsigned f;
  if (!c || gid >= c->nglyphs) return 0;
  for (f = 0; f < CT_FORMAT_COUNT; f++)
    if (c->paints[f] && c->paints[f][gid] == paint) return 1;
  return 0;
}

ct_paint_t *ct_font_get_glyph_paint(ct_font_t *font, unsigned gid, ct_format_t format,
                                    ct_error_t *err) {
  paint_cache_t *c;
  ct_paint_t **cache;
  if ((unsigned)format >= CT_FORMAT_COUNT) format = CT_FORMAT_AUTO;
  if (gid >= font->glyph_count) gid = 0;
  if (font->glyph_count == 0) return build_paint(font, gid, format, err);   /* nothing to cache */
  if (!(c = ct_font_get_cache(font, CT_FONT_CACHE_PAINTS))) {
    if (!(c = calloc(1, sizeof *c))) return build_paint(font, gid, format, err);
    c->nglyphs = font->glyph_count;
    ct_font_set_cache(font, CT_FONT_CACHE_PAINTS, c, &cache_ops);
  }
  if (!c->paints[format]) c->paints[format] = calloc(font->glyph_count, sizeof(ct_paint_t *));
  cache = c->paints[format];
  if (!cache) return build_paint(font, gid, format, err);
  if (!cache[gid]) cache[gid] = build_paint(font, gid, format, err);
  return ct_paint_reference(cache[gid]);
}

const ct_glyph_images_t ct_glyph_images = { ct_svg_render, ct_bitmap_render };
