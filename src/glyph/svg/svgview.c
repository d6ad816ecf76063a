/*
** svgview.c: where an OT-SVG glyph sits.  The root <svg> of the glyph's document (all of
** it when the root is the glyph, else the glyph's cut-out): its viewBox, width, height and
** transform are resolved against the em square, as the OpenType spec and Firefox do, and it
** is nested in a frame librsvg draws without clipping.  A glyph that is an inner element:
** what it inherits from its ancestors.  Glyph stage (OT-SVG): knows fonts and paint trees,
** never pages or outputs. Used by svg.c's cut_glyph.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "svg-private.h"

/* Numbers separated by white space and/or one comma, as SVG writes viewBox and lengths.
   Returns how many were read (at most `max`), or -1 when anything else is in `s` or a
   number is not finite. */
static int numbers(const char *s, double *v, int max) {
  int n = 0;
  for (;;) {
    char *end;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    if (!*s) return n;
    if (n == max) return -1;
    if (n > 0 && *s == ',') {
      s++;
      while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    }
    if (!((*s >= '0' && *s <= '9') || *s == '-' || *s == '+' || *s == '.')) return -1;   /* no nan, inf, hex */
    v[n] = strtod(s, &end);
    if (end == s || !isfinite(v[n])) return -1;
    n++;
    s = end;
  }
}

/* A length attribute of the root as a number of user units: plain or "px".  Returns 0
   when absent, not a positive number, or in another unit (ignored, as a negative or zero
   width is by Firefox). */
static int length_attr(xmlNodePtr el, const char *name, double *out) {
  xmlChar *v = xmlGetProp(el, (const xmlChar *)name);
  char buf[64];
  size_t n;
  int ok;
  if (!v) return 0;
  n = strlen((const char *)v);
  while (n > 0 && ((const char *)v)[n - 1] == ' ') n--;
  if (n >= 2 && n < sizeof buf && strncmp((const char *)v + n - 2, "px", 2) == 0) n -= 2;
  ok = n > 0 && n < sizeof buf;
  if (ok) {
    memcpy(buf, v, n);
    buf[n] = '\0';
    ok = numbers(buf, out, 1) == 1 && *out > 0;
  }
  xmlFree(v);
  return ok;
}

static void set_num(xmlNodePtr el, const char *name, double v) {
  char buf[64];
  snprintf(buf, sizeof buf, "%.9g", v);
  xmlSetProp(el, (const xmlChar *)name, (const xmlChar *)buf);
}

/* The user units of the viewBox (or of width/height) onto the em square: a scale beyond
   this, either way, is not a glyph (and would overflow cairo's fixed-point coordinates);
   a translation beyond CT_SVG_VIEW_MAX_COORD em likewise. */
#define CT_SVG_VIEW_MAX_SCALE 1e4
#define CT_SVG_VIEW_MAX_COORD 1e4

static int mapping_ok(const double v[4], unsigned upem) {
  double sx = upem / v[2], sy = upem / v[3];
  return sx <= CT_SVG_VIEW_MAX_SCALE && sy <= CT_SVG_VIEW_MAX_SCALE && sx >= 1 / CT_SVG_VIEW_MAX_SCALE &&
         sy >= 1 / CT_SVG_VIEW_MAX_SCALE && fabs(v[0] * sx) <= CT_SVG_VIEW_MAX_COORD * upem &&
         fabs(v[1] * sy) <= CT_SVG_VIEW_MAX_COORD * upem;
}

/* preserveAspectRatio: [defer] none|xMinYMin..xMaxYMax [meet|slice] */
static int aspect_ok(const char *s) {
  static const char *const align[] = { "none", "xMinYMin", "xMidYMin", "xMaxYMin", "xMinYMid", "xMidYMid",
                                       "xMaxYMid", "xMinYMax", "xMidYMax", "xMaxYMax", NULL };
  char w[3][16];
  int n = sscanf(s, " %15s %15s %15s %*s", w[0], w[1], w[2]), i = 0, k;
  if (n < 1) return 0;
  if (strcmp(w[0], "defer") == 0) i = 1;
  if (i >= n) return 0;
  for (k = 0; align[k] && strcmp(align[k], w[i]) != 0; k++) {}
  if (!align[k]) return 0;
  if (++i == n) return 1;
  return i + 1 == n && (strcmp(w[i], "meet") == 0 || strcmp(w[i], "slice") == 0);
}

/* The checks of the root's viewBox and preserveAspectRatio: an invalid one is removed, a
   zero or absurd viewBox gives CT_SVG_VIEW_EMPTY. */
static int view_check(xmlNodePtr root, unsigned upem, char *note, size_t notelen) {
  xmlChar *a;
  double v[4];
  int status = CT_SVG_VIEW_OK;
  if (notelen) note[0] = '\0';
  if ((a = xmlGetProp(root, (const xmlChar *)"preserveAspectRatio"))) {
    if (!aspect_ok((const char *)a)) {   /* librsvg would drop the whole document */
      snprintf(note, notelen, "preserveAspectRatio \"%.40s\" is not valid: ignored", (const char *)a);
      xmlUnsetProp(root, (const xmlChar *)"preserveAspectRatio");
    }
    xmlFree(a);
  }
  /* the viewBox: four numbers, width and height > 0; an invalid one is ignored and a zero
     width or height disables drawing (SVG; Firefox does both) */
  if ((a = xmlGetProp(root, (const xmlChar *)"viewBox"))) {
    int n = numbers((const char *)a, v, 4);
    if (n != 4 || v[2] < 0 || v[3] < 0) {
      snprintf(note, notelen, "viewBox \"%.40s\" is not four numbers with a positive width and height: ignored",
               (const char *)a);
      xmlUnsetProp(root, (const xmlChar *)"viewBox");
    } else if (v[2] == 0 || v[3] == 0) {
      snprintf(note, notelen, "viewBox \"%.40s\" has a zero width or height: nothing drawn", (const char *)a);
      status = CT_SVG_VIEW_EMPTY;
    } else if (!mapping_ok(v, upem)) {
      snprintf(note, notelen, "viewBox \"%.40s\" scales the em square by %.3g x %.3g or moves it over "
               "10,000 em: nothing drawn", (const char *)a, upem / v[2], upem / v[3]);
      status = CT_SVG_VIEW_EMPTY;
    }
    xmlFree(a);
  }
  return status;
}

int ct_svg_view_frame(xmlDocPtr out, xmlNodePtr root, unsigned upem, char *note, size_t notelen) {
  xmlNodePtr frame, parent, up, use;
  xmlChar *tr = NULL;
  double w = 0, h = 0;
  int status, has_w, has_h;
  char buf[160];

  if ((status = view_check(root, upem, note, notelen)) != CT_SVG_VIEW_OK) return status;
  has_w = length_attr(root, "width", &w);
  has_h = length_attr(root, "height", &h);
  if (!xmlHasProp(root, (const xmlChar *)"viewBox") && (has_w || has_h)) {
    /* no viewBox: width and height size the document, which is stretched onto the em
       square (Firefox; a missing one is the em): width="100" height="100" is 0 0 100 100 */
    double v[4] = { 0, 0, has_w ? w : upem, has_h ? h : upem };
    if (!mapping_ok(v, upem)) {
      snprintf(note, notelen, "width and height %.9g x %.9g scale the em square by %.3g x %.3g: nothing drawn",
               v[2], v[3], upem / v[2], upem / v[3]);
      return CT_SVG_VIEW_EMPTY;
    }
    snprintf(buf, sizeof buf, "0 0 %.9g %.9g", v[2], v[3]);
    xmlSetProp(root, (const xmlChar *)"viewBox", (const xmlChar *)buf);
    xmlSetProp(root, (const xmlChar *)"preserveAspectRatio", (const xmlChar *)"none");
  }
  /* the root becomes a nested <svg> on the em square, not clipping: the glyph sits above
     the baseline, at negative y, outside its own viewport */
  xmlUnsetProp(root, (const xmlChar *)"x");
  xmlUnsetProp(root, (const xmlChar *)"y");
  set_num(root, "width", upem);
  set_num(root, "height", upem);
  xmlSetProp(root, (const xmlChar *)"overflow", (const xmlChar *)"visible");
  /* the frame: x -1..2 em, y -2..2 em around the em square, drawn into the same rectangle
     (ct_svg_render) so that its coordinates are the font's; librsvg sizes the offscreen
     surfaces of groups (opacity, masks, filters) to it.  CT_SVG_FRAME_DOWN holds the glyph
     (y down, above the baseline at y -2..0 em), CT_SVG_FRAME_UP the same flipped (y up, at
     y 0..2 em): librsvg fails such groups ("InvalidSize") under a matrix that flips y, so
     ct_svg_render flips either the matrix or, for targets whose y is up already, the
     document. */
  frame = xmlNewDocNode(out, NULL, (const xmlChar *)"svg", NULL);
  if (!frame) goto nomem;
  xmlSetNs(frame, xmlNewNs(frame, (const xmlChar *)"http://www.w3.org/2000/svg", NULL));
  snprintf(buf, sizeof buf, "%d %d %u %u", -(int)upem, -2 * (int)upem, 3 * upem, 4 * upem);
  xmlSetProp(frame, (const xmlChar *)"viewBox", (const xmlChar *)buf);
  xmlDocSetRootElement(out, frame);   /* `root` is unlinked from the document */
  parent = xmlNewChild(frame, NULL, (const xmlChar *)"g", NULL);
  up = xmlNewChild(frame, NULL, (const xmlChar *)"g", NULL);
  use = up ? xmlNewChild(up, NULL, (const xmlChar *)"use", NULL) : NULL;
  if (!parent || !use) {
    xmlAddChild(frame, root);   /* freed with `out` */
    goto nomem;
  }
  xmlSetProp(parent, (const xmlChar *)"id", (const xmlChar *)CT_SVG_FRAME_DOWN + 1);
  xmlSetProp(up, (const xmlChar *)"id", (const xmlChar *)CT_SVG_FRAME_UP + 1);
  xmlSetProp(up, (const xmlChar *)"transform", (const xmlChar *)"scale(1 -1)");
  xmlSetProp(use, (const xmlChar *)"href", (const xmlChar *)CT_SVG_FRAME_DOWN);
  if ((tr = xmlGetProp(root, (const xmlChar *)"transform"))) {
    /* SVG 2's transform on <svg> (Firefox draws it; librsvg 2.54 does not): on a group */
    xmlNodePtr g = xmlNewChild(parent, NULL, (const xmlChar *)"g", NULL);
    if (!g) {
      xmlAddChild(frame, root);   /* freed with `out` */
      goto nomem;
    }
    xmlSetProp(g, (const xmlChar *)"transform", tr);
    xmlUnsetProp(root, (const xmlChar *)"transform");
    parent = g;
  }
  if (!xmlAddChild(parent, root)) goto nomem;
  goto done;
nomem:
  snprintf(note, notelen, "out of memory");
  status = CT_SVG_VIEW_ERROR;
done:
  if (tr) xmlFree(tr);
  return status;
}

/* ---- the context of a glyph that is an inner element ------------------------ */

/* Properties an element inherits from its ancestors (SVG 1.1 / 2 painting and text). */
static const char *const inherited[] = {
  "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap",
  "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "color", "visibility",
  "clip-rule", "paint-order", "color-interpolation", "color-interpolation-filters", "image-rendering",
  "shape-rendering", "marker", "marker-start", "marker-mid", "marker-end", "font-family", "font-size",
  "font-style", "font-weight", "direction", NULL
};

static int is_inherited(const char *name, size_t len) {
  int i;
  for (i = 0; inherited[i]; i++)
    if (strlen(inherited[i]) == len && strncmp(inherited[i], name, len) == 0) return 1;
  return 0;
}

/* The inherited declarations of a style attribute ("fill: red; opacity: .5" -> "fill: red"),
   malloc'ed, or NULL when none. */
static char *inherited_style(const char *style) {
  size_t cap = strlen(style) + 1, len = 0;
  char *out = malloc(cap);
  const char *p = style;
  if (!out) return NULL;
  while (*p) {
    const char *end = strchr(p, ';'), *colon;
    const char *name;
    size_t n;
    if (!end) end = p + strlen(p);
    colon = memchr(p, ':', (size_t)(end - p));
    for (name = p; name < end && (*name == ' ' || *name == '\t' || *name == '\n' || *name == '\r'); name++) {}
    if (colon) {
      for (n = (size_t)(colon - name); n > 0 && (name[n - 1] == ' ' || name[n - 1] == '\t'); n--) {}
      if (is_inherited(name, n)) {
        if (len) out[len++] = ';';
        memcpy(out + len, name, (size_t)(end - name));
        len += (size_t)(end - name);
      }
    }
    p = *end ? end + 1 : end;
  }
  out[len] = '\0';
  if (!len) {
    free(out);
    return NULL;
  }
  return out;
}

xmlNodePtr ct_svg_view_context(xmlDocPtr out, xmlNodePtr parent, xmlNodePtr glyph) {
  xmlNodePtr chain[256], a;
  unsigned n = 0;
  /* the ancestors between the root and the glyph, outermost last */
  for (a = glyph->parent; a && a->type == XML_ELEMENT_NODE && a->parent && a->parent->type == XML_ELEMENT_NODE;
       a = a->parent)
    if (n < sizeof chain / sizeof chain[0]) chain[n++] = a;
  while (n-- > 0) {
    xmlAttrPtr at;
    xmlNodePtr g = NULL;
    for (at = chain[n]->properties; at; at = at->next) {
      const char *name = (const char *)at->name;
      xmlChar *v;
      char *style = NULL;
      if (!(is_inherited(name, strlen(name)) || strcmp(name, "style") == 0) || at->ns) continue;
      if (!(v = xmlNodeGetContent((xmlNodePtr)at))) continue;
      if (strcmp(name, "style") != 0 || (style = inherited_style((const char *)v))) {
        if (!g && !(g = xmlNewDocNode(out, NULL, (const xmlChar *)"g", NULL))) {
          free(style);
          xmlFree(v);
          return parent;
        }
        xmlSetProp(g, at->name, style ? (const xmlChar *)style : v);
      }
      free(style);
      xmlFree(v);
    }
    if (g) parent = xmlAddChild(parent, g);
  }
  return parent;
}
