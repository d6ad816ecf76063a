/*
** smil.c: SMIL in OT-SVG glyphs, the sampler: ct_smil_sample makes a document static at t
** (librsvg 2.54 draws static SVG only): targets, base values, the sandwich, values written.
** Must not parse times or values itself (smil-time.c, smil-value.c).  Glyph stage
** (OT-SVG); docs/svg.md.
*/
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/tree.h>

#include "smil-internal.h"

/* ---- the base value -------------------------------------------------------------------- */

/* The last declaration of `name` in a style attribute, as a malloc'ed string, or NULL. */
static char *style_get(const char *style, const char *name) {
  const char *s = style, *found = NULL, *fend = NULL;
  size_t nl = strlen(name);
  while (*s) {
    const char *e = strchr(s, ';'), *colon;
    if (!e) e = s + strlen(s);
    colon = memchr(s, ':', (size_t)(e - s));
    if (colon) {
      const char *a = ct_smil_skip_wsp(s, colon), *b = ct_smil_trim_end(a, colon);
      if ((size_t)(b - a) == nl && strncasecmp(a, name, nl) == 0) {
        found = ct_smil_skip_wsp(colon + 1, e);
        fend = ct_smil_trim_end(found, e);
      }
    }
    s = *e ? e + 1 : e;
  }
  if (!found) return NULL;
  {
    char *out = malloc((size_t)(fend - found) + 1);
    if (out) {
      memcpy(out, found, (size_t)(fend - found));
      out[fend - found] = '\0';
    }
    return out;
  }
}

/* The style attribute without declarations of `name`, plus "name:value". */
static char *style_set(const char *style, const char *name, const char *value) {
  sbuf_t b = { NULL, 0, 0, 0 };
  const char *s = style ? style : "";
  size_t nl = strlen(name);
  while (*s) {
    const char *e = strchr(s, ';'), *colon, *a, *z;
    if (!e) e = s + strlen(s);
    colon = memchr(s, ':', (size_t)(e - s));
    a = ct_smil_skip_wsp(s, e);
    z = ct_smil_trim_end(a, e);
    if (z > a) {
      const char *n0 = a, *n1 = colon ? ct_smil_trim_end(a, colon) : z;
      if (!(colon && (size_t)(n1 - n0) == nl && strncasecmp(n0, name, nl) == 0)) {
        ct_svg_sb_add(&b, a, (size_t)(z - a));
        ct_svg_sb_add(&b, ";", 1);
      }
    }
    s = *e ? e + 1 : e;
  }
  ct_smil_sb_str(&b, name);
  ct_svg_sb_add(&b, ":", 1);
  ct_smil_sb_str(&b, value);
  return ct_smil_sb_take(&b);
}

/* The underlying value of the attribute on the target: for a property, the target's
   style declaration, then its attribute, then (inherited properties) the same on its
   ancestors, then the initial value; for an attribute, the attribute or the initial value.
   <style> sheet rules are not looked at. */
static char *base_value(const anim_t *a) {
  xmlNodePtr n;
  for (n = a->target; n && n->type == XML_ELEMENT_NODE; n = n->parent) {
    char *v;
    if (a->ai->prop && !a->xml && (v = ct_smil_prop(n, "style"))) {
      char *d = style_get(v, a->attr);
      xmlFree(v);
      if (d && strcmp(d, "inherit") != 0) return d;
      free(d);
    }
    if ((v = ct_smil_prop(n, a->attr))) {
      char *d = strcmp(v, "inherit") == 0 ? NULL : strdup(v);
      xmlFree(v);
      if (d) return d;
    }
    if (!a->ai->prop || !a->ai->inherit) break;
  }
  return strdup(a->ai->initial);
}

/* ---- the sampler ------------------------------------------------------------------------ */

static void collect(xmlNodePtr n, xmlNodePtr *list, unsigned *count, unsigned cap) {
  for (; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    if (ct_smil_anim_kind(n->name) >= 0) {
      if (*count < cap) list[(*count)++] = n;
      continue;   /* animation elements have no animated children */
    }
    collect(n->children, list, count, cap);
  }
}

static xmlNodePtr find_by_id(xmlNodePtr n, const char *id) {
  for (; n; n = n->next) {
    xmlChar *v;
    xmlNodePtr r;
    if (n->type != XML_ELEMENT_NODE) continue;
    if ((v = xmlGetProp(n, (const xmlChar *)"id"))) {
      int same = strcmp((const char *)v, id) == 0;
      xmlFree(v);
      if (same) return n;
    }
    if ((r = find_by_id(n->children, id))) return r;
  }
  return NULL;
}

/* The element an animation acts on: href="#id" (xlink:href too), else its parent. */
static xmlNodePtr anim_target(xmlDocPtr doc, xmlNodePtr el) {
  char *h = ct_smil_prop(el, "href");
  xmlNodePtr t;
  if (!h) return el->parent && el->parent->type == XML_ELEMENT_NODE ? el->parent : NULL;
  {
    const char *s = h;
    while (ct_smil_is_wsp((unsigned char)*s)) s++;
    t = s[0] == '#' && s[1] ? find_by_id(xmlDocGetRootElement(doc), s + 1) : NULL;
  }
  xmlFree(h);
  return t && ct_smil_anim_kind(t->name) < 0 ? t : NULL;
}

static int anim_order(const void *x, const void *y) {
  const anim_t *a = x, *b = y;
  int c;
  if (a->target != b->target) return (uintptr_t)a->target < (uintptr_t)b->target ? -1 : 1;
  if ((c = strcmp(a->attr, b->attr))) return c;
  if (a->prio != b->prio) return a->prio < b->prio ? -1 : 1;
  return a->order < b->order ? -1 : a->order > b->order;
}

/* Parses the element's target and attribute; 0 when it cannot act. */
static int anim_init(xmlDocPtr doc, xmlNodePtr el, anim_t *a) {
  char *v;
  memset(a, 0, sizeof *a);
  a->el = el;
  a->kind = (akind_t)ct_smil_anim_kind(el->name);
  a->ttype = -1;
  if (!(a->attr = ct_smil_prop(el, "attributeName"))) return 0;
  if (!(a->ai = ct_smil_attr_info(a->attr))) return 0;
  if ((a->ai->type == VT_TRANSFORM) != (a->kind == A_TRANSFORM) && a->kind != A_SET) return 0;
  if (a->kind == A_TRANSFORM) {
    unsigned i;
    a->ttype = 0;
    if ((v = ct_smil_prop(el, "type"))) {
      a->ttype = -1;
      for (i = 0; i < 5; i++)
        if (strcmp(v, ct_smil_tf_names[i]) == 0) a->ttype = (int)i;
      xmlFree(v);
      if (a->ttype < 0) return 0;
    }
  }
  if ((v = ct_smil_prop(el, "attributeType"))) {
    a->xml = strcmp(v, "XML") == 0;
    xmlFree(v);
  }
  if (!(a->target = anim_target(doc, el))) return 0;
  ct_smil_parse_timing(el, &a->tm);
  return 1;
}

static void anim_fini(anim_t *a) {
  if (a->attr) xmlFree(a->attr);
  a->attr = NULL;
}

/* The value one animation gives, composed over `under` (the sandwich so far), into
   `out`; 0 when it has none (an element in error).  Transform values are not added here:
   *additive says whether the caller appends (post-multiplies) or replaces. */
static int compose(const anim_t *a, const tval_t *under, tval_t *out, int *additive) {
  func_t f;
  tval_t val;
  int ok = 0;
  *additive = 0;
  if (!ct_smil_func_init(a, &f)) return 0;
  if (f.to_anim) {   /* from the underlying value to `to` */
    if (!ct_smil_tv_copy(&f.v[0], under)) goto done;
    if (f.mode != CM_DISCRETE && !ct_smil_tv_same(&f.v[0], &f.v[1])) f.mode = CM_DISCRETE;
  }
  if (!ct_smil_func_eval(&f, a, a->p, &val)) goto done;
  if (f.accumulate && a->k > 0 && ct_smil_tv_same(&val, &f.v[f.n - 1])) {
    tval_t acc;
    if (!ct_smil_tv_mix(&acc, &val, &f.v[f.n - 1], a->k, 1)) { ct_smil_tv_free(&val); goto done; }
    ct_smil_tv_free(&val);
    val = acc;
  }
  *additive = f.additive;
  if (f.additive && a->ai->type != VT_TRANSFORM && ct_smil_tv_same(under, &val)) {
    ok = ct_smil_tv_mix(out, under, &val, 1, 1);
    ct_smil_tv_free(&val);
  } else {
    *out = val;
    ok = 1;
  }
done:
  ct_smil_func_free(&f);
  return ok;
}

/* Writes the final value of one attribute of one element. */
static void apply(const anim_t *a, const char *value) {
  if (a->ai->prop && !a->xml) {
    char *st = ct_smil_prop(a->target, "style");
    char *ns = style_set(st, a->attr, value);
    if (st) xmlFree(st);
    if (ns) xmlSetProp(a->target, (const xmlChar *)"style", (const xmlChar *)ns);
    free(ns);
  } else {
    xmlSetProp(a->target, (const xmlChar *)a->attr, (const xmlChar *)value);
  }
}

/* One group: every animation of one attribute of one element, lowest priority first. */
static void sample_group(anim_t *g, unsigned n) {
  char *base = base_value(&g[0]);
  unsigned i;
  if (!base) return;
  if (g[0].ai->type == VT_TRANSFORM) {
    /* transform lists compose as text: replace starts anew, sum appends (post-multiplies) */
    sbuf_t b = { NULL, 0, 0, 0 };
    char *cur;
    ct_smil_sb_str(&b, base);
    for (i = 0; i < n; i++) {
      const anim_t *a = &g[i];
      tval_t under, val;
      char *s;
      int additive = 0;
      if (a->kind == A_SET) {
        char *to = ct_smil_prop(a->el, "to");
        if (!to) continue;
        b.len = 0;
        if (b.s) b.s[0] = '\0';
        ct_smil_sb_str(&b, to);
        xmlFree(to);
        continue;
      }
      /* the identity of the type stands for the underlying value of to-animations */
      {
        const char *id = a->ttype == 1 ? "1" : "0";
        if (!ct_smil_tv_parse(VT_TRANSFORM, a->ttype, id, id + 1, &under)) continue;
      }
      if (compose(a, &under, &val, &additive)) {
        if ((s = ct_smil_tv_format(&val))) {
          if (!additive) {
            b.len = 0;
            if (b.s) b.s[0] = '\0';
          } else if (b.len) {
            ct_svg_sb_add(&b, " ", 1);
          }
          ct_smil_sb_str(&b, s);
          free(s);
        }
        ct_smil_tv_free(&val);
      }
      ct_smil_tv_free(&under);
    }
    if ((cur = ct_smil_sb_take(&b))) {
      apply(&g[0], cur);
      free(cur);
    }
  } else {
    tval_t cur;
    char *s;
    if (!ct_smil_tv_parse(g[0].ai->type, -1, base, base + strlen(base), &cur)) {
      free(base);
      return;
    }
    for (i = 0; i < n; i++) {
      tval_t next;
      int additive;
      if (compose(&g[i], &cur, &next, &additive)) {
        ct_smil_tv_free(&cur);
        cur = next;
      }
    }
    if ((s = ct_smil_tv_format(&cur))) {
      apply(&g[0], s);
      free(s);
    }
    ct_smil_tv_free(&cur);
  }
  free(base);
}

int ct_smil_sample(struct _xmlDoc *doc, double t) {
  xmlNodePtr list[CT_MAX_SVG_ANIMATIONS];
  anim_t *an = NULL;
  unsigned count = 0, n = 0, i, j;
  xmlNodePtr root = xmlDocGetRootElement(doc);
  if (!root) return 0;
  collect(root, list, &count, CT_MAX_SVG_ANIMATIONS);
  if (!count) return 0;
  if (!isfinite(t)) t = 0;
  if ((an = calloc(count, sizeof *an))) {
    for (i = 0; i < count; i++) {
      anim_t *a = &an[n];
      if (!anim_init(doc, list[i], a)) {
        anim_fini(a);
        continue;
      }
      if (!ct_smil_sample_time(&a->tm, t, &a->p, &a->k, &a->prio)) {
        anim_fini(a);
        continue;
      }
      a->order = i;
      n++;
    }
    qsort(an, n, sizeof *an, anim_order);
    for (i = 0; i < n; i = j) {
      for (j = i + 1; j < n && an[j].target == an[i].target && strcmp(an[j].attr, an[i].attr) == 0; j++) {}
      sample_group(an + i, j - i);
    }
    for (i = 0; i < n; i++) anim_fini(&an[i]);
    free(an);
  }
  /* the animation elements go, sampled or not (an element in error has no effect) */
  for (i = 0; i < count; i++) {
    xmlUnlinkNode(list[i]);
    xmlFreeNode(list[i]);
  }
  {
    /* any left past the limit (the sanitizer keeps at most that many) */
    xmlNodePtr more[1];
    unsigned m;
    do {
      m = 0;
      collect(root, more, &m, 1);
      if (m) {
        xmlUnlinkNode(more[0]);
        xmlFreeNode(more[0]);
      }
    } while (m);
  }
  return (int)count;
}
