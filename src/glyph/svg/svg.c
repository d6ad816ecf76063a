/*
** svg.c: OT-SVG glyphs.  Finds a glyph's document in the SVG table, inflates it (gzip,
** capped), parses it once with libxml2 (no network, no DTD, no entities: a DOCTYPE is
** refused), removes what the safe subset forbids, and cuts out each glyph with the
** definitions it references.  At draw time the palette is substituted for var(--colorN)
** and currentColor (librsvg 2.54 resolves neither), SMIL animations are sampled at the
** time drawn (smil.c), and librsvg draws it.  SVG pictures (image.c) go through the same
** parser and sanitizer.  Core layer.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/hash.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <librsvg/rsvg.h>
#include <zlib.h>

#include "svg-private.h"

/* ---- the SVG table ----------------------------------------------------- */

typedef struct {
  uint16_t start, end;
  uint32_t offset, length;   /* from the start of the table */
} svg_entry_t;

/* A parsed document, shared by every glyph whose entry points at the same bytes. */
typedef struct {
  uint32_t        offset;
  xmlDocPtr       doc;     /* sanitized; NULL when the document was refused */
  xmlHashTablePtr ids;     /* id -> element, for cutting glyphs out without scans */
  char           *error;   /* why it was refused */
  unsigned        glyphs;  /* how many glyph ids the SVG table points at it */
} svg_doc_t;

struct ct_svg_glyph {
  int       ref;
  unsigned  gid;
  unsigned  upem;
  char     *source;        /* the glyph's own small document, palette variables intact */
  size_t    len;
  int       has_vars;      /* var(), currentColor or context-* appear: substitute at draw */
  int       empty;         /* nothing to draw (a zero or absurd viewBox, see svgview.c) */
  unsigned  nlayers;       /* drawable children of the glyph element, each with an id */
  char    **layer_ids;
  unsigned  nanims;        /* SMIL animation elements in `source` (0: a static glyph) */
  double    duration;      /* their simple duration, seconds */
};

static const char *const drawable[] = {
  "g", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "use", "image", "svg", NULL
};

static int is_drawable(xmlNodePtr n) {
  int i;
  if (n->type != XML_ELEMENT_NODE) return 0;
  for (i = 0; drawable[i]; i++)
    if (xmlStrcmp(n->name, (const xmlChar *)drawable[i]) == 0) return 1;
  return 0;
}

typedef struct {
  uint64_t    key;         /* hash of the substituted document */
  RsvgHandle *handle;
} svg_handle_slot_t;

#define HANDLE_SLOTS 64

struct ct_svg_table {
  hb_blob_t        *blob;
  const uint8_t    *d;
  size_t            len;
  svg_entry_t      *entries;
  unsigned          count;
  svg_doc_t        *docs;    /* one per distinct document offset, parsed on first use */
  unsigned          ndocs, capdocs;
  svg_handle_slot_t handles[HANDLE_SLOTS];   /* librsvg handles by document hash */
  unsigned          next_slot;
};

static unsigned rd16(const uint8_t *p) { return (unsigned)(p[0] << 8 | p[1]); }
static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static ct_svg_table_t *table_load(ct_font_t *font) {
  ct_svg_table_t *t = calloc(1, sizeof *t);
  unsigned len = 0, i, n;
  uint32_t list;
  if (!t) return NULL;
  t->blob = hb_face_reference_table(font->hb_face, HB_TAG('S', 'V', 'G', ' '));
  t->d = (const uint8_t *)hb_blob_get_data(t->blob, &len);
  t->len = len;
  if (len < 10) return t;
  list = rd32(t->d + 2);
  if (list > len || len - list < 2) return t;
  n = rd16(t->d + list);
  if ((len - list - 2) / 12 < n) n = (unsigned)((len - list - 2) / 12);
  t->entries = calloc(n ? n : 1, sizeof *t->entries);
  if (!t->entries) return t;
  for (i = 0; i < n; i++) {
    const uint8_t *e = t->d + list + 2 + (size_t)i * 12;
    uint32_t off = rd32(e + 4), l = rd32(e + 8);
    if (off == 0 || l == 0 || off > len - list || len - list - off < l) continue;   /* bad entry */
    t->entries[t->count].start = (uint16_t)rd16(e);
    t->entries[t->count].end = (uint16_t)rd16(e + 2);
    t->entries[t->count].offset = list + off;
    t->entries[t->count].length = l;
    t->count++;
  }
  return t;
}

void ct_svg_table_destroy(ct_svg_table_t *t) {
  unsigned i;
  if (!t) return;
  for (i = 0; i < t->ndocs; i++) {
    if (t->docs[i].ids) xmlHashFree(t->docs[i].ids, NULL);
    if (t->docs[i].doc) xmlFreeDoc(t->docs[i].doc);
    free(t->docs[i].error);
  }
  for (i = 0; i < HANDLE_SLOTS; i++)
    if (t->handles[i].handle) g_object_unref(t->handles[i].handle);
  free(t->docs);
  free(t->entries);
  hb_blob_destroy(t->blob);
  free(t);
}

static const svg_entry_t *find_entry(const ct_svg_table_t *t, unsigned gid) {
  unsigned lo = 0, hi = t->count;
  while (lo < hi) {   /* entries are sorted by start glyph and do not overlap */
    unsigned mid = lo + (hi - lo) / 2;
    if (gid < t->entries[mid].start) hi = mid;
    else if (gid > t->entries[mid].end) lo = mid + 1;
    else return &t->entries[mid];
  }
  return NULL;
}

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

typedef struct {
  unsigned elements, removed;
  unsigned animations;  /* SMIL animation elements kept */
  int      too_many;
  int      picture;     /* an image file, not a glyph document: text and links stay */
  char     what[400];   /* the first things removed, for the warning */
} sanitize_t;

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

/* ---- documents ---------------------------------------------------------- */

/* id -> element for the whole document (the first of duplicates wins). */
static void index_ids(xmlNodePtr node, xmlHashTablePtr ids) {
  for (; node; node = node->next) {
    xmlChar *v;
    if (node->type != XML_ELEMENT_NODE) continue;
    if ((v = xmlGetProp(node, (const xmlChar *)"id"))) {
      xmlHashAddEntry(ids, v, node);
      xmlFree(v);
    }
    index_ids(node->children, ids);
  }
}

/* libxml2's push parser, in chunks: libxml2 2.9 refuses a document parsed from memory
   once it is 10 MB in ("Huge input lookup") unless XML_PARSE_HUGE lifts every limit; fed
   in chunks, its buffer stays small and the other limits stay on.  No network, no
   entities, no DTD.  Returns 1 with *out set (NULL when empty), or 0 with `why` filled. */
static int push_parse(const uint8_t *bytes, size_t len, const char *name, xmlDocPtr *out, char *why,
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
static xmlDocPtr parse_safe(const uint8_t *bytes, size_t len, const char *name, sanitize_t *s,
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
  if (!push_parse(bytes, len, name, &x, why, whylen)) goto refuse;
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
  }
  free(inflated);
  return x;

refuse:
  if (x) xmlFreeDoc(x);
  free(inflated);
  return NULL;
}

static svg_doc_t *load_doc(ct_font_t *font, ct_svg_table_t *t, const svg_entry_t *e) {
  char why[256] = "";
  svg_doc_t *doc;
  xmlDocPtr x;
  sanitize_t s;
  unsigned i;

  for (i = 0; i < t->ndocs; i++)
    if (t->docs[i].offset == e->offset) return &t->docs[i];
  if (t->ndocs == t->capdocs) {
    unsigned cap = t->capdocs ? t->capdocs * 2 : 8;
    svg_doc_t *d = realloc(t->docs, cap * sizeof *d);
    if (!d) return NULL;
    t->docs = d;
    t->capdocs = cap;
  }
  doc = &t->docs[t->ndocs++];
  memset(doc, 0, sizeof *doc);
  doc->offset = e->offset;
  for (i = 0; i < t->count; i++)   /* entries may share a document: a glyph range each */
    if (t->entries[i].offset == e->offset) doc->glyphs += t->entries[i].end - t->entries[i].start + 1u;

  memset(&s, 0, sizeof s);
  if (!(x = parse_safe(t->d + e->offset, e->length, "glyph.svg", &s, why, sizeof why))) {
    doc->error = strdup(why);
    return doc;
  }
  if (s.removed) {
    char msg[700];
    if (e->start == e->end)
      snprintf(msg, sizeof msg, "%s: glyph %u: SVG document: removed %s", font->name, e->start, s.what);
    else
      snprintf(msg, sizeof msg, "%s: SVG document of glyphs %u..%u: removed %s", font->name, e->start,
               e->end, s.what);
    ct_font_add_warning(font, msg);
  }
  doc->doc = x;
  doc->ids = xmlHashCreate(64);
  if (doc->ids) index_ids(xmlDocGetRootElement(x), doc->ids);
  return doc;
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
  if (!(x = parse_safe(bytes, len, "image.svg", &s, why, whylen))) return NULL;
  if (s.removed && whatlen) snprintf(what, whatlen, "%s", s.what);
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

/* ---- one glyph out of a document ------------------------------------------ */

static xmlNodePtr find_id(xmlHashTablePtr ids, const char *id) {
  return ids ? xmlHashLookup(ids, (const xmlChar *)id) : NULL;
}

/* ids referenced by href="#x", url(#x) anywhere below `node`: a list in order of
   discovery, and a hash set against repeats */
typedef struct { char **ids; unsigned n, cap; xmlHashTablePtr seen; } idset_t;

static void idset_add(idset_t *s, const char *id, size_t len) {
  char *c;
  if (len == 0 || len > 256 || s->n >= 100000 || !s->seen) return;
  if (!(c = malloc(len + 1))) return;
  memcpy(c, id, len);
  c[len] = '\0';
  if (xmlHashLookup(s->seen, (const xmlChar *)c)) { free(c); return; }
  if (s->n == s->cap) {
    unsigned cap = s->cap ? s->cap * 2 : 16;
    char **ids = realloc(s->ids, cap * sizeof *ids);
    if (!ids) { free(c); return; }
    s->ids = ids;
    s->cap = cap;
  }
  xmlHashAddEntry(s->seen, (const xmlChar *)c, (void *)1);
  s->ids[s->n++] = c;
}

static void refs_in_text(const char *v, idset_t *s) {
  const char *p = v;
  while ((p = strchr(p, '#'))) {
    size_t n = strcspn(p + 1, ") \"'\t\n,;");
    if (p == v || p[-1] == '(' || p[-1] == '"' || p[-1] == '\'' || p[-1] == ' ' || p == v) idset_add(s, p + 1, n);
    p += 1 + n;
  }
}

/* The references of one element and of everything below it (not its siblings). */
static void collect_refs(xmlNodePtr node, idset_t *s) {
  xmlAttrPtr a;
  xmlNodePtr c;
  if (node->type != XML_ELEMENT_NODE) return;
  for (a = node->properties; a; a = a->next) {
    xmlChar *v = xmlNodeGetContent((xmlNodePtr)a);
    if (v) {
      if (strchr((const char *)v, '#')) refs_in_text((const char *)v, s);
      xmlFree(v);
    }
  }
  for (c = node->children; c; c = c->next) collect_refs(c, s);
}

static int has_palette_refs(const char *s) {
  return strstr(s, "var(") || strstr(s, "currentColor") || strstr(s, "context-fill") ||
         strstr(s, "context-stroke");
}

/* Elements in `node` and below, counting no further than `cap` + 1. */
static unsigned count_elements(xmlNodePtr node, unsigned cap) {
  unsigned n = 0;
  xmlNodePtr c;
  if (node->type != XML_ELEMENT_NODE) return 0;
  n = 1;
  for (c = node->children; c && n <= cap; c = c->next) n += count_elements(c, cap - n + 1);
  return n;
}

/* Gives each drawable child of the glyph element (its copy in the cut document) an id to
   draw it by, as a layer. */
static void name_layers(xmlNodePtr glyph) {
  xmlNodePtr c;
  unsigned k = 0;
  for (c = glyph ? glyph->children : NULL; c; c = c->next)
    if (is_drawable(c) && !xmlHasProp(c, (const xmlChar *)"id")) {
      char lid[32];
      snprintf(lid, sizeof lid, "ct-layer-%u", k++);
      xmlSetProp(c, (const xmlChar *)"id", (const xmlChar *)lid);
    } else if (is_drawable(c)) {
      k++;
    }
}

/* The layer ids, in order, into g->layer_ids ("#id"). */
static void record_layers(ct_svg_glyph_t *g, xmlNodePtr glyph) {
  xmlNodePtr k;
  unsigned n = 0;
  for (k = glyph->children; k; k = k->next) n += is_drawable(k);
  if (!n || !(g->layer_ids = calloc(n, sizeof *g->layer_ids))) return;
  for (k = glyph->children; k; k = k->next)
    if (is_drawable(k)) {
      xmlChar *v = xmlGetProp(k, (const xmlChar *)"id");
      if (v) {
        g->layer_ids[g->nlayers] = malloc(strlen((const char *)v) + 2);
        if (g->layer_ids[g->nlayers]) sprintf(g->layer_ids[g->nlayers], "#%s", (const char *)v);
        xmlFree(v);
      }
      g->nlayers++;
    }
}

/* The glyph element with the <style> sheets and the closure of what it references, as a
   small standalone document; or the whole document when the glyph is its root <svg> or
   (a document for one glyph) it has no element with the glyph's id.  Returns NULL with
   `why` filled when there is no glyph (then the outline is drawn); `note` receives what
   was ignored in the root's geometry ("" if nothing), for a warning. */
static ct_svg_glyph_t *cut_glyph(ct_font_t *font, svg_doc_t *doc, unsigned gid, char *why, size_t whylen,
                                 char *note, size_t notelen) {
  xmlNodePtr root = xmlDocGetRootElement(doc->doc), glyph, c, gcopy = NULL;
  xmlDocPtr out = NULL;
  xmlNodePtr oroot;
  idset_t ids = { NULL, 0, 0, NULL };
  char id[32];
  unsigned i, done = 0;
  xmlChar *mem = NULL;
  int memlen = 0;
  int whole, view = CT_SVG_VIEW_OK;
  unsigned elements;
  ct_svg_glyph_t *g = NULL;

  if (notelen) note[0] = '\0';
  snprintf(id, sizeof id, "glyph%u", gid);
  glyph = find_id(doc->ids, id);
  if (!glyph && doc->glyphs > 1) {   /* drawing a document of several glyphs whole would draw them all */
    snprintf(why, whylen, "its document (shared by %u glyphs) has no element with id=\"%s\"", doc->glyphs, id);
    return NULL;
  }
  whole = !glyph || glyph == root;
  elements = count_elements(whole ? root : glyph, CT_MAX_SVG_GLYPH_ELEMENTS);
  if (elements > CT_MAX_SVG_GLYPH_ELEMENTS) goto too_big;
  ids.seen = xmlHashCreate(64);
  out = xmlNewDoc((const xmlChar *)"1.0");
  if (!out) goto nomem;
  if (whole) {   /* the root <svg> with everything in it */
    oroot = xmlDocCopyNode(root, out, 1);
    if (!oroot) goto nomem;
    xmlDocSetRootElement(out, oroot);
    if (glyph) gcopy = oroot;   /* a root with the id: its children are the layers */
    goto frame;
  }
  oroot = xmlDocCopyNode(root, out, 2);   /* the <svg> with its attributes and namespaces */
  if (!oroot) goto nomem;
  xmlDocSetRootElement(out, oroot);
  /* for an inner glyph the root's transform is an ancestor's: not applied (Firefox) */
  xmlUnsetProp(oroot, (const xmlChar *)"transform");
  for (c = root->children; c; c = c->next)   /* style sheets apply document-wide */
    if (c->type == XML_ELEMENT_NODE && xmlStrcmp(c->name, (const xmlChar *)"style") == 0)
      xmlAddChild(oroot, xmlDocCopyNode(c, out, 1));
  collect_refs(glyph, &ids);
  {
    /* the referenced elements, and what they reference, under one <defs> */
    xmlNodePtr defs = xmlNewChild(oroot, NULL, (const xmlChar *)"defs", NULL);
    while (done < ids.n) {
      xmlNodePtr ref = find_id(doc->ids, ids.ids[done++]);
      if (!ref || ref == glyph) continue;
      {
        /* skip one inside the glyph or inside one already copied */
        xmlNodePtr up;
        int inside = 0;
        for (up = ref->parent; up; up = up->parent)
          if (up == glyph) { inside = 1; break; }
        if (inside) continue;
      }
      if ((elements += count_elements(ref, CT_MAX_SVG_GLYPH_ELEMENTS)) > CT_MAX_SVG_GLYPH_ELEMENTS) goto too_big;
      xmlAddChild(defs, xmlDocCopyNode(ref, out, 1));
      collect_refs(ref, &ids);
    }
  }
  /* the glyph, under groups with what it inherits from its ancestors (their fill, stroke,
     color...: Firefox draws it so; their transforms and effects do not apply); its
     drawable children are its layers */
  gcopy = xmlDocCopyNode(glyph, out, 1);
  xmlAddChild(ct_svg_view_context(out, oroot, glyph), gcopy);
frame:
  /* the root on the em square, unclipped, in the frame ct_svg_render draws (svgview.c) */
  view = ct_svg_view_frame(out, oroot, font->upem, note, notelen);
  if (view == CT_SVG_VIEW_ERROR) goto nomem;
  name_layers(gcopy);
  xmlDocDumpMemory(out, &mem, &memlen);
  if (!mem) goto nomem;
  g = calloc(1, sizeof *g);
  if (!g || !(g->source = malloc((size_t)memlen + 1))) {
    free(g);
    g = NULL;
    goto nomem;
  }
  memcpy(g->source, mem, (size_t)memlen);
  g->source[memlen] = '\0';
  g->len = (size_t)memlen;
  g->ref = 1;
  g->gid = gid;
  g->upem = font->upem;
  g->empty = view == CT_SVG_VIEW_EMPTY;
  g->has_vars = has_palette_refs(g->source) != 0;
  g->duration = ct_smil_duration(xmlDocGetRootElement(out), &g->nanims);
  if (gcopy) record_layers(g, gcopy);
  goto done;
too_big:
  snprintf(why, whylen, "more than %u elements in the glyph%s", CT_MAX_SVG_GLYPH_ELEMENTS,
           whole ? " (its root <svg> is the glyph: the whole document)" : " and what it references");
  goto done;
nomem:
  snprintf(why, whylen, "out of memory");
done:
  if (mem) xmlFree(mem);
  if (out) xmlFreeDoc(out);
  for (i = 0; i < ids.n; i++) free(ids.ids[i]);
  free(ids.ids);
  if (ids.seen) xmlHashFree(ids.seen, NULL);
  return g;
}

unsigned ct_svg_glyph_get_gid(const ct_svg_glyph_t *g) { return g->gid; }

ct_svg_glyph_t *ct_svg_glyph_reference(ct_svg_glyph_t *g) {
  if (g) g->ref++;
  return g;
}

void ct_svg_glyph_destroy(ct_svg_glyph_t *g) {
  unsigned i;
  if (!g || --g->ref > 0) return;
  for (i = 0; i < g->nlayers; i++) free(g->layer_ids[i]);
  free(g->layer_ids);
  free(g->source);
  free(g);
}

unsigned ct_svg_glyph_get_layer_count(const ct_svg_glyph_t *g) { return g->nlayers; }

int ct_svg_glyph_is_animated(const ct_svg_glyph_t *g) { return g->nanims > 0; }

/* The font's SVG table, its entry for `gid` and that entry's document (parsed), or NULL. */
static svg_doc_t *doc_for(ct_font_t *font, unsigned gid) {
  const svg_entry_t *e;
  if (!(font->color_formats & CT_COLOR_SVG)) return NULL;
  if (!font->svg && !(font->svg = table_load(font))) return NULL;
  if (!(e = find_entry(font->svg, gid))) return NULL;
  return load_doc(font, font->svg, e);
}

unsigned ct_font_get_svg_animation(ct_font_t *font, int gid, double *duration) {
  unsigned count = 0, i;
  double d = 0;
  if (duration) *duration = 0;
  if (!font || !(font->color_formats & CT_COLOR_SVG)) return 0;
  if (!font->svg && !(font->svg = table_load(font))) return 0;
  if (gid >= 0) {
    svg_doc_t *doc = doc_for(font, (unsigned)gid);
    char why[256], note[256];
    ct_svg_glyph_t *g;
    if (!doc || !doc->doc || !(g = cut_glyph(font, doc, (unsigned)gid, why, sizeof why, note, sizeof note)))
      return 0;
    count = g->nanims;
    d = g->duration;
    ct_svg_glyph_destroy(g);
  } else {
    for (i = 0; i < font->svg->count; i++) load_doc(font, font->svg, &font->svg->entries[i]);
    for (i = 0; i < font->svg->ndocs; i++) {   /* each document once, however many entries */
      unsigned n = 0;
      double dd;
      if (!font->svg->docs[i].doc) continue;
      dd = ct_smil_duration(xmlDocGetRootElement(font->svg->docs[i].doc), &n);
      count += n;
      if (dd > d) d = dd;
    }
  }
  if (duration) *duration = d;
  return count;
}

double ct_font_get_svg_animation_duration(ct_font_t *font) {
  double d = 0;
  ct_font_get_svg_animation(font, -1, &d);
  return d;
}

ct_paint_t *ct_svg_glyph_paint(ct_font_t *font, unsigned gid) {
  svg_doc_t *doc;
  ct_svg_glyph_t *g;
  ct_paint_t *p;
  char why[256] = "", note[256] = "", msg[600];

  if (!(doc = doc_for(font, gid))) return NULL;
  if (!doc->doc) {
    snprintf(msg, sizeof msg, "%s: glyph %u: SVG document refused: %s; drawing the plain outline",
             font->name, gid, doc->error ? doc->error : "?");
    ct_font_add_warning(font, msg);
    return NULL;
  }
  if (!(g = cut_glyph(font, doc, gid, why, sizeof why, note, sizeof note))) {
    snprintf(msg, sizeof msg, "%s: glyph %u: SVG glyph: %s; drawing the plain outline", font->name, gid, why);
    ct_font_add_warning(font, msg);
    return NULL;
  }
  if (note[0]) {
    snprintf(msg, sizeof msg, "%s: glyph %u: SVG root <svg>: %s", font->name, gid, note);
    ct_font_add_warning(font, msg);
  }
  p = ct_paint_svg_create(g, -1);
  ct_svg_glyph_destroy(g);
  return p;
}

/* ---- drawing ------------------------------------------------------------ */

typedef struct { char *s; size_t len, cap; int failed; } buf_t;

static void add(buf_t *b, const char *s, size_t n) {
  if (b->failed) return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = (b->cap ? b->cap : 1024) * 2 + n;
    char *m = realloc(b->s, cap);
    if (!m) { b->failed = 1; return; }
    b->s = m;
    b->cap = cap;
  }
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = '\0';
}

static void add_color(buf_t *b, ct_rgba_t c) {
  char tmp[96];
  int n = snprintf(tmp, sizeof tmp, "rgba(%d,%d,%d,%.4g)", (int)lround(c.r * 255), (int)lround(c.g * 255),
                   (int)lround(c.b * 255), c.a);
  add(b, tmp, (size_t)n);
}

/* var(--colorN, fallback) -> the palette's entry N (or the fallback when the palette has
   no entry N); currentColor, context-fill and context-stroke -> the text color. */
static char *substitute(const ct_svg_glyph_t *g, const ct_resolved_palette_t *pal) {
  buf_t b = { NULL, 0, 0, 0 };
  const char *s = g->source, *end = s + g->len;
  while (s < end) {
    const char *v = strstr(s, "var(--color");
    const char *cc = strstr(s, "currentColor");
    const char *cf = strstr(s, "context-fill");
    const char *cs = strstr(s, "context-stroke");
    const char *next = end;
    if (v && v < next) next = v;
    if (cc && cc < next) next = cc;
    if (cf && cf < next) next = cf;
    if (cs && cs < next) next = cs;
    add(&b, s, (size_t)(next - s));
    if (next == end) break;
    if (next == v) {
      char *stop;
      unsigned long n = strtoul(v + 11, &stop, 10);
      const char *close, *comma;
      int depth = 1;
      /* the matching parenthesis (a fallback may hold rgb(...)) */
      for (close = v + 4; close < end && depth > 0; close++) {
        if (*close == '(') depth++;
        else if (*close == ')') depth--;
      }
      if (depth != 0 || stop == v + 11) {   /* not a var() we know: keep the text */
        add(&b, v, 4);
        s = v + 4;
        continue;
      }
      if (n < pal->count) {
        add_color(&b, pal->colors[n]);
      } else if ((comma = memchr(stop, ',', (size_t)(close - 1 - stop)))) {
        const char *f = comma + 1;
        while (*f == ' ') f++;
        add(&b, f, (size_t)(close - 1 - f));
      } else {
        add(&b, "black", 5);
      }
      s = close;
    } else {
      add_color(&b, pal->foreground);
      s = next + (next == cc ? 12 : next == cf ? 12 : 14);
    }
  }
  if (b.failed) {
    free(b.s);
    return NULL;
  }
  return b.s;
}

static uint64_t hash(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  size_t i;
  for (i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h ^ n;
}

/* The glyph's document (palette already substituted) made static at `time` (smil.c):
   parsed again, sampled, written out.  A malloc'ed string, or NULL. */
static char *sample_text(const char *src, size_t len, double time, size_t *out_len) {
  xmlDocPtr x = NULL;
  xmlChar *mem = NULL;
  int n = 0;
  char why[256], *out = NULL;
  if (!push_parse((const uint8_t *)src, len, "glyph.svg", &x, why, sizeof why) || !x) return NULL;
  ct_smil_sample(x, time);
  xmlDocDumpMemory(x, &mem, &n);
  xmlFreeDoc(x);
  if (mem && n >= 0 && (out = malloc((size_t)n + 1))) {
    memcpy(out, mem, (size_t)n);
    out[n] = '\0';
    *out_len = (size_t)n;
  }
  if (mem) xmlFree(mem);
  return out;
}

/* A librsvg handle for the glyph with the palette applied (and, when it is animated,
   sampled at `time`), cached by its text (and time). */
static RsvgHandle *handle_for(ct_svg_table_t *t, const ct_svg_glyph_t *g, const ct_resolved_palette_t *pal,
                              double time) {
  char *text = g->has_vars ? substitute(g, pal) : NULL, *sampled = NULL;
  const char *src = g->has_vars ? text : g->source;
  size_t len = src ? strlen(src) : 0;
  uint64_t key;
  unsigned i;
  RsvgHandle *h;
  GError *err = NULL;
  if (!src) return NULL;
  key = hash(src, len) ^ ((uint64_t)g->gid << 1);
  if (g->nanims) {   /* static glyphs keep one handle whatever the time */
    uint64_t bits;
    if (time == 0) time = 0;   /* -0 */
    memcpy(&bits, &time, sizeof bits);
    key = (key ^ bits) * 1099511628211ull + 0x9e3779b97f4a7c15ull;
  }
  for (i = 0; i < HANDLE_SLOTS; i++)
    if (t->handles[i].handle && t->handles[i].key == key) {
      free(text);
      return t->handles[i].handle;
    }
  if (g->nanims) {
    if (!(sampled = sample_text(src, len, time, &len))) {
      free(text);
      return NULL;
    }
    src = sampled;
  }
  h = rsvg_handle_new_from_data((const guint8 *)src, len, &err);
  free(text);
  free(sampled);
  if (!h) {
    if (err) g_error_free(err);
    return NULL;
  }
  i = t->next_slot++ % HANDLE_SLOTS;
  if (t->handles[i].handle) g_object_unref(t->handles[i].handle);
  t->handles[i].handle = h;
  t->handles[i].key = key;
  return h;
}

/* Draws in font units, y up: the SVG's em square has y down with the baseline at 0.
   `layer` -1 draws the whole glyph in one call, else its drawable child number `layer`. */
int ct_svg_render(cairo_t *cr, ct_font_t *font, const ct_svg_glyph_t *g, int layer,
                  const ct_resolved_palette_t *pal, double time) {
  RsvgHandle *h;
  RsvgRectangle viewport;
  GError *err = NULL;
  cairo_matrix_t m;
  const char *sub;   /* the element drawn */
  int doc_up;
  gboolean ok;
  if (g->empty) return 1;   /* a zero or absurd viewBox: nothing, as in Firefox */
  if (!font->svg || !(h = handle_for(font->svg, g, pal, time))) return 0;
  /* the frame of svgview.c, drawn into the same rectangle: the document's units are the
     font's */
  viewport.x = -(double)g->upem;
  viewport.y = -2.0 * g->upem;
  viewport.width = 3.0 * g->upem;
  viewport.height = 4.0 * g->upem;
  /* librsvg 2.54 fails a group with opacity, a mask or a filter ("InvalidSize": it
     vanished) when the matrix flips y.  The font's y is up and SVG's down: on a target
     whose y is down (pages, raster sprites) the matrix is flipped here; on one whose y is
     up (the font-unit recordings of PDF and SVG output) the document is (CT_SVG_FRAME_UP).
     Layers, drawn one by one, always flip the matrix. */
  cairo_get_matrix(cr, &m);
  doc_up = layer < 0 && m.yy > 0;
  if (layer >= 0) {
    if (!(sub = (unsigned)layer < g->nlayers ? g->layer_ids[layer] : NULL)) return 0;
  } else {
    sub = doc_up ? CT_SVG_FRAME_UP : CT_SVG_FRAME_DOWN;
  }
  cairo_save(cr);
  if (!doc_up) cairo_scale(cr, 1, -1);
  ok = rsvg_handle_render_layer(h, cr, sub, &viewport, &err);
  cairo_restore(cr);
  if (err) g_error_free(err);
  return ok != 0;
}
