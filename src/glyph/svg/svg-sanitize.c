/*
** svg-sanitize.c: the safe subset of SVG, for glyph documents and pictures alike: gzip inflated
** (capped), libxml2 without network, DTD or entities, then what is forbidden removed.  Must not
** know fonts, the SVG table or drawing; SMIL elements are judged by smil-rules.c.  Glyph
** stage (OT-SVG).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <zlib.h>

#include "svg-internal.h"

/* ---- inflating --------------------------------------------------------- */

/* Gzip-compressed documents (1F 8B) are inflated with a hard cap on the output. */
static char *inflate_doc(const uint8_t *in, size_t len, size_t *out_len, char *why, size_t whylen) {
  z_stream z;
  size_t cap = len * 4 + 4096, n = 0;
  char *out = NULL;
  int rc;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
    snprintf(why, whylen, "cannot start zlib");
    return NULL;
  }
  z.next_in = (Bytef *)(uintptr_t)in;
  z.avail_in = (uInt)len;
  do {
    if (n == cap) {
      char *o;
      if (cap >= CT_MAX_SVG_DOC_SIZE) {
        snprintf(why, whylen, "gzip-compressed document inflates past the limit of %u bytes",
                 CT_MAX_SVG_DOC_SIZE);
        goto fail;
      }
      cap = cap * 2 > CT_MAX_SVG_DOC_SIZE ? CT_MAX_SVG_DOC_SIZE : cap * 2;
      if (!(o = realloc(out, cap))) { snprintf(why, whylen, "out of memory"); goto fail; }
      out = o;
    } else if (!out && !(out = malloc(cap))) {
      snprintf(why, whylen, "out of memory");
      goto fail;
    }
    z.next_out = (Bytef *)out + n;
    z.avail_out = (uInt)(cap - n);
    rc = inflate(&z, Z_NO_FLUSH);
    n = cap - z.avail_out;
    if (rc == Z_STREAM_END) break;
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      snprintf(why, whylen, "bad gzip data (%s)", z.msg ? z.msg : "zlib error");
      goto fail;
    }
    if (rc == Z_BUF_ERROR && z.avail_in == 0) {
      snprintf(why, whylen, "truncated gzip data");
      goto fail;
    }
  } while (1);
  inflateEnd(&z);
  *out_len = n;
  return out;
fail:
  inflateEnd(&z);
  free(out);
  return NULL;
}

/* ---- the safe subset ---------------------------------------------------- */

/* animate, set, animateTransform and animateColor are not here: glyphs keep them (checked
   by ct_smil_check) and pictures lose them (see sanitize_node).  animateMotion is not
   sampled, so it goes. */
static const char *const forbidden[] = {
  "script", "foreignObject", "iframe", "audio", "video", "canvas", "animateMotion", "cursor",
  "font", "font-face", "discard", "handler", "listener", "include", NULL
};

/* OT-SVG also forbids text and links in glyphs; pictures (canvas:image) keep them. */
static const char *const forbidden_in_glyphs[] = {
  "text", "tspan", "textPath", "a", "switch", "view", NULL
};

static int in_list(const xmlChar *name, const char *const list[]) {
  int i;
  for (i = 0; list[i]; i++)
    if (xmlStrcmp(name, (const xmlChar *)list[i]) == 0) return 1;
  return 0;
}

static int is_forbidden(const xmlChar *name, int picture) {
  return in_list(name, forbidden) || (!picture && in_list(name, forbidden_in_glyphs));
}

/* A local fragment "#id", or an image as a PNG/JPEG data: URI. */
static int safe_href(const xmlChar *v, int image) {
  const char *s = (const char *)v;
  while (*s == ' ' || *s == '\t' || *s == '\n') s++;
  if (s[0] == '#') return 1;
  if (!image) return 0;
  return strncmp(s, "data:image/png", 14) == 0 || strncmp(s, "data:image/jpeg", 15) == 0 ||
         strncmp(s, "data:image/jpg", 14) == 0;
}

/* CSS: every url() that is not a local #fragment becomes "none"; @import rules go.  One
   pass (scrub_css below repeats it: a removal can join "@impor" and "t" into a new rule). */
static char *scrub_css_once(const char *css, int *changed) {
  size_t n = strlen(css), i = 0, o = 0;
  char *out = malloc(n * 2 + 8);
  if (!out) return NULL;
  *changed = 0;
  while (i < n) {
    if (strncmp(css + i, "@import", 7) == 0) {   /* drop to the end of the rule */
      while (i < n && css[i] != ';') i++;
      if (i < n) i++;
      *changed = 1;
      continue;
    }
    if ((css[i] == 'u' || css[i] == 'U') && strncasecmp(css + i, "url(", 4) == 0) {
      size_t j = i + 4, end;
      while (j < n && (css[j] == ' ' || css[j] == '"' || css[j] == '\'')) j++;
      end = j;
      while (end < n && css[end] != ')') end++;
      if (j < n && css[j] == '#') {
        memcpy(out + o, css + i, end - i + (end < n));
        o += end - i + (end < n);
      } else {
        memcpy(out + o, "none", 4);
        o += 4;
        *changed = 1;
      }
      i = end < n ? end + 1 : end;
      continue;
    }
    out[o++] = css[i++];
  }
  out[o] = '\0';
  return out;
}

/* scrub_css_once until nothing changes: the result holds no @import and no outside url().
   (Each pass that changes something either shortens the text or turns a url() into
   "none", so it ends; past 64 passes the text is dropped.) */
static char *scrub_css(const char *css, int *changed) {
  int pass, again = 0;
  char *cur = scrub_css_once(css, changed);
  for (pass = 0; cur && *changed && pass < 64; pass++) {
    char *next = scrub_css_once(cur, &again);
    free(cur);
    cur = next;
    if (!again) return cur;
  }
  if (cur && *changed && again) cur[0] = '\0';   /* still changing: nothing of it is kept */
  return cur;
}

static void removed(sanitize_t *s, const char *kind, const xmlChar *name) {
  size_t n = strlen(s->what);
  s->removed++;
  if (n < sizeof s->what - 40)
    snprintf(s->what + n, sizeof s->what - n, "%s%s%s%s", n ? ", " : "", kind[0] == '<' ? "<" : "",
             (const char *)name, kind[0] == '<' ? ">" : kind);
  else if (n < sizeof s->what - 4 && s->what[n - 1] != '.')
    snprintf(s->what + n, sizeof s->what - n, "...");
}

static void sanitize_node(xmlNodePtr node, unsigned depth, sanitize_t *s);

/* The numbers of path data or a point list, halved: its coordinate pairs (a little more for
   arcs and curves, whose segments take more numbers).  Linear. */
static unsigned long coordinate_pairs(const xmlChar *v) {
  unsigned long n = 0;
  const xmlChar *p;
  for (p = v; *p; p++)
    if (*p >= '0' && *p <= '9' && (p == v || !((p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.'))) n++;
  return (n + 1) / 2;
}

/* Notes a path over the limits: the document is refused (`too_long` says why).  A path
   within them keeps how often its segments cross in the element's `_private` (libxml2
   leaves that field to applications), for ct_svg_drawn_elements to weigh each copy. */
static void count_points(xmlNodePtr node, const xmlChar *v, int points, sanitize_t *s) {
  unsigned long n = coordinate_pairs(v);
  s->points += n;
  if (s->too_long[0]) return;
  if (n > 1 && n <= CT_MAX_SVG_PATH_POINTS) {
    double k = ct_svg_crossings((const char *)v, points);
    if (k < 0 || k > CT_MAX_SVG_CROSSINGS) k = CT_MAX_SVG_CROSSINGS + 1;   /* out of memory: refused */
    node->_private = (void *)(uintptr_t)(k + 0.5);
  }
  if (n > CT_MAX_SVG_PATH_POINTS)
    snprintf(s->too_long, sizeof s->too_long, "a <%s> of %lu points (the limit CT_MAX_SVG_PATH_POINTS is %u)",
             (const char *)node->name, n, CT_MAX_SVG_PATH_POINTS);
  else if (s->picture && s->points > CT_MAX_SVG_POINTS)
    snprintf(s->too_long, sizeof s->too_long, "paths of more than %u points in all (the limit CT_MAX_SVG_POINTS)",
             CT_MAX_SVG_POINTS);
}

/* Returns 1 when it removed the element itself (an external <image>). */
static int sanitize_attrs(xmlNodePtr node, sanitize_t *s) {
  xmlAttrPtr a = node->properties, next;
  int image = xmlStrcmp(node->name, (const xmlChar *)"image") == 0;
  for (; a; a = next) {
    xmlChar *v;
    next = a->next;
    if (xmlStrncasecmp(a->name, (const xmlChar *)"on", 2) == 0) {   /* event handlers */
      removed(s, "", a->name);
      xmlRemoveProp(a);
      continue;
    }
    v = xmlNodeGetContent((xmlNodePtr)a);
    if (!v) continue;
    if (xmlStrcmp(a->name, (const xmlChar *)"d") == 0)
      count_points(node, v, 0, s);
    else if (xmlStrcmp(a->name, (const xmlChar *)"points") == 0)
      count_points(node, v, 1, s);
    if (xmlStrcmp(a->name, (const xmlChar *)"href") == 0) {
      if (!safe_href(v, image)) {
        if (image) {   /* an image from outside: the element goes */
          removed(s, " (external)", (const xmlChar *)"<image>");
          xmlFree(v);
          xmlUnlinkNode(node);
          xmlFreeNode(node);
          return 1;
        }
        removed(s, " (external)", a->name);
        xmlRemoveProp(a);
      }
    } else if (xmlStrstr(v, (const xmlChar *)"url(") || xmlStrstr(v, (const xmlChar *)"URL(") ||
               xmlStrstr(v, (const xmlChar *)"@import")) {
      int changed = 0;
      char *clean = scrub_css((const char *)v, &changed);
      if (clean && changed) {
        xmlSetNsProp(node, a->ns, a->name, (const xmlChar *)clean);
        removed(s, " url()", a->name);
      }
      free(clean);
    }
    xmlFree(v);
  }
  return 0;
}

static void sanitize_children(xmlNodePtr parent, unsigned depth, sanitize_t *s) {
  xmlNodePtr c = parent->children, next;
  for (; c; c = next) {
    next = c->next;
    sanitize_node(c, depth + 1, s);
  }
}

static void sanitize_node(xmlNodePtr node, unsigned depth, sanitize_t *s) {
  if (node->type == XML_ELEMENT_NODE) {
    if (++s->elements > CT_MAX_SVG_ELEMENTS || depth > CT_MAX_SVG_DEPTH) {
      s->too_many = 1;
      return;
    }
    if (is_forbidden(node->name, s->picture)) {
      removed(s, "<", node->name);
      xmlUnlinkNode(node);
      xmlFreeNode(node);
      return;
    }
    if (ct_smil_is_animation(node)) {
      /* glyphs keep checked SMIL animation, up to CT_MAX_SVG_ANIMATIONS; pictures are
         drawn static */
      char why[160], kind[200];
      int changed = 0;
      if (s->picture) {
        removed(s, "<", node->name);
        xmlUnlinkNode(node);
        xmlFreeNode(node);
        return;
      }
      if (s->animations >= CT_MAX_SVG_ANIMATIONS) {   /* noted once */
        if (s->animations++ == CT_MAX_SVG_ANIMATIONS) {
          snprintf(kind, sizeof kind, "animations past the limit of %u", CT_MAX_SVG_ANIMATIONS);
          removed(s, "", (const xmlChar *)kind);
        } else
          s->removed++;
        xmlUnlinkNode(node);
        xmlFreeNode(node);
        return;
      }
      if (ct_smil_check(node, why, sizeof why, &changed)) why[0] = '\0';
      if (why[0] || sanitize_attrs(node, s)) {
        if (why[0]) {
          snprintf(kind, sizeof kind, "<%s> (%s)", (const char *)node->name, why);
          removed(s, "", (const xmlChar *)kind);
          xmlUnlinkNode(node);
          xmlFreeNode(node);
        }
        return;
      }
      if (changed) {
        snprintf(kind, sizeof kind, "event times or attributes of <%s>", (const char *)node->name);
        removed(s, "", (const xmlChar *)kind);
      }
      s->animations++;
      {
        /* an animation element has no children worth keeping */
        xmlNodePtr c = node->children, next;
        for (; c; c = next) {
          next = c->next;
          xmlUnlinkNode(c);
          xmlFreeNode(c);
        }
      }
      return;
    }
    if (xmlStrcmp(node->name, (const xmlChar *)"style") == 0) {   /* a style sheet */
      xmlChar *css = xmlNodeGetContent(node);
      if (css) {
        int changed = 0;
        char *clean = scrub_css((const char *)css, &changed);
        if (clean && changed) {
          xmlNodeSetContent(node, NULL);
          xmlNodeAddContent(node, (const xmlChar *)clean);
          removed(s, " rules", (const xmlChar *)"@import/url()");
        }
        free(clean);
        xmlFree(css);
      }
      return;
    }
    if (sanitize_attrs(node, s)) return;   /* an external <image> went */
    sanitize_children(node, depth, s);
  } else if (node->type == XML_PI_NODE || node->type == XML_ENTITY_REF_NODE ||
             node->type == XML_XINCLUDE_START) {
    xmlUnlinkNode(node);
    xmlFreeNode(node);
  }
}

/* ---- what <use> copies ------------------------------------------------------------ */

void ct_svg_index_ids(xmlNodePtr node, xmlHashTablePtr ids) {
  for (; node; node = node->next) {
    xmlChar *v;
    if (node->type != XML_ELEMENT_NODE) continue;
    if ((v = xmlGetProp(node, (const xmlChar *)"id"))) {
      xmlHashAddEntry(ids, v, node);
      xmlFree(v);
    }
    ct_svg_index_ids(node->children, ids);
  }
}

/* What an element draws: elements, and the crossings of their paths' segments. */
typedef struct { unsigned long n; double k; } cost_t;
typedef struct { xmlHashTablePtr ids, memo; unsigned long limit; } drawn_t;

static cost_t busy;   /* the memo's mark of a reference being counted */

static int over(const cost_t *c, const drawn_t *d) { return c->n > d->limit || c->k > CT_MAX_SVG_CROSSINGS; }

static void add(cost_t *c, cost_t more) {
  c->n += more.n;
  c->k += more.k;
}

static cost_t drawn(xmlNodePtr node, drawn_t *d, unsigned depth);

/* What the reference `#id` at `p` draws (memo: its cost; `busy` while it is being counted,
   a cycle, which librsvg refuses itself). */
static cost_t drawn_ref(const char *p, size_t len, drawn_t *d, unsigned depth) {
  char id[257];
  xmlNodePtr target;
  cost_t *m, zero = { 0, 0 }, c;
  if (len == 0 || len >= sizeof id) return zero;
  memcpy(id, p, len);
  id[len] = '\0';
  if ((m = xmlHashLookup(d->memo, (const xmlChar *)id))) return m == &busy ? zero : *m;
  if (!(target = xmlHashLookup(d->ids, (const xmlChar *)id))) return zero;
  xmlHashAddEntry(d->memo, (const xmlChar *)id, &busy);
  c = drawn(target, d, depth + 1);
  if ((m = malloc(sizeof *m))) *m = c;
  xmlHashUpdateEntry(d->memo, (const xmlChar *)id, m, NULL);
  return c;
}

static cost_t drawn(xmlNodePtr node, drawn_t *d, unsigned depth) {
  cost_t c = { 1, 0 }, zero = { 0, 0 };
  xmlAttrPtr a;
  xmlNodePtr ch;
  if (node->type != XML_ELEMENT_NODE) return zero;
  c.k = (double)(uintptr_t)node->_private;   /* count_points' estimate */
  if (depth > CT_MAX_SVG_DEPTH * 4) c.n = d->limit + 1;
  for (a = node->properties; a && !over(&c, d); a = a->next) {
    xmlChar *v = xmlNodeGetContent((xmlNodePtr)a);
    const char *p;
    if (!v) continue;
    if (xmlStrcmp(a->name, (const xmlChar *)"href") == 0 && v[0] == '#')
      add(&c, drawn_ref((const char *)v + 1, strlen((const char *)v + 1), d, depth));
    for (p = (const char *)v; (p = strstr(p, "url(#")) && !over(&c, d); p += 5)
      add(&c, drawn_ref(p + 5, strcspn(p + 5, ") \t\"'"), d, depth));
    xmlFree(v);
  }
  for (ch = node->children; ch && !over(&c, d); ch = ch->next) add(&c, drawn(ch, d, depth + 1));
  if (c.n > d->limit) c.n = d->limit + 1;
  if (c.k > CT_MAX_SVG_CROSSINGS) c.k = CT_MAX_SVG_CROSSINGS + 1;
  return c;
}

static void free_cost(void *payload, const xmlChar *name) {
  (void)name;
  if (payload != &busy) free(payload);
}

unsigned long ct_svg_drawn_elements(xmlNodePtr node, xmlHashTablePtr ids, unsigned long limit, double *crossings) {
  drawn_t d = { ids, xmlHashCreate(64), limit };
  cost_t c;
  if (crossings) *crossings = 0;
  if (!d.memo || !ids) {
    if (d.memo) xmlHashFree(d.memo, NULL);
    return limit + 1;   /* out of memory: refused */
  }
  c = drawn(node, &d, 0);
  xmlHashFree(d.memo, free_cost);
  if (crossings) *crossings = c.k;
  return c.n;
}

/* ---- parsing ---------------------------------------------------------- */

/* libxml2's push parser, in chunks: libxml2 2.9 refuses a document parsed from memory
   once it is 10 MB in ("Huge input lookup") unless XML_PARSE_HUGE lifts every limit; fed
   in chunks, its buffer stays small and the other limits stay on.  No network, no
   entities, no DTD.  Returns 1 with *out set (NULL when empty), or 0 with `why` filled. */
int ct_svg_push_parse(const uint8_t *bytes, size_t len, const char *name, xmlDocPtr *out, char *why,
                      size_t whylen) {
  int opts = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA;
  xmlParserCtxtPtr ctx;
  xmlDocPtr x;
  size_t done = 0;
  int ok;
#if LIBXML_VERSION >= 21300
  opts |= XML_PARSE_NO_XXE;
#endif
  *out = NULL;
  ctx = xmlCreatePushParserCtxt(NULL, NULL, NULL, 0, name);
  if (!ctx) {
    snprintf(why, whylen, "out of memory");
    return 0;
  }
  xmlCtxtUseOptions(ctx, opts);
  while (done < len && ctx->wellFormed) {
    size_t n = len - done > 65536 ? 65536 : len - done;
    xmlParseChunk(ctx, (const char *)bytes + done, (int)n, 0);
    done += n;
  }
  if (ctx->wellFormed) xmlParseChunk(ctx, NULL, 0, 1);
  ok = ctx->wellFormed;
  x = ctx->myDoc;
  ctx->myDoc = NULL;
  if (!ok) {
    const xmlError *xe = xmlCtxtGetLastError(ctx);
    const char *m = xe && xe->message ? xe->message : "parse error";
    if (strstr(m, "Excessive depth"))   /* libxml2's own limit, 256 levels */
      snprintf(why, whylen, "elements nested deeper than 256 levels (line %d)", xe->line);
    else
      snprintf(why, whylen, "not well-formed XML (line %d: %.*s)", xe ? xe->line : 0,
               (int)strcspn(m, "\n"), m);
    xmlFreeParserCtxt(ctx);
    if (x) xmlFreeDoc(x);
    return 0;
  }
  xmlFreeParserCtxt(ctx);
  *out = x;
  return 1;
}

/* Parses an SVG document with libxml2 (inflated first when gzip-compressed, capped): no
   network, no DTD, no entities (a DOCTYPE is refused), the root must be <svg>; then removes
   what the safe subset forbids, noting it in `s`.  Returns the document, or NULL with `why`
   filled.  `name` names the document in libxml2's own messages. */
xmlDocPtr ct_svg_parse_safe(const uint8_t *bytes, size_t len, const char *name, sanitize_t *s,
                            char *why, size_t whylen) {
  char *inflated = NULL;
  xmlDocPtr x = NULL;

  if (len >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B) {
    if (!(inflated = inflate_doc(bytes, len, &len, why, whylen))) goto refuse;
    bytes = (const uint8_t *)inflated;
  }
  if (len > CT_MAX_SVG_DOC_SIZE) {
    snprintf(why, whylen, "document of %zu bytes exceeds the limit of %u", len, CT_MAX_SVG_DOC_SIZE);
    goto refuse;
  }
  if (!ct_svg_push_parse(bytes, len, name, &x, why, whylen)) goto refuse;
  if (!x) {
    snprintf(why, whylen, "empty document");
    goto refuse;
  }
  if (x->intSubset || x->extSubset) {   /* entities, external DTDs: never */
    snprintf(why, whylen, "document has a DOCTYPE (refused: entities and DTDs are not allowed)");
    goto refuse;
  }
  if (!xmlDocGetRootElement(x) || xmlStrcmp(xmlDocGetRootElement(x)->name, (const xmlChar *)"svg") != 0) {
    snprintf(why, whylen, "root element is not <svg>");
    goto refuse;
  }
  {
    xmlNodePtr n, next;
    for (n = x->children; n; n = next) {   /* <?xml-stylesheet?> and the like, outside the root */
      next = n->next;
      if (n->type == XML_PI_NODE) {
        removed(s, "<", n->name);
        xmlUnlinkNode(n);
        xmlFreeNode(n);
      }
    }
    sanitize_node(xmlDocGetRootElement(x), 0, s);
    if (s->too_many) {
      snprintf(why, whylen, "document deeper than %u or with more than %u elements",
               CT_MAX_SVG_DEPTH, CT_MAX_SVG_ELEMENTS);
      goto refuse;
    }
    if (s->too_long[0]) {
      snprintf(why, whylen, "%s", s->too_long);
      goto refuse;
    }
  }
  free(inflated);
  return x;

refuse:
  if (x) xmlFreeDoc(x);
  free(inflated);
  return NULL;
}

char *ct_svg_sanitize_picture(const unsigned char *bytes, size_t len, size_t *out_len, char *why,
                              size_t whylen, char *what, size_t whatlen) {
  sanitize_t s;
  xmlDocPtr x;
  xmlChar *mem = NULL;
  int n = 0;
  char *out;
  memset(&s, 0, sizeof s);
  s.picture = 1;
  if (whatlen) what[0] = '\0';
  if (!(x = ct_svg_parse_safe(bytes, len, "image.svg", &s, why, whylen))) return NULL;
  if (s.removed && whatlen) snprintf(what, whatlen, "%s", s.what);
  {
    /* references that copy what they reference: counted as librsvg draws them */
    xmlHashTablePtr ids = xmlHashCreate(64);
    unsigned long drawn_n = 0;
    double crossings = 0;
    if (ids) ct_svg_index_ids(xmlDocGetRootElement(x), ids);
    drawn_n = ct_svg_drawn_elements(xmlDocGetRootElement(x), ids, CT_MAX_SVG_ELEMENTS, &crossings);
    if (ids) xmlHashFree(ids, NULL);
    if (drawn_n > CT_MAX_SVG_ELEMENTS) {
      xmlFreeDoc(x);
      snprintf(why, whylen, "more than %u elements drawn, counting the copies <use> and url(#) references "
               "make (the limit CT_MAX_SVG_ELEMENTS)", CT_MAX_SVG_ELEMENTS);
      return NULL;
    }
    if (crossings > CT_MAX_SVG_CROSSINGS) {
      xmlFreeDoc(x);
      snprintf(why, whylen, "paths whose segments cross more than %.0f times, counting each copy drawn (the "
               "limit CT_MAX_SVG_CROSSINGS)", CT_MAX_SVG_CROSSINGS);
      return NULL;
    }
  }
  xmlDocDumpMemory(x, &mem, &n);
  xmlFreeDoc(x);
  if (!mem || n < 0 || !(out = malloc((size_t)n + 1))) {
    if (mem) xmlFree(mem);
    snprintf(why, whylen, "out of memory");
    return NULL;
  }
  memcpy(out, mem, (size_t)n);
  out[n] = '\0';
  xmlFree(mem);
  *out_len = (size_t)n;
  return out;
}
