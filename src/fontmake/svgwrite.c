/*
** svgwrite.c: one glyph's paint tree written as an OT-SVG glyph document (for a font
** exporter's SVG table): the em square, y down, baseline at 0, drawing element id="glyphN",
** palette entries as var(--colorN, fallback).  What SVG cannot draw exactly is refused with
** a reason rather than approximated.  Fontmake stage: knows fonts and paint trees, never
** pages or outputs.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fontmake.h"

/* A box in the current user space: what a paint that covers everything must cover. */
typedef struct { double x0, y0, x1, y1; } box_t;

typedef struct {
  char                *s;
  size_t               len, cap;
  int                  failed;    /* refused, out of memory or over a limit: `why` says */
  ct_font_t           *font;
  const ct_svgwrite_t *w;
  unsigned             next_id;   /* ids g<gid>-<n>, unique within the document */
  unsigned             depth;     /* open XML elements */
  unsigned             work;      /* nodes written (shared subtrees each time) */
  char                *why;
  size_t               whylen;
} writer_t;

static void refuse(writer_t *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void refuse(writer_t *w, const char *fmt, ...) {
  va_list ap;
  if (w->failed) return;   /* the first reason is the one reported */
  w->failed = 1;
  if (w->why && w->whylen) {
    va_start(ap, fmt);
    vsnprintf(w->why, w->whylen, fmt, ap);
    va_end(ap);
  }
}

static void put_n(writer_t *w, const char *s, size_t n) {
  if (w->failed) return;
  if (n > CT_MAX_SVG_WRITE_SIZE - w->len) {
    refuse(w, "the document would exceed the limit of %u bytes", CT_MAX_SVG_WRITE_SIZE);
    return;
  }
  if (w->len + n + 1 > w->cap) {
    size_t cap = w->cap ? w->cap * 2 : 4096;
    char *m;
    while (cap < w->len + n + 1) cap *= 2;
    if (!(m = realloc(w->s, cap))) {
      refuse(w, "out of memory");
      return;
    }
    w->s = m;
    w->cap = cap;
  }
  memcpy(w->s + w->len, s, n);
  w->len += n;
  w->s[w->len] = '\0';
}

static void put(writer_t *w, const char *s) { put_n(w, s, strlen(s)); }

static void putf(writer_t *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(writer_t *w, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof tmp) {
    refuse(w, "internal: attribute text too long");
    return;
  }
  put_n(w, tmp, (size_t)n);
}

/* A number as %.6g with '.' whatever the locale, and -0 as 0. */
static const char *num(char buf[32], double v) {
  char *p;
  if (!isfinite(v) || fabs(v) < 5e-7) v = 0;
  snprintf(buf, 32, "%.6g", v);
  for (p = buf; *p; p++)
    if (*p == ',') *p = '.';   /* a locale's decimal comma */
  return buf;
}

/* " name=\"v\"" */
static void put_num_attr(writer_t *w, const char *name, double v) {
  char b[32];
  putf(w, " %s=\"%s\"", name, num(b, v));
}

/* Opens an element that will hold children ("<g" ... ">" is the caller's). */
static int open_elem(writer_t *w) {
  if (++w->depth > CT_MAX_SVG_DEPTH - 4) {   /* our reader's own nesting limit, with room */
    refuse(w, "the document would nest deeper than %u elements", CT_MAX_SVG_DEPTH - 4);
    return 0;
  }
  return 1;
}

static void close_elem(writer_t *w, const char *tag) {
  w->depth--;
  putf(w, "</%s>", tag);
}

static unsigned new_id(writer_t *w) { return ++w->next_id; }

/* ---- colors ------------------------------------------------------------- */

static int is_foreground(const ct_color_t *c) {
  return (c->kind == CT_COLOR_PALETTE && c->index == CT_PALETTE_FOREGROUND) || c->kind == CT_COLOR_FOREGROUND;
}

/* The color of a tree color as SVG text (without its alpha multiplier), and the alpha that
   text itself carries: a palette entry is var(--colorN, fallback) where the fallback is
   palette 0's entry with its alpha (#RRGGBBAA when not opaque: svg-draw.c substitutes rgba()
   with the entry's alpha for the variable, so the fallback must carry it too, not
   fill-opacity); the text color is currentColor; an explicit color is #RRGGBB. */
static double color_text(const writer_t *w, const ct_color_t *c, char out[64]) {
  if (is_foreground(c)) {
    snprintf(out, 64, "currentColor");
    return 1;
  }
  if (c->kind == CT_COLOR_PALETTE) {
    ct_rgba_t f = { 0, 0, 0, 0 };   /* no entry in palette 0: transparent, as the renderer */
    unsigned r, g, b, a;
    if (w->w->palette && c->index < w->w->palette_count) f = w->w->palette[c->index];
    r = ct_cpal_byte(f.r), g = ct_cpal_byte(f.g), b = ct_cpal_byte(f.b), a = ct_cpal_byte(f.a);
    if (a == 255)
      snprintf(out, 64, "var(--color%u, #%02X%02X%02X)", c->index, r, g, b);
    else
      snprintf(out, 64, "var(--color%u, #%02X%02X%02X%02X)", c->index, r, g, b, a);
    return a / 255.0;
  }
  snprintf(out, 64, "#%02X%02X%02X", ct_cpal_byte(c->rgba.r), ct_cpal_byte(c->rgba.g),
           ct_cpal_byte(c->rgba.b));
  return 1;
}

/* The alpha outside the color text: the paint's alpha (times an explicit color's own). */
static double color_opacity(const ct_color_t *c) {
  double a = c->alpha * (c->kind == CT_COLOR_RGBA ? c->rgba.a : 1);
  return a < 0 ? 0 : a > 1 ? 1 : a;
}

/* The alpha the color has when drawn with palette 0 (the text color taken as opaque). */
static double effective_alpha(const writer_t *w, const ct_color_t *c) {
  char t[64];
  return color_text(w, c, t) * color_opacity(c);
}

/* ` fill="..." fill-opacity="..."` (prop "fill") or the stop's ` stop-color ... stop-opacity`.
   The text color as a fill is currentColor, and also context-fill in the style attribute,
   which wins where it is understood: Firefox gives currentColor the document's own color
   (black) but context-fill the text color, and then ignores fill-opacity, so the alpha of
   such a fill is the element's opacity (the same for one filled shape).  svg-draw.c substitutes
   both.  (Stops cannot take context-fill: a gradient stop in the text color is black in
   Firefox.) */
static void put_color(writer_t *w, const char *prop, const char *opacity_prop, const ct_color_t *c) {
  char t[64];
  double a = color_opacity(c);
  color_text(w, c, t);
  putf(w, " %s=\"%s\"", prop, t);
  if (is_foreground(c) && strcmp(prop, "fill") == 0) {
    putf(w, " style=\"fill:context-fill\"");
    if (a < 1) put_num_attr(w, "opacity", a);
    return;
  }
  if (a < 1) put_num_attr(w, opacity_prop, a);
}

/* ---- geometry ------------------------------------------------------------ */

static void put_matrix(writer_t *w, const char *attr, const cairo_matrix_t *m) {
  char a[32], b[32], c[32], d[32], e[32], f[32];
  putf(w, " %s=\"matrix(%s %s %s %s %s %s)\"", attr, num(a, m->xx), num(b, m->yx), num(c, m->xy),
       num(d, m->yy), num(e, m->x0), num(f, m->y0));
}

static int is_identity(const cairo_matrix_t *m) {
  return m->xx == 1 && m->yx == 0 && m->xy == 0 && m->yy == 1 && m->x0 == 0 && m->y0 == 0;
}

/* The outline as path data, font units, y up: move/line/close as M L Z, and each curve
   as C, or as Q when it is a quadratic raised to a cubic (cairo's form of TrueType's
   curves: both controls then give back one quadratic control), which is exact and about
   half the text. */
static void put_path_data(writer_t *w, const cairo_path_t *path) {
  int i;
  char b[6][32];
  double cx = 0, cy = 0, sx = 0, sy = 0;   /* the current point, the subpath's start */
  put(w, " d=\"");
  for (i = 0; i < path->num_data && !w->failed; i += path->data[i].header.length) {
    const cairo_path_data_t *d = &path->data[i];
    switch (d->header.type) {
    case CAIRO_PATH_MOVE_TO:
      putf(w, "M%s %s", num(b[0], d[1].point.x), num(b[1], d[1].point.y));
      sx = cx = d[1].point.x, sy = cy = d[1].point.y;
      break;
    case CAIRO_PATH_LINE_TO:
      putf(w, "L%s %s", num(b[0], d[1].point.x), num(b[1], d[1].point.y));
      cx = d[1].point.x, cy = d[1].point.y;
      break;
    case CAIRO_PATH_CURVE_TO: {
      double qx = (3 * d[1].point.x - cx) / 2, qy = (3 * d[1].point.y - cy) / 2;
      double rx = (3 * d[2].point.x - d[3].point.x) / 2, ry = (3 * d[2].point.y - d[3].point.y) / 2;
      if (fabs(qx - rx) < 1e-3 && fabs(qy - ry) < 1e-3)
        putf(w, "Q%s %s %s %s", num(b[0], qx), num(b[1], qy), num(b[2], d[3].point.x), num(b[3], d[3].point.y));
      else
        putf(w, "C%s %s %s %s %s %s", num(b[0], d[1].point.x), num(b[1], d[1].point.y),
             num(b[2], d[2].point.x), num(b[3], d[2].point.y), num(b[4], d[3].point.x),
             num(b[5], d[3].point.y));
      cx = d[3].point.x, cy = d[3].point.y;
      break;
    }
    case CAIRO_PATH_CLOSE_PATH:
      put(w, "Z");
      cx = sx, cy = sy;
      break;
    }
    if (d->header.length < 1) break;   /* a malformed path: stop rather than loop */
  }
  put(w, "\"");
}

static void path_box(const cairo_path_t *path, box_t *b) {
  int i, k;
  b->x0 = b->y0 = HUGE_VAL;
  b->x1 = b->y1 = -HUGE_VAL;
  for (i = 0; i < path->num_data; i += path->data[i].header.length) {
    for (k = 1; k < path->data[i].header.length; k++) {
      const cairo_path_data_t *p = &path->data[i + k];
      if (p->point.x < b->x0) b->x0 = p->point.x;
      if (p->point.y < b->y0) b->y0 = p->point.y;
      if (p->point.x > b->x1) b->x1 = p->point.x;
      if (p->point.y > b->y1) b->y1 = p->point.y;
    }
    if (path->data[i].header.length < 1) break;
  }
}

static box_t box_meet(box_t a, box_t b) {
  box_t r;
  r.x0 = a.x0 > b.x0 ? a.x0 : b.x0;
  r.y0 = a.y0 > b.y0 ? a.y0 : b.y0;
  r.x1 = a.x1 < b.x1 ? a.x1 : b.x1;
  r.y1 = a.y1 < b.y1 ? a.y1 : b.y1;
  return r;
}

/* The box seen from inside a transform (the inverse maps the parent's box). */
static box_t box_through(box_t b, const cairo_matrix_t *inv) {
  double xs[4] = { b.x0, b.x1, b.x0, b.x1 }, ys[4] = { b.y0, b.y0, b.y1, b.y1 };
  box_t r = { HUGE_VAL, HUGE_VAL, -HUGE_VAL, -HUGE_VAL };
  int i;
  for (i = 0; i < 4; i++) {
    cairo_matrix_transform_point(inv, &xs[i], &ys[i]);
    if (xs[i] < r.x0) r.x0 = xs[i];
    if (ys[i] < r.y0) r.y0 = ys[i];
    if (xs[i] > r.x1) r.x1 = xs[i];
    if (ys[i] > r.y1) r.y1 = ys[i];
  }
  return r;
}

/* x y width height of a box, a little larger (antialiased edges stay inside). */
static void put_box_attrs(writer_t *w, box_t b) {
  put_num_attr(w, "x", b.x0 - 1);
  put_num_attr(w, "y", b.y0 - 1);
  put_num_attr(w, "width", b.x1 - b.x0 + 2);
  put_num_attr(w, "height", b.y1 - b.y0 + 2);
}

/* ---- gradients ------------------------------------------------------------- */

typedef enum { GRAD_NONE, GRAD_SOLID, GRAD_OK } grad_t;

static void put_stop(writer_t *w, double offset, const ct_color_t *c) {
  put(w, "<stop");
  put_num_attr(w, "offset", offset < 0 ? 0 : offset > 1 ? 1 : offset);
  put_color(w, "stop-color", "stop-opacity", c);
  put(w, "/>");
}

/* A stop between a and b (weight f of b) as the spec's premultiplied interpolation gives
   it, which SVG readers need not follow (cairo, under librsvg, interpolates straight).
   Exact when one side is transparent (the color is the other side's, with var() kept) or
   both are explicit colors; 0 when it would need a palette color not known until drawing
   (then the reader interpolates). */
static int mid_stop(const writer_t *w, const ct_color_t *a, const ct_color_t *b, double f, ct_color_t *out) {
  double ea = effective_alpha(w, a), eb = effective_alpha(w, b);
  double alpha = ea * (1 - f) + eb * f;
  if (ea <= 0 || eb <= 0) {
    const ct_color_t *side = ea > 0 ? a : b;
    char t[64];
    double base = color_text(w, side, t);
    *out = *side;
    if (side->kind == CT_COLOR_RGBA) {
      out->rgba.a = 1;
      out->alpha = alpha;
    } else {
      out->alpha = base > 0 ? alpha / base : 0;
    }
    return 1;
  }
  if (a->kind == CT_COLOR_RGBA && b->kind == CT_COLOR_RGBA) {
    double pa = ea * (1 - f), pb = eb * f;
    out->kind = CT_COLOR_RGBA;
    out->index = 0;
    out->rgba.r = (a->rgba.r * pa + b->rgba.r * pb) / alpha;
    out->rgba.g = (a->rgba.g * pa + b->rgba.g * pb) / alpha;
    out->rgba.b = (a->rgba.b * pa + b->rgba.b * pb) / alpha;
    out->rgba.a = 1;
    out->alpha = alpha;
    return 1;
  }
  return 0;
}

static const char *const spread[] = { "pad", "repeat", "reflect" };

/* Writes <defs><linearGradient|radialGradient id=...></defs> for a gradient node drawn
   with `m` (its transforms up to the element that uses it) and returns GRAD_OK with *id
   set; GRAD_NONE when the renderer draws nothing; GRAD_SOLID when it paints one color
   (*solid set).  The stop range [lo, hi] becomes 0..1 with the geometry moved along, as
   the renderer does (SVG clamps offsets to 0..1). */
static grad_t put_gradient(writer_t *w, const ct_paint_t *p, const cairo_matrix_t *m, unsigned *id,
                           const ct_color_t **solid) {
  const ct_color_line_t *line = p->kind == CT_PAINT_LINEAR ? &p->u.linear.line : &p->u.radial.line;
  const ct_color_stop_t *s = line->stops;
  unsigned n = line->count, i, k;
  int reversed = 0;
  double lo, hi;

  if (n == 0) return GRAD_NONE;
  if (n == 1) {
    *solid = &s[0].color;
    return GRAD_SOLID;
  }
  lo = s[0].offset;
  hi = s[n - 1].offset;
  if (hi - lo < 1e-9) {   /* all stops at one offset: a hard edge when padded, else nothing */
    if (line->extend != CT_EXTEND_PAD) return GRAD_NONE;
    hi = lo + 1;
  }
  *id = new_id(w);
  if (p->kind == CT_PAINT_LINEAR) {
    double l[4], x0, y0, x1, y1;
    if (!ct_paint_linear_line(p, l)) return GRAD_NONE;   /* no direction */
    x0 = l[0], y0 = l[1], x1 = l[2], y1 = l[3];
    putf(w, "<defs><linearGradient id=\"g%u-%u\" gradientUnits=\"userSpaceOnUse\"", w->w->gid, *id);
    put_num_attr(w, "x1", x0 + lo * (x1 - x0));
    put_num_attr(w, "y1", y0 + lo * (y1 - y0));
    put_num_attr(w, "x2", x0 + hi * (x1 - x0));
    put_num_attr(w, "y2", y0 + hi * (y1 - y0));
  } else {
    double x0 = p->u.radial.x0, y0 = p->u.radial.y0, r0 = p->u.radial.r0;
    double dx = p->u.radial.x1 - x0, dy = p->u.radial.y1 - y0, dr = p->u.radial.r1 - r0;
    double ra = r0 + lo * dr, rb = r0 + hi * dr;
    double fx = x0 + lo * dx, fy = y0 + lo * dy, cx = x0 + hi * dx, cy = y0 + hi * dy;
    if (ra <= 0 && rb <= 0) return GRAD_NONE;   /* flattened to a point or a line: not drawn */
    if (ra < 0) ra = 0;
    if (rb < 0) rb = 0;
    if (rb == 0) {
      /* SVG paints the last stop's color for r = 0; cairo draws the cone.  The same
         gradient from the other end: circles swapped, the color line reversed. */
      double t;
      t = fx; fx = cx; cx = t;
      t = fy; fy = cy; cy = t;
      t = ra; ra = rb; rb = t;
      reversed = 1;
    }
    putf(w, "<defs><radialGradient id=\"g%u-%u\" gradientUnits=\"userSpaceOnUse\"", w->w->gid, *id);
    put_num_attr(w, "cx", cx);
    put_num_attr(w, "cy", cy);
    put_num_attr(w, "r", rb);
    put_num_attr(w, "fx", fx);
    put_num_attr(w, "fy", fy);
    if (ra > 0) put_num_attr(w, "fr", ra);
  }
  if ((unsigned)line->extend < 3 && line->extend != CT_EXTEND_PAD)
    putf(w, " spreadMethod=\"%s\"", spread[line->extend]);
  if (m && !is_identity(m)) put_matrix(w, "gradientTransform", m);
  put(w, ">");
  for (k = 0; k < n; k++) {
    /* in drawing order along the written gradient */
    unsigned j = reversed ? n - 1 - k : k;
    double t = (s[j].offset - lo) / (hi - lo);
    if (reversed) t = 1 - t;
    put_stop(w, t, &s[j].color);
    if (k + 1 < n) {
      unsigned j2 = reversed ? j - 1 : j + 1;
      double t2 = (s[j2].offset - lo) / (hi - lo);
      if (reversed) t2 = 1 - t2;
      if (t2 > t && effective_alpha(w, &s[j].color) != effective_alpha(w, &s[j2].color)) {
        ct_color_t mid;
        for (i = 1; i < 8; i++)
          if (mid_stop(w, &s[j].color, &s[j2].color, i / 8.0, &mid)) put_stop(w, t + (t2 - t) * i / 8.0, &mid);
      }
    }
  }
  put(w, p->kind == CT_PAINT_LINEAR ? "</linearGradient></defs>" : "</radialGradient></defs>");
  return GRAD_OK;
}

/* ---- nodes ------------------------------------------------------------------- */

static void put_node(writer_t *w, const ct_paint_t *p, box_t region);

/* A paint that covers everything (solid or gradient outside a glyph): a rectangle over
   the region that the clips around it leave. */
static void put_cover(writer_t *w, const ct_paint_t *p, box_t region) {
  const ct_color_t *solid = NULL;
  unsigned id = 0;
  if (!(region.x0 < region.x1 && region.y0 < region.y1)) return;   /* clipped away */
  if (p->kind != CT_PAINT_SOLID) {
    grad_t g = put_gradient(w, p, NULL, &id, &solid);
    if (g == GRAD_NONE) return;
  } else {
    solid = &p->u.solid.color;
  }
  put(w, "<rect");
  put_box_attrs(w, region);
  if (solid) put_color(w, "fill", "fill-opacity", solid);
  else putf(w, " fill=\"url(#g%u-%u)\"", w->w->gid, id);
  put(w, "/>");
}

static int matrix_of(const ct_paint_t *p, cairo_matrix_t *m) {
  cairo_matrix_t inv;
  cairo_matrix_init(m, p->u.transform.xx, p->u.transform.yx, p->u.transform.xy, p->u.transform.yy,
                    p->u.transform.dx, p->u.transform.dy);
  inv = *m;
  return cairo_matrix_invert(&inv) == CAIRO_STATUS_SUCCESS;
}

static void put_glyph(writer_t *w, const ct_paint_t *p, box_t region) {
  ct_font_t *font = p->u.glyph.font ? p->u.glyph.font : w->font;
  const cairo_path_t *path;
  const ct_paint_t *child = p->u.glyph.child, *c;
  cairo_matrix_t m;
  box_t b;
  unsigned id = 0;

  if (!font) {
    refuse(w, "glyph %u: a glyph node without a font, and no font given", p->u.glyph.gid);
    return;
  }
  if (!child || !(path = ct_font_get_outline(font, p->u.glyph.gid))) return;   /* clips all away */
  /* A solid or a gradient, under transforms or not: the outline filled with it
     (the gradient's transforms become its gradientTransform). */
  cairo_matrix_init_identity(&m);
  for (c = child; c && c->kind == CT_PAINT_TRANSFORM; c = c->u.transform.child) {
    cairo_matrix_t t;
    if (!matrix_of(c, &t)) return;   /* singular: draws nothing */
    cairo_matrix_multiply(&m, &t, &m);
  }
  if (c && (c->kind == CT_PAINT_SOLID || c->kind == CT_PAINT_LINEAR || c->kind == CT_PAINT_RADIAL)) {
    const ct_color_t *solid = c->kind == CT_PAINT_SOLID ? &c->u.solid.color : NULL;
    if (c->kind != CT_PAINT_SOLID) {
      grad_t g = put_gradient(w, c, &m, &id, &solid);
      if (g == GRAD_NONE) return;
    }
    put(w, "<path");
    put_path_data(w, path);
    if (solid) put_color(w, "fill", "fill-opacity", solid);
    else putf(w, " fill=\"url(#g%u-%u)\"", w->w->gid, id);
    put(w, "/>");
    return;
  }
  /* Anything else: drawn inside the outline as a clip path. */
  id = new_id(w);
  putf(w, "<defs><clipPath id=\"g%u-%u\"><path", w->w->gid, id);
  put_path_data(w, path);
  putf(w, "/></clipPath></defs><g clip-path=\"url(#g%u-%u)\">", w->w->gid, id);
  if (!open_elem(w)) return;
  path_box(path, &b);
  put_node(w, child, box_meet(region, b));
  close_elem(w, "g");
}

static const char *const blend_names[CT_COMPOSITE_MODE_COUNT] = {
  [CT_COMPOSITE_SCREEN] = "screen", [CT_COMPOSITE_OVERLAY] = "overlay",
  [CT_COMPOSITE_DARKEN] = "darken", [CT_COMPOSITE_LIGHTEN] = "lighten",
  [CT_COMPOSITE_COLOR_DODGE] = "color-dodge", [CT_COMPOSITE_COLOR_BURN] = "color-burn",
  [CT_COMPOSITE_HARD_LIGHT] = "hard-light", [CT_COMPOSITE_SOFT_LIGHT] = "soft-light",
  [CT_COMPOSITE_DIFFERENCE] = "difference", [CT_COMPOSITE_EXCLUSION] = "exclusion",
  [CT_COMPOSITE_MULTIPLY] = "multiply", [CT_COMPOSITE_HSL_HUE] = "hue",
  [CT_COMPOSITE_HSL_SATURATION] = "saturation", [CT_COMPOSITE_HSL_COLOR] = "color",
  [CT_COMPOSITE_HSL_LUMINOSITY] = "luminosity"
};

/* <mask> elements: an alpha mask holding `content`; with `invert`, a luminance mask of a
   white box under black masked by that alpha mask: 1 - alpha.  Returns the id to use. */
static unsigned put_mask(writer_t *w, const ct_paint_t *content, box_t region, int invert) {
  unsigned a = new_id(w), l;
  put(w, "<defs>");
  if (!open_elem(w)) return 0;
  putf(w, "<mask id=\"g%u-%u\" mask-type=\"alpha\" maskUnits=\"userSpaceOnUse\"", w->w->gid, a);
  put_box_attrs(w, region);
  put(w, ">");
  if (!open_elem(w)) return 0;
  put_node(w, content, region);
  close_elem(w, "mask");
  if (!invert) {
    close_elem(w, "defs");
    return a;
  }
  l = new_id(w);
  putf(w, "<mask id=\"g%u-%u\" mask-type=\"luminance\" color-interpolation=\"sRGB\" maskUnits=\"userSpaceOnUse\"",
       w->w->gid, l);
  put_box_attrs(w, region);
  put(w, "><rect");
  put_box_attrs(w, region);
  put(w, " fill=\"#FFFFFF\"/><rect");
  put_box_attrs(w, region);
  putf(w, " fill=\"#000000\" mask=\"url(#g%u-%u)\"/></mask>", w->w->gid, a);
  close_elem(w, "defs");
  return l;
}

static void put_composite(writer_t *w, const ct_paint_t *p, box_t region) {
  const ct_paint_t *src = p->u.composite.source, *dst = p->u.composite.backdrop;
  ct_composite_mode_t mode = p->u.composite.mode;
  unsigned id;
  switch (mode) {
  case CT_COMPOSITE_CLEAR: return;
  case CT_COMPOSITE_SRC: put_node(w, src, region); return;
  case CT_COMPOSITE_DEST: put_node(w, dst, region); return;
  case CT_COMPOSITE_SRC_OVER: put_node(w, dst, region); put_node(w, src, region); return;
  case CT_COMPOSITE_DEST_OVER: put_node(w, src, region); put_node(w, dst, region); return;
  case CT_COMPOSITE_SRC_IN: case CT_COMPOSITE_DEST_IN:
  case CT_COMPOSITE_SRC_OUT: case CT_COMPOSITE_DEST_OUT: {
    /* one side masked by the other's alpha (in) or by its complement (out) */
    int src_side = mode == CT_COMPOSITE_SRC_IN || mode == CT_COMPOSITE_SRC_OUT;
    int out = mode == CT_COMPOSITE_SRC_OUT || mode == CT_COMPOSITE_DEST_OUT;
    if (!(region.x0 < region.x1 && region.y0 < region.y1)) return;
    if (!(id = put_mask(w, src_side ? dst : src, region, out))) return;
    putf(w, "<g mask=\"url(#g%u-%u)\">", w->w->gid, id);
    if (!open_elem(w)) return;
    put_node(w, src_side ? src : dst, region);
    close_elem(w, "g");
    return;
  }
  case CT_COMPOSITE_SRC_ATOP: case CT_COMPOSITE_DEST_ATOP: case CT_COMPOSITE_XOR: case CT_COMPOSITE_PLUS:
    refuse(w, "composite mode %s has no exact SVG equivalent (it adds two layers, which needs an "
              "additive compositing operator that OT-SVG readers lack)", ct_composite_mode_name(mode));
    return;
  default:
    break;
  }
  if ((unsigned)mode >= CT_COMPOSITE_MODE_COUNT || !blend_names[mode]) return;   /* unknown: clear */
  /* The blend modes would be the source with mix-blend-mode inside an isolated group, which
     librsvg 2.54 draws right; Firefox (ESR 153) does not in glyph documents: no blending,
     and streaks from the group's edges across the em.  So they are refused. */
  refuse(w, "composite mode %s: mix-blend-mode (%s) is not drawn right in OT-SVG glyphs by Firefox",
         ct_composite_mode_name(mode), blend_names[mode]);
}

static void put_node(writer_t *w, const ct_paint_t *p, box_t region) {
  unsigned i;
  if (!p || w->failed) return;
  if (++w->work > CT_MAX_PAINT_WORK) {
    refuse(w, "paint tree of more than %u nodes", CT_MAX_PAINT_WORK);
    return;
  }
  switch (p->kind) {
  case CT_PAINT_LAYERS:
    for (i = 0; i < p->u.layers.count && !w->failed; i++) put_node(w, p->u.layers.children[i], region);
    break;
  case CT_PAINT_GLYPH:
    put_glyph(w, p, region);
    break;
  case CT_PAINT_SOLID: case CT_PAINT_LINEAR: case CT_PAINT_RADIAL:
    put_cover(w, p, region);
    break;
  case CT_PAINT_SWEEP:
    refuse(w, "sweep gradients have no SVG equivalent");
    break;
  case CT_PAINT_TRANSFORM: {
    cairo_matrix_t m, inv;
    if (!matrix_of(p, &m)) break;   /* singular: draws nothing */
    inv = m;
    cairo_matrix_invert(&inv);
    put(w, "<g");
    put_matrix(w, "transform", &m);
    put(w, ">");
    if (!open_elem(w)) break;
    put_node(w, p->u.transform.child, box_through(region, &inv));
    close_elem(w, "g");
    break;
  }
  case CT_PAINT_CLIP: {
    box_t b = { p->u.clip.x0, p->u.clip.y0, p->u.clip.x1, p->u.clip.y1 };
    unsigned id;
    if (!(b.x0 < b.x1 && b.y0 < b.y1)) break;   /* an empty clip */
    id = new_id(w);
    putf(w, "<defs><clipPath id=\"g%u-%u\"><rect", w->w->gid, id);
    put_num_attr(w, "x", b.x0);
    put_num_attr(w, "y", b.y0);
    put_num_attr(w, "width", b.x1 - b.x0);
    put_num_attr(w, "height", b.y1 - b.y0);
    putf(w, "/></clipPath></defs><g clip-path=\"url(#g%u-%u)\">", w->w->gid, id);
    if (!open_elem(w)) break;
    put_node(w, p->u.clip.child, box_meet(region, b));
    close_elem(w, "g");
    break;
  }
  case CT_PAINT_COMPOSITE:
    put_composite(w, p, region);
    break;
  case CT_PAINT_SVG:
    refuse(w, "an SVG glyph cannot be re-encoded (its document is not a paint tree)");
    break;
  case CT_PAINT_BITMAP:
    refuse(w, "a bitmap glyph cannot be re-encoded as SVG");
    break;
  case CT_PAINT_KIND_COUNT:
    break;
  }
}

char *ct_svg_write_glyph(ct_font_t *font, const ct_paint_t *tree, const ct_svgwrite_t *opts,
                         size_t *len, char *why, size_t whylen) {
  writer_t w;
  box_t all;
  double side;

  memset(&w, 0, sizeof w);
  w.font = font;
  w.w = opts;
  w.why = why;
  w.whylen = whylen;
  if (why && whylen) why[0] = '\0';
  if (len) *len = 0;
  if (!tree || !opts) {
    refuse(&w, "no paint tree");
    return NULL;
  }
  /* the budgets of drawing: what the renderer would refuse is refused before writing */
  if (tree->weight > CT_MAX_PAINT_WORK || tree->height > CT_MAX_PAINT_DEPTH) {
    refuse(&w, "paint tree of %u nodes and depth %u is over the limits (%u nodes, depth %u)",
           (unsigned)tree->weight, (unsigned)tree->height, CT_MAX_PAINT_WORK, CT_MAX_PAINT_DEPTH);
    return NULL;
  }
  /* what an unclipped paint covers: a generous box around the em square */
  side = 8.0 * (font && font->upem ? font->upem : 1000);
  all.x0 = all.y0 = -side;
  all.x1 = all.y1 = side;
  putf(&w, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\">"
           "<g id=\"glyph%u\" transform=\"matrix(1 0 0 -1 0 0)\">", opts->gid);
  w.depth = 2;
  put_node(&w, tree, all);
  put(&w, "</g></svg>\n");
  if (w.failed) {
    free(w.s);
    return NULL;
  }
  if (len) *len = w.len;
  return w.s;
}
