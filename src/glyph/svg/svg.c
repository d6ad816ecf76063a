/*
** svg.c: OT-SVG glyphs: the SVG table, its documents (each parsed and sanitized once, by
** svg-sanitize.c), a glyph cut out of its document with what it references, as a paint node.
** Must not judge what is safe (svg-sanitize.c) nor draw (svg-draw.c).  Glyph stage (OT-SVG).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/hash.h>
#include <libxml/tree.h>
#include <librsvg/rsvg.h>

#include "svg-internal.h"

/* The rest of an SVG glyph, when its last reference goes (the references are the paint
   stage's: ct_svg_glyph_reference and _destroy, paint.c). */
static void glyph_free(ct_svg_glyph_t *g) {
  unsigned i;
  for (i = 0; i < g->head.nlayers; i++) free(g->layer_ids[i]);
  free(g->layer_ids);
  free(g->source);
  free(g);
}

/* ---- the SVG table ----------------------------------------------------- */

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

static void table_destroy(void *cache) {
  ct_svg_table_t *t = cache;
  unsigned i;
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

/* The table lives in the font's CT_FONT_CACHE_SVG slot: documents do not change with the
   location, so nothing is cleared when it does. */
static const ct_font_cache_ops_t table_ops = { NULL, table_destroy };

/* The font's SVG table, loaded on first use; NULL when it has none (or it is refused). */
static ct_svg_table_t *table_of(ct_font_t *font) {
  ct_svg_table_t *t = ct_font_get_cache(font, CT_FONT_CACHE_SVG);
  if (!t && (t = table_load(font))) ct_font_set_cache(font, CT_FONT_CACHE_SVG, t, &table_ops);
  return t;
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

/* ---- documents ---------------------------------------------------------- */

/* id -> element for the whole document (the first of duplicates wins). */
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
  if (!(x = ct_svg_parse_safe(t->d + e->offset, e->length, "glyph.svg", &s, why, sizeof why))) {
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
  if (doc->ids) ct_svg_index_ids(xmlDocGetRootElement(x), doc->ids);
  return doc;
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
        g->layer_ids[g->head.nlayers] = malloc(strlen((const char *)v) + 2);
        if (g->layer_ids[g->head.nlayers]) sprintf(g->layer_ids[g->head.nlayers], "#%s", (const char *)v);
        xmlFree(v);
      }
      g->head.nlayers++;
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
  double crossings = 0;
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
  /* and as librsvg draws them: each reference copies what it references */
  if (ct_svg_drawn_elements(whole ? root : glyph, doc->ids, CT_MAX_SVG_GLYPH_ELEMENTS, &crossings) >
      CT_MAX_SVG_GLYPH_ELEMENTS) {
    snprintf(why, whylen, "more than %u elements drawn in the glyph, counting the copies <use> and url(#) "
             "references make (the limit CT_MAX_SVG_GLYPH_ELEMENTS)", CT_MAX_SVG_GLYPH_ELEMENTS);
    goto done;
  }
  if (crossings > CT_MAX_SVG_CROSSINGS) {   /* cairo's tessellator would take seconds a draw */
    snprintf(why, whylen, "paths whose segments cross more than %.0f times in the glyph, counting each copy "
             "drawn (the limit CT_MAX_SVG_CROSSINGS)", CT_MAX_SVG_CROSSINGS);
    goto done;
  }
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
  g->head.ref = 1;
  g->head.gid = gid;
  g->head.free = glyph_free;
  g->upem = font->upem;
  g->empty = view == CT_SVG_VIEW_EMPTY;
  g->has_vars = has_palette_refs(g->source) != 0;
  g->duration = ct_smil_duration(xmlDocGetRootElement(out), &g->nanims);
  g->head.animated = g->nanims > 0;
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

/* The font's SVG table, its entry for `gid` and that entry's document (parsed), or NULL. */
static svg_doc_t *doc_for(ct_font_t *font, unsigned gid) {
  const svg_entry_t *e;
  ct_svg_table_t *t;
  if (!(font->color_formats & CT_COLOR_SVG)) return NULL;
  if (!(t = table_of(font))) return NULL;
  if (!(e = find_entry(t, gid))) return NULL;
  return load_doc(font, t, e);
}

unsigned ct_font_get_svg_animation(ct_font_t *font, int gid, double *duration) {
  unsigned count = 0, i;
  double d = 0;
  ct_svg_table_t *t;
  if (duration) *duration = 0;
  if (!font || !(font->color_formats & CT_COLOR_SVG)) return 0;
  if (!(t = table_of(font))) return 0;
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
    for (i = 0; i < t->count; i++) load_doc(font, t, &t->entries[i]);
    for (i = 0; i < t->ndocs; i++) {   /* each document once, however many entries */
      unsigned n = 0;
      double dd;
      if (!t->docs[i].doc) continue;
      dd = ct_smil_duration(xmlDocGetRootElement(t->docs[i].doc), &n);
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
