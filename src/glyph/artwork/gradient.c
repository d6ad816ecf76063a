/*
** gradient.c: linearGradient and radialGradient of SVG drawings read as glyphs
** (glyph/artwork/) as the paint tree's linear and radial paints: units, transforms, spread,
** attributes and stops inherited through href chains, COLRv0's flattening or refusal.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "artwork-private.h"

#define MAX_CHAIN 16   /* gradients linked by href */
#define MAX_STOPS 1024

typedef struct {
  xmlNodePtr el[MAX_CHAIN];
  unsigned   n;
  int        linear;   /* the first element's kind */
} chain_t;

static void describe(xmlNodePtr el, char *buf, size_t len) {
  char *id = ct_art_attr(el, "id");
  if (id) snprintf(buf, len, "<%s id=\"%.40s\"> (line %ld)", (const char *)el->name, id, xmlGetLineNo(el));
  else snprintf(buf, len, "<%s> (line %ld)", (const char *)el->name, xmlGetLineNo(el));
  if (id) xmlFree(id);
}

static int is_gradient(xmlNodePtr el) {
  const char *n = el ? ct_art_svg_name(el) : NULL;
  return n && (!strcmp(n, "linearGradient") || !strcmp(n, "radialGradient"));
}

/* The element and those its href leads to; 0 with why on a cycle or a chain too long. */
static int make_chain(xmlNodePtr el, const ct_art_ids_t *ids, chain_t *c, char *why, size_t whylen) {
  c->n = 0;
  c->linear = !strcmp(ct_art_svg_name(el), "linearGradient");
  while (el) {
    char *href;
    unsigned i;
    char d[160];
    for (i = 0; i < c->n; i++)
      if (c->el[i] == el) {
        describe(c->el[0], d, sizeof d);
        snprintf(why, whylen, "%s: its href chain is a cycle", d);
        return 0;
      }
    if (c->n == MAX_CHAIN) {
      describe(c->el[0], d, sizeof d);
      snprintf(why, whylen, "%s: more than %u gradients linked by href", d, MAX_CHAIN);
      return 0;
    }
    c->el[c->n++] = el;
    href = ct_art_attr(el, "href");
    el = NULL;
    if (href) {
      if (href[0] == '#') el = ct_art_find_id(ids, href + 1);
      xmlFree(href);
      if (!is_gradient(el)) el = NULL;   /* not a gradient: the chain ends */
    }
  }
  return 1;
}

/* An attribute from the first gradient of the chain that has it (xmlFree it). */
static char *chain_attr(const chain_t *c, const char *name) {
  unsigned i;
  for (i = 0; i < c->n; i++) {
    char *v = ct_art_attr(c->el[i], name);
    if (v) return v;
  }
  return NULL;
}

static double chain_length(const chain_t *c, const char *name, double ref, double def) {
  char *v = chain_attr(c, name);
  double d;
  if (!v || !ct_art_length(v, ref, &d)) d = def;
  if (v) xmlFree(v);
  return d;
}

static int has_stops(xmlNodePtr el) {
  xmlNodePtr k;
  for (k = el->children; k; k = k->next)
    if (k->type == XML_ELEMENT_NODE && ct_art_svg_name(k) && !strcmp(ct_art_svg_name(k), "stop")) return 1;
  return 0;
}

/* The stops of the first gradient of the chain that has some: offsets clamped to 0..1 and
   made non-decreasing, colors with stop-opacity and `alpha`.  Returns the count, -1 out of
   memory, -2 a stop refused (why). */
static int read_stops(const chain_t *c, const ct_art_style_t *style, double alpha, ct_color_stop_t **out,
                      char *why, size_t whylen) {
  ct_art_style_t gs, ss;
  xmlNodePtr g = NULL, k = NULL;
  ct_color_stop_t *s;
  unsigned i, n = 0;
  double last = 0;
  *out = NULL;
  for (i = 0; i < c->n && !g; i++)
    if (has_stops(c->el[i])) g = c->el[i];
  if (!g) return 0;
  if (!(s = malloc(MAX_STOPS * sizeof *s))) return -1;
  if (!ct_art_style_compute(&gs, style, g, why, whylen)) goto refused;
  for (k = g->children; k && n < MAX_STOPS; k = k->next) {
    char *off;
    double o = 0;
    const char *e;
    if (k->type != XML_ELEMENT_NODE || !ct_art_svg_name(k) || strcmp(ct_art_svg_name(k), "stop")) continue;
    if (!ct_art_style_compute(&ss, &gs, k, why, whylen)) goto refused;
    if ((off = ct_art_attr(k, "offset"))) {
      if (ct_art_number(off, &o, &e) && *e == '%') o /= 100;
      xmlFree(off);
    }
    o = o < 0 ? 0 : o > 1 ? 1 : o;
    if (o < last) o = last;
    last = o;
    s[n].offset = o;
    if (ss.stop_kind == CT_ART_PAINT_CURRENT && !ss.has_color) {
      s[n].color = ct_color_foreground(ss.stop_opacity * alpha);
    } else {
      s[n].color = ct_color_rgba(ss.stop_kind == CT_ART_PAINT_CURRENT ? ss.color : ss.stop_color);
      s[n].color.alpha = ss.stop_opacity * alpha;
    }
    n++;
  }
  *out = s;
  return (int)n;
refused: {
    char d[160], w[200];
    describe(k ? k : g, d, sizeof d);
    snprintf(w, sizeof w, "%s", why);
    snprintf(why, whylen, "%s: %s", d, w);
    free(s);
    return -2;
  }
}

/* The mean of the stops' colors (COLRv0 keeps one color per layer). */
static ct_color_t mean_color(const ct_color_stop_t *s, unsigned n) {
  ct_rgba_t m = { 0, 0, 0, 0 };
  double a = 0;
  unsigned i, k = 0;
  for (i = 0; i < n; i++) {
    a += s[i].color.alpha;
    if (s[i].color.kind != CT_COLOR_RGBA) continue;
    m.r += s[i].color.rgba.r; m.g += s[i].color.rgba.g; m.b += s[i].color.rgba.b; m.a += s[i].color.rgba.a;
    k++;
  }
  if (k == 0) return ct_color_foreground(a / n);
  m.r /= k; m.g /= k; m.b /= k; m.a /= k;
  {
    ct_color_t c = ct_color_rgba(m);
    c.alpha = a / n;
    return c;
  }
}

static ct_extend_t spread(const chain_t *c) {
  char *v = chain_attr(c, "spreadMethod");
  ct_extend_t e = CT_EXTEND_PAD;
  if (v && !strcmp(v, "reflect")) e = CT_EXTEND_REFLECT;
  else if (v && !strcmp(v, "repeat")) e = CT_EXTEND_REPEAT;
  if (v) xmlFree(v);
  return e;
}

/* Gradient space to font units: gradientTransform, then the box (objectBoundingBox),
   then m.  0 when the box is empty (nothing drawn, as SVG says). */
static int gradient_matrix(const chain_t *c, const double bbox[4], const double m[6], int *obb, double t[6]) {
  char *u = chain_attr(c, "gradientUnits"), *gt = chain_attr(c, "gradientTransform");
  double g[6];
  *obb = !(u && !strcmp(u, "userSpaceOnUse"));
  if (u) xmlFree(u);
  if (!gt || !ct_art_transform_parse(gt, g)) ct_art_matrix_identity(g);
  if (gt) xmlFree(gt);
  if (*obb) {
    double w = bbox[2] - bbox[0], h = bbox[3] - bbox[1];
    double b[6] = { w, 0, 0, h, bbox[0], bbox[1] };
    if (!(w > 0 && h > 0)) return 0;
    ct_art_matrix_multiply(g, g, b);
  }
  ct_art_matrix_multiply(t, g, m);
  return 1;
}

static ct_paint_t *linear(const chain_t *c, const ct_color_line_t *line, const double t[6], int obb,
                          const double bbox[4]) {
  /* percentages: of the box (objectBoundingBox: 0..1); in user space, of the shape's box
     too (the viewport is not known here: an approximation) */
  double rw = obb ? 1 : bbox[2] - bbox[0], rh = obb ? 1 : bbox[3] - bbox[1];
  double x1 = chain_length(c, "x1", rw, 0), y1 = chain_length(c, "y1", rh, 0);
  double x2 = chain_length(c, "x2", rw, rw), y2 = chain_length(c, "y2", rh, 0);
  /* p2: p0 plus the direction turned 90 degrees, in gradient space where SVG makes the
     stripes perpendicular to p0-p1; COLRv1's p0-p2 is the stripes' direction, and the
     three points map through any affine transform */
  double p[6] = { x1, y1, x2, y2, x1 - (y2 - y1), y1 + (x2 - x1) };
  ct_art_matrix_apply(t, &p[0], &p[1]);
  ct_art_matrix_apply(t, &p[2], &p[3]);
  ct_art_matrix_apply(t, &p[4], &p[5]);
  return ct_paint_linear_create(line, p);
}

static ct_paint_t *radial(const chain_t *c, const ct_color_line_t *line, const double t[6], int obb,
                          const double bbox[4], int *empty) {
  double rw = obb ? 1 : bbox[2] - bbox[0], rh = obb ? 1 : bbox[3] - bbox[1];
  double rd = obb ? 1 : sqrt((rw * rw + rh * rh) / 2);
  double cx = chain_length(c, "cx", rw, obb ? 0.5 : bbox[0] + rw / 2);
  double cy = chain_length(c, "cy", rh, obb ? 0.5 : bbox[1] + rh / 2);
  double r = chain_length(c, "r", rd, obb ? 0.5 : rd / 2);
  double fx = chain_length(c, "fx", rw, cx), fy = chain_length(c, "fy", rh, cy);
  double fr = chain_length(c, "fr", rd, 0);
  double a = t[0], b = t[1], cc = t[2], d = t[3];
  double s1 = a * a + b * b, s2 = cc * cc + d * d;
  if (r <= 0) {   /* SVG: the last stop's color over the area; drawn as nothing */
    *empty = 1;
    return NULL;
  }
  if (fabs(a * cc + b * d) <= 1e-9 * (s1 + s2) && fabs(s1 - s2) <= 1e-9 * (s1 + s2)) {
    /* a similarity (rotation, uniform scale, mirror): circles stay circles */
    double k = sqrt(s1), v[6] = { fx, fy, fr * k, cx, cy, r * k };
    ct_art_matrix_apply(t, &v[0], &v[1]);
    ct_art_matrix_apply(t, &v[3], &v[4]);
    return ct_paint_radial_create(line, v);
  } else {
    /* ellipses: the circles under a transform node */
    double v[6] = { fx, fy, fr, cx, cy, r };
    ct_paint_t *g = ct_paint_radial_create(line, v);
    return g ? ct_paint_transform_create(t, g) : NULL;
  }
}

ct_paint_t *ct_art_gradient_paint(xmlNodePtr el, const ct_art_ids_t *ids, const double bbox[4],
                                  const double m[6], double alpha, const ct_art_style_t *style,
                                  const ct_artwork_options_t *o, int *is_grad, int *nomem,
                                  char *why, size_t whylen) {
  chain_t c;
  ct_color_line_t line;
  ct_paint_t *p = NULL;
  double t[6];
  int n, obb, empty = 0;
  char d[160];

  *is_grad = 0;
  *nomem = 0;
  why[0] = 0;
  if (!make_chain(el, ids, &c, why, whylen)) return NULL;
  if (o->flat_only && !o->flatten_gradients) {
    describe(el, d, sizeof d);
    snprintf(why, whylen, "%s: gradients cannot be expressed in COLRv0 (--flatten-gradients, or --format colr1)", d);
    return NULL;
  }
  if ((n = read_stops(&c, style, alpha, &line.stops, why, whylen)) < 0) {
    *nomem = n == -1;
    if (n == -1) snprintf(why, whylen, "out of memory");
    return NULL;
  }
  line.count = (unsigned)n;
  line.extend = spread(&c);
  if (n == 0) goto done;   /* no stops: painted as none */
  if (n == 1 || o->flatten_gradients) {
    p = ct_paint_solid_create(n == 1 ? line.stops[0].color : mean_color(line.stops, line.count));
  } else {
    if (!gradient_matrix(&c, bbox, m, &obb, t)) goto done;
    p = c.linear ? linear(&c, &line, t, obb, bbox) : radial(&c, &line, t, obb, bbox, &empty);
    if (empty) goto done;
    *is_grad = p != NULL;
  }
  if (!p) {
    *nomem = 1;
    snprintf(why, whylen, "out of memory");
  }
done:
  free(line.stops);
  return p;
}
