/*
** artwork.c: an SVG drawing read as a color glyph (glyph/artwork/): the document parsed and
** checked, its viewport placed in the em, the elements walked (groups, uses, nested
** viewports, clip paths, opacity) into outlines and a paint tree; the folder's API.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "artwork-private.h"
#include "base/base.h"

#define SVG_NS   "http://www.w3.org/2000/svg"
#define XLINK_NS "http://www.w3.org/1999/xlink"
#define MAX_CLIPS 8   /* clip paths within clip paths */

typedef struct { const char *id; xmlNodePtr el; unsigned order; } id_entry_t;
struct ct_art_ids { id_entry_t *v; unsigned n, cap; };

typedef struct { double b[4]; int set; } box_t;

typedef struct {
  const char                 *name;
  const ct_artwork_options_t *o;
  ct_error_t                 *err;
  ct_artwork_t               *out;
  unsigned                    cap;        /* outlines allocated */
  FT_Library                  lib;
  ct_art_ids_t                ids;
  ct_status_t                 status;     /* the first failure */
  unsigned long               visits;     /* elements drawn, <use> repeats counted */
  xmlNodePtr                  uses[CT_MAX_SVG_DEPTH];
  unsigned                    nuses, nclips;
  double                      vw, vh;     /* the viewport's size in user units (for %) */
} ctx_t;

/* ---- what gradient.c and style.c share ------------------------------------------- */

const char *ct_art_svg_name(xmlNodePtr el) {
  if (!el || el->type != XML_ELEMENT_NODE) return NULL;
  if (el->ns && el->ns->href && strcmp((const char *)el->ns->href, SVG_NS) != 0) return NULL;
  return (const char *)el->name;
}

char *ct_art_attr(xmlNodePtr el, const char *name) {
  xmlChar *v = xmlGetNoNsProp(el, (const xmlChar *)name);
  if (!v && !strcmp(name, "href")) v = xmlGetNsProp(el, (const xmlChar *)"href", (const xmlChar *)XLINK_NS);
  return (char *)v;
}

static int id_cmp(const void *a, const void *b) {
  const id_entry_t *x = a, *y = b;
  int c = strcmp(x->id, y->id);
  return c ? c : (x->order < y->order ? -1 : x->order > y->order);
}

xmlNodePtr ct_art_find_id(const ct_art_ids_t *ids, const char *id) {
  unsigned lo = 0, hi = ids->n;
  while (lo < hi) {   /* the first of equal ids: the document's first */
    unsigned mid = lo + (hi - lo) / 2;
    if (strcmp(ids->v[mid].id, id) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo < ids->n && !strcmp(ids->v[lo].id, id) ? ids->v[lo].el : NULL;
}

/* ---- errors and warnings --------------------------------------------------------- */

/* The first failure, one line: "NAME: <el> (line N): what" (el NULL: "NAME: what"). */
static void fail(ctx_t *c, ct_status_t st, xmlNodePtr el, const char *fmt, ...) {
  char what[400];
  va_list ap;
  if (c->status) return;
  c->status = st;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (el)
    ct_set_error(c->err, st, "%s: <%s> (line %ld): %s", c->name, (const char *)el->name, xmlGetLineNo(el), what);
  else
    ct_set_error(c->err, st, "%s: %s", c->name, what);
}

static void warn(ctx_t *c, xmlNodePtr el, const char *fmt, ...) {
  char what[200];
  size_t n = strlen(c->out->warning);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (n + 3 >= sizeof c->out->warning) return;   /* the first ones are kept */
  snprintf(c->out->warning + n, sizeof c->out->warning - n, "%s<%s> (line %ld): %s", n ? "; " : "",
           (const char *)el->name, xmlGetLineNo(el), what);
}

/* ---- the document: parsing, ids, counts ------------------------------------------ */

/* What a color font cannot express, refused wherever it is in the file (in <defs> too:
   the drawing would look otherwise than its author saw it, or did before an edit). */
static int refused_element(ctx_t *c, xmlNodePtr el) {
  static const struct { const char *name, *why; } refused[] = {
    { "filter", "filters cannot be expressed in a color font" },
    { "mask", "masks cannot be expressed in a color font" },
    { "pattern", "patterns cannot be expressed in a color font" },
    { "text", "text cannot be drawn in a color font's glyphs (convert it to paths)" },
    { "tspan", "text cannot be drawn in a color font's glyphs (convert it to paths)" },
    { "textPath", "text cannot be drawn in a color font's glyphs (convert it to paths)" },
    { "image", "images cannot be expressed in a color font (only shapes)" },
    { "foreignObject", "foreign content cannot be expressed in a color font" },
  };
  const char *n = ct_art_svg_name(el);
  size_t i;
  if (!n) return 1;
  for (i = 0; i < sizeof refused / sizeof refused[0]; i++)
    if (!strcmp(n, refused[i].name)) {
      fail(c, CT_ERR_INVALID_IMAGE, el, "%s", refused[i].why);
      return 0;
    }
  if (!strcmp(n, "style")) {
    xmlChar *t = xmlNodeGetContent(el);
    const xmlChar *q = t;
    while (q && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')) q++;
    if (q && *q) {
      xmlFree(t);
      fail(c, CT_ERR_INVALID_IMAGE, el, "CSS style sheets are not read (give the styles as attributes or style=\"...\")");
      return 0;
    }
    if (t) xmlFree(t);
  }
  return 1;
}

static int collect(ctx_t *c, xmlNodePtr el, unsigned depth) {
  xmlNodePtr k;
  xmlChar *id;
  if (depth > CT_MAX_SVG_DEPTH) {
    fail(c, CT_ERR_LIMIT, el, "elements nested deeper than %u levels", CT_MAX_SVG_DEPTH);
    return 0;
  }
  if (++c->visits > CT_MAX_SVG_ELEMENTS) {
    fail(c, CT_ERR_LIMIT, NULL, "over %u elements", CT_MAX_SVG_ELEMENTS);
    return 0;
  }
  if (!refused_element(c, el)) return 0;
  if ((id = xmlGetNoNsProp(el, (const xmlChar *)"id"))) {
    if (c->ids.n == c->ids.cap) {
      unsigned cap = c->ids.cap ? 2 * c->ids.cap : 64;
      id_entry_t *v = realloc(c->ids.v, cap * sizeof *v);
      if (!v) { xmlFree(id); fail(c, CT_ERR_NOMEM, NULL, "out of memory"); return 0; }
      c->ids.v = v;
      c->ids.cap = cap;
    }
    c->ids.v[c->ids.n].id = (const char *)id;
    c->ids.v[c->ids.n].el = el;
    c->ids.v[c->ids.n].order = c->ids.n;
    c->ids.n++;
  }
  for (k = el->children; k; k = k->next)
    if (k->type == XML_ELEMENT_NODE && !collect(c, k, depth + 1)) return 0;
  return 1;
}

static xmlDocPtr parse(ctx_t *c, const unsigned char *data, size_t len) {
  int opts = XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES;
  xmlParserCtxtPtr px;
  xmlDocPtr x;
#if LIBXML_VERSION >= 21300
  opts |= XML_PARSE_NO_XXE;
#endif
  if (len > CT_MAX_ARTWORK_FILE_SIZE) {
    fail(c, CT_ERR_LIMIT, NULL, "a file of %zu bytes (over %u)", len, CT_MAX_ARTWORK_FILE_SIZE);
    return NULL;
  }
  if (!(px = xmlNewParserCtxt())) {
    fail(c, CT_ERR_NOMEM, NULL, "out of memory");
    return NULL;
  }
  x = xmlCtxtReadMemory(px, (const char *)data, (int)len, NULL, NULL, opts);
  if (!x || !px->wellFormed) {
    const xmlError *e = &px->lastError;
    const char *m = e->message ? e->message : "parse error";
    fail(c, CT_ERR_INVALID_IMAGE, NULL, "not well-formed XML (line %d: %.*s)", e->line, (int)strcspn(m, "\n"), m);
    if (x) xmlFreeDoc(x);
    x = NULL;
  }
  xmlFreeParserCtxt(px);
  if (x && x->intSubset && (x->intSubset->entities || x->intSubset->pentities)) {
    fail(c, CT_ERR_INVALID_IMAGE, NULL, "a DOCTYPE declaring entities (refused: entities are not expanded)");
    xmlFreeDoc(x);
    x = NULL;
  }
  return x;
}

/* ---- outlines -------------------------------------------------------------------- */

/* Takes `ol` into out->outlines, after the limits (an outline equal to one before is
   that one); its index, or -1 (failed). */
static long add_outline(ctx_t *c, xmlNodePtr el, FT_Outline *ol) {
  double far = 0;
  unsigned u;
  short i;
  for (i = 0; i < ol->n_points; i++) {
    double x = fabs((double)ol->points[i].x) / 64, y = fabs((double)ol->points[i].y) / 64;
    if (x > far) far = x;
    if (y > far) far = y;
  }
  if (far > CT_MAX_ARTWORK_COORD) {
    fail(c, CT_ERR_INVALID_IMAGE, el, "the drawing reaches %.0f font units from the origin (an absurd viewBox or stroke width?)", far);
    goto bad;
  }
  for (u = 0; u < c->out->count; u++) {   /* the same outline again (a <use> in place): shared */
    const FT_Outline *q = &c->out->outlines[u];
    if (q->n_points == ol->n_points && q->n_contours == ol->n_contours &&
        !memcmp(q->points, ol->points, (size_t)ol->n_points * sizeof *ol->points) &&
        !memcmp(q->tags, ol->tags, (size_t)ol->n_points) &&
        !memcmp(q->contours, ol->contours, (size_t)ol->n_contours * sizeof *ol->contours)) {
      ct_art_outline_free(ol);
      return (long)u;
    }
  }
  if (c->out->count >= CT_MAX_ARTWORK_SHAPES) {
    fail(c, CT_ERR_LIMIT, el, "over %u shapes", CT_MAX_ARTWORK_SHAPES);
    goto bad;
  }
  if (c->out->count == c->cap) {
    unsigned cap = c->cap ? 2 * c->cap : 16;
    FT_Outline *v = realloc(c->out->outlines, cap * sizeof *v);
    if (!v) { fail(c, CT_ERR_NOMEM, NULL, "out of memory"); goto bad; }
    c->out->outlines = v;
    c->cap = cap;
  }
  c->out->outlines[c->out->count] = *ol;
  return (long)c->out->count++;
bad:
  ct_art_outline_free(ol);
  return -1;
}

/* Before outlining: a box under m far beyond the limit (doubles that would not fit 26.6
   integers) is refused at once. */
static int box_sane(ctx_t *c, xmlNodePtr el, const double b[4], double margin) {
  double far = fmax(fmax(fabs(b[0]), fabs(b[1])), fmax(fabs(b[2]), fabs(b[3]))) + margin;
  if (!(far <= 64 * CT_MAX_ARTWORK_COORD)) {
    fail(c, CT_ERR_INVALID_IMAGE, el, "the drawing reaches %.3g font units from the origin (an absurd viewBox or stroke width?)", far);
    return 0;
  }
  return 1;
}

static ct_paint_t *nomem(ctx_t *c) {
  fail(c, CT_ERR_NOMEM, NULL, "out of memory");
  return NULL;
}

/* The glyph node of outline `ol` (taken) over `paint` (taken). */
static ct_paint_t *glyph_node(ctx_t *c, xmlNodePtr el, FT_Outline *ol, ct_paint_t *paint) {
  long idx = add_outline(c, el, ol);
  ct_paint_t *g;
  if (idx < 0) { ct_paint_destroy(paint); return NULL; }
  if (!(g = ct_paint_glyph_create(NULL, (unsigned)idx, paint))) return nomem(c);
  return g;
}

/* ---- paints ---------------------------------------------------------------------- */

static ct_paint_t *solid(ctx_t *c, int kind, ct_rgba_t rgba, const ct_art_style_t *st, double alpha) {
  ct_color_t col;
  ct_paint_t *p;
  if (kind == CT_ART_PAINT_CURRENT && !st->has_color) {
    col = ct_color_foreground(alpha);
  } else {
    col = ct_color_rgba(kind == CT_ART_PAINT_CURRENT ? st->color : rgba);
    col.alpha = alpha;
  }
  if (!(p = ct_paint_solid_create(col))) return nomem(c);
  return p;
}

/* The paint of fill or stroke `ps`; NULL with c->status 0: nothing is painted. */
static ct_paint_t *paint_of(ctx_t *c, xmlNodePtr el, const ct_art_paintspec_t *ps, const ct_art_style_t *st,
                            double alpha, const double bbox[4], const double ctm[6]) {
  xmlNodePtr t;
  const char *tn;
  if (ps->kind == CT_ART_PAINT_NONE || alpha <= 0) return NULL;
  if (ps->kind != CT_ART_PAINT_URL) return solid(c, ps->kind, ps->rgba, st, alpha);
  t = ct_art_find_id(&c->ids, ps->id);
  tn = ct_art_svg_name(t);
  if (tn && (!strcmp(tn, "linearGradient") || !strcmp(tn, "radialGradient"))) {
    char why[300];
    int grad, oom;
    ct_paint_t *p = ct_art_gradient_paint(t, &c->ids, bbox, ctm, alpha, st, c->o, &grad, &oom, why, sizeof why);
    if (!p && why[0]) {
      if (oom) return nomem(c);
      fail(c, CT_ERR_INVALID_IMAGE, NULL, "%s", why);
    }
    c->out->gradients += grad;
    return p;
  }
  if (tn && !strcmp(tn, "pattern")) {
    fail(c, CT_ERR_INVALID_IMAGE, t, "patterns cannot be expressed in a color font");
    return NULL;
  }
  warn(c, el, "url(#%s) %s", ps->id, t ? "is not a paint server" : "not found");
  if (ps->fallback == CT_ART_PAINT_NONE) return NULL;
  return solid(c, ps->fallback, ps->fallback_rgba, st, alpha);
}

/* ---- shapes ---------------------------------------------------------------------- */

static double len_attr(ctx_t *c, xmlNodePtr el, const char *name, int axis) {
  double ref = axis == 0 ? c->vw : axis == 1 ? c->vh : sqrt((c->vw * c->vw + c->vh * c->vh) / 2);
  return ct_art_attr_length(el, name, ref, 0);
}

static int has_attr(xmlNodePtr el, const char *name) {
  return xmlHasNsProp(el, (const xmlChar *)name, NULL) != NULL;
}

static void shape_rect(ctx_t *c, xmlNodePtr el, ct_art_path_t *p) {
  double w = len_attr(c, el, "width", 0), h = len_attr(c, el, "height", 1);
  double rx = len_attr(c, el, "rx", 0), ry = len_attr(c, el, "ry", 1);
  int hx = has_attr(el, "rx") && rx >= 0, hy = has_attr(el, "ry") && ry >= 0;
  if (!hx) rx = hy ? ry : 0;   /* auto: the other one */
  if (!hy) ry = hx ? rx : 0;
  rx = fmin(fmax(rx, 0), w / 2);
  ry = fmin(fmax(ry, 0), h / 2);
  ct_art_path_rect(p, len_attr(c, el, "x", 0), len_attr(c, el, "y", 1), w, h, rx, ry);
}

/* The shape's path in user units; NULL out of memory.  Bad data: drawn up to the error. */
static ct_art_path_t *shape_path(ctx_t *c, xmlNodePtr el, const char *n) {
  ct_art_path_t *p = ct_art_path_new();
  char why[160] = "", *a = NULL;
  int ok = 1;
  if (!p) return NULL;
  if (!strcmp(n, "path")) {
    if ((a = ct_art_attr(el, "d"))) ok = ct_art_path_data(p, a, why, sizeof why);
  } else if (!strcmp(n, "rect")) {
    shape_rect(c, el, p);
  } else if (!strcmp(n, "circle")) {
    double r = len_attr(c, el, "r", 2);
    if (r > 0) ct_art_path_ellipse(p, len_attr(c, el, "cx", 0), len_attr(c, el, "cy", 1), r, r);
  } else if (!strcmp(n, "ellipse")) {
    double rx = len_attr(c, el, "rx", 0), ry = len_attr(c, el, "ry", 1);
    if (!has_attr(el, "rx")) rx = ry;   /* SVG 2's auto */
    if (!has_attr(el, "ry")) ry = rx;
    if (rx > 0 && ry > 0) ct_art_path_ellipse(p, len_attr(c, el, "cx", 0), len_attr(c, el, "cy", 1), rx, ry);
  } else if (!strcmp(n, "line")) {
    ct_art_path_line(p, len_attr(c, el, "x1", 0), len_attr(c, el, "y1", 1), len_attr(c, el, "x2", 0),
                     len_attr(c, el, "y2", 1));
  } else if ((a = ct_art_attr(el, "points"))) {
    ok = ct_art_path_points(p, a, !strcmp(n, "polygon"), why, sizeof why);
  }
  if (a) xmlFree(a);
  if (!ok) warn(c, el, "%s", why);
  return p;
}

static double matrix_scale(const double m[6]) {   /* the largest stretch of m */
  return sqrt(fmax(m[0] * m[0] + m[1] * m[1], m[2] * m[2] + m[3] * m[3]));
}

static ct_paint_t *stroke_layer(ctx_t *c, xmlNodePtr el, const ct_art_path_t *p, const ct_art_style_t *st,
                                const double ctm[6], const double ub[4], const double fb[4]) {
  ct_art_stroke_t s;
  FT_Outline ol;
  ct_paint_t *paint;
  int failed = 0;
  double reach = st->stroke_width * matrix_scale(ctm) * fmax(st->miterlimit, 1.5);
  if (st->stroke.kind == CT_ART_PAINT_NONE || !(st->stroke_width > 0)) return NULL;
  if (!box_sane(c, el, fb, reach)) return NULL;
  s.width = st->stroke_width;
  s.miterlimit = st->miterlimit;
  s.join = st->join;
  s.cap = st->cap;
  s.dashes = st->ndashes ? st->dashes : NULL;
  s.ndashes = st->ndashes;
  s.dash_offset = st->dash_offset;
  memset(&ol, 0, sizeof ol);
  if (!ct_art_stroke_outline(p, ctm, &s, &c->lib, &ol, &failed)) {
    if (failed) fail(c, CT_ERR_LIMIT, el, "the stroke could not be outlined (out of memory, or over the limits)");
    return NULL;
  }
  paint = paint_of(c, el, &st->stroke, st, st->stroke_opacity, ub, ctm);   /* the fill's box, as SVG says */
  if (!paint) { ct_art_outline_free(&ol); return NULL; }
  return glyph_node(c, el, &ol, paint);
}

/* A basic shape or path: its fill, then its stroke. */
static ct_paint_t *draw_shape(ctx_t *c, xmlNodePtr el, const char *n, const ct_art_style_t *st,
                              const double ctm[6], box_t *box) {
  static const double id[6] = { 1, 0, 0, 1, 0, 0 };
  ct_art_path_t *p = shape_path(c, el, n);
  ct_paint_t *layers[2] = { NULL, NULL }, *r = NULL;
  double ub[4], fb[4];
  int k = 0;
  if (!p) return nomem(c);
  if (ct_art_path_failed(p)) { fail(c, CT_ERR_LIMIT, el, "a path over %u points", CT_MAX_ARTWORK_POINTS); goto done; }
  if (!ct_art_path_bounds(p, id, ub) || !ct_art_path_bounds(p, ctm, fb)) goto done;
  box->set ? (void)(box->b[0] = fmin(box->b[0], ub[0]), box->b[1] = fmin(box->b[1], ub[1]),
                    box->b[2] = fmax(box->b[2], ub[2]), box->b[3] = fmax(box->b[3], ub[3]))
           : (void)memcpy(box->b, ub, sizeof ub);
  box->set = 1;
  if (st->hidden) goto done;
  if (st->fill.kind != CT_ART_PAINT_NONE && box_sane(c, el, fb, 0)) {
    FT_Outline ol;
    int failed = 0;
    memset(&ol, 0, sizeof ol);
    if (ct_art_fill_outline(p, ctm, st->fill_evenodd, &ol, &failed)) {
      ct_paint_t *paint = paint_of(c, el, &st->fill, st, st->fill_opacity, ub, ctm);
      if (paint) layers[k++] = glyph_node(c, el, &ol, paint);
      else ct_art_outline_free(&ol);
    } else if (failed) {
      nomem(c);
    }
  }
  if (!c->status && (layers[k] = stroke_layer(c, el, p, st, ctm, ub, fb))) k++;
  if (c->status) goto done;
  if (k == 1) {
    r = layers[0];
    layers[0] = NULL;
  } else if (k == 2) {   /* paint-order normal: fill below stroke */
    if (!(r = ct_paint_layers_create(2))) { nomem(c); goto done; }
    ct_paint_layers_append(r, layers[0]);
    ct_paint_layers_append(r, layers[1]);
    layers[0] = layers[1] = NULL;
  }
done:
  ct_paint_destroy(layers[0]);
  ct_paint_destroy(layers[1]);
  ct_art_path_free(p);
  return r;
}

/* ---- opacity --------------------------------------------------------------------- */

static ct_color_line_t *line_of(ct_paint_t *p) {
  switch (p->kind) {
  case CT_PAINT_LINEAR: return &p->u.linear.line;
  case CT_PAINT_RADIAL: return &p->u.radial.line;
  case CT_PAINT_SWEEP: return &p->u.sweep.line;
  default: return NULL;
  }
}

/* The one color leaf of a tree of one layer (glyph, transform nodes over a solid or a
   gradient), where an opacity can be multiplied in; NULL when there are several. */
static ct_paint_t *single_leaf(ct_paint_t *p) {
  while (p) {
    switch (p->kind) {
    case CT_PAINT_GLYPH: p = p->u.glyph.child; break;
    case CT_PAINT_TRANSFORM: p = p->u.transform.child; break;
    case CT_PAINT_CLIP: p = p->u.clip.child; break;
    case CT_PAINT_SOLID: case CT_PAINT_LINEAR: case CT_PAINT_RADIAL: case CT_PAINT_SWEEP: return p;
    case CT_PAINT_COMPOSITE:   /* a group opacity made before: its alpha */
      if (p->u.composite.mode == CT_COMPOSITE_DEST_IN && p->u.composite.source->kind == CT_PAINT_SOLID)
        return p->u.composite.source;
      return NULL;
    default: return NULL;
    }
  }
  return NULL;
}

/* Group opacity.  One layer: the alpha multiplied into its color (the nodes are this
   reader's own, not shared yet, so they are changed in place).  Several: the layers
   composited DEST_IN with a solid of that alpha, which COLRv1 has (PaintComposite) and
   the OT-SVG writer draws as an alpha mask (svgwrite.c); SRC_IN would be the same with the
   sides swapped, but DEST_IN keeps the drawing as the backdrop, read first. */
static ct_paint_t *apply_opacity(ctx_t *c, xmlNodePtr el, ct_paint_t *p, double a) {
  ct_paint_t *leaf = single_leaf(p), *s;
  ct_color_line_t *line;
  ct_rgba_t black = { 0, 0, 0, 1 };
  ct_color_t col;
  if (!p || a >= 1) return p;
  if (a <= 0) { ct_paint_destroy(p); return NULL; }
  if (leaf && leaf->kind == CT_PAINT_SOLID) {
    leaf->u.solid.color.alpha *= a;
    return p;
  }
  if (leaf && (line = line_of(leaf))) {
    unsigned i;
    for (i = 0; i < line->count; i++) line->stops[i].color.alpha *= a;
    return p;
  }
  if (c->o->flat_only) {
    fail(c, CT_ERR_INVALID_IMAGE, el, "opacity over several shapes cannot be expressed in COLRv0 (use --format colr1)");
    ct_paint_destroy(p);
    return NULL;
  }
  col = ct_color_rgba(black);
  col.alpha = a;
  if (!(s = ct_paint_solid_create(col))) { ct_paint_destroy(p); return nomem(c); }
  if (!(p = ct_paint_composite_create(CT_COMPOSITE_DEST_IN, s, p))) return nomem(c);
  return p;
}

/* ---- the walk -------------------------------------------------------------------- */

static ct_paint_t *draw_element(ctx_t *c, xmlNodePtr el, const ct_art_style_t *ps, const double ctm[6],
                                box_t *pbox, unsigned depth);

/* Layers of the drawn children (NULL none; the one layer itself). */
static ct_paint_t *draw_children(ctx_t *c, xmlNodePtr el, const ct_art_style_t *st, const double ctm[6],
                                 box_t *box, unsigned depth, int first_only) {
  ct_paint_t *layers = NULL, *r;
  xmlNodePtr k;
  for (k = el->children; k && !c->status; k = k->next) {
    ct_paint_t *p;
    if (k->type != XML_ELEMENT_NODE) continue;
    p = draw_element(c, k, st, ctm, box, depth + 1);
    if (p) {
      if (!layers && !(layers = ct_paint_layers_create(4))) { ct_paint_destroy(p); return nomem(c); }
      if (ct_paint_layers_append(layers, p) != CT_OK) { nomem(c); break; }
    }
    if (first_only) break;   /* <switch>: its first child (no test attributes are honoured) */
  }
  if (c->status || !layers) { ct_paint_destroy(layers); return NULL; }
  if (layers->u.layers.count != 1) return layers;
  r = ct_paint_reference(layers->u.layers.children[0]);
  ct_paint_destroy(layers);
  return r;
}

/* ---- viewports ------------------------------------------------------------------- */

/* viewBox: 1 with vb set, 0 absent or malformed, -1 of a zero or negative size. */
static int viewbox(xmlNodePtr el, double vb[4]) {
  char *a = ct_art_attr(el, "viewBox");
  const char *s = a;
  int i, r = 1;
  if (!a) return 0;
  for (i = 0; i < 4 && r; i++) {
    if (!ct_art_number(s, &vb[i], &s)) r = 0;
    while (*s == ' ' || *s == ',' || *s == '\t' || *s == '\n' || *s == '\r') s++;
  }
  xmlFree(a);
  if (r && !(vb[2] > 0 && vb[3] > 0)) r = -1;
  return r;
}

/* The viewBox mapped into the viewport (x, y, w, h) as preserveAspectRatio says. */
static void viewbox_map(xmlNodePtr el, const double vb[4], double x, double y, double w, double h, double m[6]) {
  char *a = ct_art_attr(el, "preserveAspectRatio");
  const char *s = a ? a : "xMidYMid meet";
  double sx = w / vb[2], sy = h / vb[3], ax = 0.5, ay = 0.5;
  while (*s == ' ') s++;
  if (!strncmp(s, "defer", 5)) for (s += 5; *s == ' '; s++) {}
  if (strncmp(s, "none", 4) != 0) {
    int slice = strstr(s, "slice") != NULL;
    double k = slice ? fmax(sx, sy) : fmin(sx, sy);
    if (strlen(s) >= 8 && s[0] == 'x' && s[4] == 'Y') {
      ax = !strncmp(s + 1, "Min", 3) ? 0 : !strncmp(s + 1, "Max", 3) ? 1 : 0.5;
      ay = !strncmp(s + 5, "Min", 3) ? 0 : !strncmp(s + 5, "Max", 3) ? 1 : 0.5;
    }
    sx = sy = k;
  } else {
    ax = ay = 0;
  }
  m[0] = sx; m[1] = 0; m[2] = 0; m[3] = sy;
  m[4] = x - vb[0] * sx + (w - vb[2] * sx) * ax;
  m[5] = y - vb[1] * sy + (h - vb[3] * sy) * ay;
  if (a) xmlFree(a);
}

static void box_add(box_t *to, const double m[6], const box_t *from) {
  double b[4];
  if (!from->set) return;
  ct_art_box_map(m, from->b, b);
  if (!to->set) { memcpy(to->b, b, sizeof b); to->set = 1; return; }
  to->b[0] = fmin(to->b[0], b[0]); to->b[1] = fmin(to->b[1], b[1]);
  to->b[2] = fmax(to->b[2], b[2]); to->b[3] = fmax(to->b[3], b[3]);
}

/* A nested <svg> or a used <symbol>: its children in the viewport (x, y, w, h) of the
   user space `ctm` maps, clipped to it when they reach outside (overflow hidden). */
static ct_paint_t *draw_viewport(ctx_t *c, xmlNodePtr el, const ct_art_style_t *st, const double ctm[6],
                                 const double vp[4], box_t *box, unsigned depth) {
  double vb[4], m[6], lctm[6], ow = c->vw, oh = c->vh;
  box_t inner = { { 0, 0, 0, 0 }, 0 };
  ct_paint_t *p;
  char *ov;
  int v = viewbox(el, vb), clip;
  if (v < 0 || !(vp[2] > 0 && vp[3] > 0)) return NULL;   /* rendering disabled, as SVG says */
  if (v) {
    viewbox_map(el, vb, vp[0], vp[1], vp[2], vp[3], m);
    c->vw = vb[2];
    c->vh = vb[3];
  } else {
    double t[6] = { 1, 0, 0, 1, vp[0], vp[1] };
    memcpy(m, t, sizeof t);
    c->vw = vp[2];
    c->vh = vp[3];
  }
  ct_art_matrix_multiply(lctm, m, ctm);
  p = draw_children(c, el, st, lctm, &inner, depth, 0);
  c->vw = ow;
  c->vh = oh;
  box_add(box, m, &inner);
  ov = ct_art_attr(el, "overflow");
  clip = !(ov && (!strcmp(ov, "visible") || !strcmp(ov, "auto")));
  if (ov) xmlFree(ov);
  if (p && clip && box->set &&
      (box->b[0] < vp[0] || box->b[1] < vp[1] || box->b[2] > vp[0] + vp[2] || box->b[3] > vp[1] + vp[3])) {
    ct_art_path_t *r;
    if (c->o->flat_only) {
      fail(c, CT_ERR_INVALID_IMAGE, el, "its drawing reaches outside its viewport, a clip COLRv0 cannot express "
           "(overflow=\"visible\", or --format colr1)");
      ct_paint_destroy(p);
      return NULL;
    }
    r = ct_art_path_new();
    FT_Outline ol;
    int failed = 0;
    memset(&ol, 0, sizeof ol);
    if (!r) { ct_paint_destroy(p); return nomem(c); }
    ct_art_path_rect(r, vp[0], vp[1], vp[2], vp[3], 0, 0);
    if (ct_art_fill_outline(r, ctm, 0, &ol, &failed)) p = glyph_node(c, el, &ol, p);
    else { ct_paint_destroy(p); p = failed ? nomem(c) : NULL; }
    ct_art_path_free(r);
  }
  return p;
}

/* ---- use ------------------------------------------------------------------------- */

static int is_ancestor(xmlNodePtr a, xmlNodePtr el) {
  for (; el; el = el->parent)
    if (el == a) return 1;
  return 0;
}

static xmlNodePtr use_target(ctx_t *c, xmlNodePtr el) {
  char *h = ct_art_attr(el, "href");
  xmlNodePtr t = NULL;
  unsigned i;
  if (h && h[0] == '#') t = ct_art_find_id(&c->ids, h + 1);
  else if (h) warn(c, el, "href=\"%.40s\": only references within the file are followed", h);
  if (h && h[0] == '#' && !t) warn(c, el, "href=\"%.40s\" not found", h);
  if (h) xmlFree(h);
  if (!t) return NULL;
  for (i = 0; i < c->nuses; i++)
    if (c->uses[i] == t) break;
  if (i < c->nuses || is_ancestor(t, el)) {
    fail(c, CT_ERR_INVALID_IMAGE, el, "its reference is a cycle (an element that uses itself)");
    return NULL;
  }
  if (c->nuses == CT_MAX_SVG_DEPTH) {
    fail(c, CT_ERR_LIMIT, el, "<use> nested deeper than %u levels", CT_MAX_SVG_DEPTH);
    return NULL;
  }
  return t;
}

/* <use> (its x, y already in ctm): the element it references drawn here, a <symbol> or
   an <svg> in the viewport of the use's width and height. */
static ct_paint_t *draw_use(ctx_t *c, xmlNodePtr el, const ct_art_style_t *st, const double ctm[6], box_t *box,
                            unsigned depth) {
  xmlNodePtr t = use_target(c, el);
  const char *tn = ct_art_svg_name(t);
  ct_paint_t *p = NULL;
  if (!t || !tn) return NULL;
  c->uses[c->nuses++] = t;
  if (!strcmp(tn, "symbol") || !strcmp(tn, "svg")) {
    ct_art_style_t ts;
    char why[300];
    double vp[4];
    vp[0] = !strcmp(tn, "svg") ? len_attr(c, t, "x", 0) : 0;
    vp[1] = !strcmp(tn, "svg") ? len_attr(c, t, "y", 1) : 0;
    vp[2] = ct_art_attr_length(el, "width", c->vw, ct_art_attr_length(t, "width", c->vw, c->vw));
    vp[3] = ct_art_attr_length(el, "height", c->vh, ct_art_attr_length(t, "height", c->vh, c->vh));
    if (!ct_art_style_compute(&ts, st, t, why, sizeof why)) fail(c, CT_ERR_INVALID_IMAGE, t, "%s", why);
    else if (!ts.display_none) p = apply_opacity(c, t, draw_viewport(c, t, &ts, ctm, vp, box, depth + 1), ts.opacity);
  } else {
    p = draw_element(c, t, st, ctm, box, depth + 1);
  }
  c->nuses--;
  return p;
}

/* ---- clip paths ------------------------------------------------------------------ */

/* A shape (or a use of one) of a clip path appended to `u` in the clip path's units. */
static void clip_child(ctx_t *c, xmlNodePtr k, const ct_art_style_t *cst, const double m[6], ct_art_path_t *u,
                       int *evenodd, unsigned depth) {
  const char *n = ct_art_svg_name(k);
  ct_art_style_t ks;
  char why[300], *tr;
  double t[6], km[6];
  if (!n || depth > 4) return;
  if (!ct_art_style_compute(&ks, cst, k, why, sizeof why)) { fail(c, CT_ERR_INVALID_IMAGE, k, "%s", why); return; }
  if (ks.display_none || ks.hidden) return;
  if (!(tr = ct_art_attr(k, "transform")) || !ct_art_transform_parse(tr, t)) ct_art_matrix_identity(t);
  if (tr) xmlFree(tr);
  if (!strcmp(n, "use")) {
    double tt[6] = { 1, 0, 0, 1, len_attr(c, k, "x", 0), len_attr(c, k, "y", 1) };
    xmlNodePtr target = use_target(c, k);
    ct_art_matrix_multiply(t, tt, t);
    ct_art_matrix_multiply(km, t, m);
    if (target) clip_child(c, target, &ks, km, u, evenodd, depth + 1);
    return;
  }
  if (strcmp(n, "path") && strcmp(n, "rect") && strcmp(n, "circle") && strcmp(n, "ellipse") &&
      strcmp(n, "line") && strcmp(n, "polyline") && strcmp(n, "polygon")) {
    if (strcmp(n, "title") && strcmp(n, "desc")) warn(c, k, "not a shape: left out of the clip path");
    return;
  }
  ct_art_matrix_multiply(km, t, m);
  {
    ct_art_path_t *p = shape_path(c, k, n);
    if (!p) { nomem(c); return; }
    ct_art_path_append(u, p, km);
    ct_art_path_free(p);
  }
  *evenodd = *evenodd && ks.clip_evenodd;
}

/* `p` clipped by the clipPath of id `id` (its shapes unioned; its own clip-path nested),
   in the user space of `ctm`, `lbox` the clipped element's box (objectBoundingBox). */
static ct_paint_t *apply_clip(ctx_t *c, xmlNodePtr el, ct_paint_t *p, const char *id, const ct_art_style_t *st,
                              const double ctm[6], const box_t *lbox) {
  xmlNodePtr t = ct_art_find_id(&c->ids, id), k;
  const char *tn = ct_art_svg_name(t);
  ct_art_style_t cst, init;
  ct_art_path_t *u = NULL;
  double um[6] = { 1, 0, 0, 1, 0, 0 }, tm[6], cm[6], b[4];
  char why[300], *a;
  int evenodd = 1, failed = 0;
  FT_Outline ol;
  if (!p) return NULL;
  if (!tn || strcmp(tn, "clipPath")) {
    warn(c, el, "clip-path url(#%s) %s", id, t ? "is not a clipPath" : "not found");
    return p;
  }
  if (c->o->flat_only) {
    fail(c, CT_ERR_INVALID_IMAGE, el, "clip-path cannot be expressed in COLRv0 (use --format colr1)");
    goto none;
  }
  if (c->nclips >= MAX_CLIPS) {
    fail(c, CT_ERR_INVALID_IMAGE, t, "clip paths nested deeper than %u (a cycle?)", MAX_CLIPS);
    goto none;
  }
  ct_art_style_init(&init);
  (void)st;   /* a clip path's shapes inherit from the clipPath's ancestors, not the clipped */
  if (!ct_art_style_compute(&cst, &init, t, why, sizeof why)) { fail(c, CT_ERR_INVALID_IMAGE, t, "%s", why); goto none; }
  if ((a = ct_art_attr(t, "clipPathUnits")) && !strcmp(a, "objectBoundingBox")) {
    if (!lbox->set) { xmlFree(a); goto none; }
    um[0] = lbox->b[2] - lbox->b[0]; um[3] = lbox->b[3] - lbox->b[1];
    um[4] = lbox->b[0]; um[5] = lbox->b[1];
  }
  if (a) xmlFree(a);
  if (!(a = ct_art_attr(t, "transform")) || !ct_art_transform_parse(a, tm)) ct_art_matrix_identity(tm);
  if (a) xmlFree(a);
  ct_art_matrix_multiply(cm, tm, um);
  ct_art_matrix_multiply(cm, cm, ctm);
  if (!(u = ct_art_path_new())) { nomem(c); goto none; }
  for (k = t->children; k && !c->status; k = k->next)
    if (k->type == XML_ELEMENT_NODE) clip_child(c, k, &cst, (const double[6]){ 1, 0, 0, 1, 0, 0 }, u, &evenodd, 0);
  if (c->status) goto none;
  if (ct_art_path_is_empty(u) || !ct_art_path_bounds(u, cm, b)) evenodd = 0;   /* nothing: all clipped */
  if (ct_art_path_is_empty(u) || !box_sane(c, t, b, 0)) goto none;
  memset(&ol, 0, sizeof ol);
  /* one outline for all the shapes, nonzero unless all are evenodd: exact for shapes
     that do not overlap with opposite windings */
  if (!ct_art_fill_outline(u, cm, evenodd, &ol, &failed)) {
    if (failed) nomem(c);
    goto none;
  }
  ct_art_path_free(u);
  p = glyph_node(c, t, &ol, p);
  if (p && cst.clip_path[0]) {
    c->nclips++;
    p = apply_clip(c, t, p, cst.clip_path, &cst, ctm, lbox);
    c->nclips--;
  }
  return p;
none:
  ct_art_path_free(u);
  ct_paint_destroy(p);
  return NULL;
}

/* ---- elements -------------------------------------------------------------------- */

static int in_list(const char *n, const char *const *list) {
  for (; *list; list++)
    if (!strcmp(n, *list)) return 1;
  return 0;
}

static const char *const shapes[] = { "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", NULL };
static const char *const not_drawn[] = {
  "title", "desc", "metadata", "defs", "symbol", "linearGradient", "radialGradient", "clipPath", "stop",
  "marker", "view", "cursor", "style", NULL
};
static const char *const animations[] = { "animate", "set", "animateTransform", "animateMotion", "animateColor",
                                          "mpath", "discard", NULL };

/* Element `el` under its parent's style `ps` and user space `ctm`; its box (in the
   parent's user space) added to pbox.  NULL: nothing drawn, or c->status. */
static ct_paint_t *draw_element(ctx_t *c, xmlNodePtr el, const ct_art_style_t *ps, const double ctm[6],
                                box_t *pbox, unsigned depth) {
  const char *n = ct_art_svg_name(el);
  ct_art_style_t st;
  ct_paint_t *p = NULL;
  box_t lbox = { { 0, 0, 0, 0 }, 0 };
  double t[6], lctm[6];
  char why[300], *a;

  if (!n || c->status || in_list(n, not_drawn)) return NULL;
  if (++c->visits > CT_MAX_SVG_ELEMENTS) {
    fail(c, CT_ERR_LIMIT, NULL, "over %u elements (with those <use> repeats)", CT_MAX_SVG_ELEMENTS);
    return NULL;
  }
  if (depth > CT_MAX_SVG_DEPTH) {
    fail(c, CT_ERR_LIMIT, el, "elements nested deeper than %u levels (with those <use> adds)", CT_MAX_SVG_DEPTH);
    return NULL;
  }
  if (in_list(n, animations) || !strcmp(n, "script")) {
    warn(c, el, "%s", !strcmp(n, "script") ? "scripts are not run" : "animations are not kept");
    return NULL;
  }
  if (!in_list(n, shapes) && strcmp(n, "g") && strcmp(n, "a") && strcmp(n, "switch") && strcmp(n, "use") &&
      strcmp(n, "svg")) {
    fail(c, CT_ERR_INVALID_IMAGE, el, "an element this reader does not draw");
    return NULL;
  }
  if (!ct_art_style_compute(&st, ps, el, why, sizeof why)) {
    fail(c, CT_ERR_INVALID_IMAGE, el, "%s", why);
    return NULL;
  }
  if (st.display_none) return NULL;
  if (!(a = ct_art_attr(el, "transform")) || !ct_art_transform_parse(a, t)) {
    if (a) warn(c, el, "transform=\"%.40s\" is malformed: left out", a);
    ct_art_matrix_identity(t);
  }
  if (a) xmlFree(a);
  if (!strcmp(n, "use")) {   /* x, y: a translation after the transform */
    double tt[6] = { 1, 0, 0, 1, len_attr(c, el, "x", 0), len_attr(c, el, "y", 1) };
    ct_art_matrix_multiply(t, tt, t);
  }
  ct_art_matrix_multiply(lctm, t, ctm);
  if (in_list(n, shapes)) {
    p = draw_shape(c, el, n, &st, lctm, &lbox);
  } else if (!strcmp(n, "use")) {
    p = draw_use(c, el, &st, lctm, &lbox, depth);
  } else if (!strcmp(n, "svg")) {
    double vp[4] = { len_attr(c, el, "x", 0), len_attr(c, el, "y", 1),
                     ct_art_attr_length(el, "width", c->vw, c->vw), ct_art_attr_length(el, "height", c->vh, c->vh) };
    p = draw_viewport(c, el, &st, lctm, vp, &lbox, depth);
  } else {
    p = draw_children(c, el, &st, lctm, &lbox, depth, !strcmp(n, "switch"));
  }
  if (c->status) { ct_paint_destroy(p); return NULL; }
  p = apply_opacity(c, el, p, st.opacity);
  if (p && st.clip_path[0]) p = apply_clip(c, el, p, st.clip_path, &st, lctm, &lbox);
  if (c->status) { ct_paint_destroy(p); return NULL; }
  box_add(pbox, t, &lbox);
  return p;
}

/* ---- the root and the API -------------------------------------------------------- */

void ct_artwork_options_init(ct_artwork_options_t *o) {
  memset(o, 0, sizeof *o);
  o->upem = 1024;
  o->ascent = 819;
  o->descent = -205;
}

void ct_artwork_free(ct_artwork_t *a) {
  unsigned i;
  if (!a) return;
  for (i = 0; i < a->count; i++) ct_art_outline_free(&a->outlines[i]);
  free(a->outlines);
  ct_paint_destroy(a->tree);
  memset(a, 0, sizeof *a);
}

/* The root <svg>: its viewBox into its viewport, the viewport into the em (height spans
   upem, y up).  0 when refused. */
static int root_matrix(ctx_t *c, xmlNodePtr root, double m[6]) {
  const ct_artwork_options_t *o = c->o;
  double vb[4], w, h, s, bottom, f[6];
  int v = viewbox(root, vb), hw, hh;
  char *aw = ct_art_attr(root, "width"), *ah = ct_art_attr(root, "height");
  hw = aw && !strchr(aw, '%') && ct_art_length(aw, 0, &w) && w > 0;
  hh = ah && !strchr(ah, '%') && ct_art_length(ah, 0, &h) && h > 0;
  if (aw) xmlFree(aw);
  if (ah) xmlFree(ah);
  if (v < 0) {
    fail(c, CT_ERR_INVALID_IMAGE, root, "a viewBox of zero or negative size");
    return 0;
  }
  if (!v && !(hw && hh)) {
    fail(c, CT_ERR_INVALID_IMAGE, root, "neither a viewBox nor a width and height: the drawing has no size");
    return 0;
  }
  if (!v) { vb[0] = vb[1] = 0; vb[2] = w; vb[3] = h; }
  if (!hw) w = hh ? h * vb[2] / vb[3] : vb[2];   /* one of them: the other keeps the viewBox's ratio */
  if (!hh) h = hw ? w * vb[3] / vb[2] : vb[3];
  viewbox_map(root, vb, 0, 0, w, h, m);
  c->vw = vb[2];
  c->vh = vb[3];
  s = o->upem / h;
  bottom = o->descent + (o->ascent - o->descent - o->upem) / 2;
  c->out->advance = o->advance > 0 ? o->advance : w * s;
  f[0] = s; f[1] = 0; f[2] = 0; f[3] = -s;
  f[4] = o->advance > 0 ? (o->advance - w * s) / 2 : 0;
  f[5] = bottom + o->upem;
  ct_art_matrix_multiply(m, m, f);
  if (!(isfinite(m[0]) && isfinite(m[3]) && isfinite(m[4]) && isfinite(m[5]) && isfinite(c->out->advance)) ||
      fabs(c->out->advance) > CT_MAX_ARTWORK_COORD) {
    fail(c, CT_ERR_INVALID_IMAGE, root, "the drawing reaches %.3g font units from the origin (an absurd viewBox or stroke width?)",
         c->out->advance);
    return 0;
  }
  return 1;
}

static ct_status_t finish_tree(ctx_t *c, xmlNodePtr root) {
  ct_paint_t *t = c->out->tree;
  if (!t) return CT_OK;
  if (t->weight > CT_MAX_PAINT_WORK) {
    fail(c, CT_ERR_LIMIT, root, "a paint tree of over %u nodes", CT_MAX_PAINT_WORK);
  } else if (t->height > CT_MAX_PAINT_DEPTH) {
    fail(c, CT_ERR_LIMIT, root, "a paint tree deeper than %u", CT_MAX_PAINT_DEPTH);
  }
  return c->status;
}

ct_status_t ct_artwork_read(const char *name, const unsigned char *data, size_t len,
                            const ct_artwork_options_t *o, ct_artwork_t *out, ct_error_t *err) {
  ctx_t c;
  xmlDocPtr x = NULL;
  xmlNodePtr root;
  ct_art_style_t st;
  box_t box = { { 0, 0, 0, 0 }, 0 };
  double m[6];
  unsigned i;

  memset(out, 0, sizeof *out);
  memset(&c, 0, sizeof c);
  c.name = name ? name : "drawing";
  c.o = o;
  c.err = err;
  c.out = out;
  if (!o || o->upem < 16 || o->upem > 16384) {
    fail(&c, CT_ERR_INVALID_ARG, NULL, "units per em out of 16..16384");
    return c.status;
  }
  if (!(x = parse(&c, data, len))) goto done;
  root = xmlDocGetRootElement(x);
  if (!root || !ct_art_svg_name(root) || strcmp(ct_art_svg_name(root), "svg")) {
    fail(&c, CT_ERR_INVALID_IMAGE, NULL, "the root element is not <svg>");
    goto done;
  }
  if (!collect(&c, root, 0)) goto done;
  if (c.ids.n) qsort(c.ids.v, c.ids.n, sizeof *c.ids.v, id_cmp);
  c.visits = 0;
  if (!root_matrix(&c, root, m)) goto done;
  ct_art_style_init(&st);
  {
    char why[300];
    ct_art_style_t rs;
    if (!ct_art_style_compute(&rs, &st, root, why, sizeof why)) {
      fail(&c, CT_ERR_INVALID_IMAGE, root, "%s", why);
      goto done;
    }
    if (!rs.display_none) {
      out->tree = draw_children(&c, root, &rs, m, &box, 1, 0);
      if (!c.status) out->tree = apply_opacity(&c, root, out->tree, rs.opacity);
      if (!c.status && out->tree && rs.clip_path[0])
        out->tree = apply_clip(&c, root, out->tree, rs.clip_path, &rs, m, &box);
    }
  }
  finish_tree(&c, root);
done:
  if (c.lib) FT_Done_FreeType(c.lib);
  for (i = 0; i < c.ids.n; i++) xmlFree((xmlChar *)c.ids.v[i].id);
  free(c.ids.v);
  if (x) xmlFreeDoc(x);
  if (c.status) {
    char w[sizeof out->warning];
    memcpy(w, out->warning, sizeof w);
    ct_artwork_free(out);
    memcpy(out->warning, w, sizeof w);
  }
  return c.status;
}
