/*
** outline.c: glyph outlines from FreeType as cairo paths in font units (y up),
** built once per glyph and cached in the font.  Font stage: knows no paint tree, color
** table or page.
*/
#include <stdlib.h>
#include <string.h>


#include "font.h"
#include FT_OUTLINE_H

typedef struct {
  cairo_path_data_t *data;
  int                len, cap;
  double             scale;     /* 26.6 to font units */
  double             cx, cy;    /* current point, for conic -> cubic */
  int                failed;
} path_builder_t;

static cairo_path_data_t *reserve(path_builder_t *b, int n) {
  cairo_path_data_t *d;
  if (b->failed) return NULL;
  if (b->len + n > b->cap) {
    int cap = b->cap ? b->cap * 2 : 64;
    while (cap < b->len + n) cap *= 2;
    d = realloc(b->data, (size_t)cap * sizeof *d);
    if (!d) { b->failed = 1; return NULL; }
    b->data = d;
    b->cap = cap;
  }
  d = b->data + b->len;
  b->len += n;
  return d;
}

static void add_op(path_builder_t *b, cairo_path_data_type_t type, int npoints, const double *xy) {
  cairo_path_data_t *d = reserve(b, 1 + npoints);
  int i;
  if (!d) return;
  d[0].header.type = type;
  d[0].header.length = 1 + npoints;
  for (i = 0; i < npoints; i++) {
    d[1 + i].point.x = xy[2 * i];
    d[1 + i].point.y = xy[2 * i + 1];
  }
  if (npoints) {
    b->cx = xy[2 * npoints - 2];
    b->cy = xy[2 * npoints - 1];
  }
}

static int move_to(const FT_Vector *to, void *user) {
  path_builder_t *b = user;
  double xy[2] = { to->x * b->scale, to->y * b->scale };
  if (b->len > 0) add_op(b, CAIRO_PATH_CLOSE_PATH, 0, NULL);
  add_op(b, CAIRO_PATH_MOVE_TO, 1, xy);
  return 0;
}

static int line_to(const FT_Vector *to, void *user) {
  path_builder_t *b = user;
  double xy[2] = { to->x * b->scale, to->y * b->scale };
  add_op(b, CAIRO_PATH_LINE_TO, 1, xy);
  return 0;
}

/* A quadratic segment is the cubic whose controls lie 2/3 of the way to its control. */
static int conic_to(const FT_Vector *ctl, const FT_Vector *to, void *user) {
  path_builder_t *b = user;
  double qx = ctl->x * b->scale, qy = ctl->y * b->scale;
  double x = to->x * b->scale, y = to->y * b->scale;
  double xy[6] = {
    b->cx + 2.0 / 3.0 * (qx - b->cx), b->cy + 2.0 / 3.0 * (qy - b->cy),
    x + 2.0 / 3.0 * (qx - x), y + 2.0 / 3.0 * (qy - y),
    x, y
  };
  add_op(b, CAIRO_PATH_CURVE_TO, 3, xy);
  return 0;
}

static int cubic_to(const FT_Vector *c1, const FT_Vector *c2, const FT_Vector *to, void *user) {
  path_builder_t *b = user;
  double xy[6] = { c1->x * b->scale, c1->y * b->scale, c2->x * b->scale, c2->y * b->scale,
                   to->x * b->scale, to->y * b->scale };
  add_op(b, CAIRO_PATH_CURVE_TO, 3, xy);
  return 0;
}

static cairo_path_t *build_outline(ct_font_t *font, unsigned gid) {
  static const FT_Outline_Funcs funcs = { move_to, line_to, conic_to, cubic_to, 0, 0 };
  FT_Int32 flags = FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP | FT_LOAD_IGNORE_TRANSFORM;
  path_builder_t b;
  cairo_path_t *path;

  if (!font->ft_scaled) flags |= FT_LOAD_NO_SCALE;
  if (FT_Load_Glyph(font->ft_face, gid, flags)) return NULL;
  if (font->ft_face->glyph->format != FT_GLYPH_FORMAT_OUTLINE) return NULL;
  if (font->ft_face->glyph->outline.n_points == 0) return NULL;
  memset(&b, 0, sizeof b);
  b.scale = font->ft_scaled ? 1.0 / 64.0 : 1.0;
  if (FT_Outline_Decompose(&font->ft_face->glyph->outline, &funcs, &b) || b.failed) {
    free(b.data);
    return NULL;
  }
  add_op(&b, CAIRO_PATH_CLOSE_PATH, 0, NULL);
  if (b.failed || !(path = malloc(sizeof *path))) {
    free(b.data);
    return NULL;
  }
  path->status = CAIRO_STATUS_SUCCESS;
  path->data = b.data;
  path->num_data = b.len;
  return path;
}

/* An empty glyph is cached as this marker, so it is not loaded again. */
static cairo_path_t empty_path = { CAIRO_STATUS_SUCCESS, NULL, 0 };

const cairo_path_t *ct_font_get_outline(ct_font_t *font, unsigned gid) {
  cairo_path_t *path;
  if (gid >= font->glyph_count) return NULL;
  if (!font->outlines) {
    font->outlines = calloc(font->glyph_count, sizeof *font->outlines);
    if (!font->outlines) return NULL;   /* out of memory: the glyph draws empty */
  }
  path = font->outlines[gid];
  if (!path) {
    path = build_outline(font, gid);
    font->outlines[gid] = path ? path : &empty_path;
  }
  return path == &empty_path ? NULL : path;
}

void ct_font_clear_outlines(ct_font_t *font) {
  unsigned i;
  if (!font->outlines) return;
  for (i = 0; i < font->glyph_count; i++) {
    cairo_path_t *p = font->outlines[i];
    if (p && p != &empty_path) {
      free(p->data);
      free(p);
    }
    font->outlines[i] = NULL;
  }
}

/* Width times height of an outline's control-point box. */
static double outline_area(const cairo_path_t *p) {
  double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
  int i, j;
  for (i = 0; i < p->num_data; i += p->data[i].header.length)
    for (j = 1; j < p->data[i].header.length; j++) {
      double x = p->data[i + j].point.x, y = p->data[i + j].point.y;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  return x1 > x0 && y1 > y0 ? (x1 - x0) * (y1 - y0) : 0;
}

/* The stand-in must have real ink at any size and position (cairo drops text whose
   rounded ink box is empty): .notdef when it is at least a tenth of the em square, else
   the largest of the first glyphs. */
unsigned ct_font_get_inked_glyph(ct_font_t *font) {
  unsigned g, best = 0, limit = font->glyph_count < 2048 ? font->glyph_count : 2048;
  double best_area = 0, em = (double)font->upem * font->upem;
  if (font->inked_glyph) return font->inked_glyph - 1;
  for (g = 0; g < limit; g++) {
    const cairo_path_t *p = ct_font_get_outline(font, g);
    double a = p ? outline_area(p) : 0;
    if (g == 0 && a >= em / 10) { best = 0; break; }
    if (a > best_area) { best_area = a; best = g; }
  }
  font->inked_glyph = best + 1;
  return best;
}
