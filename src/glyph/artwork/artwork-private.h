/*
** artwork-private.h: what the files of src/glyph/artwork/ share: paths in the drawing's
** user units (path.c: SVG path data and the basic shapes), their fills and strokes as
** FreeType outlines in font units (outline.c, stroke.c).  Private to the folder.
*/
#ifndef CT_ARTWORK_PRIVATE_H
#define CT_ARTWORK_PRIVATE_H

#include "artwork.h"

/* ---- path.c: a path in user units ---------------------------------------------- */

/* Subpaths of lines and cubic Béziers (quadratics raised, arcs split into cubics). */
typedef struct ct_art_path ct_art_path_t;
/* Its storage, read by outline.c and stroke.c: ops[i] takes 1 point (MOVE, LINE), 3
   (CUBIC: two controls, the end) or none (CLOSE: back to the subpath's MOVE); pts holds
   x, y pairs in that order.  Every subpath begins with a MOVE. */
enum { CT_ART_MOVE, CT_ART_LINE, CT_ART_CUBIC, CT_ART_CLOSE };
struct ct_art_path {
  unsigned char *ops;
  double        *pts;                /* 2 * npts doubles */
  size_t         nops, npts, capops, cappts;
  double         cx, cy, sx, sy;     /* current point, start of the current subpath */
  int            open;               /* 0: a segment must begin a subpath at (sx, sy) */
  int            failed;
};

ct_art_path_t *ct_art_path_new(void);   /* NULL when out of memory */
void ct_art_path_free(ct_art_path_t *p);   /* NULL-safe */
/* SVG path data appended, every command (M L H V C S Q T A Z, relative and absolute,
   implicit repeats, numbers such as "1.5.5" and "1e-3").  Returns 0 with `why` filled
   ("bad path data at offset 17: a number expected after 'C'") on an error: as the SVG spec
   says, the path is then drawn up to the error (what was appended stays). */
int ct_art_path_data(ct_art_path_t *p, const char *d, char *why, size_t whylen);
/* The basic shapes as SVG 1.1 draws them (rx/ry as resolved by the caller: rect's auto,
   clamped to half the size; a rect with a zero or negative size draws nothing). */
void ct_art_path_rect(ct_art_path_t *p, double x, double y, double w, double h, double rx, double ry);
void ct_art_path_ellipse(ct_art_path_t *p, double cx, double cy, double rx, double ry);
void ct_art_path_line(ct_art_path_t *p, double x1, double y1, double x2, double y2);
/* A circle's sector (centre, radius, from angle a0 through sweep, radians), closed
   through the centre. */
void ct_art_path_pie(ct_art_path_t *p, double cx, double cy, double r, double a0, double sweep);
/* A closed polygon of n points (x y pairs). */
void ct_art_path_polygon(ct_art_path_t *p, const double *xy, size_t n);
/* polyline (close 0) / polygon (close 1) points; 0 with `why` on bad points (drawn up to there). */
int ct_art_path_points(ct_art_path_t *p, const char *points, int close, char *why, size_t whylen);
/* Another path appended (clip paths of several shapes). */
void ct_art_path_append(ct_art_path_t *p, const ct_art_path_t *q, const double m[6]);
int ct_art_path_is_empty(const ct_art_path_t *p);
/* 1 once an allocation failed or the path grew over CT_MAX_ARTWORK_POINTS points. */
int ct_art_path_failed(const ct_art_path_t *p);
/* The box of the path's points under `m` (user units to wherever), b = x0, y0, x1, y1;
   0 if empty. */
int ct_art_path_bounds(const ct_art_path_t *p, const double m[6], double b[4]);

/* ---- outline.c: fills --------------------------------------------------------- */

/* The path's fill, its points mapped by `m` (cairo order: user units to font units, y up),
   as an FT_Outline in 26.6 (arrays malloc'ed: free with ct_art_outline_free), cubic
   segments kept cubic.  `evenodd`: contours are reoriented so that the nonzero rule gives
   the even-odd result (exact for contours that do not cross one another; nested holes
   included).  Returns 1, or 0 when there is nothing to fill (zero area, or no contour) or
   memory ran out (then *failed is set). */
int ct_art_fill_outline(const ct_art_path_t *p, const double m[6], int evenodd, FT_Outline *out, int *failed);
void ct_art_outline_free(FT_Outline *o);   /* leaves it empty */
/* Contour points a..z (inclusive) reversed, the first point kept first. */
void ct_art_contour_reverse(FT_Outline *o, int a, int z);

/* ---- stroke.c: strokes -------------------------------------------------------- */

enum { CT_ART_JOIN_MITER, CT_ART_JOIN_ROUND, CT_ART_JOIN_BEVEL };
enum { CT_ART_CAP_BUTT, CT_ART_CAP_ROUND, CT_ART_CAP_SQUARE };

typedef struct {
  double        width;        /* user units, > 0 */
  double        miterlimit;   /* >= 1 */
  int           join, cap;
  const double *dashes;       /* user units; NULL or all zero: solid; odd counts repeat */
  unsigned      ndashes;
  double        dash_offset;
} ct_art_stroke_t;

/* The stroke's outline, as SVG strokes it (in user space, then mapped by `m`, so that a
   non-uniform transform makes it elliptical), filled nonzero; dashes split the path first.
   `*lib` is a FreeType library made on first use (the caller frees it with
   FT_Done_FreeType; one per thread).  Returns 1, 0 when nothing is stroked, or 0 with
   *failed set (memory, or a stroke over the limits). */
int ct_art_stroke_outline(const ct_art_path_t *p, const double m[6], const ct_art_stroke_t *s,
                          FT_Library *lib, FT_Outline *out, int *failed);

/* ---- style.c: CSS properties, colors, lengths, transforms ---------------------- */

#include <libxml/tree.h>

/* Matrices in cairo order {xx, yx, xy, yy, x0, y0}: x' = xx x + xy y + x0. */
void ct_art_matrix_identity(double m[6]);
/* r = a then b (a applied first); r may be a or b. */
void ct_art_matrix_multiply(double r[6], const double a[6], const double b[6]);
void ct_art_matrix_apply(const double m[6], double *x, double *y);
/* The box b (x0, y0, x1, y1) mapped by m: the box of its four corners. */
void ct_art_box_map(const double m[6], const double b[4], double out[4]);

/* A `transform` list (matrix translate scale rotate skewX skewY), composed into m; 0 when
   malformed (m is then the identity). */
int ct_art_transform_parse(const char *s, double m[6]);
/* A CSS color (#rgb #rgba #rrggbb #rrggbbaa rgb() rgba() hsl() hsla(), a named color,
   transparent); 1 on success. */
int ct_art_color_parse(const char *s, ct_rgba_t *out);
/* A number (1 on success, *end after it); a length with its unit ("12", "3px", "2mm",
   "50%" of `ref`). */
int ct_art_number(const char *s, double *v, const char **end);
int ct_art_length(const char *s, double ref, double *v);
/* An attribute's length, `def` when absent or malformed. */
double ct_art_attr_length(xmlNodePtr el, const char *name, double ref, double def);

enum { CT_ART_PAINT_NONE, CT_ART_PAINT_COLOR, CT_ART_PAINT_CURRENT, CT_ART_PAINT_URL };
typedef struct {
  int       kind;
  ct_rgba_t rgba;        /* COLOR */
  char      id[96];      /* URL: the element's id (without '#') */
  int       fallback;    /* URL: what is drawn when the id is not found (NONE/COLOR/CURRENT) */
  ct_rgba_t fallback_rgba;
} ct_art_paintspec_t;

#define CT_ART_MAX_DASHES 64u

/* An element's computed style: inherited properties from its parent, the others reset. */
typedef struct {
  ct_art_paintspec_t fill, stroke;
  double    fill_opacity, stroke_opacity, opacity;
  int       fill_evenodd, clip_evenodd;
  double    stroke_width, miterlimit, dash_offset;
  int       join, cap;
  double    dashes[CT_ART_MAX_DASHES];
  unsigned  ndashes;
  int       has_color;      /* the `color` property was given (else currentColor is the text color) */
  ct_rgba_t color;
  int       display_none, hidden;
  int       stop_kind;      /* CT_ART_PAINT_COLOR or _CURRENT */
  ct_rgba_t stop_color;
  double    stop_opacity;
  char      clip_path[96];  /* the id of clip-path: url(#id), "" none */
} ct_art_style_t;

void ct_art_style_init(ct_art_style_t *s);   /* the initial values (the root's parent) */
/* The style of `el` from its parent's: presentation attributes, then its `style`
   attribute.  Returns 0 with `why` filled when the element uses what a color font cannot
   express (a filter, a mask, a blend mode, a style sheet's rules). */
int ct_art_style_compute(ct_art_style_t *s, const ct_art_style_t *parent, xmlNodePtr el,
                         char *why, size_t whylen);

/* ---- artwork.c: what gradient.c needs from the document walk ------------------- */

typedef struct ct_art_ids ct_art_ids_t;
/* The element of id `id` (the first one of the document), NULL if none. */
xmlNodePtr ct_art_find_id(const ct_art_ids_t *ids, const char *id);
/* The local name of an element in the SVG namespace (or in none), NULL for others. */
const char *ct_art_svg_name(xmlNodePtr el);
/* An attribute's value (in no namespace, or xlink:href for "href"): xmlFree it. */
char *ct_art_attr(xmlNodePtr el, const char *name);

/* ---- gradient.c: linearGradient and radialGradient ---------------------------- */

/* The paint of gradient element `el` filling a shape: `bbox` its box in user units (for
   objectBoundingBox), `m` user units to font units, `alpha` multiplied into the stops,
   `style` the shape's (currentColor in stops when they give none of their own).  Returns a
   new paint (a solid for one stop or a flattened gradient; *is_gradient tells), or NULL
   with `why` filled (refused, a cycle of href, out of memory: *nomem set). NULL with
   why[0] == 0: nothing is drawn (no stops, an empty box). */
ct_paint_t *ct_art_gradient_paint(xmlNodePtr el, const ct_art_ids_t *ids, const double bbox[4],
                                  const double m[6], double alpha, const ct_art_style_t *style,
                                  const ct_artwork_options_t *o, int *is_gradient, int *nomem,
                                  char *why, size_t whylen);

#endif /* CT_ARTWORK_PRIVATE_H */
