/*
** palette.c: CPAL palettes (colors, types, names, entry labels) and their resolution
** at draw time: base palette, entry overrides, text color.  Font stage: knows no paint
** tree, color table or page.
*/
#include <stdlib.h>
#include <string.h>

#include <hb-ot.h>

#include "font.h"

unsigned ct_font_get_palette_count(ct_font_t *font) {
  return hb_ot_color_palette_get_count(font->hb_face);
}

unsigned ct_font_get_palette_entry_count(ct_font_t *font) {
  if (ct_font_get_palette_count(font) == 0) return 0;
  return hb_ot_color_palette_get_colors(font->hb_face, 0, 0, NULL, NULL);
}

unsigned ct_font_get_palette_type(ct_font_t *font, unsigned palette) {
  unsigned flags = hb_ot_color_palette_get_flags(font->hb_face, palette);
  unsigned type = 0;
  if (flags & HB_OT_COLOR_PALETTE_FLAG_USABLE_WITH_LIGHT_BACKGROUND) type |= CT_PALETTE_TYPE_LIGHT;
  if (flags & HB_OT_COLOR_PALETTE_FLAG_USABLE_WITH_DARK_BACKGROUND) type |= CT_PALETTE_TYPE_DARK;
  return type;
}

static int name_utf8(ct_font_t *font, hb_ot_name_id_t id, char *buf, size_t size) {
  unsigned len = (unsigned)size;
  buf[0] = '\0';
  if (id == HB_OT_NAME_ID_INVALID) return 0;
  return hb_ot_name_get_utf8(font->hb_face, id, HB_LANGUAGE_INVALID, &len, buf) > 0;
}

int ct_font_get_palette_name(ct_font_t *font, unsigned palette, char *buf, size_t size) {
  return name_utf8(font, hb_ot_color_palette_get_name_id(font->hb_face, palette), buf, size);
}

int ct_font_get_palette_entry_label(ct_font_t *font, unsigned entry, char *buf, size_t size) {
  return name_utf8(font, hb_ot_color_palette_color_get_name_id(font->hb_face, entry), buf, size);
}

static ct_rgba_t from_hb(hb_color_t c) {
  ct_rgba_t r;
  r.r = hb_color_get_red(c) / 255.0;
  r.g = hb_color_get_green(c) / 255.0;
  r.b = hb_color_get_blue(c) / 255.0;
  r.a = hb_color_get_alpha(c) / 255.0;
  return r;
}

unsigned ct_font_get_palette_colors(ct_font_t *font, unsigned palette, ct_rgba_t *colors,
                                    unsigned count) {
  hb_color_t buf[64];
  unsigned total = hb_ot_color_palette_get_colors(font->hb_face, palette, 0, NULL, NULL);
  unsigned start = 0;
  while (start < count && start < total) {
    unsigned n = sizeof buf / sizeof buf[0], i;
    hb_ot_color_palette_get_colors(font->hb_face, palette, start, &n, buf);
    if (n == 0) break;
    for (i = 0; i < n && start + i < count; i++) colors[start + i] = from_hb(buf[i]);
    start += n;
  }
  return total;
}

int ct_font_find_palette(ct_font_t *font, unsigned type) {
  unsigned i, n = ct_font_get_palette_count(font);
  for (i = 0; i < n; i++)
    if (ct_font_get_palette_type(font, i) & type) return (int)i;
  return -1;
}

ct_status_t ct_palette_resolve(ct_font_t *font, const ct_text_style_t *style,
                               ct_resolved_palette_t *out, ct_error_t *err) {
  unsigned npal = ct_font_get_palette_count(font);
  unsigned n = ct_font_get_palette_entry_count(font), i;

  out->colors = out->inline_buf;
  out->count = 0;
  out->foreground = style->foreground;
  if (npal == 0) {
    if (style->palette != 0)
      return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: palette %u requested but the font has no palettes",
                          font->name, style->palette);
  } else if (style->palette >= npal) {
    return ct_set_error(err, CT_ERR_INVALID_ARG, "%s: palette %u out of range (the font has %u: 0..%u)",
                        font->name, style->palette, npal, npal - 1);
  }
  if (n > sizeof out->inline_buf / sizeof out->inline_buf[0]) {
    out->colors = malloc(n * sizeof *out->colors);
    if (!out->colors) {
      out->colors = out->inline_buf;
      return ct_set_error(err, CT_ERR_NOMEM, "out of memory");
    }
  }
  out->count = n;
  if (n) ct_font_get_palette_colors(font, style->palette, out->colors, n);
  /* Overrides past the palette's end are ignored, as CSS override-colors does. */
  for (i = 0; i < style->override_count; i++) {
    const ct_palette_override_t *o = &style->overrides[i];
    if (o->index < n) out->colors[o->index] = o->color;
  }
  return CT_OK;
}

void ct_palette_fini(ct_resolved_palette_t *pal) {
  if (pal->colors != pal->inline_buf) free(pal->colors);
  pal->colors = pal->inline_buf;
  pal->count = 0;
}

/* An index past the palette draws nothing (transparent), as Chromium and FreeType do. */
ct_rgba_t ct_palette_color(const ct_resolved_palette_t *pal, const ct_color_t *color) {
  ct_rgba_t c = {0, 0, 0, 0};
  switch (color->kind) {
  case CT_COLOR_PALETTE:
    if (color->index == CT_PALETTE_FOREGROUND) c = pal->foreground;
    else if (color->index < pal->count) c = pal->colors[color->index];
    break;
  case CT_COLOR_FOREGROUND: c = pal->foreground; break;
  case CT_COLOR_RGBA: c = color->rgba; break;
  }
  c.a *= color->alpha;
  return c;
}
