/*
** colr.c: COLR color glyphs into paint trees, and the per-glyph tree cache with the
** format choice (COLRv1 > COLRv0 > SVG > bitmap, else the outline).  Core layer.
*/
#include <stdlib.h>
#include <string.h>

#include <hb-ot.h>

#include "ct-private.h"
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

ct_paint_t *ct_font_get_glyph_paint(ct_font_t *font, unsigned gid, ct_format_t format,
                                    ct_error_t *err) {
  ct_paint_t **cache;
  if ((unsigned)format >= CT_FORMAT_COUNT) format = CT_FORMAT_AUTO;
  if (gid >= font->glyph_count) gid = 0;
  if (font->glyph_count == 0) return build_paint(font, gid, format, err);   /* nothing to cache */
  if (!font->paints[format]) font->paints[format] = calloc(font->glyph_count, sizeof(ct_paint_t *));
  cache = font->paints[format];
  if (!cache) return build_paint(font, gid, format, err);
  if (!cache[gid]) cache[gid] = build_paint(font, gid, format, err);
  return ct_paint_reference(cache[gid]);
}
