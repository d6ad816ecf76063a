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

#endif /* CT_ARTWORK_PRIVATE_H */
