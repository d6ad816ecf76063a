/*
** smil-rules.c: the SVG sanitizer's SMIL rules: the animation elements, the attributes they may
** animate, what of an element is kept (ct_smil_check).  Must not sample or draw.  Glyph
** stage (OT-SVG);
** see docs/svg.md for the rules.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "smil-internal.h"

/* ---- names ---------------------------------------------------------------- */

int ct_smil_anim_kind(const xmlChar *name) {
  if (xmlStrcmp(name, (const xmlChar *)"animate") == 0) return A_ANIMATE;
  if (xmlStrcmp(name, (const xmlChar *)"set") == 0) return A_SET;
  if (xmlStrcmp(name, (const xmlChar *)"animateTransform") == 0) return A_TRANSFORM;
  if (xmlStrcmp(name, (const xmlChar *)"animateColor") == 0) return A_COLOR;
  return -1;
}

int ct_smil_is_animation(const struct _xmlNode *node) {
  return node && node->type == XML_ELEMENT_NODE && ct_smil_anim_kind(node->name) >= 0;
}

/* What attributeName may name (attr_info_t: smil-internal.h). */
static const attr_info_t attrs[] = {
  { "fill", VT_COLOR, 1, 1, "black" },
  { "stroke", VT_COLOR, 1, 1, "none" },
  { "color", VT_COLOR, 1, 1, "black" },
  { "stop-color", VT_COLOR, 1, 0, "black" },
  { "flood-color", VT_COLOR, 1, 0, "black" },
  { "lighting-color", VT_COLOR, 1, 0, "white" },
  { "opacity", VT_NUMBER, 1, 0, "1" },
  { "fill-opacity", VT_NUMBER, 1, 1, "1" },
  { "stroke-opacity", VT_NUMBER, 1, 1, "1" },
  { "stop-opacity", VT_NUMBER, 1, 0, "1" },
  { "flood-opacity", VT_NUMBER, 1, 0, "1" },
  { "stroke-width", VT_NUMBER, 1, 1, "1" },
  { "stroke-dasharray", VT_NUMBER, 1, 1, "none" },
  { "stroke-dashoffset", VT_NUMBER, 1, 1, "0" },
  { "stroke-miterlimit", VT_NUMBER, 1, 1, "4" },
  { "stroke-linecap", VT_STRING, 1, 1, "butt" },
  { "stroke-linejoin", VT_STRING, 1, 1, "miter" },
  { "fill-rule", VT_STRING, 1, 1, "nonzero" },
  { "clip-rule", VT_STRING, 1, 1, "nonzero" },
  { "visibility", VT_STRING, 1, 1, "visible" },
  { "display", VT_STRING, 1, 0, "inline" },
  { "x", VT_NUMBER, 0, 0, "0" }, { "y", VT_NUMBER, 0, 0, "0" },
  { "width", VT_NUMBER, 0, 0, "0" }, { "height", VT_NUMBER, 0, 0, "0" },
  { "cx", VT_NUMBER, 0, 0, "0" }, { "cy", VT_NUMBER, 0, 0, "0" }, { "r", VT_NUMBER, 0, 0, "0" },
  { "rx", VT_NUMBER, 0, 0, "0" }, { "ry", VT_NUMBER, 0, 0, "0" },
  { "x1", VT_NUMBER, 0, 0, "0" }, { "y1", VT_NUMBER, 0, 0, "0" },
  { "x2", VT_NUMBER, 0, 0, "0" }, { "y2", VT_NUMBER, 0, 0, "0" },
  { "fx", VT_NUMBER, 0, 0, "0" }, { "fy", VT_NUMBER, 0, 0, "0" }, { "fr", VT_NUMBER, 0, 0, "0" },
  { "dx", VT_NUMBER, 0, 0, "0" }, { "dy", VT_NUMBER, 0, 0, "0" },
  { "offset", VT_NUMBER, 0, 0, "0" }, { "stdDeviation", VT_NUMBER, 0, 0, "0" },
  { "points", VT_NUMBER, 0, 0, "" }, { "viewBox", VT_NUMBER, 0, 0, "" },
  { "d", VT_PATH, 0, 0, "" },
  { "transform", VT_TRANSFORM, 0, 0, "" },
  { "gradientTransform", VT_TRANSFORM, 0, 0, "" },
  { "patternTransform", VT_TRANSFORM, 0, 0, "" },
  { NULL, 0, 0, 0, NULL }
};

const attr_info_t *ct_smil_attr_info(const char *name) {
  unsigned i;
  for (i = 0; attrs[i].name; i++)
    if (strcmp(attrs[i].name, name) == 0) return &attrs[i];
  return NULL;
}

/* ---- the sanitizer's checks -------------------------------------------------------------- */

static const char *const anim_attrs[] = {
  "id", "attributeName", "attributeType", "begin", "dur", "end", "min", "max", "restart",
  "repeatCount", "repeatDur", "fill", "calcMode", "values", "keyTimes", "keySplines", "from", "to",
  "by", "additive", "accumulate", "type", "href", NULL
};

static int too_long(const char *v, const char *what, char *why, size_t whylen) {
  unsigned n = ct_smil_split(v, ';', ct_smil_count_item, NULL);
  if (n <= CT_MAX_SVG_ANIM_VALUES) return 0;
  snprintf(why, whylen, "more than %u %s", CT_MAX_SVG_ANIM_VALUES, what);
  return 1;
}

/* Rewrites a begin/end list to its offset values; 0 when none is left. */
static int keep_offsets(xmlNodePtr el, const char *name, int *changed) {
  char *v = ct_smil_prop(el, name);
  times_t t;
  sbuf_t b = { NULL, 0, 0, 0 };
  unsigned i;
  char *s;
  if (!v) return 1;
  ct_smil_parse_times(v, &t);
  xmlFree(v);
  if (!t.dropped) return 1;
  *changed = 1;
  if (t.n == 0) {
    xmlUnsetProp(el, (const xmlChar *)name);
    return 0;
  }
  for (i = 0; i < t.n; i++) {
    if (i) ct_svg_sb_add(&b, ";", 1);
    ct_smil_sb_num(&b, t.v[i]);
    ct_svg_sb_add(&b, "s", 1);
  }
  if ((s = ct_smil_sb_take(&b))) xmlSetProp(el, (const xmlChar *)name, (const xmlChar *)s);
  free(s);
  return 1;
}

int ct_smil_check(struct _xmlNode *el, char *why, size_t whylen, int *changed) {
  xmlAttrPtr a, next;
  char *v;
  const attr_info_t *ai;
  int kind = ct_smil_anim_kind(el->name);
  timing_t tm;
  *changed = 0;
  why[0] = '\0';
  if (kind < 0) {
    snprintf(why, whylen, "not an animation");
    return 0;
  }
  for (a = el->properties; a; a = next) {   /* attributes an animation element has no use for */
    unsigned i;
    int known = 0;
    next = a->next;
    for (i = 0; anim_attrs[i]; i++)
      if (xmlStrcmp(a->name, (const xmlChar *)anim_attrs[i]) == 0) known = 1;
    if (!known) {
      xmlRemoveProp(a);
      *changed = 1;
    }
  }
  if (!(v = ct_smil_prop(el, "attributeName"))) {
    snprintf(why, whylen, "no attributeName");
    return 0;
  }
  ai = ct_smil_attr_info(v);
  /* animateTransform: transform lists only; animate: anything else; animateColor:
     colors; set: any of them */
  if (!ai || (kind == A_TRANSFORM && ai->type != VT_TRANSFORM) ||
      (kind == A_ANIMATE && ai->type == VT_TRANSFORM) || (kind == A_COLOR && ai->type != VT_COLOR))
    snprintf(why, whylen, "attributeName %.40s", v);
  xmlFree(v);
  if (why[0]) return 0;
  if ((v = ct_smil_prop(el, "href"))) {
    const char *s = v;
    while (ct_smil_is_wsp((unsigned char)*s)) s++;
    if (s[0] != '#') snprintf(why, whylen, "external href");
    xmlFree(v);
    if (why[0]) return 0;
  }
  if ((v = ct_smil_prop(el, "values"))) {
    int bad = too_long(v, "values", why, whylen);
    xmlFree(v);
    if (bad) return 0;
  }
  if ((v = ct_smil_prop(el, "keyTimes"))) {
    int bad = too_long(v, "keyTimes", why, whylen);
    xmlFree(v);
    if (bad) return 0;
  }
  if ((v = ct_smil_prop(el, "keySplines"))) {
    int bad = too_long(v, "keySplines", why, whylen);
    xmlFree(v);
    if (bad) return 0;
  }
  if (!keep_offsets(el, "begin", changed)) {
    snprintf(why, whylen, "no begin offset within %g s", CT_MAX_SVG_ANIM_TIME);
    return 0;
  }
  keep_offsets(el, "end", changed);
  ct_smil_parse_timing(el, &tm);
  if (!isinf(tm.dur) && tm.dur > CT_MAX_SVG_ANIM_TIME) {
    snprintf(why, whylen, "dur > %g s", CT_MAX_SVG_ANIM_TIME);
    return 0;
  }
  if ((v = ct_smil_prop(el, "dur"))) {   /* a value too large to parse as a clock value */
    double d;
    const char *s = v, *e = v + strlen(v);
    s = ct_smil_skip_wsp(s, e);
    e = ct_smil_trim_end(s, e);
    if (!(e - s == 10 && strncmp(s, "indefinite", 10) == 0) && !(e - s == 5 && strncmp(s, "media", 5) == 0) &&
        !(ct_smil_parse_clock(s, e, &d) && d > 0))
      snprintf(why, whylen, "dur %.40s", v);
    xmlFree(v);
    if (why[0]) return 0;
  }
  if (!isnan(tm.rdur) && !isinf(tm.rdur) && tm.rdur > CT_MAX_SVG_ANIM_TIME) {
    snprintf(why, whylen, "repeatDur > %g s", CT_MAX_SVG_ANIM_TIME);
    return 0;
  }
  if (!isnan(tm.rcount) && !isinf(tm.rcount) && !isinf(tm.dur) &&
      tm.rcount * tm.dur > CT_MAX_SVG_ANIM_TIME) {
    snprintf(why, whylen, "dur x repeatCount > %g s", CT_MAX_SVG_ANIM_TIME);
    return 0;
  }
  return 1;
}
