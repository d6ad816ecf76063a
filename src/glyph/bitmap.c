/*
** bitmap.c: CBDT/CBLC and sbix bitmap glyphs, decoded by FreeType (FT_LOAD_COLOR) into
** cairo images cached per strike and glyph.  The tree holds only "bitmap gid N"; the
** strike is chosen when drawing, from the pixels per em the output needs.  Glyph stage;
** the images are kept in the font's CT_FONT_CACHE_BITMAPS slot.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "glyph.h"

typedef struct {
  cairo_surface_t *image;   /* NULL: not loaded yet, or no bitmap (see `state`) */
  int              left, top;   /* strike pixels from the pen, y up */
  int              state;   /* 0 unknown, 1 loaded, -1 none */
} bm_entry_t;

struct ct_bitmap_cache {
  unsigned    nstrikes;
  unsigned    nglyphs;
  bm_entry_t *entries[];     /* per strike, glyph_count entries, allocated on first use */
};

static int has_bitmaps(ct_font_t *font) {
  return (font->color_formats & (CT_COLOR_CBDT | CT_COLOR_SBIX)) && font->ft_face->num_fixed_sizes > 0;
}

/* Back to the size outlines are loaded at (FT_Select_Size changed it). */
static void restore_size(ct_font_t *font) {
  if (font->ft_scaled) FT_Set_Char_Size(font->ft_face, 0, (FT_F26Dot6)font->upem * 64, 72, 72);
}

static void cache_destroy(void *cache) {
  struct ct_bitmap_cache *c = cache;
  unsigned s, g;
  for (s = 0; s < c->nstrikes; s++) {
    if (!c->entries[s]) continue;
    for (g = 0; g < c->nglyphs; g++) cairo_surface_destroy(c->entries[s][g].image);
    free(c->entries[s]);
  }
  free(c);
}

static const ct_font_cache_ops_t cache_ops = { NULL, cache_destroy };

static bm_entry_t *load(ct_font_t *font, unsigned strike, unsigned gid) {
  struct ct_bitmap_cache *c = ct_font_get_cache(font, CT_FONT_CACHE_BITMAPS);
  FT_Face face = font->ft_face;
  bm_entry_t *e;
  FT_Bitmap *bm;
  if (!c) {
    unsigned n = (unsigned)face->num_fixed_sizes;
    c = calloc(1, sizeof *c + n * sizeof c->entries[0]);
    if (!c) return NULL;
    c->nstrikes = n;
    c->nglyphs = font->glyph_count;
    ct_font_set_cache(font, CT_FONT_CACHE_BITMAPS, c, &cache_ops);
  }
  if (strike >= c->nstrikes || gid >= font->glyph_count) return NULL;
  if (!c->entries[strike] && !(c->entries[strike] = calloc(font->glyph_count, sizeof(bm_entry_t))))
    return NULL;
  e = &c->entries[strike][gid];
  if (e->state) return e;
  e->state = -1;
  if (FT_Select_Size(face, (FT_Int)strike) == 0 &&
      FT_Load_Glyph(face, gid, FT_LOAD_COLOR | FT_LOAD_NO_HINTING) == 0 &&
      face->glyph->format == FT_GLYPH_FORMAT_BITMAP) {
    bm = &face->glyph->bitmap;
    if (bm->pixel_mode == FT_PIXEL_MODE_BGRA && bm->width > 0 && bm->rows > 0 &&
        bm->width <= 4096 && bm->rows <= 4096) {
      cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)bm->width, (int)bm->rows);
      if (cairo_surface_status(img) == CAIRO_STATUS_SUCCESS) {
        int stride = cairo_image_surface_get_stride(img);
        unsigned char *dst = cairo_image_surface_get_data(img);
        unsigned y;
        cairo_surface_flush(img);
        for (y = 0; y < bm->rows; y++)   /* FreeType's BGRA is premultiplied, as cairo's */
          memcpy(dst + (size_t)y * (size_t)stride, bm->buffer + (ptrdiff_t)y * bm->pitch, (size_t)bm->width * 4);
        cairo_surface_mark_dirty(img);
        e->image = img;
        e->left = face->glyph->bitmap_left;
        e->top = face->glyph->bitmap_top;
        e->state = 1;
      } else {
        cairo_surface_destroy(img);
      }
    }
  }
  restore_size(font);
  return e;
}

ct_paint_t *ct_bitmap_glyph_paint(ct_font_t *font, unsigned gid) {
  unsigned s;
  if (!has_bitmaps(font)) return NULL;
  for (s = 0; s < (unsigned)font->ft_face->num_fixed_sizes; s++) {
    bm_entry_t *e = load(font, s, gid);
    if (e && e->state == 1) return ct_paint_bitmap_create(NULL, gid);
  }
  return NULL;
}

static double strike_ppem(ct_font_t *font, unsigned s) {
  return font->ft_face->available_sizes[s].y_ppem / 64.0;
}

/* The smallest strike at least as large as needed, else the largest; vector outputs
   get the largest (the image is embedded once and scales with the page). */
static unsigned pick_strike(cairo_t *cr, ct_font_t *font) {
  unsigned n = (unsigned)font->ft_face->num_fixed_sizes, s, best = 0, largest = 0;
  cairo_surface_type_t type = cairo_surface_get_type(cairo_get_target(cr));
  double dx = font->upem, dy = 0, need, best_ppem = 0;
  for (s = 1; s < n; s++)
    if (strike_ppem(font, s) > strike_ppem(font, largest)) largest = s;
  if (type == CAIRO_SURFACE_TYPE_PDF || type == CAIRO_SURFACE_TYPE_SVG || type == CAIRO_SURFACE_TYPE_PS)
    return largest;
  cairo_user_to_device_distance(cr, &dx, &dy);
  need = hypot(dx, dy);   /* device pixels per em */
  for (s = 0; s < n; s++) {
    double p = strike_ppem(font, s);
    if (p >= need - 0.5 && (best_ppem == 0 || p < best_ppem)) {
      best = s;
      best_ppem = p;
    }
  }
  return best_ppem > 0 ? best : largest;
}

void ct_bitmap_render(cairo_t *cr, ct_font_t *font, unsigned gid) {
  unsigned s;
  bm_entry_t *e;
  double scale;
  if (!has_bitmaps(font)) return;
  s = pick_strike(cr, font);
  e = load(font, s, gid);
  if (!e || e->state != 1) {   /* not in that strike: any strike that has it */
    unsigned k;
    for (k = 0; k < (unsigned)font->ft_face->num_fixed_sizes; k++)
      if ((e = load(font, k, gid)) && e->state == 1) { s = k; break; }
    if (!e || e->state != 1) return;
  }
  scale = font->upem / strike_ppem(font, s);   /* font units per strike pixel */
  cairo_save(cr);
  cairo_scale(cr, scale, -scale);   /* strike pixels, y down, origin at the pen */
  cairo_set_source_surface(cr, e->image, e->left, -e->top);
  cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
  cairo_rectangle(cr, e->left, -e->top, cairo_image_surface_get_width(e->image),
                  cairo_image_surface_get_height(e->image));
  cairo_fill(cr);
  cairo_restore(cr);
}
